/**
 * Anthropic Messages (`POST /v1/messages`).
 *
 * Tools: `tools[]` of {name, description, input_schema}, server tools of a typed
 * `type` (web_search_20250305 …), and placeholders such as `DeferredToolPlaceholder`.
 * Tools an agent loads later through its own tool search are only named, in a text
 * of a message, in the agent's words (its WireQuirks.deferredTools); a capture keeps
 * those passages and nothing else of `messages`.
 */
import {
  addDeferredTools,
  announcedInMessages,
  asRecord,
  jsonSchemaInput,
  isObject,
  jsonReply,
  keptAnnouncements,
  keptBody,
  lastUserTextIn,
  makeTool,
  messagesProblem,
  modelOf,
  partsText,
  pointer,
  sseReply,
  STUB_REPLY_TEXT,
  defineWireFormat,
} from './shared.ts';
import type { Definition } from '../core/content-types.ts';
import {
  CaptureFormatError,
  type CapturedTool,
  type ExtractContext,
  type StubReply,
  type ToolCallWire,
  type ToolCount,
  type WireQuirks,
} from './types.ts';
import type { JsonRecord } from '../core/json.ts';

export const REQUEST_PATH = '/v1/messages';
export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** Keys of the request body kept in a capture (in the order sent, not this order). */
export const KEPT_KEYS = ['model', 'tools', 'tool_choice', 'messages'] as const;

// ---------------------------------------------------------------------------
// Recording

export const problem = messagesProblem;

export function lastUserText(body: unknown): string | undefined {
  return isObject(body) ? lastUserTextIn(body['messages']) : undefined;
}

/**
 * The tool-related keys of a request body, verbatim and in the order sent; `messages` reduced to the deferred-tool
 * announcements, left out when there are none.
 */
export function captureBody(body: JsonRecord, quirks: WireQuirks): JsonRecord {
  return keptBody(body, KEPT_KEYS, { messages: (messages) => keptAnnouncements(messages, quirks.deferredTools) });
}

export function countTools(body: JsonRecord, _quirks: WireQuirks): ToolCount {
  const count: ToolCount = { tools: 0, namespaces: 0, deferred: 0, nested: 0, names: [] };
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    if (!isObject(tool)) continue;
    count.tools++;
    count.names.push(
      typeof tool['name'] === 'string' ? tool['name'] : typeof tool['type'] === 'string' ? tool['type'] : '?',
    );
    if (tool['defer_loading'] === true) count.deferred++;
  }
  return count;
}

const USAGE = { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };

/** The event that opens every streamed assistant message of the stub. */
function messageStart(model: string): [string, unknown] {
  return [
    'message_start',
    {
      type: 'message_start',
      message: {
        id: 'msg_stub',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: USAGE,
      },
    },
  ];
}

/** The events of one streamed assistant message holding one text block. */
export function replyEvents(model: string, text = STUB_REPLY_TEXT): [string, unknown][] {
  return [
    messageStart(model),
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
}

/** The same message as a non-streaming JSON body. */
export function replyJson(model: string, text = STUB_REPLY_TEXT): JsonRecord {
  return {
    id: 'msg_stub',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: USAGE,
  };
}

/** A tool call the stub makes in place of a reply: the `tool_use` block's id, tool name and input. */
export interface ToolUseCall {
  id: string;
  name: string;
  input: unknown;
}

/** The events of one streamed assistant message holding one `tool_use` block (`stop_reason: "tool_use"`). */
export function toolUseEvents(model: string, call: ToolUseCall): [string, unknown][] {
  return [
    messageStart(model),
    [
      'content_block_start',
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      },
    ],
    [
      'content_block_delta',
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
      },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 1 } },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
}

/**
 * The stub's reply to a Messages request that makes the tool call `call` instead of answering (SSE when `stream: true`,
 * else JSON); undefined for other requests.
 */
export function toolUseReply(
  request: { method: string; path: string; json: unknown },
  call: ToolUseCall,
): StubReply | undefined {
  if (request.method !== 'POST' || request.path !== REQUEST_PATH) return undefined;
  const model = modelOf(request.json);
  if (isObject(request.json) && request.json['stream'] === true) return sseReply(toolUseEvents(model, call));
  return jsonReply({
    id: 'msg_stub',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: USAGE,
  });
}

/** Messages (SSE when `stream: true`, else JSON) and token counting. */
export function stubReply(request: { method: string; path: string; json: unknown }): StubReply | undefined {
  if (request.method !== 'POST') return undefined;
  if (request.path === COUNT_TOKENS_PATH) return jsonReply({ input_tokens: 1 });
  if (request.path !== REQUEST_PATH) return undefined;
  const model = modelOf(request.json);
  return isObject(request.json) && request.json['stream'] === true
    ? sseReply(replyEvents(model))
    : jsonReply(replyJson(model));
}

// ---------------------------------------------------------------------------
// Extraction

const NO_RESULT: Definition = {
  kind: 'unavailable',
  reason:
    'The model-facing tool list declares inputs only; the result reaches the model as a tool_result block. See the ' +
    'SDK result type where one exists.',
};

export function extractTools(body: JsonRecord, context: ExtractContext): CapturedTool[] {
  const { origin } = context;
  const toolsAt = pointer(context.pointer, 'tools');
  const tools = body['tools'];
  if (tools !== undefined && !Array.isArray(tools)) throw new CaptureFormatError('`tools` is not an array', toolsAt);
  const out: CapturedTool[] = [];
  (tools ?? []).forEach((raw, i) => {
    const at = pointer(toolsAt, i);
    const t = asRecord(raw, at, 'the tool');
    if (typeof t['name'] !== 'string') throw new CaptureFormatError('a tool has no name', at);
    if (t['defer_loading'] === true && t['name'] === 'DeferredToolPlaceholder') return; // a switch, not a tool
    const { name, description, input_schema, type, ...rest } = t;
    const namePointer = pointer(at, 'name');
    if (typeof type === 'string' && type !== 'custom') {
      const input: Definition = {
        kind: 'unavailable',
        reason: `A server tool of type ${type}: the model provider defines and runs it.`,
      };
      out.push(
        makeTool({
          name: t['name'],
          delivery: 'hosted',
          input,
          output: NO_RESULT,
          settings: { type, ...rest },
          pointer: at,
          namePointer,
        }),
      );
      return;
    }
    const schemaAt = input_schema === undefined ? at : pointer(at, 'input_schema');
    out.push(
      makeTool({
        name: t['name'],
        delivery: rest['defer_loading'] === true ? 'defer-loading' : 'function',
        description: typeof description === 'string' ? description : undefined,
        input: jsonSchemaInput(input_schema, schemaAt, '`input_schema`', t['name'], origin),
        output: NO_RESULT,
        settings: rest,
        pointer: schemaAt,
        namePointer,
      }),
    );
  });
  // Named-only tools are announced in a message of the conversation.
  const announcement = context.quirks.deferredTools;
  addDeferredTools(out, announcedInMessages(body, context.pointer, announcement), announcement, NO_RESULT);
  return out;
}

/** Calls are `tool_use` blocks; results come back as `tool_result` blocks of a user message. */
const toolCalls: ToolCallWire = {
  callKind: () => 'tool_use',
  callId: (index) => `toolu_stub_${index + 1}`,
  callReply: (request, call) => toolUseReply(request, { id: call.id, name: call.tool, input: call.input }),
  findResult(body, id) {
    if (!isObject(body)) return undefined;
    for (const m of Array.isArray(body['messages']) ? body['messages'] : []) {
      if (!isObject(m) || !Array.isArray(m['content'])) continue;
      for (const b of m['content']) if (isObject(b) && b['type'] === 'tool_result' && b['tool_use_id'] === id) return b;
    }
    return undefined;
  },
  resultText: (result) => partsText(result['content']),
};

export const anthropicMessages = defineWireFormat({
  id: 'anthropic-messages',
  label: 'Anthropic Messages',
  requestPath: REQUEST_PATH,
  keptKeys: KEPT_KEYS,
  problem,
  lastUserText,
  captureBody,
  countTools,
  stubReply,
  extractTools,
  toolCalls,
});
