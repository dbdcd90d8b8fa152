/**
 * A tiny MCP server over stdio (newline-delimited JSON-RPC 2.0), for the capture runs
 * that configure one: it offers one tool (`echo`) and one resource (`capture://readme`),
 * so that the CLIs show what an MCP server adds to their tool list.
 *
 * Optionally, CAPTURE_MCP_TOOLS=N (an integer from 0 to MAX_EXTRA_TOOLS) adds N numbered
 * tools after `echo` (`tool_01`, `tool_02`, …, each echoing its text), for configurations
 * that need many MCP tools (e.g. to make a CLI defer them behind tool search). Unset, empty
 * or 0, the server offers exactly what it offers without the variable.
 *
 * When $HOME/.capture-mcp-calls.log exists (permission runs create it), the server appends
 * a line when it starts and one per tools/call: the evidence that a call reached it.
 *
 * Run: node scripts/lib/capture/mcp-server.ts
 */
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The call log, relative to HOME; absent, nothing is logged. */
export const CALL_LOG = '.capture-mcp-calls.log';

const SERVER_INFO = { name: 'capture-stub', version: '1.0.0' };
const DEFAULT_PROTOCOL = '2025-06-18';

const ECHO_TOOL = {
  name: 'echo',
  title: 'Echo',
  description: 'Returns the given text unchanged.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'Text to return.' } },
    required: ['text'],
    additionalProperties: false,
  },
};

/** The most numbered tools CAPTURE_MCP_TOOLS may ask for. */
export const MAX_EXTRA_TOOLS = 99;

/**
 * The value of CAPTURE_MCP_TOOLS as a number of extra tools: unset or empty is 0; anything but an integer
 * 0…MAX_EXTRA_TOOLS throws.
 */
export function extraToolCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0;
  const text = value.trim();
  if (!/^\d+$/.test(text) || Number(text) > MAX_EXTRA_TOOLS) {
    throw new Error(`CAPTURE_MCP_TOOLS must be an integer from 0 to ${MAX_EXTRA_TOOLS}, not ${JSON.stringify(value)}`);
  }
  return Number(text);
}

/** Numbered extra tool `n` (1-based): `tool_01`, with the same input as `echo`. */
export function numberedTool(n: number): typeof ECHO_TOOL {
  const name = `tool_${String(n).padStart(2, '0')}`;
  return {
    ...ECHO_TOOL,
    name,
    title: `Tool ${n}`,
    description: `Numbered extra tool ${n} of the capture stub; returns the given text unchanged.`,
  };
}

/** The tools offered: `echo`, then `extra` numbered tools. */
export function toolList(extra = 0): (typeof ECHO_TOOL)[] {
  return [ECHO_TOOL, ...Array.from({ length: extra }, (_, i) => numberedTool(i + 1))];
}

const README_RESOURCE = {
  uri: 'capture://readme',
  name: 'readme',
  title: 'Readme',
  description: 'A short text resource offered by the capture stub.',
  mimeType: 'text/plain',
};

type Id = string | number | null;
interface Message {
  jsonrpc?: string;
  id?: Id;
  method?: string;
  params?: Record<string, unknown>;
}

/**
 * The reply to one request (undefined for notifications and unknown notifications); `extraTools` numbered tools are
 * listed after `echo`.
 */
export function handle(message: Message, extraTools = 0): unknown {
  const { id, method, params } = message;
  if (id === undefined || typeof method !== 'string') return undefined;
  const ok = (result: unknown): unknown => ({ jsonrpc: '2.0', id, result });
  switch (method) {
    case 'initialize':
      return ok({
        protocolVersion: typeof params?.['protocolVersion'] === 'string' ? params['protocolVersion'] : DEFAULT_PROTOCOL,
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } },
        serverInfo: SERVER_INFO,
      });
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({ tools: toolList(extraTools) });
    case 'tools/call': {
      const args = (params?.['arguments'] ?? {}) as { text?: unknown };
      return ok({ content: [{ type: 'text', text: String(args.text ?? '') }], isError: false });
    }
    case 'resources/list':
      return ok({ resources: [README_RESOURCE] });
    case 'resources/templates/list':
      return ok({ resourceTemplates: [] });
    case 'resources/read':
      return ok({ contents: [{ uri: README_RESOURCE.uri, mimeType: 'text/plain', text: 'capture stub resource' }] });
    case 'prompts/list':
      return ok({ prompts: [] });
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: `method not found: ${method}` } };
  }
}

if (import.meta.main) {
  let extraTools: number;
  try {
    extraTools = extraToolCount(process.env['CAPTURE_MCP_TOOLS']);
  } catch (error) {
    process.stderr.write(`capture MCP server: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const home = process.env['HOME'];
  const callLog = home !== undefined && existsSync(join(home, CALL_LOG)) ? join(home, CALL_LOG) : undefined;
  const log = (entry: unknown): void => {
    if (callLog !== undefined) appendFileSync(callLog, JSON.stringify(entry) + '\n');
  };
  log({ started: true });
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      process.stdout.write(
        JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }) + '\n',
      );
      return;
    }
    if (message.method === 'tools/call')
      log({ call: message.params?.['name'] ?? null, arguments: message.params?.['arguments'] ?? null });
    const reply = handle(message, extraTools);
    if (reply !== undefined) process.stdout.write(JSON.stringify(reply) + '\n');
  });
  lines.on('close', () => process.exit(0));
}
