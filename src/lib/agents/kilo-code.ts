/**
 * Kilo Code's command line (`@kilocode/cli`, command `kilo`), a fork of OpenCode:
 * OpenAI Chat Completions through a provider that ~/.config/kilo/kilo.json declares
 * (one of the names it reads there: config.json, kilo.json, kilo.jsonc,
 * opencode.json, opencode.jsonc), in the form OpenCode's opencode.json takes, pointed
 * at the stub. One mode: print (`kilo run <args> <prompt words>`, which joins its
 * message arguments as OpenCode's `run` does). Its variables are OpenCode's with
 * KILO_ for OPENCODE_: the model catalogue is not fetched and no update is looked for.
 *
 * The npm package's launcher is set up by an install script; capture installs
 * without scripts and runs the platform package's program
 * (`@kilocode/cli-linux-x64`), which also holds releases on its own (7.7.9). A
 * release whose platform package the registry does not list (7.5.6 to 7.6.2, 7.7.5)
 * is run through its launcher, which says in its own words that the package manager
 * failed to install the program for the platform.
 */
import { join } from 'node:path';
import type { WireFormatId } from '../wire/index.ts';
import type { WireRequest } from '../wire/types.ts';
import { baseSettings, MODELS_CATALOGUE, MODELS_PATH, pluginHooks, promptWords } from './opencode.ts';
import { mergeSettings, settingsText } from './settings.ts';
import { holdsPromptWithTools, requestHoldingPrompt } from './shared.ts';
import { STUB_MCP_SERVER, type Agent, type Invocation, type InvocationContext } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['openai-chat-completions'] as const satisfies readonly WireFormatId[];

const SETTINGS_FILE = '.config/kilo/kilo.json';

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'print') throw new Error(`kilo-code has no mode ${c.mode}`);
  const files = new Map<string, string>([
    [join(c.home, SETTINGS_FILE), settingsText(mergeSettings(baseSettings(c.stubUrl, c.apiKey), c.settings))],
  ]);
  const env: Record<string, string> = {
    ...c.baseEnv,
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_MODELS_URL: c.stubUrl,
    ...c.env,
  };
  const stubReplies = {
    [`GET ${MODELS_PATH}`]: { status: 200, contentType: 'application/json', body: MODELS_CATALOGUE },
  };
  // 7.0.33 had not exited 60 s after its turn was answered, its last words "Error fetching Kilo
  // models: error: Was there a typo in the url or port?" (a list outside the namespace): the run
  // ends once the turn is answered (a run that exits first is judged by its exit code as usual).
  return {
    command: c.binary,
    args: ['run', ...c.args, ...promptWords(c.prompt)],
    env,
    input: { kind: 'argument' },
    files,
    stubReplies,
    endAfterTurn: true,
  };
}

/**
 * The turn that answers the prompt: its last user text holds the prompt, followed by an <environment_details> block.
 */
export const answersPrompt = (r: WireRequest, prompt: string): boolean => holdsPromptWithTools(WIRES, r, prompt);

export const kiloCode: Agent<'kilo-code'> = {
  id: 'kilo-code',
  product: 'Kilo Code CLI',
  npmPackage: '@kilocode/cli',
  standalonePackages: ['@kilocode/cli-linux-x64'],
  wires: WIRES,
  binary: 'node_modules/@kilocode/cli-linux-x64/bin/kilo',
  modes: ['print'],
  options: ['settings'],
  settingsFile: SETTINGS_FILE,
  mcpNaming: {
    configuration: 'mcp-server',
    family: '<server>_<tool>',
    isStubServerTool: (fullName) => fullName.startsWith(`${STUB_MCP_SERVER}_`),
  },
  captureHistory: { configurations: ['print', 'plan-agent', 'mcp-server'], step: 1, range: { from: '7.0.33' } },
  inventory: {
    none:
      'nobody has located its tool registry inside the compiled program yet; its captures are the only ' +
      'list of its tools.',
  },
  publishedTypes: {
    none: 'no package of TypeScript types of its tools is read yet; their inputs are read from the captures.',
  },
  generatedDeclarations: false,
  hooks: pluginHooks({
    configDir: '.config/kilo',
    pluginPackage: '@kilocode/plugin',
    outputs: {
      form: 'none',
      why:
        'Its plugin functions are typed by the `Hooks` interface of `@kilocode/plugin`, which the CLI installs ' +
        'at its own release number, and the registry lists releases of it only up to an earlier number than the ' +
        "pinned CLI's, so the declarations the pinned CLI calls with are not published; the recorded cases show " +
        'what assigning to the `output` argument does.',
    },
  }),
  invoke,
  // A title request without tools may come first; the request with tools that holds the prompt is the turn.
  mainRequest: (candidates, prompt) => requestHoldingPrompt(WIRES, candidates, prompt),
  answersPrompt,
};
