/**
 * Grok CLI (`grok`, npm `@vibe-kit/grok-cli`), a Node program (`dist/index.js`, the TypeScript
 * compiler's output, not bundled): OpenAI Chat Completions through the `openai` client, pointed at
 * the stub by `GROK_BASE_URL` and `GROK_API_KEY` (read before ~/.grok/user-settings.json). Modes:
 * print (`grok -p <prompt>`, its headless mode: one request that is not streamed, every operation
 * approved) and interactive (`grok <prompt>`, its Ink interface, which streams).
 *
 * Its project settings file, `.grok/settings.json` in the working folder, holds the model and the
 * MCP servers (`mcpServers`, each entry naming itself in `name`); a configuration's `settings`
 * merge over the file this module writes there. `MORPH_API_KEY` set adds `edit_file` (Morph Fast
 * Apply). The model's name changes no tool: a name containing "grok" only lets it send live search
 * parameters (`search_parameters.mode` "auto" for prompts that look like they want recent news).
 *
 * MCP servers connect in the background after the agent is made, and the tool list of a request is
 * read before that: headless mode reads it once per prompt, so it never offers a server's tools, and
 * with a server configured it prints its answer but does not exit (the server's process keeps it
 * running: killed after 60 s here, as `grok mcp add` and `grok mcp test` are). Interactive mode reads
 * the list again each round, so the tools reach the turn's later requests only.
 *
 * Its `--version` prints 1.0.1 (a literal in dist/index.js), not the package's release. It also reads a
 * `.env` file of the working folder (dotenv), which the fresh work folder of a run does not have.
 */
import { join } from 'node:path';
import { wireFormat, type WireFormatId } from '../wire/index.ts';
import { pathOf } from '../wire/shared.ts';
import type { WireRequest } from '../wire/types.ts';
import { mergeSettings, settingsText } from './settings.ts';
import { inPseudoTerminal, lastUserMessageTexts, promptedRequestWithTools } from './shared.ts';
import type { Agent, Invocation, InvocationContext, JsonObject } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['openai-chat-completions'] as const satisfies readonly WireFormatId[];

/** The project settings file, relative to the working folder the run starts in. */
export const PROJECT_SETTINGS_FILE = '.grok/settings.json';

/** The model of every configuration that names none: the CLI's own default. */
export const DEFAULT_MODEL = 'grok-code-fast-1';

/** The project settings this module writes: the CLI's default model, as its first run would write it. */
export function projectSettings(settings: JsonObject | undefined): JsonObject {
  return mergeSettings({ model: DEFAULT_MODEL }, settings);
}

function invoke(c: InvocationContext): Invocation {
  const files = new Map<string, string>([
    [join(c.workdir, PROJECT_SETTINGS_FILE), settingsText(projectSettings(c.settings))],
  ]);
  const env = { ...c.baseEnv, GROK_BASE_URL: `${c.stubUrl}/v1`, GROK_API_KEY: c.apiKey, ...c.env };
  switch (c.mode) {
    case 'print':
      return { command: c.node, args: [c.binary, ...c.args, '-p', c.prompt], env, input: { kind: 'argument' }, files };
    case 'interactive':
      return { ...inPseudoTerminal([c.node, c.binary, ...c.args, c.prompt], env), files };
    default:
      throw new Error(`grok-cli has no mode ${c.mode}`);
  }
}

/**
 * The turn that answers the prompt: a request with tools whose last user message is the prompt. Print mode's
 * requests are not streamed, so the shared choice among streaming requests would miss them.
 */
export function answersPrompt(r: WireRequest, prompt: string): boolean {
  const wire = WIRES.map(wireFormat).find((w) => w.isToolRequestPath(pathOf(r.url)));
  return (
    wire !== undefined && wire.hasTools(r.json) && lastUserMessageTexts(r.json).some((t) => t.trim() === prompt.trim())
  );
}

export const grokCli: Agent<'grok-cli'> = {
  id: 'grok-cli',
  product: 'Grok CLI',
  npmPackage: '@vibe-kit/grok-cli',
  wires: WIRES,
  binary: 'node_modules/@vibe-kit/grok-cli/dist/index.js',
  modes: ['print', 'interactive'],
  options: ['settings'],
  mcpNaming: {
    none:
      'no capture shows its MCP tools: the request that answers a prompt is sent before the servers have ' +
      'connected (they connect in the background after start), and headless mode reads its tool list once per ' +
      'prompt. A run here in its interactive mode, with the stub MCP server configured under `mcpServers` in ' +
      '.grok/settings.json and a model reply that called view_file 4 s after the prompt, offered ' +
      'mcp__capture__echo (the server tool echo, its input schema as the server gave it) in the second request ' +
      'of the turn and not in the first, so the CLI names them mcp__<server>__<tool>; the capture runs take only ' +
      'the first request, which the interactive-mcp-server capture shows without them.',
  },
  captureHistory: {
    none:
      'the registry lists one release of it, 0.0.34 (npm view @vibe-kit/grok-cli versions: ["0.0.34"]), so there ' +
      'is no earlier release to compare it with. A history run over it (configurations print, interactive and ' +
      'morph) read that release and found nothing to compare; the plan is to be declared once a second release ' +
      'is published.',
  },
  inventory: {
    none:
      'its tools are two literal arrays in dist/grok/tools.js (seven base tools and edit_file, added when ' +
      'MORPH_API_KEY is set); the captures are the list the site shows.',
  },
  publishedTypes: {
    none:
      'its package ships TypeScript declarations of its own classes, but none of the tool inputs; they are read ' +
      'from the captures.',
  },
  generatedDeclarations: false,
  hooks: {
    none:
      'it has no hooks: nothing in the pinned package (dist/, the TypeScript output of its sources) runs a ' +
      'command or a function of its user around a tool call. Its dist/hooks/ folder holds React hooks of its ' +
      'terminal interface (use-input-handler, use-input-history, use-enhanced-input), and its two settings ' +
      'files take only apiKey, baseURL, defaultModel, models and settingsVersion (~/.grok/user-settings.json) ' +
      'and model and mcpServers (.grok/settings.json).',
  },
  permissions: {
    none:
      'it has no permission rules to write: its confirmations are asked one operation at a time. In its ' +
      'interactive interface create_file, str_replace_editor (and edit_file) and bash each open a dialog ' +
      '(dist/utils/confirmation-service.js), where the user approves or rejects the call, or approves every ' +
      'file operation or every bash command for the rest of the session, and shift+tab turns an auto-edit ' +
      'mode on that approves everything (dist/hooks/use-input-handler.js); nothing of that is saved. Headless ' +
      'mode (-p) approves every operation before it starts (setSessionFlag("allOperations", true) in ' +
      'dist/index.js). No file or flag sets a rule, so no permission case can be written.',
  },
  invoke,
  mainRequest: (candidates, prompt) =>
    (prompt === undefined ? undefined : candidates.find((r) => answersPrompt(r, prompt))) ??
    promptedRequestWithTools(WIRES, candidates, prompt),
  answersPrompt,
};
