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
import { STUB_MCP_SERVER, type Agent, type Invocation, type InvocationContext, type JsonObject } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['openai-chat-completions'] as const satisfies readonly WireFormatId[];

const SETTINGS_FILE = '.config/opencode/opencode.json';
export const STUB_MODEL = 'stub-model';

/** A provider `stub` with one model, used for the main model and the small (title) model. */
export function baseSettings(stubUrl: string, apiKey: string): JsonObject {
  return {
    provider: {
      stub: { npm: '@ai-sdk/openai-compatible', name: 'Stub', options: { baseURL: `${stubUrl}/v1`, apiKey }, models: { [STUB_MODEL]: { name: 'Stub model' } } },
    },
    model: `stub/${STUB_MODEL}`,
    small_model: `stub/${STUB_MODEL}`,
  };
}

/** The prompt as separate words (see above); `opencode run` joins them with single spaces. */
export function promptWords(prompt: string): string[] {
  const words = prompt.split(' ');
  if (words.some((w) => w === '' || w.startsWith('-') || /\s/.test(w))) throw new Error(`opencode: the prompt ${JSON.stringify(prompt)} cannot be passed word by word`);
  return words;
}

function invoke(c: InvocationContext): Invocation {
  const files = new Map<string, string>([[join(c.home, SETTINGS_FILE), settingsText(mergeSettings(baseSettings(c.stubUrl, c.apiKey), c.settings))]]);
  const env: Record<string, string> = { ...c.baseEnv, OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', ...c.env };
  switch (c.mode) {
    case 'print':
      return { command: c.binary, args: ['run', ...c.args, ...promptWords(c.prompt)], env, input: { kind: 'argument' }, files };
    case 'interactive':
      return { ...inPseudoTerminal([c.binary, '--prompt', c.prompt, ...c.args], env), files };
    default:
      throw new Error(`opencode has no mode ${c.mode}`);
  }
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
  mcpNaming: { family: '<server>_<tool>', isStubServerTool: (fullName) => fullName.startsWith(`${STUB_MCP_SERVER}_`) },
  captureHistory: { none: 'its configurations have not been run against earlier releases.' },
  inventory: { none: 'nobody has located its tool registry inside the installed package; its captures are the only list of its tools.' },
  publishedTypes: { none: 'no package of TypeScript types of its tools is read yet; their inputs are read from the captures.' },
  generatedDeclarations: false,
  hooks: { none: 'not recorded yet: its hooks are plugin functions (tool.execute.before and tool.execute.after), not commands, so recording needs a plugin that writes what they receive; none exists here yet.' },
  invoke,
  // A title request without tools comes first (print mode); the prompted request with tools is the turn.
  mainRequest: (candidates, prompt) => promptedRequestWithTools(WIRES, candidates, prompt),
};
