/**
 * Gemini CLI (`@google/gemini-cli`): the Gemini API against
 * GOOGLE_GEMINI_BASE_URL, authenticated by an API key that
 * ~/.gemini/settings.json selects. Modes: print (`gemini -p <prompt>`) and
 * interactive (`gemini -i <prompt>` in a pseudo-terminal). `--skip-trust`
 * spares the folder-trust question, which headless mode otherwise answers by
 * exiting; releases before 0.39.1 have no such flag (their bundles never name
 * it) and exit on it as an unknown argument.
 *
 * Settings: from 0.3.4 (the first stable release of settings format 2, whose bundle
 * names `security.auth.selectedType` and `migrateSettingsToV2`) the keys are nested;
 * earlier releases read only the flat keys of format 1 (`selectedAuthType`,
 * `usageStatisticsEnabled`) and ignore nested ones. Given nested keys, 0.1.1 keeps
 * usage statistics on and crashes when their upload cannot reach its host.
 */
import type { WireFormatId } from '../wire/index.ts';
import { join } from 'node:path';
import { mergeSettings, settingsText } from './settings.ts';
import { hooksByOrder, inPseudoTerminal, promptedRequestWithTools } from './shared.ts';
import {
  STUB_MCP_SERVER,
  type Agent,
  type HookMechanism,
  type HookShape,
  type Invocation,
  type InvocationContext,
  type JsonObject,
} from './types.ts';
import { isObject } from '../wire/shared.ts';
import { compareVersions } from '../core/version-order.ts';
import type { JsonRecord } from '../core/json.ts';

/** Its wire formats, the default first. */
const WIRES = ['gemini-api'] as const satisfies readonly WireFormatId[];

const SETTINGS_FILE = '.gemini/settings.json';

/** API-key authentication (else the auth type is "gateway" and headless mode refuses); no usage statistics. */
export const BASE_SETTINGS: JsonObject = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
};

/** The same settings in format 1, the flat keys of the releases before NESTED_SETTINGS_SINCE. */
export const FLAT_SETTINGS: JsonObject = {
  selectedAuthType: 'gemini-api-key',
  usageStatisticsEnabled: false,
};

/** The first stable release that reads nested settings (format 2). */
export const NESTED_SETTINGS_SINCE = '0.3.4';

/** The module's own settings in the format the release being run reads. */
export function baseSettings(release: string | undefined): JsonObject {
  return release !== undefined && compareVersions(release, NESTED_SETTINGS_SINCE) < 0 ? FLAT_SETTINGS : BASE_SETTINGS;
}

/** The first release whose CLI knows `--skip-trust`. */
export const SKIP_TRUST_SINCE = '0.39.1';

/** The flags every run starts with, for the release being run. */
function trustFlags(release: string | undefined): string[] {
  return release !== undefined && compareVersions(release, SKIP_TRUST_SINCE) < 0 ? [] : ['--skip-trust'];
}

function invoke(c: InvocationContext): Invocation {
  const files = new Map<string, string>([
    [join(c.home, SETTINGS_FILE), settingsText(mergeSettings(baseSettings(c.release), c.settings))],
  ]);
  const env: Record<string, string> = {
    ...c.baseEnv,
    GEMINI_API_KEY: c.apiKey,
    GOOGLE_GEMINI_BASE_URL: c.stubUrl,
    ...c.env,
  };
  // The CLI is a Node.js script (bundle/gemini.js).
  switch (c.mode) {
    case 'print':
      return {
        command: c.node,
        args: [c.binary, ...trustFlags(c.release), '-p', c.prompt, ...c.args],
        env,
        input: { kind: 'argument' },
        files,
      };
    case 'interactive':
      return {
        ...inPseudoTerminal([c.node, c.binary, ...trustFlags(c.release), '-i', c.prompt, ...c.args], env),
        files,
      };
    default:
      throw new Error(`gemini-cli has no mode ${c.mode}`);
  }
}

/**
 * BeforeTool / AfterTool, snake_case members; a failed call fires AfterTool too (its tool_response carries `error`).
 */
export const GEMINI_HOOK_SHAPE: HookShape = {
  eventField: 'hook_event_name',
  toolNameField: 'tool_name',
  inputField: 'tool_input',
  inputEncoding: 'object',
  responseField: 'tool_response',
  before: 'BeforeTool',
  after: 'AfterTool',
};

const HOOK_EVENTS = [GEMINI_HOOK_SHAPE.before, GEMINI_HOOK_SHAPE.after];

/** `response.error` on the functionResponse part: the CLI reported the call failed. */
export function functionResponseFailed(result: JsonRecord): boolean {
  const fr = result['functionResponse'];
  return isObject(fr) && isObject(fr['response']) && Object.hasOwn(fr['response'], 'error');
}

/**
 * Hooks under `hooks` in ~/.gemini/settings.json (merged over the configuration's
 * settings), matcher `*` (every tool), on BeforeTool and AfterTool — the events that
 * fire around a tool call. Not recorded: SessionStart, SessionEnd, BeforeAgent,
 * AfterAgent, BeforeModel, AfterModel, BeforeToolSelection, PreCompress and
 * Notification, which concern the session, the turn or the model request rather than
 * one call (hooks of those events are not configured). Tools run without asking in
 * the yolo configurations (`--approval-mode yolo`; given twice the CLI refuses to
 * start, so the run adds no approval flag of its own). The payloads carry no call id,
 * so hooksByOrder matches them to calls.
 */
const hooks: HookMechanism = {
  // gemini-cli-core's declarations at its ingest pin (the CLI bundles the same release of that code).
  outputs: {
    form: 'typescript',
    package: '@google/gemini-cli-core',
    version: 'ingest-pin',
    files: ['dist/src/hooks/types.d.ts', 'dist/src/hooks/hookTranslator.d.ts'],
    pattern: '{event}Output',
    naming: 'as-is',
    namedEventsOnly: true,
  },
  named: {
    source: { under: 'bundle', form: 'compiled-enum', name: 'HookEventName' },
    notRecorded: {
      BeforeToolSelection:
        'Fires before each model request, with that request, to narrow the tools it offers: it concerns the list ' +
        'of tools, not one call, and the recording does not configure it.',
    },
    noToolCall: [
      'BeforeAgent',
      'Notification',
      'AfterAgent',
      'SessionStart',
      'SessionEnd',
      'PreCompress',
      'BeforeModel',
      'AfterModel',
    ],
  },
  events: HOOK_EVENTS,
  shape: GEMINI_HOOK_SHAPE,
  runAdditions: (c) => {
    const command = (matcher: string) => [
      { matcher, hooks: [{ type: 'command', command: c.hookCommand, timeout: 10_000 }] },
    ];
    return {
      args: [],
      env: { TMPDIR: c.tmp },
      files: new Map(),
      settings: { hooks: Object.fromEntries(HOOK_EVENTS.map((e) => [e, command('*')])) },
    };
  },
  outcome: (result) => (functionResponseFailed(result) ? 'failure' : 'success'),
  callReport: () => ({}),
  hooksOfCalls: (payloads, calls) => hooksByOrder(GEMINI_HOOK_SHAPE, payloads, calls),
};

export const geminiCli: Agent<'gemini-cli'> = {
  id: 'gemini-cli',
  product: 'Gemini CLI',
  npmPackage: '@google/gemini-cli',
  wires: WIRES,
  binary: 'node_modules/@google/gemini-cli/bundle/gemini.js',
  modes: ['print', 'interactive'],
  options: ['settings'],
  settingsFile: SETTINGS_FILE,
  mcpNaming: {
    configuration: 'mcp-server',
    family: 'mcp_<server>_<tool>',
    isStubServerTool: (fullName) => fullName.startsWith(`mcp_${STUB_MCP_SERVER}_`),
  },
  // The built-in agents its bundle defines (name: "codebase_investigator", "generalist", "cli_help"), started with
  // invoke_agent.
  subagents: {
    tool: 'invoke_agent',
    field: 'agent_name',
    types: ['codebase_investigator', 'generalist', 'cli_help'],
    input: { prompt: 'List the files here.' },
    configuration: 'approval-yolo',
  },
  captureHistory: {
    configurations: ['print', 'approval-yolo'],
    step: 4,
    range: { from: '0.1.1' },
    proposed: ['approval-plan', 'pro-yolo', 'task-tracker', 'interactive', 'mcp-server'],
  },
  inventory: {
    none:
      'nobody has located its tool registry inside the installed package; its captures are the only ' +
      'list of its tools.',
  },
  publishedTypes: { ingest: 'scripts/ingest-gemini-core.ts', withCli: true },
  generatedDeclarations: false,
  hooks,
  invoke,
  // With the default `auto` model a routing call (generateContent, not streamed) comes first: it
  // carries the prompt but no tools. An explicit -m model and plan mode skip it, so the streamed turn
  // is the only request. Tools that call a model themselves (google_web_search, web_fetch) and
  // subagents send later requests whose user text is not the prompt. Checked against every 0.61.0
  // configuration of the matrix (test/unit/agent-gemini-cli.test.ts).
  mainRequest: (candidates, prompt) => promptedRequestWithTools(WIRES, candidates, prompt),
};
