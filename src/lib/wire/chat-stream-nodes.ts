/**
 * Chat stream with request nodes (`POST /chat-stream` on a tenant's API URL): a vendor service's
 * own request shape, neither OpenAI's nor Anthropic's. The client sends one JSON body per turn:
 * the new turn's `nodes` (type 0: a text node `{text_node: {content}}`, the prompt; type 1: a
 * tool result `{tool_result_node: {tool_use_id, content, is_error}}`; type 4: the IDE state), the
 * earlier turns in `chat_history` (each with its `request_nodes` and `response_nodes`), `mode`
 * (`CLI_NONINTERACTIVE` …), `model` (empty for the service's default) and the tools in
 * `tool_definitions`: `{name, description, input_schema_json, tool_safety}`, whose input
 * schema is JSON text, not an object.
 *
 * The reply streams back as newline-delimited JSON: each line a chunk `{text, nodes,
 * stop_reason?}`; a response node of type 0 holds text (`content`), one of type 5 a tool call
 * (`tool_use: {tool_use_id, tool_name, input_json}`, its input as JSON text); `stop_reason` 1
 * ends the turn, 3 asks for the tool calls to be run. The stub's replies follow that shape and
 * are made up here.
 */
import type { Definition } from '../core/content-types.ts';
import type { JsonRecord } from '../core/json.ts';
import { asRecord, defineWireFormat, isObject, makeTool, pointer, STUB_REPLY_TEXT } from './shared.ts';
import {
  CaptureFormatError,
  type CapturedTool,
  type ExtractContext,
  type StubReply,
  type StubToolCall,
  type ToolCallWire,
  type ToolCount,
} from './types.ts';

export const REQUEST_PATH = '/chat-stream';

/** Keys of the request body kept in a capture (in the order sent, not this order). */
export const KEPT_KEYS = [
  'model',
  'mode',
  'tool_definitions',
  'enable_parallel_tool_use',
  'feature_detection_flags',
] as const;

/** Request node types (the client's numbering). */
export const NODE = { text: 0, toolResult: 1, ideState: 4 } as const;
/** Response node types. */
export const RESPONSE_NODE = { text: 0, toolUse: 5 } as const;
/** Stop reasons: the turn ended; tool calls are asked for. */
export const STOP = { endTurn: 1, toolUse: 3 } as const;

// ---------------------------------------------------------------------------
// Recording

/** Why `body` is not a chat-stream request body. */
export function problem(body: unknown): string | undefined {
  if (!isObject(body)) return 'the body is not a JSON object';
  if (!Array.isArray(body['nodes'])) return 'it has no `nodes` array';
  if (body['tool_definitions'] !== undefined && !Array.isArray(body['tool_definitions']))
    return '`tool_definitions` is not an array';
  if (body['model'] !== undefined && body['model'] !== null && typeof body['model'] !== 'string')
    return '`model` is not a string';
  return undefined;
}

/** The content of the last text node of the turn's `nodes` (the prompt), or undefined when it has none. */
export function lastUserText(body: unknown): string | undefined {
  if (!isObject(body) || !Array.isArray(body['nodes'])) return undefined;
  const texts = body['nodes'].flatMap((n) => {
    if (!isObject(n) || n['type'] !== NODE.text || !isObject(n['text_node'])) return [];
    const content = n['text_node']['content'];
    return typeof content === 'string' ? [content] : [];
  });
  return texts.at(-1);
}

/** Does the body offer tools (a non-empty `tool_definitions`)? */
export function hasTools(body: unknown): boolean {
  return isObject(body) && Array.isArray(body['tool_definitions']) && body['tool_definitions'].length > 0;
}

/** The model the body names; an empty `model` (the service's default) names none. */
export function requestModel(request: { json: unknown }): string | undefined {
  const m = isObject(request.json) ? request.json['model'] : undefined;
  return typeof m === 'string' && m !== '' ? m : undefined;
}

/** The tool-related keys of a request body, verbatim and in the order sent. */
export function captureBody(body: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) if ((KEPT_KEYS as readonly string[]).includes(key)) out[key] = value;
  return out;
}

export function countTools(body: JsonRecord): ToolCount {
  const count: ToolCount = { tools: 0, namespaces: 0, deferred: 0, nested: 0, names: [] };
  for (const tool of Array.isArray(body['tool_definitions']) ? body['tool_definitions'] : []) {
    count.tools++;
    count.names.push(isObject(tool) && typeof tool['name'] === 'string' ? tool['name'] : '?');
  }
  return count;
}

/** Newline-delimited JSON: one chunk a line. */
export function ndjson(chunks: readonly unknown[]): string {
  return chunks.map((c) => JSON.stringify(c) + '\n').join('');
}

/** The chunks of a finished turn holding `text`: the text node, then the end of the turn. */
export function replyChunks(text = STUB_REPLY_TEXT): JsonRecord[] {
  return [
    { text, nodes: [{ id: 1, type: RESPONSE_NODE.text, content: text }] },
    { text: '', nodes: [], stop_reason: STOP.endTurn },
  ];
}

const isRequest = (request: { method: string; path: string }): boolean =>
  request.method === 'POST' && request.path === REQUEST_PATH;

export function stubReply(request: { method: string; path: string; json: unknown }): StubReply | undefined {
  if (!isRequest(request)) return undefined;
  return { status: 200, contentType: 'application/json', body: ndjson(replyChunks()) };
}

// ---------------------------------------------------------------------------
// Tool calls (payload runs)

/** The chunks of a turn that makes `call`: a tool-use node, then the stop reason that asks for it to run. */
export function toolCallChunks(call: StubToolCall & { input: Record<string, unknown> }): JsonRecord[] {
  return [
    {
      text: '',
      nodes: [
        {
          id: 1,
          type: RESPONSE_NODE.toolUse,
          content: '',
          tool_use: { tool_use_id: call.id, tool_name: call.tool, input_json: JSON.stringify(call.input) },
        },
      ],
    },
    { text: '', nodes: [], stop_reason: STOP.toolUse },
  ];
}

/** A call's result is a `tool_result_node` of the next turn's `nodes`, naming the call's id. */
const toolCalls: ToolCallWire = {
  callKind: () => 'tool_use',
  callId: (index) => `toolu_stub_${index + 1}`,
  callReply(request, call) {
    if (!isRequest(request) || typeof call.input === 'string') return undefined;
    return {
      status: 200,
      contentType: 'application/json',
      body: ndjson(toolCallChunks({ ...call, input: call.input })),
    };
  },
  findResult(body, id) {
    if (!isObject(body) || !Array.isArray(body['nodes'])) return undefined;
    return body['nodes'].find(
      (n): n is JsonRecord =>
        isObject(n) &&
        n['type'] === NODE.toolResult &&
        isObject(n['tool_result_node']) &&
        n['tool_result_node']['tool_use_id'] === id,
    );
  },
  resultText(result) {
    const node = result['tool_result_node'];
    const content = isObject(node) ? node['content'] : undefined;
    return typeof content === 'string' ? content : '';
  },
};

// ---------------------------------------------------------------------------
// Extraction

const NO_RESULT: Definition = {
  kind: 'unavailable',
  reason:
    'The model-facing tool list declares inputs only; the result reaches the model as the text of a tool result node.',
};

function extractTool(raw: unknown, at: string, context: ExtractContext): CapturedTool {
  const t = asRecord(raw, at, 'the tool');
  const { name, description, input_schema_json: schemaText, ...rest } = t;
  if (typeof name !== 'string') throw new CaptureFormatError('a tool definition has no name', at);
  const schemaAt = pointer(at, 'input_schema_json');
  let input: Definition;
  if (schemaText === undefined || schemaText === '') {
    input = {
      kind: 'json-schema',
      schema: { type: 'object' },
      origin: context.origin,
      absentMember: 'input_schema_json',
    };
  } else {
    if (typeof schemaText !== 'string')
      throw new CaptureFormatError('`input_schema_json` is not a string', schemaAt, name);
    let schema: unknown;
    try {
      schema = JSON.parse(schemaText);
    } catch (error) {
      throw new CaptureFormatError('`input_schema_json` is not JSON text', schemaAt, name, { cause: error });
    }
    input = {
      kind: 'json-schema',
      schema: asRecord(schema, schemaAt, 'the schema in `input_schema_json`', name),
      origin: context.origin,
    };
  }
  return makeTool({
    name,
    delivery: 'function',
    description: typeof description === 'string' ? description : undefined,
    input,
    output: NO_RESULT,
    settings: rest,
    pointer: schemaAt,
    namePointer: pointer(at, 'name'),
  });
}

export function extractTools(body: JsonRecord, context: ExtractContext): CapturedTool[] {
  const toolsAt = pointer(context.pointer, 'tool_definitions');
  const tools = body['tool_definitions'];
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) throw new CaptureFormatError('`tool_definitions` is not an array', toolsAt);
  return tools.map((t, i) => extractTool(t, pointer(toolsAt, i), context));
}

export const chatStreamNodes = defineWireFormat({
  id: 'chat-stream-nodes',
  label: 'Chat stream (request nodes)',
  requestPath: REQUEST_PATH,
  keptKeys: KEPT_KEYS,
  problem,
  // The endpoint always streams its reply; the body has no member that asks for it.
  isStreaming: (request) => isObject(request.json),
  lastUserText,
  hasTools,
  requestModel,
  captureBody,
  countTools,
  stubReply,
  extractTools,
  toolCalls,
});
