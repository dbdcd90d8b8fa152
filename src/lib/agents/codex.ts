/**
 * Codex CLI (`@openai/codex`): OpenAI Responses against a model provider that
 * $CODEX_HOME/config.toml points at the stub. Mode: exec (`codex exec`, the
 * prompt on standard input).
 */
import { join } from 'node:path';
import { openaiResponses } from '../wire/openai-responses.ts';
import { isObject } from '../wire/shared.ts';
import type { Announcement, CodeModeLayout, DeclaredTool, WireRequest } from '../wire/types.ts';
import { parseSource, sectionDescription, toolsMembers, tsFences } from '../wire/code-mode.ts';
import { settingsText } from './settings.ts';
import { matcherHooks } from './shared.ts';
import {
  CLAUDE_STYLE_HOOKS,
  STUB_MCP_SERVER,
  type Agent,
  type HookMechanism,
  type Invocation,
  type InvocationContext,
} from './types.ts';
import type { JsonRecord } from '../core/json.ts';

/** The parsed `x-codex-turn-metadata` header, when there is one and it is a JSON object. */
export function turnMetadata(request: WireRequest): JsonRecord | undefined {
  const raw = request.headers['x-codex-turn-metadata'];
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as JsonRecord) : undefined;
  } catch {
    return undefined;
  }
}

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'exec') throw new Error(`codex has no mode ${c.mode}`);
  const codexHome = join(c.home, '.codex');
  const extraToml = c.configToml ? [c.configToml.replace(/\n+$/, '')] : [];
  const files = new Map<string, string>();
  files.set(
    join(codexHome, 'config.toml'),
    [
      'model_provider = "capture_stub"',
      'check_for_update_on_startup = false',
      ...extraToml,
      '[model_providers.capture_stub]',
      'name = "capture stub"',
      `base_url = "${c.stubUrl}/v1"`,
      'env_key = "CAPTURE_STUB_API_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
  const env: Record<string, string> = { ...c.baseEnv, CODEX_HOME: codexHome, CAPTURE_STUB_API_KEY: c.apiKey, ...c.env };
  return {
    command: c.binary,
    args: ['exec', '--skip-git-repo-check', '--json', ...c.args],
    env,
    input: { kind: 'stdin', text: c.prompt + '\n' },
    files,
  };
}

/**
 * The only request; when there are several (features such as memories run their own
 * turns, concurrently), the first whose `x-codex-turn-metadata` header says
 * `request_kind: "turn"` and `thread_source: "user"`, then the first whose last user
 * text is the prompt, then the first tagged as a turn, then the first that carries
 * the header at all, then the first.
 */
function mainRequest<R extends WireRequest>(candidates: readonly R[], prompt?: string): R {
  if (candidates.length === 1) return candidates[0]!;
  const isTurn = (r: R): boolean => turnMetadata(r)?.['request_kind'] === 'turn';
  return (
    candidates.find((r) => isTurn(r) && turnMetadata(r)?.['thread_source'] === 'user') ??
    (prompt === undefined
      ? undefined
      : candidates.find((r) => openaiResponses.lastUserText(r.json)?.trim() === prompt.trim())) ??
    candidates.find(isTurn) ??
    candidates.find((r) => turnMetadata(r) !== undefined) ??
    candidates[0]!
  );
}

/** Session log: payloads of `event_msg` entries whose text names call `id`. */
export function sessionLogEvents(entries: readonly unknown[], id: string): JsonRecord[] {
  const quoted = JSON.stringify(id);
  return entries.flatMap((e) =>
    isObject(e) && e['type'] === 'event_msg' && isObject(e['payload']) && JSON.stringify(e['payload']).includes(quoted)
      ? [e['payload']]
      : [],
  );
}

/**
 * `exec --json`: the item events of tool calls (not the warnings that hooks run untrusted, not messages or reasoning).
 */
export function execItemEvents(lines: readonly unknown[]): JsonRecord[] {
  return lines.flatMap((l): JsonRecord[] => {
    if (!isObject(l) || typeof l['type'] !== 'string' || !l['type'].startsWith('item.') || !isObject(l['item']))
      return [];
    const { type, message } = l['item'];
    if (type === 'agent_message' || type === 'reasoning') return [];
    if (type === 'error' && typeof message === 'string' && message.includes('--dangerously-bypass-hook-trust'))
      return [];
    return [l];
  });
}

/** Codex 0.171.0 has no PostToolUseFailure. */
const HOOK_EVENTS = ['PreToolUse', 'PostToolUse'];

/**
 * Hooks in $CODEX_HOME/hooks.json, trusted for this run; approvals and sandbox off
 * for the throwaway work folder; analytics and plugins off (no network attempts, no
 * delay at exit). Structured reports: the session log and the `exec --json` items.
 */
const hooks: HookMechanism = {
  // The command hooks' output schemas the program validates against, compiled into it.
  outputs: { form: 'embedded-json-schema', pattern: '{event}.command.output', naming: 'kebab-to-pascal' },
  events: HOOK_EVENTS,
  shape: CLAUDE_STYLE_HOOKS,
  logDir: '.codex/sessions',
  bypass: [['--dangerously-bypass-approvals-and-sandbox']],
  runAdditions: (c) => ({
    args: [
      '--dangerously-bypass-approvals-and-sandbox',
      '--dangerously-bypass-hook-trust',
      '-c',
      'analytics.enabled=false',
      '-c',
      'features.plugins=false',
    ],
    env: { TMPDIR: c.tmp },
    files: new Map([[join(c.home, '.codex', 'hooks.json'), settingsText(matcherHooks(HOOK_EVENTS, c.hookCommand))]]),
  }),
  /**
   * The exit code the output states (`Process exited with code N`, `Exit code: N`);
   * without one, a call whose PreToolUse hook fired but no PostToolUse did failed
   * (Codex fires none after a patch that does not apply or an image it cannot read).
   */
  outcome(_result, text, calls) {
    const code = /Process exited with code (-?\d+)/.exec(text) ?? /^Exit code: (-?\d+)/m.exec(text);
    if (code) return code[1] === '0' ? 'success' : 'failure';
    const fired = (event: string): boolean => calls.some((h) => h['hook_event_name'] === event);
    return fired('PreToolUse') && !fired('PostToolUse') ? 'failure' : 'success';
  },
  callReport: (output, id) => ({ sessionLog: sessionLogEvents(output.logs, id) }),
  runEvents: (output) => execItemEvents(output.stdout),
};

/**
 * Why the history does not follow history-notes and chatgpt-login, the only configurations
 * that advertise the history, notes and image_gen namespaces.
 */
const CHATGPT_LOGIN_ONLY =
  'only a ChatGPT login brings it (configurations history-notes and chatgpt-login, with a stand-in login file). ' +
  "Earlier releases first renew that login at OpenAI's login service, which the loopback-only run cannot reach: " +
  '0.20.0 retried five times, then waited until it was killed at 60 s, in both attempts, so following them would ' +
  "cost two minutes per release read and record a failure that is our stand-in's, not the release's.";

// ---------------------------------------------------------------------------
// On the wire: its deferred-namespace announcement and its code-mode layout

/**
 * The part of a developer message that names namespaces deferred to tool_search: one `- name` or `- name: description`
 * a line.
 */
const DEFERRED_NAMESPACES = /^<tools>\nDeferred tool namespaces:\n([\s\S]*?)(?:\n<\/tools>|$)/;

const deferredNamespaces: Announcement = {
  passages: (text) => (/^<tools>\nDeferred tool namespaces:\n/.test(text) ? [text] : []),
  names: (text) =>
    (DEFERRED_NAMESPACES.exec(text)?.[1] ?? '').split('\n').flatMap((line) => {
      const name = /^- ([A-Za-z0-9_.-]+)(?::|$)/.exec(line.trim())?.[1];
      return name ? [name] : [];
    }),
  reason: (namespace) =>
    `Deferred in this configuration: the model is told only the namespace ${namespace}, and loads its tools ` +
    `through tool_search.`,
};

/**
 * Its code mode: fenced ```ts blocks in the `exec` description, with shared type
 * declarations and `declare const tools: { name(args: {...}): Promise<Result>; }`, each
 * tool under a `### \`name\`` heading that describes it. An identifier `server__tool`
 * names an MCP tool of that server; the others keep the exec tool's namespace.
 */
const codeMode: CodeModeLayout = {
  declares: (description) => description.includes('declare const tools'),
  identifiers: (description) =>
    [...description.matchAll(/declare const tools: \{ ([A-Za-z_$][\w$]*)\(/g)].map((m) => m[1]!),
  declarations: (description) => {
    const shared: string[] = [];
    const tools: DeclaredTool[] = [];
    tsFences(description).forEach((fence, i) => {
      const file = parseSource(fence.code, `exec-${i}.ts`, `code block ${i + 1} of the exec description`);
      const members = toolsMembers(file, `code block ${i + 1}`);
      if (!members) {
        shared.push(fence.code);
        return;
      }
      for (const m of members) {
        const text = sectionDescription(fence.before, m.identifier);
        tools.push({ ...m, ...(text ? { description: text } : {}) });
      }
    });
    return { shared, tools };
  },
  nameOf: (tool, execNamespace) => {
    const [server, name] = tool.identifier.includes('__')
      ? tool.identifier.split(/__(.*)/s)
      : [undefined, tool.identifier];
    return { name: name!, namespace: server ?? execNamespace };
  },
};

export const codex: Agent<'codex'> = {
  id: 'codex',
  product: 'Codex CLI',
  npmPackage: '@openai/codex',
  wires: ['openai-responses'],
  wireQuirks: { deferredNamespaces, codeMode },
  binary: 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex',
  modes: ['exec'],
  options: ['configToml'],
  // spawn_agent names no type: the one kind of agent it starts inherits the model (recorded as `spawned`).
  subagents: {
    tool: 'multi_agent_v1.spawn_agent',
    types: ['spawned'],
    input: { message: 'List the files here.' },
    configuration: 'unknown-model',
  },
  mcpNaming: {
    configuration: 'mcp-unknown-model',
    family: 'mcp__<server>.<tool>',
    namespace: 'mcp__<server>',
    isStubServerTool: (fullName) => fullName.startsWith(`mcp__${STUB_MCP_SERVER}.`),
  },
  captureHistory: {
    // Every configuration that alone advertises a tool with a page (npm run history:coverage),
    // except the two that need a ChatGPT login (`untracked` below).
    configurations: [
      'gpt-5-5',
      'default-model',
      'multi-agent-v2',
      'unknown-model',
      'request-permissions-tool',
      'token-budget',
      'deferred-executor',
      'skills-discovery',
      'multi-env-copy-file',
      'message-board',
      'message-board-mcp',
    ],
    step: 8,
    range: { from: '0.20.0' },
    untracked: Object.fromEntries(
      [
        ...['history.list_items', 'history.list_windows', 'history.read_item', 'history.search_contents'],
        ...[
          'notes.append_to_file',
          'notes.list_files_by_prefix',
          'notes.read_file',
          'notes.search_contents',
          'notes.write_file',
        ],
        'image_gen.imagegen',
      ].map((tool) => [tool, CHATGPT_LOGIN_ONLY]),
    ),
  },
  inventory: {
    method: 'feature-list-and-handlers',
    featuresArgs: ['features', 'list'],
    homeVariable: 'CODEX_HOME',
    handlersPrefix: 'core/src/tools/handlers/',
    modelCatalogMarker: '"models": [',
    notes: [
      'The Codex binary is compiled Rust: its string literals are stored back to back without delimiters, so no ' +
        "list of tool names can be cut out of it the way Claude Code's can; the tool handler source files it names " +
        'are listed instead, as evidence of what it registers.',
      'features: the output of `codex features list` with a fresh, empty CODEX_HOME and no network.',
      'modelCatalog: the JSON model catalog compiled into the binary (the one object holding `"models": [` that ' +
        'parses), at the byte offset given; members holding instructions or other prose are left out. A model ' +
        'missing from it runs with fallback settings.',
    ],
  },
  publishedTypes: {
    none:
      'the @openai/codex package ships a compiled binary and no TypeScript types of its tools; their inputs ' +
      'are read from the captures.',
  },
  generatedDeclarations: true,
  hooks,
  invoke,
  mainRequest,
};
