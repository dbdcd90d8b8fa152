/**
 * Gemini CLI (`@google/gemini-cli`): the Gemini API against
 * GOOGLE_GEMINI_BASE_URL, authenticated by an API key that
 * ~/.gemini/settings.json selects. Modes: print (`gemini -p <prompt>`) and
 * interactive (`gemini -i <prompt>` in a pseudo-terminal). `--skip-trust`
 * spares the folder-trust question, which headless mode otherwise answers by
 * exiting.
 */
import type { WireFormatId } from '../wire/index.ts';
import { join } from 'node:path';
import { mergeSettings, settingsText } from './settings.ts';
import { inPseudoTerminal, promptedRequestWithTools } from './shared.ts';
import { STUB_MCP_SERVER, type Agent, type Invocation, type InvocationContext, type JsonObject } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['gemini-api'] as const satisfies readonly WireFormatId[];

const SETTINGS_FILE = '.gemini/settings.json';

/** API-key authentication (else the auth type is "gateway" and headless mode refuses); no usage statistics. */
export const BASE_SETTINGS: JsonObject = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
};

function invoke(c: InvocationContext): Invocation {
  const files = new Map<string, string>([[join(c.home, SETTINGS_FILE), settingsText(mergeSettings(BASE_SETTINGS, c.settings))]]);
  const env: Record<string, string> = { ...c.baseEnv, GEMINI_API_KEY: c.apiKey, GOOGLE_GEMINI_BASE_URL: c.stubUrl, ...c.env };
  // The CLI is a Node.js script (bundle/gemini.js).
  switch (c.mode) {
    case 'print':
      return { command: c.node, args: [c.binary, '--skip-trust', '-p', c.prompt, ...c.args], env, input: { kind: 'argument' }, files };
    case 'interactive':
      return { ...inPseudoTerminal([c.node, c.binary, '--skip-trust', '-i', c.prompt, ...c.args], env), files };
    default:
      throw new Error(`gemini-cli has no mode ${c.mode}`);
  }
}

export const geminiCli: Agent<'gemini-cli'> = {
  id: 'gemini-cli',
  product: 'Gemini CLI',
  npmPackage: '@google/gemini-cli',
  wires: WIRES,
  binary: 'node_modules/@google/gemini-cli/bundle/gemini.js',
  modes: ['print', 'interactive'],
  options: ['settings'],
  settingsFile: SETTINGS_FILE,
  mcpNaming: { family: 'mcp_<server>_<tool>', isStubServerTool: (fullName) => fullName.startsWith(`mcp_${STUB_MCP_SERVER}_`) },
  captureHistory: { configurations: ['print', 'approval-yolo'], step: 4, range: { last: 20 } },
  inventory: { none: 'nobody has located its tool registry inside the installed package; its captures are the only list of its tools.' },
  publishedTypes: { ingest: 'scripts/ingest-gemini-core.ts', withCli: true },
  generatedDeclarations: false,
  hooks: { none: 'not recorded yet: the stub can make Gemini API tool calls, but no run has recorded what its BeforeTool and AfterTool hooks receive; they carry no call id, so a recording has to match hook payloads to calls by their order.' },
  invoke,
  // With the default `auto` model a routing call (generateContent, not streamed) comes first: it
  // carries the prompt but no tools. An explicit -m model and plan mode skip it, so the streamed turn
  // is the only request. Tools that call a model themselves (google_web_search, web_fetch) and
  // subagents send later requests whose user text is not the prompt. Checked against every 0.61.0
  // configuration of the matrix (test/unit/agent-gemini-cli.test.ts).
  mainRequest: (candidates, prompt) => promptedRequestWithTools(WIRES, candidates, prompt),
};
