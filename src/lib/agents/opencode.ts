/**
 * OpenCode (`opencode-ai`): OpenAI Chat Completions through a provider that
 * ~/.config/opencode/opencode.json declares with the bundled
 * `@ai-sdk/openai-compatible` package and points at the stub. Modes: print
 * (`opencode run <args> <prompt words>`) and interactive (the terminal interface,
 * `opencode --prompt <prompt> <args>` in a pseudo-terminal). The npm package's own
 * launcher is written by an install script; capture installs without scripts and
 * runs the platform binary.
 *
 * `opencode run` joins its message arguments with spaces and wraps every argument
 * that contains a space in double quotes, so the prompt is passed word by word:
 * the model then gets it exactly as written, as the terminal interface sends it.
 * A run first sends a title request (small model, no tools), then the main turn;
 * the plan agent adds a system reminder after the prompt in the same user message.
 */
import type { WireFormatId } from '../wire/index.ts';
import { join } from 'node:path';
import { mergeSettings, settingsText } from './settings.ts';
import { inPseudoTerminal, promptedRequestWithTools } from './shared.ts';
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

const SETTINGS_FILE = '.config/opencode/opencode.json';
export const STUB_MODEL = 'stub-model';

/** A provider `stub` with one model, used for the main model and the small (title) model. */
export function baseSettings(stubUrl: string, apiKey: string): JsonObject {
  return {
    provider: {
      stub: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Stub',
        options: { baseURL: `${stubUrl}/v1`, apiKey },
        models: { [STUB_MODEL]: { name: 'Stub model' } },
      },
    },
    model: `stub/${STUB_MODEL}`,
    small_model: `stub/${STUB_MODEL}`,
  };
}

/** The prompt as separate words (see above); `opencode run` joins them with single spaces. */
export function promptWords(prompt: string): string[] {
  const words = prompt.split(' ');
  if (words.some((w) => w === '' || w.startsWith('-') || /\s/.test(w)))
    throw new Error(`opencode: the prompt ${JSON.stringify(prompt)} cannot be passed word by word`);
  return words;
}

/** The path under OPENCODE_MODELS_URL from which OpenCode fetches its model catalogue. */
export const MODELS_PATH = '/api.json';

/**
 * The catalogue the stub serves at MODELS_PATH: no provider. The stub provider and its model
 * are declared in the settings file, which is all a run needs; a release that fetches the
 * catalogue before it starts (1.1.27 to 1.1.34 fetch it even with OPENCODE_DISABLE_MODELS_FETCH
 * when they carry no snapshot of it) gets a valid one instead of a network error.
 */
export const MODELS_CATALOGUE = '{}';

function invoke(c: InvocationContext): Invocation {
  const files = new Map<string, string>([
    [join(c.home, SETTINGS_FILE), settingsText(mergeSettings(baseSettings(c.stubUrl, c.apiKey), c.settings))],
  ]);
  const env: Record<string, string> = {
    ...c.baseEnv,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_MODELS_URL: c.stubUrl,
    ...c.env,
  };
  const stubReplies = {
    [`GET ${MODELS_PATH}`]: { status: 200, contentType: 'application/json', body: MODELS_CATALOGUE },
  };
  switch (c.mode) {
    case 'print':
      return {
        command: c.binary,
        args: ['run', ...c.args, ...promptWords(c.prompt)],
        env,
        input: { kind: 'argument' },
        files,
        stubReplies,
      };
    case 'interactive':
      return { ...inPseudoTerminal([c.binary, '--prompt', c.prompt, ...c.args], env), files, stubReplies };
    default:
      throw new Error(`opencode has no mode ${c.mode}`);
  }
}

const CONFIG_DIR = '.config/opencode';

/**
 * A lockfile naming the plugin package (OpenCode's `@opencode-ai/plugin`). OpenCode installs
 * that package into every config folder that has no node_modules, or whose package-lock.json
 * lacks a dependency it wants (Npm.install in its bundle), and with a plugin present it waits
 * for that install before the session starts: without network, about 80 s of retries. With
 * node_modules and this lockfile there, it installs nothing.
 */
export function dependenciesLock(pluginPackage: string): string {
  return (
    JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { [pluginPackage]: '*' } } } }, null, 2) + '\n'
  );
}

export const DEPENDENCIES_LOCK = dependenciesLock('@opencode-ai/plugin');

export const HOOK_EVENTS = ['tool.execute.before', 'tool.execute.after'] as const;

/**
 * The plugin (JavaScript) that appends what each hook function receives to the hook log; with
 * an answer, the function of its event then notes that it answered and runs the answer's script.
 */
export function recorderPlugin(hookLog: string, answer?: { event: string; script: string }): string {
  const fn = (e: string) =>
    answer?.event === e
      ? `  ${JSON.stringify(e)}: async (input, output) => {\n    record(${JSON.stringify(e)}, input, output);\n    ` +
        `appendFileSync(LOG + '.answered', ${JSON.stringify(`${e}\n`)});\n    ${answer.script}\n  },`
      : `  ${JSON.stringify(e)}: async (input, output) => record(${JSON.stringify(e)}, input, output),`;
  return [
    "import { appendFileSync } from 'node:fs';",
    `const LOG = ${JSON.stringify(hookLog)};`,
    "const record = (event, input, output) => appendFileSync(LOG, JSON.stringify({ '$hookEvent': event }) + " +
      "'\\x1e' + JSON.stringify({ input, output }) + '\\x1e');",
    'export const RecordHooks = async () => ({',
    ...HOOK_EVENTS.map(fn),
    '});',
    '',
  ].join('\n');
}

/** The call id OpenCode passes its hook functions (`input.callID`): the id the model gave the call. */
export function callIdOf(record: JsonRecord): unknown {
  const input = record['input'];
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as JsonRecord)['callID']
    : undefined;
}

/** Where a CLI of OpenCode's family loads plugins from and which package they are written against. */
export interface PluginHome {
  /** The config folder under HOME (`.config/opencode`); plugins load from its `plugin/` folder. */
  configDir: string;
  /** The package whose `Hooks` interface types the plugin functions (`@opencode-ai/plugin`). */
  pluginPackage: string;
  /** Where what the functions may change is read from, if it is read. */
  outputs?: HookMechanism['outputs'];
}

/**
 * Hooks are plugin functions, not commands: a plugin in ~/<configDir>/plugin/ (one of
 * the folders OpenCode loads `{plugin,plugins}/*.{ts,js}` from) appends, per call of
 * `tool.execute.before` and `tool.execute.after`, a tag record naming the function and
 * `{input, output}`: the two arguments the function received, serialised by that plugin
 * with JSON.stringify (so functions and undefined members are not shown). Before: input
 * `{tool, sessionID, callID}`, output `{args}` (a plugin may change the arguments); after:
 * input with `args` added, output the tool's result `{title, output, metadata}`. A tool
 * that throws fires no `tool.execute.after`. `run --auto` approves what the
 * configuration does not deny. Forks (Kilo Code) load theirs the same way from their own folder.
 */
export function pluginHooks(home: PluginHome): HookMechanism {
  return {
    ...(home.outputs === undefined ? {} : { outputs: home.outputs }),
    kind: 'plugin',
    events: HOOK_EVENTS,
    recordTitle: '{event} plugin function: its arguments (input, output), as the recording plugin serialised them',
    shape: {
      toolNameField: 'input.tool',
      inputField: 'output.args',
      afterInputField: 'input.args',
      inputEncoding: 'object',
      responseField: 'output',
      before: 'tool.execute.before',
      after: 'tool.execute.after',
    },
    bypass: [['--auto']],
    runAdditions: (c) => ({
      args: ['--auto'],
      env: { TMPDIR: c.tmp },
      files: new Map([
        [join(c.home, home.configDir, 'plugin/record-hooks.js'), recorderPlugin(c.hookLog, c.pluginAnswer)],
        // Satisfied dependencies: no install of the plugin package (no network; the recorder imports nothing from it).
        [join(c.home, home.configDir, 'package-lock.json'), dependenciesLock(home.pluginPackage)],
        [join(c.home, home.configDir, 'node_modules/.package-lock.json'), dependenciesLock(home.pluginPackage)],
      ]),
    }),
    /** A tool that throws fires no tool.execute.after: the model gets the error text instead of a result. */
    outcome: (_result, _text, recorded) =>
      recorded.some((h) => callIdOf(h) !== undefined && 'output' in h && isAfter(h)) ? 'success' : 'failure',
    callReport: () => ({}),
    /** Both functions receive the call's id (`input.callID`), the one the stub gave it. */
    hooksOfCalls: (payloads, calls) => calls.map((c) => payloads.filter((p) => callIdOf(p) === c.id)),
  };
}

const hooks = pluginHooks({
  configDir: CONFIG_DIR,
  pluginPackage: '@opencode-ai/plugin',
  // The plugin package's Hooks interface: what each function is handed to change.
  outputs: {
    form: 'plugin-output',
    package: '@opencode-ai/plugin',
    version: 'capture-pin',
    file: 'dist/index.d.ts',
    interface: 'Hooks',
    events: ['tool.execute.before', 'tool.execute.after', 'permission.ask'],
    parameter: 1,
  },
});

/** An after-record: its input carries the call's `args` (the before-record's input does not). */
function isAfter(record: JsonRecord): boolean {
  const input = record['input'];
  return input !== null && typeof input === 'object' && 'args' in input;
}

export const opencode: Agent<'opencode'> = {
  id: 'opencode',
  product: 'OpenCode',
  npmPackage: 'opencode-ai',
  wires: WIRES,
  binary: 'node_modules/opencode-linux-x64/bin/opencode',
  modes: ['print', 'interactive'],
  options: ['settings'],
  settingsFile: SETTINGS_FILE,
  mcpNaming: {
    configuration: 'mcp-server',
    family: '<server>_<tool>',
    isStubServerTool: (fullName) => fullName.startsWith(`${STUB_MCP_SERVER}_`),
  },
  // The types its task tool's description lists.
  subagents: {
    tool: 'task',
    field: 'subagent_type',
    types: ['explore', 'general'],
    input: { description: 'Look around', prompt: 'List the files here.' },
    configuration: 'print',
  },
  captureHistory: {
    configurations: ['print', 'experimental'],
    step: 4,
    range: { from: '0.1.174' },
    proposed: ['gpt-5-model', 'code-mode', 'interactive-plan-mode'],
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
  // A title request without tools comes first (print mode); the prompted request with tools is the turn.
  mainRequest: (candidates, prompt) => promptedRequestWithTools(WIRES, candidates, prompt),
};
