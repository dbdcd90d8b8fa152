/**
 * GitHub Copilot CLI (`@github/copilot`) in its bring-your-own-key mode, which
 * needs no account: COPILOT_PROVIDER_BASE_URL points at the stub, offline (no
 * GitHub services). It speaks OpenAI Chat Completions by default, OpenAI
 * Responses with COPILOT_PROVIDER_WIRE_API=responses and Anthropic Messages
 * with COPILOT_PROVIDER_TYPE=anthropic (whose SDK adds `/v1` itself). Modes:
 * print (`copilot -p <prompt>`) and interactive (`copilot -i <prompt>` in a
 * pseudo-terminal). The first run unpacks the CLI under ~/.cache/copilot.
 *
 * Interactive mode needs two things print mode does not:
 * - a terminal with a size: `script` gives its pseudo-terminal 0×0 when its own
 *   standard input is not a terminal, and the CLI then draws nothing and never
 *   starts the turn, so the command sets 120×40 with `stty` before it execs the CLI;
 * - a trusted working directory: otherwise the CLI stops at its "Confirm folder
 *   trust" dialog before any request. The module writes ~/.copilot/config.json
 *   with `trustedFolders: [<workdir>]`, the key its bundled JavaScript reads
 *   trusted folders from (cli-main.js, unpacked under ~/.cache/copilot).
 *   COPILOT_ALLOW_ALL=true would also trust the folder, but it approves every
 *   tool as well, which is a different configuration.
 */
import { wireFormat, type WireFormatId } from '../wire/index.ts';
import { join } from 'node:path';
import { promptedRequestWithTools, shellQuote } from './shared.ts';
import { STUB_MCP_SERVER, type Agent, type HookMechanism, type Invocation, type InvocationContext } from './types.ts';
import { githubReply, STAND_IN_MODELS, STAND_IN_TOOL_PREFIX } from './copilot-github-stub.ts';
import { pathOf } from '../wire/shared.ts';
import type { WireRequest } from '../wire/types.ts';
import type { JsonRecord } from '../core/json.ts';

/** Its wire formats, the default first. */
const WIRES = [
  'openai-chat-completions',
  'openai-responses',
  'anthropic-messages',
] as const satisfies readonly WireFormatId[];

export const DEFAULT_MODEL = 'gpt-4.1';

/** The flag that starts a session in autopilot mode. */
export const AUTOPILOT_FLAG = '--autopilot';

/** Size of the interactive pseudo-terminal. */
export const TERMINAL = { columns: 120, rows: 40 } as const;

/** The config file (relative to HOME) the module writes in interactive mode. */
export const CONFIG_FILE = '.copilot/config.json';

/** ~/.copilot/config.json that trusts `workdir`, so that interactive mode asks nothing before the turn. */
export function trustedFolderConfig(workdir: string): string {
  return JSON.stringify({ trustedFolders: [workdir] }, null, 2) + '\n';
}

/**
 * `argv` in a pseudo-terminal of util-linux `script`, sized with `stty` first (output discarded; the runner ends it
 * once the main request was answered).
 */
export function inSizedPseudoTerminal(
  argv: readonly string[],
  env: Record<string, string>,
): Pick<Invocation, 'command' | 'args' | 'env' | 'input'> {
  const command = `stty rows ${TERMINAL.rows} cols ${TERMINAL.columns} && exec ${argv.map(shellQuote).join(' ')}`;
  return {
    command: '/usr/bin/script',
    args: ['-q', '-e', '-c', command, '/dev/null'],
    env: { ...env, COLUMNS: String(TERMINAL.columns), LINES: String(TERMINAL.rows) },
    input: { kind: 'pty' },
  };
}

/** The variable that gives the CLI a GitHub token; a configuration that sets it is run signed in (a stand-in login). */
export const TOKEN_VARIABLE = 'COPILOT_GITHUB_TOKEN';

/**
 * The Copilot API base a signed-in run gets (COPILOT_API_URL): the CLI appends
 * `/chat/completions` or `/responses` for OpenAI models and `/v1/messages` for
 * Anthropic ones, so OpenAI models get `<stub>/v1` and Anthropic ones `<stub>`, and each
 * request reaches the stub at its wire format's usual path (`/v1/…`).
 */
export function copilotApiBase(stubUrl: string, model: string): string {
  const entry = STAND_IN_MODELS.find((m) => m.id === model);
  return entry?.endpoints.includes('/v1/messages') ? stubUrl : `${stubUrl}/v1`;
}

/**
 * A signed-in run: the made-up token of the configuration, and every GitHub endpoint the
 * CLI's own settings can move pointed at the stub — GH_HOST (the GitHub host),
 * COPILOT_DEBUG_GITHUB_API_URL (its REST API: the user, managed settings, team
 * customizations) and COPILOT_API_URL (the Copilot API: models, the remote GitHub MCP
 * server, model requests). Plain HTTP on loopback: no CA, no hosts entry. No offline
 * mode and no bring-your-own-key provider. The stub answers those endpoints with githubReply
 * (./copilot-github-stub.ts), the invocation's `services`.
 */
function signedIn(c: InvocationContext): Record<string, string> {
  const model = c.env['COPILOT_MODEL'];
  if (model === undefined)
    throw new Error(
      `copilot-cli: a signed-in configuration (${TOKEN_VARIABLE}) names its model with COPILOT_MODEL; without one ` +
        `the CLI asks for automatic model routing, which the stub does not offer`,
    );
  return {
    ...c.baseEnv,
    GH_HOST: c.stubUrl,
    COPILOT_DEBUG_GITHUB_API_URL: c.stubUrl,
    COPILOT_API_URL: copilotApiBase(c.stubUrl, model),
    COPILOT_AUTO_UPDATE: 'false',
    ...c.env,
  };
}

function invoke(c: InvocationContext): Invocation {
  if (c.env[TOKEN_VARIABLE] !== undefined) return { ...byMode(c, signedIn(c)), services: githubReply };
  const anthropic = c.env['COPILOT_PROVIDER_TYPE'] === 'anthropic';
  const env: Record<string, string> = {
    ...c.baseEnv,
    COPILOT_PROVIDER_BASE_URL: anthropic ? c.stubUrl : `${c.stubUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: c.apiKey,
    COPILOT_MODEL: DEFAULT_MODEL,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    ...c.env,
  };
  return byMode(c, env);
}

/**
 * How the program is started: the platform package's executable itself, or, for a release
 * whose platform package npm could not install, the package's own `index.js` that its
 * launcher (`npm-loader.js`) imports instead on Node.js 24 or later
 * (scripts/lib/capture/release-binary.ts): that script runs with the run's Node.js.
 */
export function programArgv(c: Pick<InvocationContext, 'binary' | 'node'>): string[] {
  return /\.m?js$/.test(c.binary) ? [c.node, c.binary] : [c.binary];
}

/** The command line of `c.mode` with environment `env`. */
function byMode(c: InvocationContext, env: Record<string, string>): Invocation {
  const [command, ...program] = programArgv(c) as [string, ...string[]];
  switch (c.mode) {
    case 'print':
      // Autopilot sends continuation turns until the model marks the task complete; releases
      // 1.0.11 to 1.0.39 keep sending them to the stub's plain reply until killed. The capture
      // is the first turn, so the run ends once it is answered.
      return {
        command,
        args: [...program, '-p', c.prompt, ...c.args],
        env,
        input: { kind: 'argument' },
        files: new Map(),
        ...(c.args.includes(AUTOPILOT_FLAG) ? { endAfterTurn: true } : {}),
      };
    case 'interactive':
      return {
        ...inSizedPseudoTerminal([...programArgv(c), '-i', c.prompt, ...c.args], env),
        files: new Map([[join(c.home, CONFIG_FILE), trustedFolderConfig(c.workdir)]]),
      };
    default:
      throw new Error(`copilot-cli has no mode ${c.mode}`);
  }
}

/**
 * Tools of an MCP server are named `<server>-<tool>`; over OpenAI Responses with
 * tool search (gpt-5 models) they are also grouped in a namespace named after the
 * server, so the full name the site reads is `<server>.<server>-<tool>`.
 */
export function isStubServerTool(fullName: string): boolean {
  const prefix = `${STUB_MCP_SERVER}-`;
  return fullName.startsWith(prefix) || fullName.startsWith(`${STUB_MCP_SERVER}.${prefix}`);
}

/**
 * Over OpenAI Responses with tool search an MCP server's tools sit in a namespace named after
 * the server while keeping their `<server>-<tool>` names (`github-mcp-server.github-mcp-server-search_code`);
 * the other wire formats send the same tool as `github-mcp-server-search_code`. That name is the tool's one name.
 */
export function unnamespaced(tool: { name: string; namespace?: string }): string | undefined {
  return tool.namespace !== undefined && tool.name.startsWith(`${tool.namespace}-`) ? tool.name : undefined;
}

/**
 * Every text of the user's messages (`messages` of Chat Completions and Anthropic Messages, `input` of Responses):
 * string content, or each part's `text`.
 */
export function userTexts(body: unknown): string[] {
  if (body === null || typeof body !== 'object') return [];
  const b = body as { messages?: unknown; input?: unknown };
  const items = Array.isArray(b.messages) ? b.messages : Array.isArray(b.input) ? b.input : [];
  const out: string[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || (item as { role?: unknown }).role !== 'user') continue;
    const content = (item as { content?: unknown }).content;
    if (typeof content === 'string') out.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        const text = part !== null && typeof part === 'object' ? (part as { text?: unknown }).text : undefined;
        if (typeof text === 'string') out.push(text);
      }
    }
  }
  return out;
}

/**
 * Does `r` answer the prompt: a streaming request with tools one of whose user texts ends
 * with the prompt, or holds it followed by a `<reminder>` block (autopilot 1.0.11:
 * `…: ok\n\n<reminder>\n<sql_tables>…</reminder>`; 1.0.39: `<system_reminder>…</system_reminder>`)?
 */
export function answersPrompt(r: WireRequest, prompt: string): boolean {
  const wanted = prompt.trim();
  const wire = WIRES.map(wireFormat).find((w) => w.isToolRequestPath(pathOf(r.url)));
  const tools = (r.json as { tools?: unknown } | undefined)?.tools;
  const before = (t: string): string => t.replace(/\s*<(system_)?reminder>[\s\S]*<\/\1reminder>\s*$/, '').trim();
  return (
    wire !== undefined &&
    wire.isStreaming(r) &&
    Array.isArray(tools) &&
    tools.length > 0 &&
    userTexts(r.json).some((t) => t.trim().endsWith(wanted) || before(t).endsWith(wanted))
  );
}

/**
 * The main request: the first streaming request with tools one of whose user texts ends
 * with the prompt. The user message starts with <current_datetime>…</current_datetime>
 * before the prompt, and the prompt is not always the last user text: with MCP tools
 * deferred behind tool search a <system_reminder> naming them follows it, and autopilot's
 * continuation turns end with their own text (they come after the first turn). Failing
 * that, the shared rule.
 */
export function mainRequest<R extends WireRequest>(candidates: readonly R[], prompt?: string): R {
  if (prompt !== undefined) {
    const found = candidates.find((r) => answersPrompt(r, prompt));
    if (found) return found;
  }
  return promptedRequestWithTools(WIRES, candidates, prompt);
}

/** The camelCase events, whose payloads are camelCase and do not name their event. */
export const CAMEL_EVENTS = ['preToolUse', 'postToolUse', 'postToolUseFailure'] as const;
/**
 * The same events in the VS Code-compatible form (PascalCase): snake_case payloads that name their event and use Claude
 * Code's tool names (`Bash`).
 */
export const PASCAL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const;

/**
 * The user-level hook file (relative to HOME): Copilot CLI loads ~/.copilot/hooks/*.json in every mode, `-p` included.
 */
export const HOOKS_FILE = '.copilot/hooks/record-hooks.json';

/**
 * ~/.copilot/hooks/record-hooks.json: both forms of each event, each a command hook that tags the payload with the
 * event it was configured for.
 */
export function hookFile(tagged: (event: string) => string): string {
  const entry = (event: string) => [{ type: 'command', bash: tagged(event), timeoutSec: 30 }];
  return (
    JSON.stringify(
      { version: 1, hooks: Object.fromEntries([...CAMEL_EVENTS, ...PASCAL_EVENTS].map((e) => [e, entry(e)])) },
      null,
      2,
    ) + '\n'
  );
}

/** The tool input a payload carries, in either form (`toolArgs`, `tool_input`), parsed when it is a JSON text. */
export function payloadInput(payload: JsonRecord): unknown {
  const raw = 'toolArgs' in payload ? payload['toolArgs'] : payload['tool_input'];
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Deep equality of JSON values (key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    a === null ||
    b === null ||
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const ka = Object.keys(a),
    kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && sameJson((a as JsonRecord)[k], (b as JsonRecord)[k]))
  );
}

const AFTER_EVENTS = new Set<string>(['postToolUse', 'postToolUseFailure', 'PostToolUse', 'PostToolUseFailure']);

/**
 * Copilot's payloads carry no call id: each goes to the first call, in order, whose input as
 * sent equals the payload's and that has not yet had an after-event of the payload's form
 * (camelCase or PascalCase); a payload no call matches is left out.
 */
export function hooksOfCalls(
  payloads: readonly JsonRecord[],
  calls: readonly { id: string; input: unknown }[],
  events: readonly (string | undefined)[],
): JsonRecord[][] {
  const out: JsonRecord[][] = calls.map(() => []);
  const closed = calls.map(() => new Set<string>());
  payloads.forEach((p, i) => {
    const event = events[i] ?? (typeof p['hook_event_name'] === 'string' ? p['hook_event_name'] : undefined);
    const form = event !== undefined && /^[A-Z]/.test(event) ? 'pascal' : 'camel';
    const input = payloadInput(p);
    const k = calls.findIndex((c, j) => !closed[j]!.has(form) && sameJson(c.input, input));
    if (k < 0) return;
    out[k]!.push(p);
    if (event !== undefined && AFTER_EVENTS.has(event)) closed[k]!.add(form);
  });
  return out;
}

/**
 * Hooks in ~/.copilot/hooks/, in both forms at once: each tool call fires the camelCase
 * hooks (payload `sessionId, timestamp, cwd, toolName, toolArgs`, plus `toolResult` after, or
 * `error` after a failure; no member names the event) and the VS Code-compatible PascalCase
 * ones (`hook_event_name, session_id, timestamp, cwd, tool_name, tool_input`, plus
 * `tool_result`). Each hook entry tags its payload with the event it is configured for,
 * which the recorder keeps in `hookEvents`. `--allow-all-tools` lets print mode run every
 * tool without asking.
 */
const hooks: HookMechanism = {
  // The SDK's in-process hook types the binary writes out; the native runtime that reads command hooks' JSON publishes
  // none.
  outputs: {
    form: 'typescript',
    package: '@github/copilot-linux-x64',
    version: 'capture-pin',
    unpack: { binary: 'copilot', args: ['--version'], into: '.cache/copilot/pkg/linux-x64/{version}' },
    files: ['copilot-sdk/types.d.ts', 'copilot-sdk/workflow.d.ts'],
    pattern: '{event}HookOutput',
    naming: 'lower-first',
    namedEventsOnly: true,
    note:
      "These are the types of the SDK's in-process hook callbacks; the JSON a command hook prints is read by " +
      'the native runtime, which publishes no type. The recorded cases show that permissionDecision, ' +
      'permissionDecisionReason, modifiedArgs, modifiedResult and additionalContext work in command hooks as ' +
      'these types say.',
  },
  named: {
    // The SDK types the binary writes out when it first runs (the published package holds only the binary).
    source: {
      package: '@github/copilot-linux-x64',
      unpack: { binary: 'copilot', args: ['--version'], into: '.cache/copilot/pkg/linux-x64/{version}' },
      under: 'copilot-sdk',
      form: 'union-type',
      name: 'HookType',
    },
    notRecorded: {
      preMcpToolCall:
        'The recording hook file (hookFile) does not configure it, so no payload of it is recorded; the recorded ' +
        'call of an MCP tool (capture-echo) fired preToolUse and postToolUse, which it does configure.',
      permissionRequest:
        'Fires when a tool call asks for permission; the recordings run with --allow-all-tools, where none asks.',
    },
    noToolCall: [
      'userPromptSubmitted',
      'userPromptTransformed',
      'sessionStart',
      'sessionEnd',
      'postResult',
      'prePRDescription',
      'errorOccurred',
      'agentStop',
      'subagentStart',
      'subagentStop',
      'preCompact',
      'notification',
    ],
  },
  events: [...CAMEL_EVENTS, ...PASCAL_EVENTS],
  shape: {
    toolNameField: 'toolName',
    inputField: 'toolArgs',
    inputEncoding: 'object',
    responseField: 'toolResult',
    before: 'preToolUse',
    after: 'postToolUse',
    afterFailure: 'postToolUseFailure',
  },
  otherShapes: [
    {
      eventField: 'hook_event_name',
      toolNameField: 'tool_name',
      inputField: 'tool_input',
      inputEncoding: 'object',
      responseField: 'tool_result',
      before: 'PreToolUse',
      after: 'PostToolUse',
      afterFailure: 'PostToolUseFailure',
    },
  ],
  bypass: [['--allow-all-tools']],
  runAdditions: (c) => ({
    args: ['--allow-all-tools'],
    env: { TMPDIR: c.tmp },
    files: new Map([[join(c.home, HOOKS_FILE), hookFile(c.taggedHookCommand)]]),
  }),
  /**
   * A failure fires postToolUseFailure (payload `error`) instead of postToolUse; a result whose `resultType` is not
   * success counts too.
   */
  outcome(_result, _text, recorded) {
    if (recorded.some((h) => 'error' in h && !('toolResult' in h) && !('tool_result' in h))) return 'failure';
    const after = recorded.find((h) => 'toolResult' in h);
    const type =
      after && typeof after['toolResult'] === 'object' && after['toolResult'] !== null
        ? (after['toolResult'] as JsonRecord)['resultType']
        : undefined;
    if (type !== undefined && type !== 'success') return 'failure';
    return after ? 'success' : 'failure';
  },
  callReport: () => ({}),
  hooksOfCalls,
};

export const copilotCli: Agent<'copilot-cli'> = {
  id: 'copilot-cli',
  product: 'GitHub Copilot CLI',
  npmPackage: '@github/copilot',
  wires: WIRES,
  binary: 'node_modules/@github/copilot-linux-x64/copilot',
  modes: ['print', 'interactive'],
  options: [],
  mcpNaming: { configuration: 'mcp-server', family: '<server>-<tool>', isStubServerTool, unnamespaced },
  standInDefinitions: {
    descriptionPrefix: STAND_IN_TOOL_PREFIX,
    reason:
      'Signed in, the CLI takes this tool from the GitHub MCP server, which defines its description, input schema ' +
      'and result. In the captures that server was the loopback stub, which offered the tool under the name the ' +
      'CLI asked for with an empty input schema and a description of its own, so the real definition is ' +
      'not known here.',
  },
  // The types its task tool's agent_type enumerates.
  subagents: {
    tool: 'task',
    field: 'agent_type',
    types: ['explore', 'task', 'general-purpose', 'code-review', 'research', 'security-review'],
    input: { description: 'Look around', prompt: 'List the files here.', name: 'looker' },
    configuration: 'print',
  },
  captureHistory: {
    configurations: ['print', 'autopilot'],
    step: 4,
    range: { from: '0.0.340' },
    proposed: ['interactive-plan', 'interactive-experimental', 'mcp-deferred', 'signed-in-sonnet-4-5'],
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
  mainRequest,
  answersPrompt,
};
