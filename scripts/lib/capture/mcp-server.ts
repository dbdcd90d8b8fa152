/**
 * A tiny MCP server over stdio (newline-delimited JSON-RPC 2.0), for the capture runs
 * that configure one: it offers one tool (`echo`) and one resource (`capture://readme`),
 * so that the CLIs show what an MCP server adds to their tool list.
 *
 * Run: node scripts/lib/capture/mcp-server.ts
 */
import { createInterface } from 'node:readline';

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

const README_RESOURCE = {
  uri: 'capture://readme',
  name: 'readme',
  title: 'Readme',
  description: 'A short text resource offered by the capture stub.',
  mimeType: 'text/plain',
};

type Id = string | number | null;
interface Message { jsonrpc?: string; id?: Id; method?: string; params?: Record<string, unknown> }

/** The reply to one request (undefined for notifications and unknown notifications). */
export function handle(message: Message): unknown {
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
      return ok({ tools: [ECHO_TOOL] });
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
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }) + '\n');
      return;
    }
    const reply = handle(message);
    if (reply !== undefined) process.stdout.write(JSON.stringify(reply) + '\n');
  });
  lines.on('close', () => process.exit(0));
}
