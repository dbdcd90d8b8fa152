/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`), as agents send it to an
 * OpenAI-compatible provider.
 *
 * Tools: `tools[]` of `{type: "function", function: {name, description,
 * parameters}}` (`parameters` may be absent) and freeform `custom` tools. An agent
 * that defers tools to its own tool search names them in a text of a message, in its
 * own words (WireQuirks.deferredTools); a capture keeps those passages and nothing
 * else of `messages`. An agent's code-mode `exec` tool declares the other tools in
 * TypeScript inside its description, in the agent's layout (WireQuirks.codeMode,
 * read by ./code-mode.ts).
 */
import type { Definition } from '../core/content-types.ts';
import { codeModeTools } from './code-mode.ts';
import {
  addDeferredTools,
  announcedInMessages,
  asRecord,
  countAnnounced,
  jsonSchemaInput,
  keptAnnouncements,
  isObject,
  jsonReply,
  keptBody,
  lastUserTextIn,
  makeTool,
  messagesProblem,
  modelOf,
  partsText,
  pointer,
  STUB_REPLY_TEXT,
  defineWireFormat,
} from './shared.ts';
import {
  CaptureFormatError,
  type CapturedTool,
  type ExtractContext,
  type StubReply,
  type StubToolCall,
  type ToolCallWire,
  type ToolCount,
  type WireQuirks,
} from './types.ts';
import type { JsonRecord } from '../core/json.ts';

export const REQUEST_PATH = '/v1/chat/completions';

/** Keys of the request body kept in a capture (in the order sent, not this order). */
export const KEPT_KEYS = ['model', 'tools', 'tool_choice', 'parallel_tool_calls', 'messages'] as const;

// ---------------------------------------------------------------------------
// Recording

export const problem = messagesProblem;

/** The last user message's content when it is a string, else the text of its last `text` part. */
export function lastUserText(body: unknown): string | undefined {
  return isObject(body) ? lastUserTextIn(body['messages']) : undefined;
}

/**
 * The tool-related keys of a request body, verbatim and in the order sent; `messages` reduced to the deferred-tool
 * reminders, left out when there are none.
 */
export function captureBody(body: JsonRecord, quirks: WireQuirks): JsonRecord {
  return keptBody(body, KEPT_KEYS, { messages: (messages) => keptAnnouncements(messages, quirks.deferredTools) });
}

/**
 * Function tools in `tools`, then the tools the agent's announcement names as deferred
 * (counted in `tools` and in `deferred`); `nested` counts the tools code mode's `exec`
 * declares in its description, in the agent's layout.
 */
export function countTools(body: JsonRecord, quirks: WireQuirks): ToolCount {
  const count: ToolCount = { tools: 0, namespaces: 0, deferred: 0, nested: 0, names: [] };
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    if (!isObject(tool)) continue;
    const fn = tool['function'];
    const f = isObject(fn) ? fn : {};
    const name = typeof f['name'] === 'string' ? f['name'] : undefined;
    count.tools++;
    count.names.push(name ?? (typeof tool['type'] === 'string' ? tool['type'] : '?'));
    if (name === 'exec' && typeof f['description'] === 'string')
      count.nested += quirks.codeMode?.identifiers(f['description']).length ?? 0;
  }
  countAnnounced(count, body, quirks.deferredTools);
  return count;
}

const USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/**
 * The chunks of one streamed assistant message holding `text`: the role with the
 * text, the finish reason, and — when `stream_options.include_usage` asks for it —
 * a last chunk with `usage` and no choices, as OpenAI sends them.
 */
export function replyChunks(model: string, includeUsage: boolean, text = STUB_REPLY_TEXT): JsonRecord[] {
  const base = { id: 'chatcmpl-stub', object: 'chat.completion.chunk', created: 0, model };
  const chunks: JsonRecord[] = [
    {
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: text }, logprobs: null, finish_reason: null }],
    },
    { ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] },
  ];
  if (includeUsage) chunks.push({ ...base, choices: [], usage: USAGE });
  return chunks;
}

/** The same message as a non-streaming JSON body. */
export function replyJson(model: string, text = STUB_REPLY_TEXT): JsonRecord {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' },
    ],
    usage: USAGE,
  };
}

/** Chat Completions streams without `event:` lines: one `data:` line of JSON a frame, then `data: [DONE]`. */
export function sseDataText(chunks: readonly unknown[]): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** How a request asks to be answered: streamed or not, with a usage chunk or not. */
function replyMode(json: unknown): { stream: boolean; includeUsage: boolean } {
  if (!(isObject(json) && json['stream'] === true)) return { stream: false, includeUsage: false };
  const options = json['stream_options'];
  return { stream: true, includeUsage: isObject(options) && options['include_usage'] === true };
}

/** SSE when `stream: true`, else JSON. */
export function stubReply(request: { method: string; path: string; json: unknown }): StubReply | undefined {
  if (request.method !== 'POST' || request.path !== REQUEST_PATH) return undefined;
  const model = modelOf(request.json);
  const mode = replyMode(request.json);
  if (!mode.stream) return jsonReply(replyJson(model));
  return { status: 200, contentType: 'text/event-stream', body: sseDataText(replyChunks(model, mode.includeUsage)) };
}

// ---------------------------------------------------------------------------
// Tool calls (payload runs)

/**
 * The tool call of an assistant message (ChatCompletionMessageToolCall of the openai SDK): a function call, its
 * arguments as JSON text, or a freeform (`custom`) call with its input text.
 */
export function toolCallOf(call: StubToolCall): JsonRecord {
  return typeof call.input === 'string'
    ? { id: call.id, type: 'custom', custom: { name: call.tool, input: call.input } }
    : { id: call.id, type: 'function', function: { name: call.tool, arguments: JSON.stringify(call.input) } };
}

/** A chat.completion whose message makes `call` (no content; `finish_reason: "tool_calls"`). */
export function toolCallJson(model: string, call: StubToolCall): JsonRecord {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null, tool_calls: [toolCallOf(call)] },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage: USAGE,
  };
}

/**
 * The same message streamed, as OpenAI streams a tool call: a first delta with the
 * role and the call's `index`, `id`, `type` and name (arguments or input still empty),
 * a second with the arguments (or input) text under the same `index`, a last with
 * `finish_reason: "tool_calls"`, and a usage chunk when asked for.
 */
export function toolCallChunks(model: string, includeUsage: boolean, call: StubToolCall): JsonRecord[] {
  const base = { id: 'chatcmpl-stub', object: 'chat.completion.chunk', created: 0, model };
  const whole = toolCallOf(call);
  const custom = whole['type'] === 'custom';
  const text = custom ? (call.input as string) : JSON.stringify(call.input);
  const opening = custom
    ? { index: 0, id: call.id, type: 'custom', custom: { name: call.tool, input: '' } }
    : { index: 0, id: call.id, type: 'function', function: { name: call.tool, arguments: '' } };
  const rest = custom ? { index: 0, custom: { input: text } } : { index: 0, function: { arguments: text } };
  const chunks: JsonRecord[] = [
    {
      ...base,
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', content: null, tool_calls: [opening] },
          logprobs: null,
          finish_reason: null,
        },
      ],
    },
    { ...base, choices: [{ index: 0, delta: { tool_calls: [rest] }, logprobs: null, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }] },
  ];
  if (includeUsage) chunks.push({ ...base, choices: [], usage: USAGE });
  return chunks;
}

/**
 * The stub's reply to a Chat Completions request that makes `call` (SSE when `stream: true`, else JSON); undefined for
 * other requests.
 */
export function toolCallReply(
  request: { method: string; path: string; json: unknown },
  call: StubToolCall,
): StubReply | undefined {
  if (request.method !== 'POST' || request.path !== REQUEST_PATH) return undefined;
  const model = modelOf(request.json);
  const mode = replyMode(request.json);
  if (!mode.stream) return jsonReply(toolCallJson(model, call));
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: sseDataText(toolCallChunks(model, mode.includeUsage, call)),
  };
}

/**
 * Calls are `tool_calls` of the assistant message; each result comes back as a `role: "tool"` message with the call's
 * `tool_call_id`.
 */
const toolCalls: ToolCallWire = {
  callKind: (input) => (typeof input === 'string' ? 'custom' : 'function'),
  callId: (index) => `call_stub_${index + 1}`,
  callReply: toolCallReply,
  findResult(body, id) {
    if (!isObject(body)) return undefined;
    for (const m of Array.isArray(body['messages']) ? body['messages'] : []) {
      if (isObject(m) && m['role'] === 'tool' && m['tool_call_id'] === id) return m;
    }
    return undefined;
  },
  /** `content`: a string, or text parts joined by newlines. */
  resultText: (result) => partsText(result['content']),
};

// ---------------------------------------------------------------------------
// Extraction

const NO_RESULT: Definition = {
  kind: 'unavailable',
  reason:
    'The model-facing tool list declares inputs only; the result reaches the model as the content of a `tool` message.',
};

/**
 * A freeform tool (`{type: "custom", custom: {name, description, format}}`), as Copilot CLI sends
 * apply_patch to gpt-5 models: its input is the text the grammar of `format.grammar` accepts.
 */
function extractCustomTool(t: JsonRecord, at: string, context: ExtractContext, out: CapturedTool[]): void {
  const customAt = pointer(at, 'custom');
  const c = asRecord(t['custom'], customAt, '`custom`');
  const { name, description, format, ...rest } = c;
  if (typeof name !== 'string') throw new CaptureFormatError('a custom tool has no name', customAt);
  const f = format === undefined ? undefined : asRecord(format, pointer(customAt, 'format'), '`format`', name);
  const g = f && f['type'] === 'grammar' && isObject(f['grammar']) ? f['grammar'] : undefined;
  const grammar = g && typeof g['definition'] === 'string' && typeof g['syntax'] === 'string';
  const input: Definition = grammar
    ? { kind: 'grammar', syntax: g['syntax'] as string, definition: g['definition'] as string, origin: context.origin }
    : { kind: 'unavailable', reason: 'A freeform tool without a grammar: the model sends plain text.' };
  const inputAt = grammar ? pointer(customAt, 'format', 'grammar', 'definition') : f ? pointer(customAt, 'format') : at;
  out.push(
    makeTool({
      name,
      delivery: 'custom',
      description: typeof description === 'string' ? description : undefined,
      input,
      output: NO_RESULT,
      settings: rest,
      pointer: inputAt,
      namePointer: pointer(customAt, 'name'),
    }),
  );
}

function extractTool(raw: unknown, at: string, context: ExtractContext, out: CapturedTool[]): void {
  const t = asRecord(raw, at, 'the tool');
  const { type, function: fn, ...outer } = t;
  if (type === undefined) throw new CaptureFormatError('a tool without a type', at);
  if (type === 'custom') {
    extractCustomTool(t, at, context, out);
    return;
  }
  if (type !== 'function')
    throw new CaptureFormatError(
      `a tool of type ${JSON.stringify(type)} is neither a function nor a custom tool`,
      pointer(at, 'type'),
    );
  if (fn === undefined) throw new CaptureFormatError('a function tool has no `function`', at);
  const fnAt = pointer(at, 'function');
  const f = asRecord(fn, fnAt, '`function`');
  const { name, description, parameters, ...rest } = f;
  if (typeof name !== 'string') throw new CaptureFormatError('a function tool has no name', fnAt);
  const schemaAt = parameters === undefined ? at : pointer(fnAt, 'parameters');
  out.push(
    makeTool({
      name,
      delivery: 'function',
      description: typeof description === 'string' ? description : undefined,
      input: jsonSchemaInput(parameters, schemaAt, '`parameters`', name, context.origin),
      output: NO_RESULT,
      settings: { ...outer, ...rest },
      pointer: schemaAt,
      namePointer: pointer(fnAt, 'name'),
    }),
  );
  const layout = context.quirks.codeMode;
  if (name === 'exec' && typeof description === 'string' && layout?.declares(description)) {
    out.push(
      ...codeModeTools(
        description,
        pointer(fnAt, 'description'),
        { name: 'exec', namespace: undefined },
        context.origin,
        layout,
      ),
    );
  }
}

export function extractTools(body: JsonRecord, context: ExtractContext): CapturedTool[] {
  const toolsAt = pointer(context.pointer, 'tools');
  const tools = body['tools'];
  if (tools !== undefined && !Array.isArray(tools)) throw new CaptureFormatError('`tools` is not an array', toolsAt);
  const out: CapturedTool[] = [];
  (tools ?? []).forEach((t, i) => extractTool(t, pointer(toolsAt, i), context, out));
  // Named-only tools are announced in a message of the conversation.
  const announcement = context.quirks.deferredTools;
  addDeferredTools(out, announcedInMessages(body, context.pointer, announcement), announcement, NO_RESULT);
  return out;
}

export const openaiChatCompletions = defineWireFormat({
  id: 'openai-chat-completions',
  label: 'OpenAI Chat Completions',
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
