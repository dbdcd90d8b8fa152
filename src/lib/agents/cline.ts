/**
 * Cline's command line (`cline`): OpenAI Chat Completions through its
 * `openai-compatible` provider, pointed at the stub by the providers file that
 * `cline auth -p openai -k <key> -m <model> -b <url>` writes
 * (~/.cline/data/settings/providers.json; written here directly, as that command
 * would). One mode: print (`cline <args> <prompt>`, the prompt as its one
 * positional argument; tools are approved automatically unless
 * `--auto-approve false`, which sends the same tools). MCP servers are read from
 * ~/.cline/data/settings/cline_mcp_settings.json (`mcpServers`), the settings
 * file that configurations' `settings` merge over.
 *
 * From 3.0 the npm package is a Node launcher that runs the platform package's
 * compiled program (`@cline/cli-<platform>`, Bun inside), which it finds by walking
 * up node_modules; capture installs without scripts and runs the launcher.
 *
 * The capture history starts at 3.0.57, the first 3.x release the registry lists: the
 * first that sends its tools as function definitions. The 2.x releases (2.14.0 and
 * 2.18.0 listed; a Node program, dist/cli.mjs, whose `cline auth` keeps the provider in
 * ~/.cline/data/globalState.json and the key in secrets.json) send, through this
 * provider, a request with no `tools` member: their tools are described in the text of
 * a system prompt of about 48 kB (2.18.0, run with the files its own `cline auth`
 * writes), which a comparison of tool definitions cannot read. Before 2.x, the name
 * `cline` holds 0.8.2, the release of an unrelated package ("Command-line apps building
 * library for Node"), and 1.0.6 to 1.0.10, Go programs (bin/cline is an ELF executable,
 * put in place by an install script) that run beside a separate host process.
 *
 * The prompt reaches the model wrapped as `<user_input mode="act">…</user_input>`
 * (`mode="plan"` with --plan), so the main request is the one whose last user
 * message holds the prompt (shared.ts: requestHoldingPrompt), not one that ends with it.
 */
import { join } from 'node:path';
import type { WireFormatId } from '../wire/index.ts';
import type { WireRequest } from '../wire/types.ts';
import { mergeSettings, settingsText } from './settings.ts';
import { holdsPromptWithTools, requestHoldingPrompt } from './shared.ts';
import {
  STUB_MCP_SERVER,
  type Agent,
  type HookMechanism,
  type Invocation,
  type InvocationContext,
  type JsonObject,
} from './types.ts';
import type { JsonRecord } from '../core/json.ts';

/** Its wire formats, the default first. */
const WIRES = ['openai-chat-completions'] as const satisfies readonly WireFormatId[];

const SETTINGS_DIR = '.cline/data/settings';
const PROVIDERS_FILE = `${SETTINGS_DIR}/providers.json`;
const MCP_SETTINGS_FILE = `${SETTINGS_DIR}/cline_mcp_settings.json`;
export const STUB_MODEL = 'stub-model';

/**
 * The providers file as `cline auth` leaves it for an OpenAI-compatible provider at the stub (its time fixed: a capture
 * must not depend on the clock).
 */
export function providersFile(stubUrl: string, apiKey: string): JsonObject {
  return {
    version: 1,
    lastUsedProvider: 'openai-compatible',
    modes: {},
    providers: {
      'openai-compatible': {
        settings: { provider: 'openai-compatible', apiKey, model: STUB_MODEL, baseUrl: `${stubUrl}/v1` },
        updatedAt: '2026-01-01T00:00:00.000Z',
        tokenSource: 'manual',
      },
    },
  };
}

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'print') throw new Error(`cline has no mode ${c.mode}`);
  const files = new Map<string, string>([
    [join(c.home, PROVIDERS_FILE), settingsText(providersFile(c.stubUrl, c.apiKey))],
    [join(c.home, MCP_SETTINGS_FILE), settingsText(mergeSettings({ mcpServers: {} }, c.settings))],
  ]);
  return {
    command: c.binary,
    args: [...c.args, c.prompt],
    env: { ...c.baseEnv, ...c.env },
    input: { kind: 'argument' },
    files,
  };
}

/** The turn that answers the prompt: its last user text holds the prompt, wrapped in <user_input>. */
export const answersPrompt = (r: WireRequest, prompt: string): boolean => holdsPromptWithTools(WIRES, r, prompt);

/**
 * The tool events a hook file can be named after (its file names are case-insensitive; these are the documented
 * spellings).
 */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse'] as const;

/** A hook file: a shell script (a file with no extension runs with bash) that runs the recording command. */
export function hookFile(command: string): string {
  return `#!/bin/bash\n${command}\n`;
}

/** The id of the call a payload is about: `tool_call.id` before the call, `tool_result.id` after it. */
export function callIdOf(payload: JsonRecord): unknown {
  for (const member of ['tool_call', 'tool_result']) {
    const part = payload[member];
    if (part !== null && typeof part === 'object' && !Array.isArray(part) && 'id' in part)
      return (part as JsonRecord)['id'];
  }
  return undefined;
}

/**
 * Hooks are files named after their event in a hooks folder (~/.cline/hooks/PreToolUse,
 * ~/.cline/hooks/PostToolUse; also ~/Documents/Cline/Hooks and the workspace's
 * .clinerules/hooks and .cline/hooks), run with the payload on standard input. `--hooks-dir`
 * sets a variable the program does not read, so the files go in the home folder. A payload
 * names its hook (`hookName`: `tool_call`, `tool_result`), not the file's event, so each file
 * tags its payload with its event.
 */
const hooks: HookMechanism = {
  outputs: {
    form: 'none',
    why:
      'Its npm package is a launcher for one compiled program, with no type declarations or JSON Schema: the ' +
      "program checks a hook's answer against a zod object compiled into it (`contextModification`, `cancel`, " +
      '`review`, `errorMessage`, `context`, `overrideInput`, other members passed through), which `npm run ' +
      'hook-outputs` cannot read; the recorded cases show what each did.',
  },
  events: HOOK_EVENTS,
  shape: {
    toolNameField: 'tool_call.name',
    afterToolNameField: 'tool_result.name',
    inputField: 'tool_call.input',
    afterInputField: 'tool_result.input',
    inputEncoding: 'object',
    responseField: 'tool_result.output',
    before: 'PreToolUse',
    after: 'PostToolUse',
  },
  runAdditions: (c) => ({
    args: [],
    // A local session: without it the first run starts a hub process that outlives the run and serves the next ones.
    env: { TMPDIR: c.tmp, CLINE_SESSION_BACKEND_MODE: 'local' },
    files: new Map(
      HOOK_EVENTS.map((event) => [join(c.home, '.cline/hooks', event), hookFile(c.taggedHookCommand(event))]),
    ),
  }),
  /** A call succeeded when its PostToolUse payload says so (`tool_result` without `error`). */
  outcome: (_result, _text, recorded) =>
    recorded.some((h) => {
      const r = h['tool_result'];
      return (
        r !== null &&
        typeof r === 'object' &&
        !Array.isArray(r) &&
        !('error' in r && (r as JsonRecord)['error'] !== undefined && (r as JsonRecord)['error'] !== null)
      );
    })
      ? 'success'
      : 'failure',
  callReport: () => ({}),
  /** Both payloads carry the call's id, the one the stub gave it. */
  hooksOfCalls: (payloads, calls) => calls.map((c) => payloads.filter((p) => callIdOf(p) === c.id)),
};

export const cline: Agent<'cline'> = {
  id: 'cline',
  product: 'Cline CLI',
  npmPackage: 'cline',
  wires: WIRES,
  binary: 'node_modules/cline/bin/cline',
  modes: ['print'],
  options: ['settings'],
  settingsFile: MCP_SETTINGS_FILE,
  // Its MCP tools are named <server>__<tool> on the wire (capture__echo in the mcp-server capture).
  mcpNaming: {
    configuration: 'mcp-server',
    family: '<server>__<tool>',
    isStubServerTool: (fullName) => fullName.startsWith(`${STUB_MCP_SERVER}__`),
  },
  captureHistory: {
    configurations: ['act', 'plan'],
    step: 1,
    range: { from: '3.0.57' },
    startsAt:
      'the first release listed that sends its tools as function definitions. 2.14.0 and 2.18.0 describe them in ' +
      'the text of their system prompt instead (2.18.0, given the files its own `cline auth` writes, sent no ' +
      '`tools`); 1.0.6 to 1.0.10 are Go programs put in place by an install script; 0.8.2 is a release of an ' +
      'unrelated package of the same name',
  },
  inventory: {
    none:
      'nobody has located its tool registry inside the compiled program yet; its captures are the only ' +
      'list of its tools.',
  },
  publishedTypes: {
    none: 'no package of TypeScript types of its tools is read yet; their inputs are read from the captures.',
  },
  generatedDeclarations: false,
  hooks,
  invoke,
  // The prompt is wrapped in a tag (<user_input>): the request whose last user text holds it is the turn.
  mainRequest: (candidates, prompt) => requestHoldingPrompt(WIRES, candidates, prompt),
  answersPrompt,
};
