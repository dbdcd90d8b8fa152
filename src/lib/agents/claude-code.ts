/**
 * Claude Code (`@anthropic-ai/claude-code`): Anthropic Messages against
 * ANTHROPIC_BASE_URL. Modes: print (`claude -p`), sdk (stream-json on standard
 * input, as the Agent SDK drives it) and interactive (a pseudo-terminal).
 */
import { join } from 'node:path';
import { anthropicMessages } from '../wire/anthropic-messages.ts';
import { isObject } from '../wire/shared.ts';
import type { Announcement, WireRequest } from '../wire/types.ts';
import { settingsText } from './settings.ts';
import { inPseudoTerminal, matcherHooks } from './shared.ts';
import {
  CLAUDE_STYLE_HOOKS,
  STUB_MCP_SERVER,
  type Agent,
  type CallReport,
  type HookMechanism,
  type Invocation,
  type InvocationContext,
} from './types.ts';

export { shellQuote } from './shared.ts';

/** ~/.claude.json that skips the first-run dialogs: onboarding, API key approval, folder trust. */
export function claudeSeed(workdir: string, apiKey: string): unknown {
  return {
    hasCompletedOnboarding: true,
    theme: 'dark',
    numStartups: 1,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: { [workdir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
}

/** The lines the Agent SDK writes first: an initialize control request, then the prompt. */
export function sdkInputLines(prompt: string): string[] {
  return [
    JSON.stringify({ type: 'control_request', request_id: 'capture-init-1', request: { subtype: 'initialize' } }),
    JSON.stringify({
      type: 'user',
      session_id: '',
      message: { role: 'user', content: [{ type: 'text', text: prompt }] },
      parent_tool_use_id: null,
    }),
  ];
}

function invoke(c: InvocationContext): Invocation {
  const files = new Map<string, string>();
  const env: Record<string, string> = {
    ...c.baseEnv,
    ANTHROPIC_BASE_URL: c.stubUrl,
    ANTHROPIC_API_KEY: c.apiKey,
    ...c.env,
  };
  switch (c.mode) {
    case 'print':
      return {
        command: c.binary,
        args: ['-p', '--output-format', 'json', ...c.args],
        env,
        input: { kind: 'stdin', text: c.prompt + '\n' },
        files,
      };
    case 'sdk':
      return {
        command: c.binary,
        args: [
          '--output-format',
          'stream-json',
          '--verbose',
          '--input-format',
          'stream-json',
          '--permission-prompt-tool',
          'stdio',
          ...c.args,
        ],
        env,
        // The SDK closes the input once the result message arrives.
        input: {
          kind: 'stream',
          lines: sdkInputLines(c.prompt),
          closeWhen: (m) => (m as { type?: unknown } | null)?.type === 'result',
        },
        files,
      };
    case 'interactive': {
      files.set(join(c.home, '.claude.json'), JSON.stringify(claudeSeed(c.workdir, c.apiKey), null, 2) + '\n');
      return { ...inPseudoTerminal([c.binary, c.prompt, ...c.args], env), files };
    }
    default:
      throw new Error(`claude-code has no mode ${c.mode}`);
  }
}

/**
 * Among the streaming requests, those whose last user text is the prompt itself
 * (side requests such as title generation wrap it in other text), then the first
 * of them that declares a non-empty `tools`; failing that, the first streaming
 * one with non-empty `tools`, then the first streaming one, then the first.
 */
function mainRequest<R extends WireRequest>(candidates: readonly R[], prompt?: string): R {
  const wire = anthropicMessages;
  const streaming = candidates.filter((r) => wire.isStreaming(r));
  const withTools = (r: R): boolean => wire.hasTools(r.json);
  const prompted =
    prompt === undefined ? [] : streaming.filter((r) => wire.lastUserText(r.json)?.trim() === prompt.trim());
  return prompted.find(withTools) ?? prompted[0] ?? streaming.find(withTools) ?? streaming[0] ?? candidates[0]!;
}

/**
 * Stream-json output: the user message carrying the result of `id`: its tool_use_result and this call's
 * tool_result_meta.
 */
export function streamJsonResult(lines: readonly unknown[], id: string): CallReport | undefined {
  for (const line of lines) {
    if (!isObject(line) || line['type'] !== 'user' || !isObject(line['message'])) continue;
    const content = line['message']['content'];
    if (
      !Array.isArray(content) ||
      !content.some((b) => isObject(b) && b['type'] === 'tool_result' && b['tool_use_id'] === id)
    )
      continue;
    const out: CallReport = {};
    if ('tool_use_result' in line) out.toolUseResult = line['tool_use_result'];
    const meta = Array.isArray(line['tool_result_meta'])
      ? line['tool_result_meta'].find((m) => isObject(m) && m['id'] === id)
      : undefined;
    if (isObject(meta)) out.toolResultMeta = meta;
    return out;
  }
  return undefined;
}

const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];

/**
 * Hooks in $HOME/.claude/settings.json. `--output-format stream-json --verbose` gives
 * the structured results; `--allowedTools` with the scenario's tools lets them run
 * (as root, bypass modes refuse to start without IS_SANDBOX=1; allowing the tools is
 * enough). Temporary files stay in the run folder; no nonessential traffic.
 */
const hooks: HookMechanism = {
  // The Agent SDK's declarations, at its ingest pin (the release paired with the pinned CLI).
  outputs: {
    form: 'typescript',
    package: '@anthropic-ai/claude-agent-sdk',
    version: 'ingest-pin',
    files: ['sdk.d.ts'],
    pattern: '{event}HookSpecificOutput',
    naming: 'as-is',
    base: { type: 'SyncHookJSONOutput', member: 'hookSpecificOutput' },
  },
  events: HOOK_EVENTS,
  shape: { ...CLAUDE_STYLE_HOOKS, afterFailure: 'PostToolUseFailure' },
  bypass: [['--allowedTools', '']],
  runAdditions: (c) => ({
    args: ['--output-format', 'stream-json', '--verbose', '--allowedTools', c.allowedTools.join(',')],
    env: { TMPDIR: c.tmp, CLAUDE_CODE_TMPDIR: c.tmp, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    files: new Map([
      [join(c.home, '.claude', 'settings.json'), settingsText(matcherHooks(HOOK_EVENTS, c.hookCommand))],
    ]),
  }),
  /** `is_error` on the tool_result. */
  outcome: (result) => (result['is_error'] === true ? 'failure' : 'success'),
  callReport: (output, id) => streamJsonResult(output.stdout, id) ?? {},
};

/** The paragraph in which it names the tools it defers to ToolSearch: the intro line, then one tool name a line. */
const DEFERRED_PARAGRAPH = /The following deferred tools are now available via ToolSearch[\s\S]*?(?=\n\n|$)/;
/** The same paragraph, read back: the intro line, then the lines of names. */
const DEFERRED_INTRO = /The following deferred tools are now available via ToolSearch[^\n]*:\n((?:[^\n]+\n?)+)/;
/**
 * The earlier form: a meta user message `<available-deferred-tools>`, one tool a line, each
 * a name or `name — search hint` (2.1.69's formatDeferredToolLine).
 */
const DEFERRED_BLOCK = /<available-deferred-tools>\n([\s\S]*?)\n?<\/available-deferred-tools>/;

const deferredTools: Announcement = {
  passages: (text) => [DEFERRED_PARAGRAPH, DEFERRED_BLOCK].flatMap((pattern) => pattern.exec(text)?.[0] ?? []),
  names: (text) =>
    [DEFERRED_INTRO, DEFERRED_BLOCK].flatMap((pattern) =>
      (pattern.exec(text)?.[1]?.split('\n') ?? [])
        // A line of either form: the tool's name, before any ` — ` hint.
        .map((line) => line.split(' — ')[0]!.trim())
        .filter((name) => /^[A-Za-z_][\w.-]*$/.test(name)),
    ),
  reason: () =>
    'Deferred in this configuration: the model is told only the name, and loads the schema through ToolSearch when ' +
    'it needs the tool.',
};

export const claudeCode: Agent<'claude-code'> = {
  id: 'claude-code',
  product: 'Claude Code',
  npmPackage: '@anthropic-ai/claude-code',
  // The native program's own package: it went on publishing releases after the wrapper stopped (2.1.333 on).
  standalonePackages: ['@anthropic-ai/claude-code-linux-x64'],
  wires: ['anthropic-messages'],
  wireQuirks: { deferredTools },
  binary: 'node_modules/@anthropic-ai/claude-code-linux-x64/claude',
  modes: ['print', 'sdk', 'interactive'],
  options: [],
  mcpNaming: {
    configuration: 'mcp-no-tool-search',
    family: 'mcp__<server>__<tool>',
    isStubServerTool: (fullName) => fullName.startsWith(`mcp__${STUB_MCP_SERVER}__`),
  },
  // The types its main request lists ("Available agent types for the Agent tool"), each started once.
  subagents: {
    tool: 'Agent',
    field: 'subagent_type',
    types: ['general-purpose', 'Explore', 'Plan', 'claude', 'statusline-setup'],
    input: { description: 'Look around', prompt: 'List the files here.' },
    configuration: 'print-no-tool-search',
    declaredPattern: '\\n- {type}: [^\\n]*\\(Tools: ([^)]*)\\)',
  },
  captureHistory: {
    configurations: ['print', 'print-no-tool-search', 'interactive'],
    step: 16,
    range: { from: '2.0.0' },
    proposed: [
      'sonnet-4-5',
      'sonnet-4-5-tasks-off',
      'mcp-refresh-tools',
      'remote',
      'allowed-tools-glob',
      'brief',
      'powershell',
      'skill-proposals',
      'slow-mcp-server',
      'lsp-plugin',
    ],
  },
  inventory: {
    method: 'bundled-alias-tables',
    notes: [
      'Read from the JavaScript bundled in the binary: the array literal bound right before the alias table is the ' +
        'built-in tool-name list; the table marked by KillShell:"TaskStop" maps accepted aliases to tools; a table ' +
        "spreading it adds more (its entries apply only when the bundle's own condition holds).",
      'Check: grep -a -b -o \'KillShell:"TaskStop"\' <binary>, or dd if=<binary> bs=1 skip=<offset> count=<length>.',
    ],
    gates: {
      REPL: {
        gate: 'CLAUDE_CODE_REPL=1 (environment variable)',
        source: 'the Claude Agent SDK TypeScript reference (REPL section)',
      },
    },
  },
  publishedTypes: { ingest: 'scripts/ingest-claude-sdk.ts', history: 'scripts/history-claude-sdk.ts' },
  generatedDeclarations: false,
  hooks,
  invoke,
  mainRequest,
};
