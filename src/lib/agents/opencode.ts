/**
 * OpenCode (`opencode-ai`): OpenAI Chat Completions through a provider that
 * ~/.config/opencode/opencode.json declares with the bundled
 * `@ai-sdk/openai-compatible` package and points at the stub. Modes: print
 * (`opencode run <prompt>`) and interactive (`opencode --prompt <prompt>` in a
 * pseudo-terminal). The npm package's own launcher is written by an install
 * script; capture installs without scripts and runs the platform binary.
 */
import { join } from 'node:path';
import { mergeSettings, settingsText } from './settings.ts';
import { inPseudoTerminal, promptedRequestWithTools } from './shared.ts';
import { STUB_MCP_SERVER, type Agent, type Invocation, type InvocationContext, type JsonObject } from './types.ts';

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

function invoke(c: InvocationContext): Invocation {
  const files = new Map<string, string>([[join(c.home, SETTINGS_FILE), settingsText(mergeSettings(baseSettings(c.stubUrl, c.apiKey), c.settings))]]);
  const env: Record<string, string> = { ...c.baseEnv, OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', ...c.env };
  switch (c.mode) {
    case 'print':
      return { command: c.binary, args: ['run', ...c.args, c.prompt], env, input: { kind: 'argument' }, files };
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
  wires: ['openai-chat-completions'],
  binary: 'node_modules/opencode-linux-x64/bin/opencode',
  modes: ['print', 'interactive'],
  options: ['settings'],
  settingsFile: SETTINGS_FILE,
  mcpNaming: { family: '<server>_<tool>', isStubServerTool: (fullName) => fullName.startsWith(`${STUB_MCP_SERVER}_`) },
  invoke,
  // A title request without tools comes first.
  mainRequest: (candidates, prompt) => promptedRequestWithTools('opencode', candidates, prompt),
};
