/**
 * GitHub Copilot CLI (`@github/copilot`) in its bring-your-own-key mode, which
 * needs no account: COPILOT_PROVIDER_BASE_URL points at the stub, offline (no
 * GitHub services). It speaks OpenAI Chat Completions by default, OpenAI
 * Responses with COPILOT_PROVIDER_WIRE_API=responses and Anthropic Messages
 * with COPILOT_PROVIDER_TYPE=anthropic (whose SDK adds `/v1` itself). Modes:
 * print (`copilot -p <prompt>`) and interactive (`copilot -i <prompt>` in a
 * pseudo-terminal). The first run unpacks the CLI under ~/.cache/copilot.
 */
import { inPseudoTerminal, promptedRequestWithTools } from './shared.ts';
import { STUB_MCP_SERVER, type Agent, type Invocation, type InvocationContext } from './types.ts';

export const DEFAULT_MODEL = 'gpt-4.1';

function invoke(c: InvocationContext): Invocation {
  const anthropic = c.env['COPILOT_PROVIDER_TYPE'] === 'anthropic';
  const env: Record<string, string> = {
    ...c.baseEnv,
    COPILOT_PROVIDER_BASE_URL: anthropic ? c.stubUrl : `${c.stubUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: c.apiKey,
    COPILOT_MODEL: DEFAULT_MODEL,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    ...c.env,
  };
  const files = new Map<string, string>();
  switch (c.mode) {
    case 'print':
      return { command: c.binary, args: ['-p', c.prompt, ...c.args], env, input: { kind: 'argument' }, files };
    case 'interactive':
      return { ...inPseudoTerminal([c.binary, '-i', c.prompt, ...c.args], env), files };
    default:
      throw new Error(`copilot-cli has no mode ${c.mode}`);
  }
}

export const copilotCli: Agent<'copilot-cli'> = {
  id: 'copilot-cli',
  product: 'GitHub Copilot CLI',
  npmPackage: '@github/copilot',
  wires: ['openai-chat-completions', 'openai-responses', 'anthropic-messages'],
  binary: 'node_modules/@github/copilot-linux-x64/copilot',
  modes: ['print', 'interactive'],
  options: [],
  mcpNaming: { family: '<server>-<tool>', isStubServerTool: (fullName) => fullName.startsWith(`${STUB_MCP_SERVER}-`) },
  invoke,
  // The user message starts with <current_datetime>…</current_datetime> before the prompt.
  mainRequest: (candidates, prompt) => promptedRequestWithTools('copilot-cli', candidates, prompt),
};
