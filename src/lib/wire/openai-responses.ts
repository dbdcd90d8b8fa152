/**
 * OpenAI Responses (`POST /v1/responses`).
 *
 * Tools: top-level `tools[]` — `function` (JSON Schema `parameters`), `custom`
 * (freeform, with a grammar `format`), typed built-ins (hosted by the provider
 * such as web_search, or run by the client such as tool_search) and `namespace`
 * tools holding more tools — or an `additional_tools` input item holding
 * namespaces. An agent's code-mode `exec` declares nested tools in TypeScript inside
 * its description, in the agent's layout (WireQuirks.codeMode, read by ./code-mode.ts).
 * Namespaces and tools an agent defers to its tool search are only named, in a text
 * of a message item, in the agent's words (WireQuirks.deferredNamespaces and
 * deferredTools). A capture keeps those passages and no other message content.
 */
import type { Definition } from '../core/content-types.ts';
import { codeModeTools } from './code-mode.ts';
import {
  addDeferredTools,
  announcedNames,
  asRecord,
  isInputMessage,
  jsonSchemaInput,
  commonProblem,
  fullNameOf,
  hasToolsArray,
  isObject,
  jsonReply,
  keptBody,
  lastUserTextIn,
  makeTool,
  modelOf,
  partsText,
  pointer,
  sseReply,
  STUB_REPLY_TEXT,
  defineWireFormat,
} from './shared.ts';
import {
  CaptureFormatError,
  type CapturedTool,
  type DeferredNamespace,
  type ExtractContext,
  type StubReply,
  type ToolCallWire,
  type ToolCount,
  type WireQuirks,
  type WireRequest,
} from './types.ts';
import type { JsonRecord } from '../core/json.ts';

export const REQUEST_PATH = '/v1/responses';

/** Keys of the request body kept in a capture (in the order sent, not this order). */
export const KEPT_KEYS = ['model', 'tools', 'tool_choice', 'parallel_tool_calls', 'input'] as const;

/** The default namespace: its tools are called without a prefix. */
const DEFAULT_NAMESPACE = 'functions';

// ---------------------------------------------------------------------------
// Deferred namespaces and deferred tools (the agent's words: WireQuirks)

/** The texts of one message item with their pointers: string content, or the `text` of each part. */
function messageTexts(item: JsonRecord, at: string): { text: string; at: string }[] {
  const content = item['content'];
  if (typeof content === 'string') return [{ text: content, at: pointer(at, 'content') }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((p, j) =>
    isObject(p) && typeof p['text'] === 'string' ? [{ text: p['text'], at: pointer(at, 'content', j, 'text') }] : [],
  );
}

/**
 * What a capture keeps of one message item: the passages the agent's announcements mark,
 * a part whose whole text is one kept verbatim, otherwise only the passage kept of its part;
 * undefined when the message has none.
 */
export function keptMessage(item: JsonRecord, quirks: WireQuirks): JsonRecord | undefined {
  const content = item['content'];
  const parts = (
    Array.isArray(content) ? content : typeof content === 'string' ? [{ type: 'input_text', text: content }] : []
  ).flatMap((p): unknown[] => {
    if (!isObject(p) || typeof p['text'] !== 'string') return [];
    const text = p['text'];
    const passages = [quirks.deferredNamespaces, quirks.deferredTools].flatMap((a) => a?.passages(text) ?? []);
    if (passages.includes(text)) return [p];
    return passages.map((passage) => ({ type: p['type'] ?? 'input_text', text: passage }));
  });
  return parts.length > 0 ? { type: 'message', role: item['role'], content: parts } : undefined;
}

/** The texts of the message items of `input`, each with its pointer. */
function inputTexts(body: JsonRecord, at: string): { text: string; at: string }[] {
  const input = Array.isArray(body['input']) ? body['input'] : [];
  return input.flatMap((item, i) => (isInputMessage(item) ? messageTexts(item, pointer(at, 'input', i)) : []));
}

/**
 * Tool names the agent's announcement in the message items of `input` names as deferred, each with the pointer of the
 * text naming it.
 */
export function deferredToolNames(body: JsonRecord, at: string, quirks: WireQuirks): { name: string; at: string }[] {
  return announcedNames(inputTexts(body, at), quirks.deferredTools);
}

/** Namespaces the agent's announcement in the message items of `input` names as deferred. */
export function deferredNamespaces(body: JsonRecord, context: ExtractContext): DeferredNamespace[] {
  const announcement = context.quirks.deferredNamespaces;
  if (!announcement) return [];
  return announcedNames(inputTexts(body, context.pointer), announcement).map(({ name, at }) => ({
    name,
    pointer: at,
    reason: announcement.reason(name),
  }));
}

/** The stand-in for a tool of a deferred namespace, in a configuration that only names the namespace. */
export function deferredNamespaceTool(known: CapturedTool, deferred: DeferredNamespace): CapturedTool {
  return {
    name: known.name,
    ...(known.namespace ? { namespace: known.namespace } : {}),
    fullName: known.fullName,
    delivery: 'deferred',
    input: { kind: 'unavailable', reason: deferred.reason },
    output:
      known.output.kind === 'unavailable'
        ? known.output
        : { kind: 'unavailable', reason: 'Deferred in this configuration.' },
    pointer: deferred.pointer,
    namePointer: deferred.pointer,
  };
}

// ---------------------------------------------------------------------------
// Recording

export function problem(body: unknown): string | undefined {
  const common = commonProblem(body);
  if (common) return common;
  if (!Array.isArray((body as JsonRecord)['input'])) return 'it has no `input` array';
  return undefined;
}

export function lastUserText(body: unknown): string | undefined {
  return isObject(body) ? lastUserTextIn(body['input']) : undefined;
}

/**
 * The tool-related keys of a request body, verbatim and in the order sent. `input`
 * keeps only its items that are not messages (such as the `additional_tools` item) and the passages the agent's
 * announcements mark (keptMessage), and is left
 * out when none remain.
 */
export function captureBody(body: JsonRecord, quirks: WireQuirks): JsonRecord {
  const input = (items: unknown[]): unknown[] =>
    items.flatMap((item): unknown[] => {
      if (!isInputMessage(item)) return [item];
      const kept = keptMessage(item, quirks);
      return kept ? [kept] : [];
    });
  return keptBody(body, KEPT_KEYS, { input });
}

export function countTools(body: JsonRecord, quirks: WireQuirks): ToolCount {
  const count: ToolCount = { tools: 0, namespaces: 0, deferred: 0, nested: 0, names: [] };
  const visit = (list: unknown, prefix: string): void => {
    if (!Array.isArray(list)) return;
    for (const tool of list) {
      if (!isObject(tool)) continue;
      const name =
        typeof tool['name'] === 'string' ? tool['name'] : typeof tool['type'] === 'string' ? tool['type'] : '?';
      if (tool['type'] === 'namespace') {
        count.namespaces++;
        visit(tool['tools'], `${prefix}${name}.`);
        continue;
      }
      count.tools++;
      count.names.push(prefix + name);
      if (tool['defer_loading'] === true) count.deferred++;
      if (name === 'exec' && typeof tool['description'] === 'string')
        count.nested += quirks.codeMode?.identifiers(tool['description']).length ?? 0;
    }
  };
  visit(body['tools'], '');
  if (Array.isArray(body['input'])) for (const item of body['input']) if (isObject(item)) visit(item['tools'], '');
  for (const { name } of deferredToolNames(body, '', quirks)) {
    if (count.names.includes(name)) continue;
    count.tools++;
    count.deferred++;
    count.names.push(name);
  }
  return count;
}

const USAGE = {
  input_tokens: 1,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 1,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 2,
};

/**
 * The events of one streamed response holding one assistant message: each event's own fields, after its `type` and
 * its `sequence_number` (its place in the stream).
 */
export function replyEvents(model: string, text = STUB_REPLY_TEXT): [string, unknown][] {
  const message = {
    type: 'message',
    id: 'msg_stub',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  const base = { id: 'resp_stub', object: 'response', created_at: 0, model };
  // Where the events about the message's one text part point.
  const inPart = { item_id: 'msg_stub', output_index: 0, content_index: 0 };
  const events: [string, JsonRecord][] = [
    ['response.created', { response: { ...base, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }],
    ['response.content_part.added', { ...inPart, part: { type: 'output_text', text: '', annotations: [] } }],
    ['response.output_text.delta', { ...inPart, delta: text }],
    ['response.output_text.done', { ...inPart, text }],
    ['response.content_part.done', { ...inPart, part: { type: 'output_text', text, annotations: [] } }],
    ['response.output_item.done', { output_index: 0, item: message }],
    ['response.completed', { response: { ...base, status: 'completed', output: [message], usage: USAGE } }],
  ];
  return events.map(([type, fields], i) => [type, { type, sequence_number: i, ...fields }]);
}

/** The completed response as a non-streaming JSON body. */
export function replyJson(model: string, text = STUB_REPLY_TEXT): JsonRecord {
  const completed = replyEvents(model, text).at(-1)![1] as { response: JsonRecord };
  return completed.response;
}

/**
 * A tool call the stub makes in place of a reply: a `function_call` item (arguments: the
 * input as JSON text) or, for a freeform tool such as apply_patch, a `custom_tool_call`
 * item (input: the text itself).
 */
export type ResponsesToolCall =
  | { type: 'function_call'; callId: string; name: string; namespace?: string; arguments: unknown }
  | { type: 'custom_tool_call'; callId: string; name: string; namespace?: string; input: string };

/** The output item of `call` as the completed response holds it (a tool of a namespace: its name and `namespace`). */
export function toolCallItem(call: ResponsesToolCall): JsonRecord {
  const namespace = call.namespace === undefined ? {} : { namespace: call.namespace };
  return call.type === 'function_call'
    ? {
        type: 'function_call',
        id: 'fc_stub',
        status: 'completed',
        call_id: call.callId,
        name: call.name,
        ...namespace,
        arguments: JSON.stringify(call.arguments),
      }
    : {
        type: 'custom_tool_call',
        id: 'ctc_stub',
        status: 'completed',
        call_id: call.callId,
        name: call.name,
        ...namespace,
        input: call.input,
      };
}

/** The events of one streamed response holding one tool call item. */
export function toolCallEvents(model: string, call: ResponsesToolCall): [string, unknown][] {
  const item = toolCallItem(call);
  const base = { id: 'resp_stub', object: 'response', created_at: 0, model };
  return [
    [
      'response.created',
      { type: 'response.created', sequence_number: 0, response: { ...base, status: 'in_progress', output: [] } },
    ],
    [
      'response.output_item.added',
      {
        type: 'response.output_item.added',
        sequence_number: 1,
        output_index: 0,
        item: { ...item, status: 'in_progress' },
      },
    ],
    ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item }],
    [
      'response.completed',
      {
        type: 'response.completed',
        sequence_number: 3,
        response: { ...base, status: 'completed', output: [item], usage: USAGE },
      },
    ],
  ];
}

/**
 * The stub's reply to a Responses request that makes the tool call `call` (SSE unless `stream: false`); undefined for
 * other requests.
 */
export function toolCallReply(
  request: { method: string; path: string; json: unknown },
  call: ResponsesToolCall,
): StubReply | undefined {
  if (request.method !== 'POST' || request.path !== REQUEST_PATH) return undefined;
  const model = modelOf(request.json);
  const events = toolCallEvents(model, call);
  return isObject(request.json) && request.json['stream'] === false
    ? jsonReply((events.at(-1)![1] as { response: JsonRecord }).response)
    : sseReply(events);
}

/** SSE unless the request says `stream: false`. */
export function stubReply(request: { method: string; path: string; json: unknown }): StubReply | undefined {
  if (request.method !== 'POST' || request.path !== REQUEST_PATH) return undefined;
  const model = modelOf(request.json);
  return isObject(request.json) && request.json['stream'] === false
    ? jsonReply(replyJson(model))
    : sseReply(replyEvents(model));
}

// ---------------------------------------------------------------------------
// Extraction

const NO_RESULT: Definition = {
  kind: 'unavailable',
  reason:
    'The model is not told the shape of this result: the request declares inputs only, and the CLI returns the ' +
    'tool output to the model as text.',
};

/**
 * A freeform (`custom`) tool: its grammar when it has one; code mode's `exec` also declares the tools it can call, in
 * TypeScript in its description.
 */
function extractCustomTool(
  t: JsonRecord,
  at: string,
  namespace: string | undefined,
  named: string | undefined,
  context: ExtractContext,
  out: CapturedTool[],
): void {
  const { origin } = context;
  const { name, description, format, type: _type, ...rest } = t;
  if (typeof name !== 'string') throw new CaptureFormatError('a custom tool has no name', at);
  const f = format === undefined ? undefined : asRecord(format, pointer(at, 'format'), '`format`', named);
  const grammar =
    f && f['type'] === 'grammar' && typeof f['definition'] === 'string' && typeof f['syntax'] === 'string';
  const input: Definition = grammar
    ? { kind: 'grammar', syntax: f['syntax'] as string, definition: f['definition'] as string, origin }
    : { kind: 'unavailable', reason: 'A freeform tool without a grammar: the model sends plain text.' };
  const inputAt = grammar ? pointer(at, 'format', 'definition') : f ? pointer(at, 'format') : at;
  out.push(
    makeTool({
      name,
      namespace,
      delivery: 'custom',
      description: typeof description === 'string' ? description : undefined,
      input,
      output: NO_RESULT,
      settings: rest,
      pointer: inputAt,
      namePointer: pointer(at, 'name'),
    }),
  );
  const layout = context.quirks.codeMode;
  if (name === 'exec' && typeof description === 'string' && layout?.declares(description)) {
    out.push(
      ...codeModeTools(description, pointer(at, 'description'), { name: named!, namespace }, context.origin, layout),
    );
  }
}

/** A `function` tool: its JSON Schema `parameters`, sent up front or with `defer_loading` for tool search. */
function extractFunctionTool(
  t: JsonRecord,
  at: string,
  namespace: string | undefined,
  named: string | undefined,
  context: ExtractContext,
  out: CapturedTool[],
): void {
  const { name, description, parameters, type: _type, ...rest } = t;
  if (typeof name !== 'string') throw new CaptureFormatError('a function tool has no name', at);
  const schemaAt = parameters === undefined ? at : pointer(at, 'parameters');
  out.push(
    makeTool({
      name,
      namespace,
      delivery: rest['defer_loading'] === true ? 'defer-loading' : 'function',
      description: typeof description === 'string' ? description : undefined,
      input: jsonSchemaInput(parameters, schemaAt, '`parameters`', named, context.origin),
      output: NO_RESULT,
      settings: rest,
      pointer: schemaAt,
      namePointer: pointer(at, 'name'),
    }),
  );
}

/**
 * A typed built-in, named by its `name` or else its `type`: hosted by the provider (web_search, image_generation, …),
 * or run by the client (`execution: "client"`: tool_search).
 */
function extractBuiltInTool(
  t: JsonRecord,
  type: string,
  at: string,
  namespace: string | undefined,
  context: ExtractContext,
  out: CapturedTool[],
): void {
  const { description, parameters, name, ...settings } = t;
  const callable = typeof name === 'string' ? name : type;
  const schemaAt = parameters === undefined ? at : pointer(at, 'parameters');
  const input: Definition =
    parameters !== undefined
      ? {
          kind: 'json-schema',
          schema: asRecord(parameters, schemaAt, '`parameters`', fullNameOf(callable, namespace)),
          origin: context.origin,
        }
      : {
          kind: 'unavailable',
          reason:
            `A hosted tool: the request carries its settings, not a parameter schema; the model ` + `provider runs it.`,
        };
  out.push(
    makeTool({
      name: callable,
      namespace,
      delivery: t['execution'] === 'client' ? 'client-builtin' : 'hosted',
      description: typeof description === 'string' ? description : undefined,
      input,
      output: NO_RESULT,
      settings,
      pointer: schemaAt,
      namePointer: pointer(at, typeof name === 'string' ? 'name' : 'type'),
    }),
  );
}

/** The tools one entry of a `tools` array declares (a namespace declares those of its own `tools`), added to `out`. */
function extractTool(
  raw: unknown,
  at: string,
  namespace: string | undefined,
  context: ExtractContext,
  out: CapturedTool[],
): void {
  const t = asRecord(raw, at, 'the tool');
  const type = t['type'];
  const named = typeof t['name'] === 'string' ? fullNameOf(t['name'], namespace) : undefined;
  if (type === 'namespace') {
    if (typeof t['name'] !== 'string' || !Array.isArray(t['tools']))
      throw new CaptureFormatError('a namespace needs a name and tools', at, named);
    const ns = t['name'] === DEFAULT_NAMESPACE ? undefined : t['name'];
    t['tools'].forEach((inner, i) => extractTool(inner, pointer(at, 'tools', i), ns, context, out));
    return;
  }
  if (type === 'function') return extractFunctionTool(t, at, namespace, named, context, out);
  if (type === 'custom') return extractCustomTool(t, at, namespace, named, context, out);
  if (typeof type !== 'string') throw new CaptureFormatError('a tool without a type', at, named);
  extractBuiltInTool(t, type, at, namespace, context, out);
}

export function extractTools(body: JsonRecord, context: ExtractContext): CapturedTool[] {
  const out: CapturedTool[] = [];
  const toolsAt = pointer(context.pointer, 'tools');
  const tools = body['tools'];
  if (tools !== undefined && !Array.isArray(tools)) throw new CaptureFormatError('`tools` is not an array', toolsAt);
  (tools ?? []).forEach((t, i) => extractTool(t, pointer(toolsAt, i), undefined, context, out));
  const input = Array.isArray(body['input']) ? body['input'] : [];
  input.forEach((item, i) => {
    const at = pointer(context.pointer, 'input', i);
    const it = asRecord(item, at, 'the input item');
    if (it['type'] !== 'additional_tools') return;
    if (!Array.isArray(it['tools']))
      throw new CaptureFormatError('`tools` of the additional_tools item is not an array', pointer(at, 'tools'));
    it['tools'].forEach((t, j) => extractTool(t, pointer(at, 'tools', j), undefined, context, out));
  });
  // Tools the agent defers are named in a message item, in its own words.
  addDeferredTools(
    out,
    deferredToolNames(body, context.pointer, context.quirks),
    context.quirks.deferredTools,
    NO_RESULT,
  );
  return out;
}

/**
 * A request offers tools in `tools`, or in an `additional_tools` input item (as Codex sends them on its default model).
 */
function hasTools(body: unknown): boolean {
  if (hasToolsArray(body)) return true;
  return (
    isObject(body) &&
    Array.isArray(body['input']) &&
    body['input'].some((item) => isObject(item) && item['type'] === 'additional_tools')
  );
}

/** `clock.sleep` → namespace `clock`, name `sleep` (a namespace has no dot). */
export function splitNamespace(fullName: string): { name: string; namespace?: string } {
  const dot = fullName.indexOf('.');
  return dot <= 0 ? { name: fullName } : { name: fullName.slice(dot + 1), namespace: fullName.slice(0, dot) };
}

/** Calls are function or freeform (custom) call items; results come back as `*_call_output` input items. */
const toolCalls: ToolCallWire = {
  callKind: (input) => (typeof input === 'string' ? 'custom_tool_call' : 'function_call'),
  callId: (index) => `call_stub_${index + 1}`,
  callReply(request, call) {
    const { name, namespace } = splitNamespace(call.tool);
    const ns = namespace === undefined ? {} : { namespace };
    return typeof call.input === 'string'
      ? toolCallReply(request, { type: 'custom_tool_call', callId: call.id, name, ...ns, input: call.input })
      : toolCallReply(request, { type: 'function_call', callId: call.id, name, ...ns, arguments: call.input });
  },
  findResult(body, id) {
    if (!isObject(body)) return undefined;
    for (const item of Array.isArray(body['input']) ? body['input'] : []) {
      if (
        isObject(item) &&
        (item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output') &&
        item['call_id'] === id
      )
        return item;
    }
    return undefined;
  },
  resultText: (result) => partsText(result['output']),
};

export const openaiResponses = defineWireFormat({
  id: 'openai-responses',
  label: 'OpenAI Responses',
  requestPath: REQUEST_PATH,
  keptKeys: KEPT_KEYS,
  problem,
  /** Codex streams unless it says `stream: false`. */
  isStreaming: (request: WireRequest) => !(isObject(request.json) && request.json['stream'] === false),
  lastUserText,
  hasTools,
  captureBody,
  countTools,
  stubReply,
  extractTools,
  deferredNamespaces,
  toolCalls,
});
