/**
 * Letta Code (`letta`, npm `@letta-ai/letta-code`), a Node program (`letta.js`, one bundle) for
 * stateful Letta agents. Its default backend is a Letta server (`--backend api`, LETTA_BASE_URL and
 * LETTA_API_KEY): the agent lives on the server, and each message request
 * (`POST /v1/conversations/<id>/messages`) carries the CLI's own tools as `client_tools`, which the
 * server hands to its model. The local backend (`--backend local`, from 0.25.3) keeps the agent in
 * ~/.letta/lc-local-backend and calls a model provider itself, with the same client tools; that is the
 * backend captured here, since its requests are ordinary model requests.
 *
 * The providers of the local backend are read from ~/.letta/lc-local-backend/providers/auth.json,
 * where a record may give a `base_url` (what `letta connect <provider> --base-url` writes). The
 * module declares three there, all at the stub: `lc-ollama` (OpenAI Chat Completions, a model of
 * any name), `lc-openai` (OpenAI Responses) and `lc-anthropic` (Anthropic Messages); the model
 * handle given with `-m` picks one (default: `ollama/stub-model`). The handle also picks the tool
 * set in headless mode: an `openai/` model gets the Codex-style set (ShellCommand, ApplyPatch …),
 * any other the default one (Bash, Read, Edit …); `--toolset` is read by the interactive
 * interface only. One mode: headless (`letta -p <prompt>`).
 *
 * 0.25.3, the first release with the local backend, reads no `base_url` from the provider file: its
 * Ollama provider is pointed at the stub with OLLAMA_BASE_URL, and its OpenAI and Anthropic providers
 * go to their vendors' fixed addresses (in the namespace: "Cannot connect to API: getaddrinfo …").
 */
import { join } from 'node:path';
import type { WireFormatId } from '../wire/index.ts';
import type { StubReply, WireRequest } from '../wire/types.ts';
import { isObject } from '../wire/shared.ts';
import { settingsText } from './settings.ts';
import { holdsPromptWithTools, requestHoldingPrompt } from './shared.ts';
import type { Agent, HookMechanism, HookShape, Invocation, InvocationContext, JsonObject } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = [
  'openai-chat-completions',
  'openai-responses',
  'anthropic-messages',
] as const satisfies readonly WireFormatId[];

const AUTH_FILE = '.letta/lc-local-backend/providers/auth.json';

/** The model of the default configuration: a model of the Ollama provider, which takes any name. */
export const STUB_MODEL = 'ollama/stub-model';

/** One provider record of the local backend's auth file, at the stub. */
function providerRecord(name: string, type: string, baseUrl: string, apiKey: string): JsonObject {
  return {
    id: `local-provider-${name}`,
    name,
    provider_type: type,
    provider_category: 'byok',
    auth: { type: 'api', key: apiKey },
    base_url: baseUrl,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

/** ~/.letta/lc-local-backend/providers/auth.json: one provider per wire format, each at the stub. */
export function authFile(stubUrl: string, apiKey: string): JsonObject {
  return {
    version: 1,
    providers: {
      'lc-ollama': providerRecord('lc-ollama', 'ollama', `${stubUrl}/v1`, apiKey),
      'lc-openai': providerRecord('lc-openai', 'openai', `${stubUrl}/v1`, apiKey),
      'lc-anthropic': providerRecord('lc-anthropic', 'anthropic', stubUrl, apiKey),
    },
  };
}

/** The model list the Ollama provider asks for before its first turn: the stub model alone (made up). */
const MODELS_REPLY: StubReply = {
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify({ object: 'list', data: [{ id: 'stub-model', object: 'model', owned_by: 'stub' }] }),
};

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'print') throw new Error(`letta-code has no mode ${c.mode}`);
  const model = c.args.includes('-m') ? [] : ['-m', STUB_MODEL];
  return {
    command: c.node,
    args: [c.binary, '--backend', 'local', ...model, ...c.args, '-p', c.prompt],
    // No telemetry and no update check: either would only fail inside the namespace. 0.25.3 reads the
    // Ollama provider's address from OLLAMA_BASE_URL only (later releases from the provider file first).
    env: {
      ...c.baseEnv,
      LETTA_CODE_TELEM: '0',
      DISABLE_AUTOUPDATER: '1',
      OLLAMA_BASE_URL: `${c.stubUrl}/v1`,
      ...c.env,
    },
    input: { kind: 'argument' },
    files: new Map([[join(c.home, AUTH_FILE), settingsText(authFile(c.stubUrl, c.apiKey))]]),
    stubReplies: { 'GET /v1/models': MODELS_REPLY },
  };
}

/** The turn that answers the prompt: the prompt is a text of the last user message, after reminders of its own. */
export const answersPrompt = (r: WireRequest, prompt: string): boolean => holdsPromptWithTools(WIRES, r, prompt);

/** The tool events recorded, in the order they fire. */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const;

/** Its payloads name their event in `event_type`, the call in `tool_call_id`, the result in `tool_result`. */
export const HOOK_SHAPE: HookShape = {
  eventField: 'event_type',
  toolNameField: 'tool_name',
  inputField: 'tool_input',
  inputEncoding: 'object',
  responseField: 'tool_result',
  before: 'PreToolUse',
  after: 'PostToolUse',
  afterFailure: 'PostToolUseFailure',
};

/**
 * The `hooks` of its settings file: each event, matcher `*`, one command hook. No `timeout`: it reads one
 * in milliseconds (60000 when absent), where Claude Code's form gives seconds.
 */
export function hookSettings(command: string): JsonObject {
  const hooks: JsonObject = {};
  for (const event of HOOK_EVENTS) hooks[event] = [{ matcher: '*', hooks: [{ type: 'command', command }] }];
  return { hooks };
}

/**
 * Hooks under `hooks` in ~/.letta/settings.json (also the project's .letta/settings.json and
 * settings.local.json), in the form Claude Code's settings.json gives them (matcher `*`, one command
 * hook); the command gets the payload as JSON on its standard input. Payload runs skip every
 * permission check (`--yolo`): in headless mode a call that would ask is refused.
 */
const hooks: HookMechanism = {
  outputs: {
    form: 'none',
    why:
      'A command hook answers with its exit code alone, and nothing declares a JSON answer: its package ships one ' +
      'bundle (letta.js) whose hook executor reads 0 (go on), 2 (block, with standard error as the reason) and ' +
      'anything else (an error that does not block), and its only declaration file (dist/types/protocol.d.ts) ' +
      'declares no hook output. The recorded cases show what each exit code does.',
  },
  events: HOOK_EVENTS,
  shape: HOOK_SHAPE,
  bypass: [['--yolo']],
  runAdditions: (c) => ({
    args: ['--yolo'],
    env: { TMPDIR: c.tmp },
    files: new Map([[join(c.home, '.letta/settings.json'), settingsText(hookSettings(c.hookCommand))]]),
  }),
  /**
   * A failed call fires PostToolUse too, its `tool_result.status` `error`, and then PostToolUseFailure: success is a
   * PostToolUse whose status is `success` with no PostToolUseFailure.
   */
  outcome: (_result, _text, recorded) =>
    recorded.some((h) => h['event_type'] === 'PostToolUseFailure') ||
    !recorded.some(
      (h) =>
        h['event_type'] === 'PostToolUse' && isObject(h['tool_result']) && h['tool_result']['status'] === 'success',
    )
      ? 'failure'
      : 'success',
  callReport: () => ({}),
  /**
   * Every payload carries the call's id (`tool_call_id`): the one the stub gave it, over OpenAI Responses followed by
   * `|` and the id of the call's output item (`call_stub_1|fc_stub`).
   */
  hooksOfCalls: (payloads, calls) =>
    calls.map((c) =>
      payloads.filter((h) => h['tool_call_id'] === c.id || String(h['tool_call_id']).startsWith(`${c.id}|`)),
    ),
};

export const lettaCode: Agent<'letta-code'> = {
  id: 'letta-code',
  product: 'Letta Code',
  npmPackage: '@letta-ai/letta-code',
  wires: WIRES,
  binary: 'node_modules/@letta-ai/letta-code/letta.js',
  modes: ['print'],
  options: [],
  mcpNaming: {
    none:
      'no capture shows it: the pinned release has no MCP client of its own (its bundle configures MCP servers ' +
      'only through the Letta server API, where they are the server’s tools, not the CLI’s).',
  },
  captureHistory: {
    configurations: ['print', 'responses', 'anthropic'],
    step: 1,
    range: { from: '0.25.3' },
    startsAt:
      'the first release listed with the local backend (`--backend local`). The ones before it (0.15.2 to 0.22.4) ' +
      'run against a Letta server only, which keeps the agent and its tools; the stub does not stand in for one.',
  },
  inventory: {
    none:
      'no inventory method reads its bundle yet: letta.js lists its tool sets as arrays of names (the default, ' +
      'Codex-style and Gemini-style sets), but the captures are the only list the site shows.',
  },
  publishedTypes: {
    none: 'no package of TypeScript types of its tools is read yet; their inputs are read from the captures.',
  },
  generatedDeclarations: false,
  hooks,
  invoke,
  mainRequest: (candidates, prompt) => requestHoldingPrompt(WIRES, candidates, prompt),
  answersPrompt,
};
