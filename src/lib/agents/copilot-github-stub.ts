/**
 * The GitHub side of Copilot CLI's stand-in login: what the recording stub answers a CLI that
 * believes it is signed in to GitHub (Copilot CLI given a made-up token, with its GitHub and
 * Copilot API endpoints pointed at the stub: ./copilot-cli.ts, which hands githubReply to the
 * runner as its invocation's `services`). Every answer is made up here, from the login's data;
 * nothing is copied from a real service. Pure: a request in, a reply or undefined out
 * (undefined: not a GitHub endpoint, so the model wire formats answer it, or the 404).
 *
 * Answered (the Copilot API routes with or without a `/v1` prefix, since the CLI is given
 * `<stub>/v1` as its Copilot API for OpenAI models and `<stub>` for Anthropic ones):
 * - `GET /copilot_internal/user`: the signed-in user (login, plan, chat enabled);
 * - `GET /models`: the model catalogue, each model with the request paths it takes;
 * - `POST /mcp/readonly`: the remote GitHub MCP server, as a JSON-RPC server that offers
 *   exactly the tools the CLI asks for in its `X-MCP-Tools` header, each with an empty
 *   input schema and a description saying it is a stand-in.
 * Everything else the CLI asks (managed settings, team customizations, memory, auto
 * model routing) gets the stub's 404, which the CLI takes as "nothing there".
 */
import type { StubReply } from '../wire/types.ts';
import type { StubRequest } from './types.ts';

/** One model of a stand-in login's catalogue: its id and the request paths the stub says it takes. */
export interface StandInModel {
  id: string;
  /**
   * Copilot API paths (`/chat/completions`, `/responses`, `/v1/messages`): which wire format the CLI may use for it.
   */
  endpoints: readonly string[];
}

/** The made-up data the stub answers a signed-in CLI with (no account: nothing here is real). */
export interface GithubLoginStub {
  /** The user name the stub reports. */
  login: string;
  /** The model catalogue the stub serves, in order. */
  models: readonly StandInModel[];
}

/** How the stand-in GitHub MCP server begins every tool description it makes up (standInMcpTool). */
export const STAND_IN_TOOL_PREFIX = "Stand-in for the GitHub MCP server's ";

/** The user name the stand-in login reports. */
export const STAND_IN_LOGIN = 'capture-stand-in';

/**
 * The model catalogue the stub serves a signed-in run (made up: the real catalogue depends
 * on the account). Each model takes one request path, so the stub, not the CLI, decides
 * which wire format each model is asked over: Chat Completions, Responses or Anthropic
 * Messages. gpt-4.1 is listed, but the pinned CLI refuses it signed in ("not available",
 * then its default gpt-5.4): the gpt-4.1 configuration's capture names the model it used.
 */
export const STAND_IN_MODELS: readonly StandInModel[] = [
  { id: 'gpt-4.1', endpoints: ['/chat/completions'] },
  { id: 'gpt-4o', endpoints: ['/chat/completions'] },
  { id: 'gpt-5.4', endpoints: ['/responses'] },
  { id: 'gpt-5.5', endpoints: ['/responses'] },
  { id: 'claude-sonnet-4.5', endpoints: ['/v1/messages'] },
];

/** The stand-in login every signed-in run gets. */
export const STAND_IN: GithubLoginStub = { login: STAND_IN_LOGIN, models: STAND_IN_MODELS };

/** The MCP path of the remote GitHub server under the Copilot API. */
export const MCP_PATH = '/mcp/readonly';
/** The header in which the CLI names the GitHub MCP tools it wants. */
export const MCP_TOOLS_HEADER = 'x-mcp-tools';
const SERVER_INFO = { name: 'capture-stub-github-mcp', version: '0.0.0' };

function json(body: unknown, status = 200): StubReply {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

/** `path` without a leading `/v1`, when it has one: the Copilot API route it names. */
export function copilotApiRoute(path: string): string {
  return path === '/v1' ? '/' : path.startsWith('/v1/') ? path.slice(3) : path;
}

/** A catalogue entry: the smallest model record the CLI accepts, every value made up. */
export function modelRecord(model: StandInModel): Record<string, unknown> {
  return {
    id: model.id,
    name: model.id,
    object: 'model',
    vendor: 'capture-stub',
    version: model.id,
    model_picker_enabled: true,
    preview: false,
    capabilities: {
      family: model.id,
      type: 'chat',
      limits: { max_context_window_tokens: 128000, max_output_tokens: 16384, max_prompt_tokens: 128000 },
      supports: { streaming: true, tool_calls: true, parallel_tool_calls: true },
    },
    policy: { state: 'enabled' },
    supported_endpoints: [...model.endpoints],
  };
}

/** The tools the CLI asks for in `X-MCP-Tools` (comma-separated), in its order, without blanks or repeats. */
export function requestedMcpTools(headers: Readonly<Record<string, string>>): string[] {
  const raw = Object.entries(headers).find(([k]) => k.toLowerCase() === MCP_TOOLS_HEADER)?.[1] ?? '';
  return [
    ...new Set(
      raw
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
}

/**
 * A stand-in tool of the GitHub MCP server: the name the CLI asked for, no parameters, a description that says what it
 * is.
 */
export function standInMcpTool(name: string): {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, never> };
} {
  return {
    name,
    description:
      `${STAND_IN_TOOL_PREFIX}${name}, made up by the capture stub: the real server describes this tool ` +
      `and its parameters.`,
    inputSchema: { type: 'object', properties: {} },
  };
}

type Id = string | number | null;

/** The JSON-RPC reply of the stand-in GitHub MCP server to one message; a notification gets 202 and no body. */
export function mcpReply(message: unknown, headers: Readonly<Record<string, string>>): StubReply {
  const m = (message ?? {}) as { id?: Id; method?: unknown; params?: Record<string, unknown> };
  if (m.id === undefined || typeof m.method !== 'string')
    return { status: 202, contentType: 'application/json', body: '' };
  const ok = (result: unknown): StubReply => json({ jsonrpc: '2.0', id: m.id, result });
  switch (m.method) {
    case 'initialize':
      return ok({
        protocolVersion: typeof m.params?.['protocolVersion'] === 'string' ? m.params['protocolVersion'] : '2025-06-18',
        capabilities: { tools: { listChanged: false } },
        serverInfo: SERVER_INFO,
      });
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({ tools: requestedMcpTools(headers).map(standInMcpTool) });
    case 'tools/call':
      return ok({ content: [{ type: 'text', text: 'The capture stub has no GitHub data.' }], isError: true });
    default:
      return json({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `method not found: ${m.method}` } });
  }
}

/**
 * The stub's answer to a GitHub or Copilot API request of a signed-in CLI, or undefined for any other request: a
 * signed-in invocation's `services` (one function, the same every time, so that two invocations compare equal).
 */
export function githubReply(req: StubRequest, login: GithubLoginStub = STAND_IN): StubReply | undefined {
  if (req.method === 'GET' && req.path === '/copilot_internal/user') {
    return json({ login: login.login, copilot_plan: 'individual', chat_enabled: true });
  }
  const route = copilotApiRoute(req.path);
  if (req.method === 'GET' && route === '/models') return json({ data: login.models.map(modelRecord) });
  if (req.method === 'POST' && route === MCP_PATH) return mcpReply(req.json, req.headers);
  return undefined;
}
