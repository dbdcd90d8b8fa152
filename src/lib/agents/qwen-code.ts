/**
 * Qwen Code (`@qwen-code/qwen-code`): OpenAI Chat Completions against
 * OPENAI_BASE_URL. Modes: print (`qwen -p <prompt>`) and interactive
 * (`qwen -i <prompt>` in a pseudo-terminal). Settings: ~/.qwen/settings.json.
 */
import type { WireFormatId } from '../wire/index.ts';
import type { Announcement, CodeModeLayout, DeclaredTool } from '../wire/types.ts';
import { CodeModeError, parseSource, toolsMembers } from '../wire/code-mode.ts';
import { join } from 'node:path';
import { mergeSettings, settingsText } from './settings.ts';
import { inPseudoTerminal, matcherHooks, promptedRequestWithTools } from './shared.ts';
import {
  CLAUDE_STYLE_HOOKS,
  STUB_MCP_SERVER,
  type Agent,
  type HookMechanism,
  type Invocation,
  type InvocationContext,
} from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['openai-chat-completions', 'openai-responses'] as const satisfies readonly WireFormatId[];

const SETTINGS_FILE = '.qwen/settings.json';
/** The model the stub is asked for unless a configuration names another (OPENAI_MODEL). */
export const DEFAULT_MODEL = 'qwen3-coder-plus';

/**
 * The authentication a user of the terminal interface has chosen once (OpenAI-compatible, key
 * and URL from the environment). Releases up to 0.5 open the "Get started" authentication dialog
 * whenever `security.auth.selectedType` is unset and wait there; later ones take the environment
 * without asking.
 */
const INTERACTIVE_AUTH = { security: { auth: { selectedType: 'openai' } } };

function invoke(c: InvocationContext): Invocation {
  const own = c.mode === 'interactive' ? INTERACTIVE_AUTH : {};
  const files = new Map<string, string>([[join(c.home, SETTINGS_FILE), settingsText(mergeSettings(own, c.settings))]]);
  const env: Record<string, string> = {
    ...c.baseEnv,
    OPENAI_API_KEY: c.apiKey,
    OPENAI_BASE_URL: `${c.stubUrl}/v1`,
    OPENAI_MODEL: DEFAULT_MODEL,
    ...c.env,
  };
  // The CLI is a Node.js script (cli-entry.js); it needs Node.js 22 or later.
  switch (c.mode) {
    case 'print':
      return { command: c.node, args: [c.binary, '-p', c.prompt, ...c.args], env, input: { kind: 'argument' }, files };
    case 'interactive':
      return { ...inPseudoTerminal([c.node, c.binary, '-i', c.prompt, ...c.args], env), files };
    default:
      throw new Error(`qwen-code has no mode ${c.mode}`);
  }
}

/**
 * The events that fire around one tool call, in the order they fire: a call fires PostToolUse or PostToolUseFailure.
 */
const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];

/**
 * Hooks under `hooks` in ~/.qwen/settings.json (merged over the configuration's
 * settings), in the form Claude Code's settings.json has: matcher `*`, one command hook
 * (timeout in seconds). Recorded: PreToolUse, PostToolUse and PostToolUseFailure, which
 * carry the call. Their `tool_use_id` is an id the CLI makes (`toolu_<ms>_<random>`);
 * `tool_call_id` is the model's call id, so payloads are matched to calls by it.
 * Not recorded: PostToolBatch (once per batch of calls, repeating their inputs and
 * results), PermissionRequest and PermissionDenied (none fires in yolo mode), and the
 * session, prompt, stop, subagent, compaction, notification, todo and instruction
 * events, which concern no single call. Tools run without asking in the yolo
 * configurations; the run adds no approval flag of its own.
 */
const hooks: HookMechanism = {
  outputs: {
    form: 'none',
    why:
      'No published declaration says what a Qwen Code hook may return: the CLI package ships bundled JavaScript ' +
      'without declaration files, @qwen-code/qwen-code-core stopped at 0.0.14, and @qwen-code/sdk declares hook ' +
      'registrations and callback requests but no hook output. The bundle reads the output through classes ' +
      '(DefaultHookOutput, PreToolUseHookOutput …); the recorded cases show what their members do.',
  },
  named: {
    source: { under: 'chunks', form: 'compiled-enum', name: 'HookEventName' },
    notRecorded: {
      PostToolBatch:
        'Fires once for a batch of calls, repeating their inputs and results; the recording configures only the ' +
        'events of one call.',
      PermissionRequest: 'Fires when a tool call asks for approval; the recordings run in yolo mode, where none asks.',
      PermissionDenied:
        'Fires when a tool call is refused approval; the recordings run in yolo mode, where none is refused.',
    },
    noToolCall: [
      'Notification',
      'UserPromptSubmit',
      'UserPromptExpansion',
      'SessionStart',
      'Stop',
      'MessageDisplay',
      'SubagentStart',
      'SubagentStop',
      'PreCompact',
      'PostCompact',
      'SessionEnd',
      'SessionDelete',
      'StopFailure',
      'TodoCreated',
      'TodoCompleted',
      'InstructionsLoaded',
    ],
  },
  events: HOOK_EVENTS,
  shape: { ...CLAUDE_STYLE_HOOKS, afterFailure: 'PostToolUseFailure' },
  runAdditions: (c) => ({
    args: [],
    env: { TMPDIR: c.tmp },
    files: new Map(),
    settings: matcherHooks(HOOK_EVENTS, c.hookCommand),
  }),
  /**
   * Success when PostToolUse fired for the call; failure when PostToolUseFailure did, or
   * none did (an input the tool's schema rejects fires no hook at all: the model only
   * gets the validation message).
   */
  outcome: (_result, _text, calls) =>
    calls.some((h) => h['hook_event_name'] === 'PostToolUse') ? 'success' : 'failure',
  callReport: () => ({}),
  hooksOfCalls: (payloads, calls) => calls.map((c) => payloads.filter((h) => h['tool_call_id'] === c.id)),
};

// ---------------------------------------------------------------------------
// On the wire: its deferred-tool reminder and its code-mode layout

/**
 * The reminder in which it names the tools it defers to its `tool_search`/`tool_call`
 * pair, one `- "name": "description"` line each, in a `<system-reminder>` text of the user
 * message ("The following tools are reachable through `tool_search` and `tool_call`…";
 * MCP tools that became available later: "The following MCP tools …"), anywhere in a text
 * that otherwise describes the machine, the date and the session.
 */
const DEFERRED_REMINDER =
  /<system-reminder>\nThe following (?:MCP )?tools [^\n]*?reachable through `tool_search`[\s\S]*?<\/system-reminder>/;
/** A tool line of that reminder: the name as a JSON string, then `: "description"` or nothing. */
const DEFERRED_LINE = /^- ("(?:[^"\\]|\\.)*")(?::|$)/;

const deferredReminder: Announcement = {
  passages: (text) => {
    const reminder = DEFERRED_REMINDER.exec(text)?.[0];
    return reminder === undefined ? [] : [reminder];
  },
  names: (text) =>
    (DEFERRED_REMINDER.exec(text)?.[0] ?? '').split('\n').flatMap((line) => {
      const quoted = DEFERRED_LINE.exec(line)?.[1];
      const name = quoted === undefined ? '' : (JSON.parse(quoted) as string);
      return name === '' ? [] : [name];
    }),
  reason: () =>
    'Deferred in this configuration: the model is told only the name and a one-line description, loads the schema ' +
    'through tool_search, and calls the tool through tool_call.',
};

/** A line declaring one nested tool: `tools.name(args: …): Promise<…>;`. */
const TOOL_LINE = /^tools\.([A-Za-z_$][\w$]*)\(/;
/** `const ALL_TOOLS = [{"name", "jsName", "description", …}] as const;`: each tool's name and description. */
const ALL_TOOLS = /^const ALL_TOOLS = (\[.*\]) as const;?$/m;

/** Name and description per identifier, from ALL_TOOLS. */
function toolMetadata(description: string): Map<string, { name?: string; description?: string }> {
  const out = new Map<string, { name?: string; description?: string }>();
  const m = ALL_TOOLS.exec(description);
  if (!m) return out;
  let list: unknown;
  try {
    list = JSON.parse(m[1]!);
  } catch (error) {
    throw new CodeModeError(`ALL_TOOLS of the exec description is not a JSON array: ${(error as Error).message}`);
  }
  if (!Array.isArray(list)) throw new CodeModeError('ALL_TOOLS of the exec description is not an array');
  for (const entry of list) {
    if (entry === null || typeof entry !== 'object') continue;
    const { name, jsName, description: text } = entry as Record<string, unknown>;
    const identifier = typeof jsName === 'string' ? jsName : typeof name === 'string' ? name : undefined;
    if (identifier === undefined) continue;
    out.set(identifier, {
      ...(typeof name === 'string' ? { name } : {}),
      ...(typeof text === 'string' && text.trim() !== '' ? { description: text } : {}),
    });
  }
  return out;
}

/**
 * Its code mode: plain lines, the run of declaration lines (`type X = …;`) right before the
 * first `tools.name(` line, the `tools.name(` lines (read as the method signatures of a
 * `declare const tools: { … }`), and ALL_TOOLS. Every nested tool returns the same
 * `CodeModeToolResult` envelope, so none has a result type of its own.
 */
const codeMode: CodeModeLayout = {
  declares: (description) => description.split('\n').some((line) => TOOL_LINE.test(line)),
  identifiers: (description) =>
    description.split('\n').flatMap((line) => {
      const m = TOOL_LINE.exec(line);
      return m ? [m[1]!] : [];
    }),
  declarations: (description) => {
    const lines = description.split('\n');
    const first = lines.findIndex((line) => TOOL_LINE.test(line));
    let last = first;
    while (last + 1 < lines.length && TOOL_LINE.test(lines[last + 1]!)) last++;
    const stray = lines.slice(last + 1).find((line) => TOOL_LINE.test(line));
    if (stray !== undefined) throw new CodeModeError(`a tool declaration apart from the others: ${stray.slice(0, 60)}`);
    let start = first;
    while (start > 0 && lines[start - 1]!.trim() !== '') start--;
    const shared = lines.slice(start, first);
    const code = `${shared.join('\n')}\ndeclare const tools: {\n${lines
      .slice(first, last + 1)
      .map((l) => '  ' + l.slice('tools.'.length))
      .join('\n')}\n};\n`;
    const file = parseSource(code, 'exec.ts', 'the declarations of the exec description');
    const metadata = toolMetadata(description);
    const tools = (toolsMembers(file, 'the exec description') ?? []).map(
      (m): DeclaredTool => ({ ...m, ...metadata.get(m.identifier) }),
    );
    return { shared: shared.length > 0 ? [shared.join('\n')] : [], tools };
  },
  envelope: {
    type: 'CodeModeToolResult',
    reason:
      'Code mode declares no result type for this tool: every nested tool resolves to the same CodeModeToolResult ' +
      "envelope (callId, name, status, output, optional content), with the tool's result as text in `output`.",
  },
  nameOf: (tool) => ({ name: tool.name ?? tool.identifier }),
};

export const qwenCode: Agent<'qwen-code'> = {
  id: 'qwen-code',
  product: 'Qwen Code',
  npmPackage: '@qwen-code/qwen-code',
  wires: WIRES,
  binary: 'node_modules/@qwen-code/qwen-code/cli-entry.js',
  modes: ['print', 'interactive'],
  options: ['settings'],
  settingsFile: SETTINGS_FILE,
  wireQuirks: { deferredTools: deferredReminder, codeMode },
  mcpNaming: {
    configuration: 'mcp-server',
    family: 'mcp__<server>__<tool>',
    isStubServerTool: (fullName) => fullName.startsWith(`mcp__${STUB_MCP_SERVER}__`),
  },
  // The built-in types its agent tool's description lists (claude-code and codex there delegate to other CLIs).
  subagents: {
    tool: 'agent',
    field: 'subagent_type',
    types: ['general-purpose', 'Explore', 'statusline-setup', 'review-agent'],
    input: { description: 'Look around', prompt: 'List the files here.' },
    configuration: 'yolo',
  },
  captureHistory: {
    configurations: ['yolo', 'interactive-no-tool-search', 'no-tool-search', 'code-mode-only'],
    step: 4,
    range: { last: 20 },
  },
  inventory: {
    none:
      'nobody has located its tool registry inside the installed package; its captures are the only ' +
      'list of its tools.',
  },
  publishedTypes: {
    none: 'no package of TypeScript types of its tools is read yet; their inputs are read from the captures.',
  },
  generatedDeclarations: false,
  hooks,
  invoke,
  // A memory-extraction subagent sends a second request with its own text and six tools.
  mainRequest: (candidates, prompt) => promptedRequestWithTools(WIRES, candidates, prompt),
};
