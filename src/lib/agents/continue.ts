/**
 * Continue's command line (`cn`, npm `@continuedev/cli`, which calls itself "Continue CLI"), a
 * Node program (`dist/cn.js`): OpenAI Chat Completions through a model that a config file
 * declares with `provider: openai` and an `apiBase` at the stub. The file is
 * ~/.continue/config.yaml, written as JSON (which YAML reads as it is), and handed over with
 * `--config`; a configuration's `settings` merge over it, and each model it declares gets the
 * stub's `apiBase` and key unless it names its own. One mode: print (`cn -p --config <file>
 * <args> <prompt>`).
 *
 * The model's name decides one tool: a model whose name or id matches none of the families the
 * CLI trusts with multi-edits (gpt, claude, gemini, qwen … in its bundle) gets `Edit` where the
 * others get `MultiEdit`. `Search` is offered only when `rg --version` succeeds (from after 1.5.11;
 * 1.5.11 offers it without the check), so its runs need ripgrep on PATH (requiresCommands): without
 * it, every capture would lack Search and its history would record a removal that is the machine's.
 */
import { join } from 'node:path';
import type { WireFormatId } from '../wire/index.ts';
import type { WireRequest } from '../wire/types.ts';
import { isObject } from '../wire/shared.ts';
import { mergeSettings, settingsText } from './settings.ts';
import { holdsPromptWithTools, requestHoldingPrompt } from './shared.ts';
import type { Agent, Invocation, InvocationContext, JsonObject } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['openai-chat-completions'] as const satisfies readonly WireFormatId[];

const CONFIG_FILE = '.continue/config.yaml';

/** The model every configuration uses unless its settings declare others: an id of a family the CLI trusts. */
export const STUB_MODEL = 'gpt-4o';

/** The config file's own keys: one chat model at the stub. */
export function baseConfig(): JsonObject {
  return {
    name: 'stub',
    version: '0.0.1',
    schema: 'v1',
    models: [{ name: 'stub', provider: 'openai', model: STUB_MODEL, roles: ['chat'] }],
  };
}

/** The config with every model pointed at the stub, where it does not say where it is served itself. */
export function stubConfig(settings: JsonObject | undefined, stubUrl: string, apiKey: string): JsonObject {
  const config = mergeSettings(baseConfig(), settings);
  const models = config['models'];
  if (Array.isArray(models))
    config['models'] = models.map((m: unknown) =>
      isObject(m) ? { ...m, apiBase: m['apiBase'] ?? `${stubUrl}/v1`, apiKey: m['apiKey'] ?? apiKey } : m,
    );
  return config;
}

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'print') throw new Error(`continue has no mode ${c.mode}`);
  const config = join(c.home, CONFIG_FILE);
  return {
    command: c.node,
    args: [c.binary, '-p', '--config', config, ...c.args, c.prompt],
    // No telemetry: its uploads would only fail inside the namespace.
    env: { ...c.baseEnv, CONTINUE_CLI_ENABLE_TELEMETRY: '0', ...c.env },
    input: { kind: 'argument' },
    files: new Map([[config, settingsText(stubConfig(c.settings, c.stubUrl, c.apiKey))]]),
  };
}

/** The turn that answers the prompt: the prompt is the last user message, after its system message. */
export const answersPrompt = (r: WireRequest, prompt: string): boolean => holdsPromptWithTools(WIRES, r, prompt);

/** The tools of the stub MCP server, which the CLI offers under their own names, without the server's. */
const isStubServerTool = (fullName: string): boolean => fullName === 'echo' || /^tool_\d+$/.test(fullName);

export const continueCli: Agent<'continue'> = {
  id: 'continue',
  product: 'Continue CLI',
  npmPackage: '@continuedev/cli',
  wires: WIRES,
  binary: 'node_modules/@continuedev/cli/dist/cn.js',
  modes: ['print'],
  options: ['settings'],
  settingsFile: CONFIG_FILE,
  mcpNaming: { configuration: 'mcp-server', family: '<tool>', isStubServerTool },
  requiresCommands: [
    {
      command: 'rg',
      why:
        'its Search tool is offered only when `rg --version` succeeds (later releases than 1.5.11 check for ' +
        'ripgrep); install ripgrep (Debian: apt-get install ripgrep)',
    },
  ],
  captureHistory: {
    configurations: ['print', 'auto', 'auto-other-model', 'beta-subagent'],
    step: 1,
    range: { from: '1.5.11' },
  },
  inventory: {
    none:
      'no inventory method reads its bundle yet: dist/index.js holds one array of its built-in tool ' +
      'definitions (17 of them, Search, Status, Diff, ReportFailure and UploadArtifact among them), but the ' +
      'captures are the only list the site shows.',
  },
  publishedTypes: {
    none: 'no package of TypeScript types of its tools is read yet; their inputs are read from the captures.',
  },
  generatedDeclarations: false,
  hooks: {
    none:
      'its hooks never run, so there is nothing to record: the pinned bundle (dist/index.js) reads hooks written ' +
      "as Claude Code writes them from ~/.claude/settings.json, ~/.continue/settings.json and the project's " +
      '.claude/ and .continue/ settings.json and settings.local.json, and its hooks service has a method that ' +
      'runs them for an event, but nothing in the bundle calls that method. A run here with PreToolUse, ' +
      'PostToolUse, SessionStart and UserPromptSubmit hooks in four of those files logged "Hooks loaded: 16 ' +
      'handler(s) across 4 event type(s)" with --verbose, ran the Bash call the stub made, and ran none of the ' +
      'hooks. 1.5.26 has no hooks at all.',
  },
  permissions: {
    none:
      'No permission case can run yet: the cases are driven through its hook payload runs, and its hooks never ' +
      'run (its hooks page says why). Its rules are tool policies (allow, ask, exclude) given as `--allow`, ' +
      '`--ask` and `--exclude` or written to ~/.continue/permissions.yaml, which a first run creates. In a ' +
      'headless run a tool left at ask is not offered at all, as the captures show: `--ask Bash` and ' +
      '`--exclude Bash` both leave Bash out, `--allow Write` adds Write, and `--auto` allows every tool.',
  },
  invoke,
  mainRequest: (candidates, prompt) => requestHoldingPrompt(WIRES, candidates, prompt),
  answersPrompt,
};
