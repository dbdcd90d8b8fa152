/**
 * Pi (`pi`, npm `@mariozechner/pi-coding-agent`), a Node program: custom providers declared in
 * ~/.pi/agent/models.json, each with an `api` that is its wire format (`openai-completions`,
 * `openai-responses`, `anthropic-messages`, `google-generative-ai`). The module declares one
 * provider per format, all at the stub, each with one model; a configuration picks one with
 * `--model <provider>/<model>` (default: the Chat Completions one). One mode: print
 * (`pi -p <args> <prompt>`). It has no MCP: its README says "No MCP.".
 */
import { join } from 'node:path';
import type { WireFormatId } from '../wire/index.ts';
import { settingsText } from './settings.ts';
import { promptedRequestWithTools } from './shared.ts';
import type { JsonRecord } from '../core/json.ts';
import type { Agent, HookMechanism, Invocation, InvocationContext, JsonObject } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = [
  'openai-chat-completions',
  'openai-responses',
  'anthropic-messages',
  'gemini-api',
] as const satisfies readonly WireFormatId[];

const MODELS_FILE = '.pi/agent/models.json';
export const STUB_MODEL = 'stub-model';

/**
 * The provider of each of its APIs, as `--model <provider>/stub-model` selects it, and where its client sends requests.
 */
export const STUB_PROVIDERS = {
  stub: { api: 'openai-completions', path: '/v1' },
  'stub-responses': { api: 'openai-responses', path: '/v1' },
  'stub-anthropic': { api: 'anthropic-messages', path: '' },
  'stub-gemini': { api: 'google-generative-ai', path: '/v1beta' },
} as const;

/**
 * The model as every release's models.json takes it: up to 0.50 a definition had to give
 * `reasoning`, `input`, `cost`, `contextWindow` and `maxTokens` (0.50.7's ModelDefinitionSchema),
 * and a file that did not was set aside ("No models available."); later ones default them.
 */
const STUB_MODEL_DEFINITION = {
  id: STUB_MODEL,
  name: STUB_MODEL,
  reasoning: false,
  input: ['text'],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128000,
  maxTokens: 16384,
};

/** ~/.pi/agent/models.json: one provider per API, each at the stub with the one model. */
export function modelsFile(stubUrl: string, apiKey: string): JsonObject {
  const providers: JsonObject = {};
  for (const [name, p] of Object.entries(STUB_PROVIDERS))
    providers[name] = { baseUrl: `${stubUrl}${p.path}`, api: p.api, apiKey, models: [STUB_MODEL_DEFINITION] };
  return { providers };
}

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'print') throw new Error(`pi has no mode ${c.mode}`);
  const files = new Map<string, string>([[join(c.home, MODELS_FILE), settingsText(modelsFile(c.stubUrl, c.apiKey))]]);
  const model = c.args.includes('--model') ? [] : ['--model', `stub/${STUB_MODEL}`];
  return {
    command: c.node,
    args: [c.binary, ...model, ...c.args, '-p', c.prompt],
    env: { ...c.baseEnv, ...c.env },
    input: { kind: 'argument' },
    files,
  };
}

/** The extension events about one tool call, in the order they fire. */
export const HOOK_EVENTS = ['tool_call', 'tool_result'] as const;

/**
 * The extension (~/.pi/agent/extensions/, where pi discovers extensions) that appends each
 * tool event it is handed to the hook log, as JSON; with an answer, the handler of its event
 * then notes that it answered and runs the answer's script (`event` in scope).
 */
export function recorderExtension(hookLog: string, answer?: { event: string; script: string }): string {
  const handler = (e: string) =>
    answer?.event === e
      ? `  pi.on(${JSON.stringify(e)}, async (event) => {\n    record(event);\n    appendFileSync(LOG + ` +
        `'.answered', ${JSON.stringify(`${e}\n`)});\n    ${answer.script}\n  });`
      : `  pi.on(${JSON.stringify(e)}, async (event) => { record(event); });`;
  return [
    "import { appendFileSync } from 'node:fs';",
    `const LOG = ${JSON.stringify(hookLog)};`,
    "const record = (event) => appendFileSync(LOG, JSON.stringify(event) + '\\x1e');",
    'export default function (pi) {',
    ...HOOK_EVENTS.map(handler),
    '}',
    '',
  ].join('\n');
}

const callIdOf = (record: JsonRecord): unknown => record['toolCallId'];

/**
 * Hooks are extension handlers, not commands: `pi.on("tool_call", …)` before a tool runs (it may
 * block the call or change `event.input`), `pi.on("tool_result", …)` after it finished (it may
 * change the result). Each event object names itself (`type`), the tool (`toolName`), the call
 * (`toolCallId`) and its `input`; the result event adds `content`, `details` and `isError`.
 * The recording extension serialises the event with JSON.stringify. Pi asks no permission
 * before a tool runs, so nothing has to be approved.
 */
const hooks: HookMechanism = {
  outputs: {
    form: 'none',
    why:
      'Pi declares what its handlers may return in TypeScript (`ToolCallEventResult`: `block`, `reason`; ' +
      '`ToolResultEventResult`: `content`, `details`, `isError`; in dist/core/extensions/types.d.ts), but they ' +
      'name types of its `@mariozechner/pi-ai` dependency (`TextContent`, `ImageContent`), and `npm run ' +
      'hook-outputs` reads the declarations of one package only: no schema is built from them yet.',
  },
  kind: 'plugin',
  pluginWords: {
    host: 'an extension',
    handler: 'handler',
    given: 'the event they are handed',
    record: 'extension event record',
    schemaOf: 'the events the extension handlers are handed',
  },
  events: HOOK_EVENTS,
  recordTitle: '{event} event of an extension: the event object, as the recording extension serialised it',
  shape: {
    eventField: 'type',
    toolNameField: 'toolName',
    inputField: 'input',
    inputEncoding: 'object',
    responseField: 'content',
    before: 'tool_call',
    after: 'tool_result',
  },
  runAdditions: (c) => ({
    args: [],
    env: { TMPDIR: c.tmp },
    files: new Map([
      [join(c.home, '.pi/agent/extensions/record-hooks.ts'), recorderExtension(c.hookLog, c.pluginAnswer)],
    ]),
  }),
  /** A call succeeded when its tool_result event says it was no error. */
  outcome: (_result, _text, recorded) =>
    recorded.some((h) => h['type'] === 'tool_result' && h['isError'] === false) ? 'success' : 'failure',
  callReport: () => ({}),
  /** Both events carry the call's id (`toolCallId`), the one the stub gave it. */
  hooksOfCalls: (payloads, calls) => calls.map((c) => payloads.filter((p) => callIdOf(p) === c.id)),
};

export const pi: Agent<'pi'> = {
  id: 'pi',
  product: 'Pi',
  npmPackage: '@mariozechner/pi-coding-agent',
  wires: WIRES,
  binary: 'node_modules/@mariozechner/pi-coding-agent/dist/cli.js',
  modes: ['print'],
  options: [],
  mcpNaming: {
    none:
      'it has no MCP support: the README of its package says "No MCP." (extensions can add tools of ' +
      'their own instead).',
  },
  captureHistory: {
    configurations: ['print', 'all-tools'],
    step: 1,
    range: { from: '0.13.2' },
    startsAt:
      'the first release listed that takes custom providers. 0.7.6, the one listed before it, has none: its models ' +
      "are the built-in ones of its `@mariozechner/pi-ai` dependency, each client given that model's fixed " +
      '`baseUrl`, so it cannot be pointed at a model other than theirs (run at the stub, it stops: "No API key ' +
      'found for provider "anthropic"")',
  },
  inventory: {
    none:
      'its tools are the ones its `--tools` allowlist names (read, bash, edit, write, grep, find, ls); the ' +
      'captures are the list the site shows.',
  },
  publishedTypes: {
    none:
      'its package ships TypeScript declarations, but no script reads them into tool files yet; the inputs are ' +
      'read from the captures.',
  },
  generatedDeclarations: false,
  hooks,
  permissions: {
    none:
      'Pi has no permission rules to write: its README (in the pinned package, README.md) says "No permission ' +
      'popups. Run in a container, or build your own confirmation flow with extensions", and every call its ' +
      'payload runs made ran without being approved. The way to gate a call is an extension handler of ' +
      '`tool_call` that refuses it, as the cases on its hooks page do.',
  },
  invoke,
  mainRequest: (candidates, prompt) => promptedRequestWithTools(WIRES, candidates, prompt),
};
