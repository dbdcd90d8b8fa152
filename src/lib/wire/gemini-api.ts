/**
 * Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` and
 * `:generateContent`), as Gemini CLI sends it through @google/genai.
 *
 * The model is named in the path, not in the body. Tools: `tools[]` of Tool
 * objects, each holding `functionDeclarations[]` of {name, description,
 * parametersJsonSchema (JSON Schema) or parameters (Gemini's OpenAPI subset),
 * optionally response / responseJsonSchema} and/or built-ins run by the provider,
 * one key each (`googleSearch: {}`, `urlContext: {}`, `codeExecution: {}` …).
 * Gemini CLI 0.61 sends `parametersJsonSchema` only, and no built-ins in its main
 * turn (its google_web_search and web_fetch tools make their own requests with
 * `googleSearch` / `urlContext`). Nothing is deferred: every tool is declared in
 * `tools`. `systemInstruction` and `contents` mention tools only in prose, beside
 * machine details (date, folders, memory and skill paths); a capture keeps
 * neither.
 *
 * Before its main turn, Gemini CLI with the default `auto` model asks a flash-lite
 * model, by `:generateContent`, to score the prompt's complexity, with a
 * `generationConfig.responseJsonSchema`; the stub answers with a minimal instance
 * of whatever schema it asks for.
 */
import type { Definition } from '../core/content-types.ts';
import { minimalInstance, type MinimalInstanceOptions } from '../shapes/minimal-instance.ts';
import {
  asRecord,
  isObject,
  jsonReply,
  keptBody,
  makeTool,
  pathOf,
  pointer,
  STUB_REPLY_TEXT,
  defineWireFormat,
} from './shared.ts';
import {
  CaptureFormatError,
  type CapturedTool,
  type ExtractContext,
  type StubReply,
  type ToolCallWire,
  type ToolCount,
  type WireQuirks,
  type WireRequest,
} from './types.ts';
import type { JsonRecord } from '../core/json.ts';

/** `/v1beta/models/<model>:<method>`; any API version, a model id without `/` or `:`. */
const MODEL_PATH = /^\/v1(?:alpha|beta)?\/models\/([^/:]+):([A-Za-z]+)$/;
const STREAM = 'streamGenerateContent';
const GENERATE = 'generateContent';
const COUNT_TOKENS = 'countTokens';

/** Shown in messages; `{model}` stands for the model id. */
export const REQUEST_PATH = `/v1beta/models/{model}:${STREAM}`;

/** Keys of the request body kept in a capture (in the order sent, not this order). */
export const KEPT_KEYS = ['tools', 'toolConfig'] as const;

/** The model and method of a Gemini API path, or undefined when `path` is not one. */
export function parsePath(path: string): { model: string; method: string } | undefined {
  const m = MODEL_PATH.exec(path);
  return m ? { model: m[1]!, method: m[2]! } : undefined;
}

/** Both content-generating POST paths carry tools; the agent module picks the main one among them. */
export function isToolRequestPath(path: string): boolean {
  const method = parsePath(path)?.method;
  return method === STREAM || method === GENERATE;
}

// ---------------------------------------------------------------------------
// Gemini's OpenAPI Schema subset → JSON Schema

/** Gemini `Type` enum values, upper case on the wire. */
const GEMINI_TYPES: Record<string, string | undefined> = {
  TYPE_UNSPECIFIED: undefined,
  STRING: 'string',
  NUMBER: 'number',
  INTEGER: 'integer',
  BOOLEAN: 'boolean',
  ARRAY: 'array',
  OBJECT: 'object',
  NULL: 'null',
};
/** int64 fields, which proto JSON may send as decimal strings. */
const INT64_KEYS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);

/**
 * A Gemini `Schema` (the OpenAPI 3.0 subset of `parameters`, `response` and
 * `responseSchema`) as JSON Schema. Converted: upper-case `type` values ("OBJECT",
 * "STRING" …) to JSON Schema's lower-case names (TYPE_UNSPECIFIED: no `type`);
 * `nullable: true` to a `"null"` member of `type` (and of `enum`); int64 counts sent
 * as strings ("1") to numbers; `example` to `examples: [example]`; `format: "enum"`
 * (redundant beside `enum`) and `propertyOrdering` (an order hint for generated
 * output, with no JSON Schema counterpart) are left out. Everything else, JSON
 * Schema keywords included, is kept as it is; `properties`, `items` and `anyOf` are
 * converted recursively. Throws CaptureFormatError at `at`.
 */
export function jsonSchemaFromGemini(schema: unknown, at: string, tool?: string): JsonRecord {
  const s = asRecord(schema, at, 'the schema', tool);
  const out: JsonRecord = {};
  const nullable = s['nullable'] === true;
  for (const [key, value] of Object.entries(s)) {
    const here = pointer(at, key);
    switch (key) {
      case 'type': {
        const lower = (t: unknown): string | undefined => {
          if (typeof t !== 'string') throw new CaptureFormatError('`type` is not a string', here, tool);
          return Object.hasOwn(GEMINI_TYPES, t) ? GEMINI_TYPES[t] : t;
        };
        const types = (Array.isArray(value) ? value : [value]).map(lower).filter((t): t is string => t !== undefined);
        if (nullable && types.length > 0 && !types.includes('null')) types.push('null');
        if (types.length > 0) out['type'] = types.length === 1 ? types[0] : types;
        break;
      }
      case 'nullable':
        if (typeof value !== 'boolean') throw new CaptureFormatError('`nullable` is not a boolean', here, tool);
        break;
      case 'enum':
        out['enum'] = nullable && Array.isArray(value) && !value.includes(null) ? [...value, null] : value;
        break;
      case 'format':
        if (value !== 'enum') out['format'] = value;
        break;
      case 'example':
        out['examples'] = [value];
        break;
      case 'propertyOrdering':
        break;
      case 'properties':
        out['properties'] = Object.fromEntries(
          Object.entries(asRecord(value, here, '`properties`', tool)).map(([name, sub]) => [
            name,
            jsonSchemaFromGemini(sub, pointer(here, name), tool),
          ]),
        );
        break;
      case 'items':
        out['items'] = jsonSchemaFromGemini(value, here, tool);
        break;
      case 'anyOf':
        if (!Array.isArray(value)) throw new CaptureFormatError('`anyOf` is not an array', here, tool);
        out['anyOf'] = value.map((sub, i) => jsonSchemaFromGemini(sub, pointer(here, i), tool));
        break;
      default:
        if (INT64_KEYS.has(key) && typeof value === 'string') {
          if (!/^\d+$/.test(value)) throw new CaptureFormatError(`\`${key}\` is not a count`, here, tool);
          out[key] = Number(value);
        } else {
          out[key] = value;
        }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Recording

export function problem(body: unknown): string | undefined {
  if (!isObject(body)) return 'the body is not a JSON object';
  if (body['model'] !== undefined) return 'it has a `model` key (a Gemini API request names its model in the path)';
  if (!Array.isArray(body['contents'])) return 'it has no `contents` array';
  if (body['tools'] !== undefined && !Array.isArray(body['tools'])) return '`tools` is not an array';
  return undefined;
}

/** The text of the last text part (thoughts excepted) of the last `user` content. */
export function lastUserText(body: unknown): string | undefined {
  const contents = isObject(body) && Array.isArray(body['contents']) ? body['contents'] : [];
  const user = [...contents].reverse().find((c) => isObject(c) && c['role'] === 'user') as JsonRecord | undefined;
  const parts = user && Array.isArray(user['parts']) ? user['parts'] : [];
  const text = [...parts]
    .reverse()
    .find((p) => isObject(p) && typeof p['text'] === 'string' && p['thought'] !== true) as JsonRecord | undefined;
  return text?.['text'] as string | undefined;
}

/** The tool-related keys of a request body, verbatim and in the order sent (see KEPT_KEYS). */
export function captureBody(body: JsonRecord, _quirks: WireQuirks = {}): JsonRecord {
  return keptBody(body, KEPT_KEYS);
}

export function countTools(body: JsonRecord, _quirks: WireQuirks = {}): ToolCount {
  const count: ToolCount = { tools: 0, namespaces: 0, deferred: 0, nested: 0, names: [] };
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    if (!isObject(tool)) continue;
    for (const [key, value] of Object.entries(tool)) {
      if (key !== 'functionDeclarations') {
        count.tools++;
        count.names.push(key);
        continue;
      }
      for (const fd of Array.isArray(value) ? value : []) {
        count.tools++;
        count.names.push(isObject(fd) && typeof fd['name'] === 'string' ? fd['name'] : '?');
      }
    }
  }
  return count;
}

/**
 * How the stub makes a value of a requested response schema (JSON Schema, or Gemini's
 * OpenAPI subset: `type` in upper case, counts as strings): strings are STUB_REPLY_TEXT,
 * an unbounded number is 1, and nothing makes the reply fail (src/lib/shapes/minimal-instance.ts).
 */
export const REPLY_INSTANCE: MinimalInstanceOptions = { text: STUB_REPLY_TEXT, defaultNumber: 1, lenient: true };

/**
 * The text a reply to `body` carries: a JSON instance of its requested response schema, `{}` for JSON without one, else
 * STUB_REPLY_TEXT.
 */
export function replyText(body: unknown): string {
  const config = isObject(body) && isObject(body['generationConfig']) ? body['generationConfig'] : {};
  const schema = config['responseJsonSchema'] ?? config['responseSchema'];
  if (isObject(schema)) return JSON.stringify(minimalInstance(schema, REPLY_INSTANCE));
  return config['responseMimeType'] === 'application/json' ? '{}' : STUB_REPLY_TEXT;
}

const USAGE = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };

/** One complete GenerateContentResponse whose one candidate holds `parts` and has finished (`STOP`). */
function responseJson(model: string, parts: JsonRecord[]): JsonRecord {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE,
    modelVersion: model,
    responseId: 'stub',
  };
}

/** One complete GenerateContentResponse holding one text part. */
export function replyJson(model: string, text = STUB_REPLY_TEXT): JsonRecord {
  return responseJson(model, [{ text }]);
}

/**
 * A response streamed: `alt=sse` frames of `data:` lines only, here one frame. No
 * `event:` line: @google/genai reads a frame only where its buffer starts with `data: `.
 */
function sseOf(response: JsonRecord): StubReply {
  return { status: 200, contentType: 'text/event-stream', body: `data: ${JSON.stringify(response)}\n\n` };
}

/** The text reply streamed (see sseOf). */
export function replySse(model: string, text = STUB_REPLY_TEXT): StubReply {
  return sseOf(replyJson(model, text));
}

/** generateContent (JSON), streamGenerateContent (SSE) and countTokens. */
export function stubReply(request: { method: string; path: string; json: unknown }): StubReply | undefined {
  const parsed = request.method === 'POST' ? parsePath(request.path) : undefined;
  if (!parsed) return undefined;
  switch (parsed.method) {
    case STREAM:
      return replySse(parsed.model, replyText(request.json));
    case GENERATE:
      return jsonReply(replyJson(parsed.model, replyText(request.json)));
    case COUNT_TOKENS:
      return jsonReply({ totalTokens: 1 });
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------
// Tool calls (payload runs)

/** A call the stub makes: the `functionCall` part's id, function name and arguments. */
export interface FunctionCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * One complete GenerateContentResponse whose candidate calls a function: one
 * `functionCall` part with `id` (FunctionCall.id of @google/genai: the client is to
 * return the result with the same id), `name` and `args`. The finish reason is
 * `STOP`, as the Gemini API ends a turn that calls functions (it has no finish reason
 * of its own for tool calls).
 */
export function functionCallJson(model: string, call: FunctionCall): JsonRecord {
  return responseJson(model, [{ functionCall: { id: call.id, name: call.name, args: call.args } }]);
}

/**
 * The stub's reply to a content-generating request that makes `call` (SSE for streamGenerateContent, else JSON);
 * undefined for other requests.
 */
export function functionCallReply(
  request: { method: string; path: string },
  call: FunctionCall,
): StubReply | undefined {
  const parsed = request.method === 'POST' ? parsePath(request.path) : undefined;
  if (parsed?.method === STREAM) return sseOf(functionCallJson(parsed.model, call));
  if (parsed?.method === GENERATE) return jsonReply(functionCallJson(parsed.model, call));
  return undefined;
}

/**
 * The parts of a body's `contents` that hold `key` (`functionCall`, `functionResponse`), in order: each part, and its
 * value there.
 */
function partsWith(body: unknown, key: string): { part: JsonRecord; value: JsonRecord }[] {
  const contents = isObject(body) && Array.isArray(body['contents']) ? body['contents'] : [];
  const out: { part: JsonRecord; value: JsonRecord }[] = [];
  for (const content of contents) {
    if (!isObject(content) || !Array.isArray(content['parts'])) continue;
    for (const part of content['parts'])
      if (isObject(part) && isObject(part[key])) out.push({ part, value: part[key] });
  }
  return out;
}

/**
 * Does a `functionCall` or `functionResponse` (its `id` and `name`) belong to the call
 * the stub sent as `id`? Its id is `id` itself, or `id` qualified by the function's name
 * (`<name>__<id>`): Gemini CLI rewrites a call id so before it runs the call, and sends
 * the rewritten id with the result and in the history.
 */
function isCall(value: JsonRecord, id: string): boolean {
  const sent = value['id'];
  return sent === id || (typeof value['name'] === 'string' && sent === `${value['name']}__${id}`);
}

/** The text of a value of a function response: a string as it is, anything else as JSON text. */
function valueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/**
 * Calls are `functionCall` parts of the model's content; results come back as
 * `functionResponse` parts `{id, name, response}` of a later `user` content, `response`
 * holding `output` and/or `error` (or, without either, the whole of it is the output).
 */
const toolCalls: ToolCallWire = {
  callKind: () => 'functionCall',
  callId: (index) => `call_stub_${index + 1}`,
  /** A freeform input (a string) has no form in the Gemini API: no reply. */
  callReply: (request, call) =>
    typeof call.input === 'string'
      ? undefined
      : functionCallReply(request, { id: call.id, name: call.tool, args: call.input }),
  /**
   * The `functionResponse` part of call `id`: the one that carries its id; failing that
   * (a client that sends results without ids), the one that answers it by name and
   * order — the call is found among the history's `functionCall` parts by its id, and
   * its k-th call of that name gets the k-th response of that name, when that response
   * carries no id of another call.
   */
  findResult(body, id) {
    const responses = partsWith(body, 'functionResponse');
    const byId = responses.find((r) => isCall(r.value, id));
    if (byId) return byId.part;
    const calls = partsWith(body, 'functionCall');
    const at = calls.findIndex((c) => isCall(c.value, id));
    if (at === -1) return undefined;
    const name = calls[at]!.value['name'];
    const k = calls.slice(0, at).filter((c) => c.value['name'] === name).length;
    const answer = responses.filter((r) => r.value['name'] === name)[k];
    return answer && answer.value['id'] === undefined ? answer.part : undefined;
  },
  /**
   * `response.output` and `response.error` (those present, in that order, joined by a newline); without either, the
   * whole `response`.
   */
  resultText(result) {
    const fr = isObject(result['functionResponse']) ? result['functionResponse'] : {};
    const response = fr['response'];
    if (!isObject(response)) return response === undefined ? '' : valueText(response);
    const keys = ['output', 'error'].filter((k) => Object.hasOwn(response, k));
    return keys.length === 0 ? valueText(response) : keys.map((k) => valueText(response[k])).join('\n');
  },
};

// ---------------------------------------------------------------------------
// Extraction

const NO_RESULT: Definition = {
  kind: 'unavailable',
  reason:
    'The model is not told the shape of this result: the declaration gives no response schema, and the CLI returns ' +
    'the tool output to the model as a functionResponse part.',
};

const BUILT_IN_RESULT: Definition = {
  kind: 'unavailable',
  reason:
    'The model provider runs this tool and gives its results to the model itself; the request declares ' +
    'no result shape.',
};

/** One function declaration at `at` (`…/functionDeclarations/J`). */
function extractFunction(raw: unknown, at: string, context: ExtractContext): CapturedTool {
  const { origin } = context;
  const fd = asRecord(raw, at, 'the function declaration');
  const { name, description, parameters, parametersJsonSchema, response, responseJsonSchema, ...rest } = fd;
  if (typeof name !== 'string') throw new CaptureFormatError('a function declaration has no name', at);
  if (parameters !== undefined && parametersJsonSchema !== undefined) {
    throw new CaptureFormatError('a function declaration has both `parameters` and `parametersJsonSchema`', at, name);
  }
  if (response !== undefined && responseJsonSchema !== undefined) {
    throw new CaptureFormatError('a function declaration has both `response` and `responseJsonSchema`', at, name);
  }
  let input: Definition;
  let schemaAt = at;
  if (parametersJsonSchema !== undefined) {
    schemaAt = pointer(at, 'parametersJsonSchema');
    input = {
      kind: 'json-schema',
      schema: asRecord(parametersJsonSchema, schemaAt, '`parametersJsonSchema`', name),
      origin,
    };
  } else if (parameters !== undefined) {
    schemaAt = pointer(at, 'parameters');
    input = { kind: 'json-schema', schema: jsonSchemaFromGemini(parameters, schemaAt, name), origin };
  } else {
    input = { kind: 'json-schema', schema: { type: 'object' }, origin };
  }
  let output = NO_RESULT;
  if (responseJsonSchema !== undefined)
    output = {
      kind: 'json-schema',
      schema: asRecord(responseJsonSchema, pointer(at, 'responseJsonSchema'), '`responseJsonSchema`', name),
      origin,
    };
  else if (response !== undefined)
    output = { kind: 'json-schema', schema: jsonSchemaFromGemini(response, pointer(at, 'response'), name), origin };
  return makeTool({
    name,
    delivery: 'function',
    description: typeof description === 'string' ? description : undefined,
    input,
    output,
    settings: rest,
    pointer: schemaAt,
    namePointer: pointer(at, 'name'),
  });
}

export function extractTools(body: JsonRecord, context: ExtractContext): CapturedTool[] {
  const toolsAt = pointer(context.pointer, 'tools');
  const tools = body['tools'];
  if (tools !== undefined && !Array.isArray(tools)) throw new CaptureFormatError('`tools` is not an array', toolsAt);
  const out: CapturedTool[] = [];
  (tools ?? []).forEach((raw, i) => {
    const at = pointer(toolsAt, i);
    const tool = asRecord(raw, at, 'the tool');
    for (const [key, value] of Object.entries(tool)) {
      const here = pointer(at, key);
      if (key === 'functionDeclarations') {
        if (!Array.isArray(value)) throw new CaptureFormatError('`functionDeclarations` is not an array', here);
        value.forEach((fd, j) => out.push(extractFunction(fd, pointer(here, j), context)));
        continue;
      }
      // A built-in the provider runs, named by its key (googleSearch, urlContext, codeExecution …); its value holds
      // its settings.
      const settings = asRecord(value, here, `\`${key}\``, key);
      out.push(
        makeTool({
          name: key,
          delivery: 'hosted',
          input: {
            kind: 'unavailable',
            reason:
              `A built-in tool (${key}): the request carries its settings, not a parameter schema; the model ` +
              `provider runs it.`,
          },
          output: BUILT_IN_RESULT,
          settings,
          pointer: here,
          namePointer: here,
        }),
      );
    }
  });
  return out;
}

export const geminiApi = defineWireFormat({
  id: 'gemini-api',
  label: 'Gemini API',
  requestPath: REQUEST_PATH,
  isToolRequestPath,
  keptKeys: KEPT_KEYS,
  problem,
  isStreaming: (request: WireRequest) => parsePath(pathOf(request.url))?.method === STREAM,
  lastUserText,
  /** Gemini names the model in the path: `/v1beta/models/<model>:streamGenerateContent`. */
  requestModel: (request: Pick<WireRequest, 'url'>) => parsePath(pathOf(request.url))?.model,
  captureBody,
  countTools,
  stubReply,
  extractTools,
  toolCalls,
});
