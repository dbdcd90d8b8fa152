import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  functionCallJson,
  geminiApi as wire,
  jsonSchemaFromGemini,
  replyJson,
  REPLY_INSTANCE,
} from '../../src/lib/wire/gemini-api.ts';
import { minimalInstance } from '../../src/lib/shapes/minimal-instance.ts';
import { parseSse } from '../../src/lib/wire/shared.ts';
import { CaptureFormatError, type CaptureFile } from '../../src/lib/wire/types.ts';
import { wireFormatForPath } from '../../src/lib/wire/index.ts';
import { capturedTools } from '../../src/lib/agents/index.ts';
import { QUIRKS, quirksOfFixture } from '../helpers/quirks.ts';
import { shapeFromJsonSchema } from '../../src/lib/shapes/json-schema-shape.ts';
import { schemaAjv } from '../../scripts/lib/capture/ajv.ts';
import { stubReplyTo, type RecordedRequest } from '../../scripts/lib/capture/stub-server.ts';
import { Conversation } from '../../scripts/lib/payloads/conversation.ts';
import type { JsonRecord } from '../../src/lib/core/json.ts';

const RAW = join(import.meta.dirname, '../fixtures/captures/raw');
const rawText = (name: string): string => readFileSync(join(RAW, `${name}.json`), 'utf8');
const raw = (name: string): JsonRecord => JSON.parse(rawText(name)) as JsonRecord;
const MAIN_PATH = '/v1beta/models/gemini-3.8-flash:streamGenerateContent';
const ROUTING_PATH = '/v1beta/models/gemini-3.5-flash-lite:generateContent';
const capture = (body: JsonRecord, path = MAIN_PATH): CaptureFile => ({
  agent: 'gemini-cli',
  cli: { package: 'fixture-cli', version: '1.0.0' },
  configuration: 'fixture',
  request: { method: 'POST', path },
  body,
});
const CONTEXT = { origin: { package: 'p', version: 'v', file: 'f' }, pointer: '/body', quirks: QUIRKS.none };
const PROMPT = 'Reply with the single word: ok';

/** RFC 6901 resolution of `ptr` in `doc`. */
function resolve(doc: unknown, ptr: string): unknown {
  return ptr
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((v, t) => (v as Record<string, unknown> | undefined)?.[t], doc);
}

function formatError(fn: () => unknown): CaptureFormatError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof CaptureFormatError, `not a CaptureFormatError: ${String(error)}`);
    return error;
  }
  assert.fail('did not throw');
}

/**
 * The SDK's own reading of an `alt=sse` stream (@google/genai in gemini-cli 0.61.0): frames are taken only from the
 * start of the buffer.
 */
function sdkFrames(text: string): unknown[] {
  const responseLineRE = /^\s*data: (.*)(?:\n\n|\r\r|\r\n\r\n)/;
  const out: unknown[] = [];
  let buffer = text;
  let match = buffer.match(responseLineRE);
  while (match) {
    out.push(JSON.parse(match[1]!));
    buffer = buffer.slice(match[0].length);
    match = buffer.match(responseLineRE);
  }
  assert.equal(buffer.trim(), '', 'nothing is left unread');
  return out;
}

test('yolo + MCP: one function tool per declaration, each pointing at its parametersJsonSchema, in the order sent', () => {
  const file = capture(raw('gemini-cli-yolo-mcp'));
  const tools = capturedTools(file);
  // Listed independently: the `name` lines at the declarations' depth of the pretty-printed fixture.
  const listed = [...rawText('gemini-cli-yolo-mcp').matchAll(/^ {10}"name": "([^"]+)"/gm)].map((m) => m[1]);
  assert.equal(listed.length, 18);
  assert.deepEqual(
    tools.map((t) => t.fullName),
    listed,
  );
  assert.equal(tools[16]!.name, 'mcp_capture_echo', 'MCP tools are named mcp_<server>_<tool>');
  tools.forEach((t, j) => {
    assert.equal(t.delivery, 'function');
    assert.equal(t.pointer, `/body/tools/0/functionDeclarations/${j}/parametersJsonSchema`);
    assert.equal(t.namePointer, `/body/tools/0/functionDeclarations/${j}/name`);
    assert.equal(t.input.kind, 'json-schema');
    assert.deepEqual(resolve(file, t.pointer), t.input.kind === 'json-schema' ? t.input.schema : undefined, t.fullName);
    assert.equal(resolve(file, t.namePointer), t.name);
    assert.equal(t.description, resolve(file, `/body/tools/0/functionDeclarations/${j}/description`));
    assert.equal(t.output.kind, 'unavailable');
    assert.equal(t.settings, undefined, 'nothing else is sent beside the definition');
    if (t.input.kind === 'json-schema') shapeFromJsonSchema(t.input.schema); // the site can show every schema
  });
  const echo = tools[16]!;
  assert.deepEqual(echo.input.kind === 'json-schema' ? (echo.input.schema as JsonRecord)['required'] : undefined, [
    'text',
  ]);
});

test('captureBody keeps only the tool-related keys; the prose with the date and folders is left out', () => {
  const body = raw('gemini-cli-yolo-mcp');
  const kept = wire.captureBody(body);
  assert.deepEqual(Object.keys(kept), ['tools']);
  assert.deepEqual(kept['tools'], body['tools']);
  assert.doesNotMatch(JSON.stringify(kept), /Today's date|capture-run|session_context/);
  assert.deepEqual(capturedTools(capture(kept)), capturedTools(capture(body)));
  assert.deepEqual(
    Object.keys(
      wire.captureBody({
        contents: [],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        systemInstruction: {},
        tools: [],
        generationConfig: {},
      }),
    ),
    ['toolConfig', 'tools'],
  );
  assert.deepEqual(
    wire.captureBody(raw('gemini-cli-routing'), quirksOfFixture('gemini-cli-routing')),
    {},
    'the routing request declares no tools',
  );
});

test('countTools counts every declaration and built-in', () => {
  const count = wire.countTools(wire.captureBody(raw('gemini-cli-yolo-mcp'), quirksOfFixture('gemini-cli-yolo-mcp')));
  assert.deepEqual([count.tools, count.namespaces, count.deferred, count.nested], [18, 0, 0, 0]);
  assert.deepEqual(
    count.names,
    capturedTools(capture(raw('gemini-cli-yolo-mcp'))).map((t) => t.fullName),
  );
  assert.deepEqual(
    wire.countTools({ tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'a' }, {}] }] }).names,
    ['googleSearch', 'a', '?'],
  );
});

test("a declaration in Gemini's OpenAPI subset (`parameters`) is converted to JSON Schema; a declared response becomes the output", () => {
  const parameters = {
    type: 'OBJECT',
    properties: {
      path: { type: 'STRING', description: 'A path.', example: 'a.txt' },
      mode: { type: 'STRING', format: 'enum', enum: ['r', 'w'], nullable: true },
      count: { type: 'INTEGER', format: 'int32', minimum: 1 },
      tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1', maxItems: '3' },
      either: { anyOf: [{ type: 'NUMBER' }, { type: 'BOOLEAN' }] },
      loose: { type: 'TYPE_UNSPECIFIED' },
    },
    required: ['path'],
    propertyOrdering: ['path', 'mode', 'count', 'tags', 'either', 'loose'],
  };
  const response = { type: 'OBJECT', properties: { ok: { type: 'BOOLEAN' } } };
  const body = {
    contents: [],
    tools: [
      { functionDeclarations: [{ name: 'open', description: 'Opens.', parameters, response, behavior: 'BLOCKING' }] },
    ],
  };
  const [tool, ...rest] = wire.extractTools(body, CONTEXT);
  assert.equal(rest.length, 0);
  assert.equal(tool!.pointer, '/body/tools/0/functionDeclarations/0/parameters');
  assert.deepEqual(resolve({ body }, tool!.pointer), parameters, 'the pointer shows what was sent');
  const expected = {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'A path.', examples: ['a.txt'] },
      mode: { type: ['string', 'null'], enum: ['r', 'w', null] },
      count: { type: 'integer', format: 'int32', minimum: 1 },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      either: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
      loose: {},
    },
    required: ['path'],
  };
  assert.deepEqual(tool!.input, { kind: 'json-schema', schema: expected, origin: CONTEXT.origin });
  assert.deepEqual(tool!.output, {
    kind: 'json-schema',
    schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    origin: CONTEXT.origin,
  });
  assert.deepEqual(tool!.settings, { behavior: 'BLOCKING' });
  // The conversion is JSON Schema that Ajv 2020 (strict) accepts, with the meaning the OpenAPI schema had.
  const ajv = schemaAjv();
  ajv.addFormat('int32', true);
  const validate = ajv.compile(expected);
  assert.equal(validate({ path: 'a', mode: null, count: 2, tags: ['x'], either: true, loose: [1] }), true);
  assert.equal(validate({ path: 'a', tags: [] }), false, 'minItems sent as "1" still binds');
  shapeFromJsonSchema(expected);
  // parametersJsonSchema is JSON Schema already, and kept as it is.
  const js = { type: 'object', properties: { q: { type: 'string', nullable: true } } };
  assert.deepEqual(
    wire.extractTools(
      { contents: [], tools: [{ functionDeclarations: [{ name: 'q', parametersJsonSchema: js }] }] },
      CONTEXT,
    )[0]!.input,
    { kind: 'json-schema', schema: js, origin: CONTEXT.origin },
  );
});

test('built-ins are hosted tools named by their key; a declaration without parameters gets an empty object schema', () => {
  const body = {
    contents: [],
    tools: [
      { googleSearch: {} },
      { codeExecution: {}, functionDeclarations: [{ name: 'ping', description: 'Ping.' }] },
      { urlContext: { x: 1 } },
    ],
  };
  const tools = wire.extractTools(body, CONTEXT);
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery, t.pointer, t.namePointer]),
    [
      ['googleSearch', 'hosted', '/body/tools/0/googleSearch', '/body/tools/0/googleSearch'],
      ['codeExecution', 'hosted', '/body/tools/1/codeExecution', '/body/tools/1/codeExecution'],
      ['ping', 'function', '/body/tools/1/functionDeclarations/0', '/body/tools/1/functionDeclarations/0/name'],
      ['urlContext', 'hosted', '/body/tools/2/urlContext', '/body/tools/2/urlContext'],
    ],
  );
  assert.equal(tools[0]!.input.kind, 'unavailable');
  assert.equal(tools[0]!.settings, undefined);
  assert.deepEqual(tools[3]!.settings, { x: 1 });
  assert.deepEqual(tools[2]!.input, { kind: 'json-schema', schema: { type: 'object' }, origin: CONTEXT.origin });
  assert.deepEqual(wire.deferredNamespaces(body, CONTEXT), []);
});

test('a malformed capture is a CaptureFormatError at its exact pointer, naming the tool when it can', () => {
  const body = raw('gemini-cli-yolo-mcp');
  const cases: [JsonRecord, string, string | undefined, string][] = [];
  const tools = structuredClone(body['tools']) as JsonRecord[];
  (tools[0]!['functionDeclarations'] as JsonRecord[])[2]!['parametersJsonSchema'] = 'object';
  cases.push([
    { ...body, tools },
    '/body/tools/0/functionDeclarations/2/parametersJsonSchema',
    'read_file',
    '`parametersJsonSchema` is not an object',
  ]);
  const nameless = structuredClone(body['tools']) as JsonRecord[];
  delete (nameless[0]!['functionDeclarations'] as JsonRecord[])[5]!['name'];
  cases.push([
    { ...body, tools: nameless },
    '/body/tools/0/functionDeclarations/5',
    undefined,
    'a function declaration has no name',
  ]);
  cases.push([{ ...body, tools: { a: 1 } }, '/body/tools', undefined, '`tools` is not an array']);
  cases.push([
    { contents: [], tools: [{ functionDeclarations: [] }, null] },
    '/body/tools/1',
    undefined,
    'the tool is not an object',
  ]);
  cases.push([
    { contents: [], tools: [{ functionDeclarations: { name: 'x' } }] },
    '/body/tools/0/functionDeclarations',
    undefined,
    '`functionDeclarations` is not an array',
  ]);
  cases.push([
    { contents: [], tools: [{ functionDeclarations: ['x'] }] },
    '/body/tools/0/functionDeclarations/0',
    undefined,
    'the function declaration is not an object',
  ]);
  cases.push([
    { contents: [], tools: [{ googleSearch: true }] },
    '/body/tools/0/googleSearch',
    'googleSearch',
    '`googleSearch` is not an object',
  ]);
  cases.push([
    { contents: [], tools: [{ functionDeclarations: [{ name: 'x', parameters: {}, parametersJsonSchema: {} }] }] },
    '/body/tools/0/functionDeclarations/0',
    'x',
    'a function declaration has both `parameters` and `parametersJsonSchema`',
  ]);
  cases.push([
    {
      contents: [],
      tools: [
        {
          functionDeclarations: [
            { name: 'x', parameters: { type: 'OBJECT', properties: { a: { type: 'ARRAY', items: 'STRING' } } } },
          ],
        },
      ],
    },
    '/body/tools/0/functionDeclarations/0/parameters/properties/a/items',
    'x',
    'the schema is not an object',
  ]);
  cases.push([
    {
      contents: [],
      tools: [{ functionDeclarations: [{ name: 'x', parameters: { type: 'OBJECT', properties: [] } }] }],
    },
    '/body/tools/0/functionDeclarations/0/parameters/properties',
    'x',
    '`properties` is not an object',
  ]);
  cases.push([
    {
      contents: [],
      tools: [{ functionDeclarations: [{ name: 'x', parameters: { type: 'STRING', maxLength: 'ten' } }] }],
    },
    '/body/tools/0/functionDeclarations/0/parameters/maxLength',
    'x',
    '`maxLength` is not a count',
  ]);
  cases.push([
    { contents: [], tools: [{ functionDeclarations: [{ name: 'x', response: 'STRING' }] }] },
    '/body/tools/0/functionDeclarations/0/response',
    'x',
    'the schema is not an object',
  ]);
  for (const [b, ptr, tool, message] of cases) {
    const e = formatError(() => capturedTools(capture(b)));
    assert.deepEqual([e.pointer, e.tool, e.message], [ptr, tool, message]);
  }
});

test('request checks: paths, the body shape, streaming, and the last user text', () => {
  assert.equal(wire.isToolRequestPath(MAIN_PATH), true);
  assert.equal(wire.isToolRequestPath(ROUTING_PATH), true);
  assert.equal(wire.isToolRequestPath(wire.requestPath), true);
  assert.equal(wire.isToolRequestPath('/v1beta/models/gemini-2.5-pro:countTokens'), false);
  assert.equal(wire.isToolRequestPath('/v1beta/models/a/b:generateContent'), false);
  assert.equal(wire.isToolRequestPath('/v1/responses'), false);
  assert.equal(wireFormatForPath(MAIN_PATH), wire);
  assert.equal(wireFormatForPath(ROUTING_PATH), wire);

  assert.equal(wire.problem(raw('gemini-cli-yolo-mcp')), undefined);
  assert.equal(wire.problem(raw('gemini-cli-routing')), undefined);
  assert.equal(wire.problem({ contents: [] }), undefined);
  assert.equal(wire.problem({ contents: [], tools: {} }), '`tools` is not an array');
  assert.equal(
    wire.problem({ model: 'gemini-2.5-pro', contents: [] }),
    'it has a `model` key (a Gemini API request names its model in the path)',
  );
  assert.equal(
    wire.problem({ model: 'm', messages: [] }),
    'it has a `model` key (a Gemini API request names its model in the path)',
  );
  assert.equal(wire.problem({ systemInstruction: {} }), 'it has no `contents` array');
  assert.equal(wire.problem([]), 'the body is not a JSON object');

  const req = (url: string) => ({ method: 'POST', url, headers: {}, json: {} });
  assert.equal(wire.isStreaming(req(`${MAIN_PATH}?alt=sse`)), true);
  assert.equal(wire.isStreaming(req(ROUTING_PATH)), false);

  assert.equal(wire.lastUserText(raw('gemini-cli-yolo-mcp')), PROMPT);
  assert.equal(wire.lastUserText(raw('gemini-cli-routing')), PROMPT);
  assert.equal(
    wire.lastUserText({
      contents: [
        { role: 'user', parts: [{ text: 'a' }] },
        { role: 'model', parts: [{ text: 'b' }] },
      ],
    }),
    'a',
  );
  assert.equal(
    wire.lastUserText({
      contents: [{ role: 'user', parts: [{ text: 'a' }, { text: 'thinking', thought: true }, { inlineData: {} }] }],
    }),
    'a',
  );
  assert.equal(wire.lastUserText({ contents: [] }), undefined);
});

test('the streamed stub reply is one data-only SSE frame the SDK reads: text ok, finishReason STOP, usage', () => {
  const reply = wire.stubReply({ method: 'POST', path: MAIN_PATH, json: raw('gemini-cli-yolo-mcp') })!;
  assert.equal(reply.status, 200);
  assert.equal(reply.contentType, 'text/event-stream');
  const frames = parseSse(reply.body);
  assert.deepEqual(
    frames.map((f) => f.event),
    ['message'],
    'no event: line',
  );
  const data = JSON.parse(frames[0]!.data) as JsonRecord;
  assert.deepEqual(sdkFrames(reply.body), [data]);
  assert.deepEqual(data, replyJson('gemini-3.8-flash'));
  const candidate = (data['candidates'] as JsonRecord[])[0]!;
  assert.deepEqual(candidate['content'], { role: 'model', parts: [{ text: 'ok' }] });
  assert.equal(candidate['finishReason'], 'STOP');
  assert.deepEqual(data['usageMetadata'], { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 });
  assert.equal(data['modelVersion'], 'gemini-3.8-flash');
});

test('the routing reply is JSON text valid against the response schema the request asks for', () => {
  const body = raw('gemini-cli-routing');
  const reply = wire.stubReply({ method: 'POST', path: ROUTING_PATH, json: body })!;
  assert.equal(reply.contentType, 'application/json');
  const response = JSON.parse(reply.body) as JsonRecord;
  const candidate = (response['candidates'] as JsonRecord[])[0]!;
  assert.equal(candidate['finishReason'], 'STOP');
  const answer = JSON.parse(
    ((candidate['content'] as JsonRecord)['parts'] as JsonRecord[])[0]!['text'] as string,
  ) as JsonRecord;
  const requested = (body['generationConfig'] as JsonRecord)['responseJsonSchema'];
  assert.equal(
    (requested as JsonRecord)['type'],
    'OBJECT',
    'Gemini CLI sends upper-case types even in responseJsonSchema',
  );
  const validate = schemaAjv().compile(jsonSchemaFromGemini(requested, '/generationConfig/responseJsonSchema'));
  assert.equal(validate(answer), true, JSON.stringify(validate.errors));
  // What the CLI checks on top (zod: complexity_score number 1..100), which the schema leaves to its description.
  assert.equal(typeof answer['complexity_reasoning'], 'string');
  assert.ok(
    typeof answer['complexity_score'] === 'number' &&
      answer['complexity_score'] >= 1 &&
      answer['complexity_score'] <= 100,
  );
});

test('minimal instances satisfy their schemas, in either dialect', () => {
  const ajv = schemaAjv();
  const schemas: JsonRecord[] = [
    {
      type: 'object',
      properties: {
        a: { type: 'string', minLength: 5, maxLength: 6 },
        b: { type: 'integer', exclusiveMinimum: 3, maximum: 9 },
      },
      required: ['a', 'b'],
    },
    { type: 'array', items: { enum: ['x', 'y'] }, minItems: 2 },
    {
      $defs: { n: { type: ['null', 'number'], minimum: -4 } },
      type: 'object',
      properties: { n: { $ref: '#/$defs/n' } },
      required: ['n'],
      additionalProperties: false,
    },
    { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
    {
      allOf: [
        { type: 'object', properties: { a: { const: 3 } }, required: ['a'] },
        {
          type: 'object',
          properties: { b: { type: 'array', prefixItems: [{ type: 'null' }], minItems: 1, items: false } },
          required: ['b'],
        },
      ],
    },
    {
      type: 'object',
      properties: { next_speaker: { type: 'string', enum: ['user', 'model'] } },
      required: ['next_speaker'],
    },
  ];
  for (const schema of schemas) {
    const value = minimalInstance(schema, REPLY_INSTANCE);
    assert.equal(
      ajv.validate(schema, value),
      true,
      `${JSON.stringify(value)} for ${JSON.stringify(schema)}: ${JSON.stringify(ajv.errors)}`,
    );
  }
  const openApi = {
    type: 'OBJECT',
    properties: {
      model_choice: { type: 'STRING', enum: ['flash', 'pro'] },
      n: { type: 'NUMBER' },
      l: { type: 'ARRAY', items: { type: 'BOOLEAN' }, minItems: '1' },
    },
    required: ['model_choice', 'n', 'l'],
  };
  assert.deepEqual(minimalInstance(openApi, REPLY_INSTANCE), { model_choice: 'flash', n: 1, l: [false] });
});

/** The JSON text the stub answers a request for JSON output with `schema` (as responseJsonSchema). */
const replyFor = (schema: unknown): string => {
  const r = JSON.parse(
    wire.stubReply({
      method: 'POST',
      path: ROUTING_PATH,
      json: { contents: [], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema } },
    })!.body,
  ) as JsonRecord;
  return (((r['candidates'] as JsonRecord[])[0]!['content'] as JsonRecord)['parts'] as JsonRecord[])[0]![
    'text'
  ] as string;
};

// The replies are written down as the stub gave them when the captures were recorded: the captures
// depend on them, so a change to how minimal instances are made must leave every one as it is.
test('the stub answers the JSON requests Gemini CLI makes exactly as when the captures were recorded', () => {
  // The routing request of the capture fixture, as recorded.
  assert.equal(
    replyFor((raw('gemini-cli-routing')['generationConfig'] as JsonRecord)['responseJsonSchema']),
    '{"complexity_reasoning":"ok","complexity_score":1}',
  );
  // The response schemas of @google/gemini-cli-core 0.61.0's generateJson calls (descriptions left out; Type.X is 'X').
  const real: [unknown, string][] = [
    // routing/strategies/numericalClassifierStrategy.js
    [
      {
        type: 'OBJECT',
        properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } },
        required: ['complexity_reasoning', 'complexity_score'],
      },
      '{"complexity_reasoning":"ok","complexity_score":1}',
    ],
    // routing/strategies/classifierStrategy.js
    [
      {
        type: 'OBJECT',
        properties: { reasoning: { type: 'STRING' }, model_choice: { type: 'STRING', enum: ['flash', 'pro'] } },
        required: ['reasoning', 'model_choice'],
      },
      '{"reasoning":"ok","model_choice":"flash"}',
    ],
    // services/loopDetectionService.js
    [
      {
        type: 'object',
        properties: {
          unproductive_state_analysis: { type: 'string' },
          unproductive_state_confidence: { type: 'number' },
        },
        required: ['unproductive_state_analysis', 'unproductive_state_confidence'],
      },
      '{"unproductive_state_analysis":"ok","unproductive_state_confidence":1}',
    ],
    // utils/nextSpeakerChecker.js
    [
      {
        type: 'object',
        properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['user', 'model'] } },
        required: ['reasoning', 'next_speaker'],
      },
      '{"reasoning":"ok","next_speaker":"user"}',
    ],
    // utils/llm-edit-fixer.js
    [
      {
        type: 'OBJECT',
        properties: {
          explanation: { type: 'STRING' },
          search: { type: 'STRING' },
          replace: { type: 'STRING' },
          noChangesRequired: { type: 'BOOLEAN' },
        },
        required: ['search', 'replace', 'explanation'],
      },
      '{"search":"ok","replace":"ok","explanation":"ok"}',
    ],
    // utils/editCorrector.js
    [
      {
        type: 'object',
        properties: { corrected_string_escaping: { type: 'string' } },
        required: ['corrected_string_escaping'],
      },
      '{"corrected_string_escaping":"ok"}',
    ],
    // context/contextCompressionService.js (one file; no top-level type)
    [
      {
        properties: {
          'src/a.ts': {
            type: 'OBJECT',
            properties: { level: { type: 'STRING' }, start_line: { type: 'INTEGER' }, end_line: { type: 'INTEGER' } },
            required: ['level'],
          },
        },
        required: ['src/a.ts'],
      },
      '{"src/a.ts":{"level":"ok"}}',
    ],
    // context/utils/snapshotGenerator.js (nothing required)
    [
      {
        type: 'object',
        properties: {
          new_facts: { type: 'array', items: { type: 'string' } },
          new_tasks: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' } } } },
          obsolete_fact_indices: { type: 'array', items: { type: 'number' } },
          chronological_summary: { type: 'string' },
        },
      },
      '{}',
    ],
  ];
  for (const [schema, reply] of real) assert.equal(replyFor(schema), reply, JSON.stringify(schema));
});

test('the stub answers edge cases of either dialect exactly as when the captures were recorded', () => {
  const cases: [string, unknown, string][] = [
    ['anyOf: the first branch', { anyOf: [{ type: 'STRING', minLength: '5' }, { type: 'NULL' }] }, '"okokok"'],
    [
      'anyOf: a $ref branch',
      {
        $defs: { a: { type: 'OBJECT', properties: { k: { type: 'INTEGER', minimum: 3 } }, required: ['k'] } },
        anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }],
        description: 'either',
      },
      '{"k":3}',
    ],
    [
      'anyOf: a branch narrows its siblings',
      { type: 'string', description: 'd', anyOf: [{ enum: ['e1', 'e2'] }, { minLength: 9 }] },
      '"e1"',
    ],
    [
      'anyOf: an object branch',
      { type: 'object', anyOf: [{ properties: { x: { type: 'boolean' } }, required: ['x'] }] },
      '{"x":false}',
    ],
    ['oneOf', { oneOf: [{ type: 'INTEGER', exclusiveMinimum: 0 }, { type: 'STRING' }] }, '1'],
    [
      'allOf',
      {
        allOf: [
          { type: 'OBJECT', properties: { a: { const: 3 } }, required: ['a'] },
          {
            properties: {
              b: { type: 'ARRAY', prefixItems: [{ type: 'NULL' }], items: { type: 'STRING' }, minItems: '2' },
            },
            required: ['b'],
          },
        ],
      },
      '{"a":3,"b":[null,"ok"]}',
    ],
    [
      'allOf: parts add to their siblings',
      {
        type: 'object',
        properties: { s: { type: 'string' } },
        required: ['s'],
        allOf: [{ properties: { t: { type: 'number', minimum: -2 } }, required: ['t'] }],
      },
      '{"s":"ok","t":-2}',
    ],
    [
      '$ref: local, missing, remote',
      {
        $defs: { n: { type: ['null', 'NUMBER'], minimum: -4 } },
        type: 'object',
        properties: {
          n: { $ref: '#/$defs/n' },
          m: { $ref: '#/$defs/missing' },
          x: { $ref: 'https://elsewhere.invalid/s.json' },
          p: { $ref: '#/properties/n' },
        },
        required: ['n', 'm', 'x', 'p'],
      },
      '{"n":-4,"m":"ok","x":"ok","p":-4}',
    ],
    [
      '$ref: escaped tokens',
      {
        $defs: { 'a/b': { type: 'integer', minimum: 5 }, 'c~d': { const: 'tilde' } },
        type: 'object',
        properties: { s: { $ref: '#/$defs/a~1b' }, t: { $ref: '#/$defs/c~0d' } },
        required: ['s', 't'],
      },
      '{"s":5,"t":"tilde"}',
    ],
    [
      '$ref: a cycle stops 32 levels down',
      {
        $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } }, required: ['next'] } },
        $ref: '#/$defs/node',
      },
      `${'{"next":'.repeat(16)}"ok"${'}'.repeat(16)}`,
    ],
    [
      '$ref: a cycle through allOf',
      { type: 'OBJECT', properties: { child: { allOf: [{ $ref: '#' }] } }, required: ['child'] },
      `${'{"child":'.repeat(11)}"ok"${'}'.repeat(11)}`,
    ],
    [
      '$ref: a cycle through items',
      { type: 'array', minItems: 1, items: { $ref: '#' } },
      `${'['.repeat(17)}"ok"${']'.repeat(17)}`,
    ],
    ['enum', { type: 'STRING', enum: ['b', 'a'] }, '"b"'],
    ['enum: empty', { type: 'INTEGER', enum: [] }, '1'],
    ['enum: null first', { enum: [null, 1] }, 'null'],
    ['const', { const: { k: [1] } }, '{"k":[1]}'],
    ['const: null over type', { type: 'string', const: null }, 'null'],
    ['minLength and maxLength as strings', { type: 'STRING', minLength: '5', maxLength: '6' }, '"okokok"'],
    ['minLength equals maxLength', { type: 'string', minLength: 3, maxLength: 3 }, '"oko"'],
    ['maxLength 1', { type: 'string', maxLength: '1' }, '"o"'],
    ['maxLength below minLength', { type: 'string', minLength: 4, maxLength: 2 }, '"okok"'],
    ['minItems as a string', { type: 'ARRAY', items: { type: 'BOOLEAN' }, minItems: '2' }, '[false,false]'],
    ['array: no minItems', { type: 'array' }, '[]'],
    ['array: no items', { type: 'array', minItems: 1 }, '["ok"]'],
    [
      'prefixItems, then items',
      { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], minItems: 3, items: { type: 'null' } },
      '[1,"ok",null]',
    ],
    ['prefixItems without minItems', { type: 'array', prefixItems: [{ type: 'BOOLEAN' }] }, '[false]'],
    ['integer: exclusiveMinimum', { type: 'INTEGER', exclusiveMinimum: 3, maximum: 9 }, '4'],
    ['number: exclusiveMinimum', { type: 'NUMBER', exclusiveMinimum: 3 }, '3.5'],
    ['integer: fractional minimum', { type: 'integer', minimum: 2.5 }, '3'],
    ['number: maximum below 1', { type: 'number', maximum: -2 }, '-2'],
    ['number: unbounded', { type: 'number' }, '1'],
    ['minimum as a string is not read', { type: 'integer', minimum: '7' }, '1'],
    ['type in mixed case', { type: 'Boolean' }, 'false'],
    ['type list: null only', { type: ['NULL'] }, 'null'],
    ['type list: nullable string', { type: ['string', 'null'] }, '"ok"'],
    ['type list: null first', { type: ['null', 'integer'] }, '1'],
    ['untyped', { description: 'anything' }, '"ok"'],
    ['untyped with properties', { properties: { a: { type: 'string' } }, required: ['a'] }, '{"a":"ok"}'],
    ['untyped with items', { items: { type: 'integer' }, minItems: 1 }, '[1]'],
    ['a required property with no schema', { type: 'OBJECT', required: ['z'] }, '{"z":"ok"}'],
    [
      'boolean schemas',
      { type: 'object', properties: { a: true, b: false }, required: ['a', 'b'] },
      '{"a":"ok","b":"ok"}',
    ],
    ['an unknown type', { type: 'file' }, '"ok"'],
    ['OpenAPI enum format', { type: 'STRING', format: 'enum', enum: ['x', 'y'] }, '"x"'],
    [
      'nested OpenAPI',
      {
        type: 'OBJECT',
        properties: {
          list: {
            type: 'ARRAY',
            minItems: 1,
            items: {
              type: 'OBJECT',
              properties: { id: { type: 'INTEGER' }, tags: { type: 'ARRAY', items: { type: 'STRING' } } },
              required: ['id', 'tags'],
            },
          },
        },
        required: ['list'],
      },
      '{"list":[{"id":1,"tags":[]}]}',
    ],
  ];
  for (const [label, schema, reply] of cases) assert.equal(replyFor(schema), reply, label);
});

test('the stub answers generateContent by the requested schema or with text, counts tokens, and leaves other requests alone', () => {
  const text = (json: unknown, path = ROUTING_PATH): string => {
    const r = JSON.parse(wire.stubReply({ method: 'POST', path, json })!.body) as JsonRecord;
    return (((r['candidates'] as JsonRecord[])[0]!['content'] as JsonRecord)['parts'] as JsonRecord[])[0]![
      'text'
    ] as string;
  };
  assert.equal(text({ contents: [] }), 'ok');
  assert.equal(text({ contents: [], tools: [{ googleSearch: {} }] }), 'ok');
  assert.equal(text({ contents: [], generationConfig: { responseMimeType: 'application/json' } }), '{}');
  assert.deepEqual(
    JSON.parse(
      text({
        contents: [],
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { c: { type: 'STRING', enum: ['a', 'b'] } }, required: ['c'] },
        },
      }),
    ),
    { c: 'a' },
  );
  assert.equal(text('not json'), 'ok');
  assert.deepEqual(
    JSON.parse(wire.stubReply({ method: 'POST', path: '/v1beta/models/gemini-2.5-pro:countTokens', json: {} })!.body),
    { totalTokens: 1 },
  );
  assert.equal(wire.stubReply({ method: 'GET', path: MAIN_PATH, json: undefined }), undefined);
  assert.equal(wire.stubReply({ method: 'POST', path: '/v1beta/models/m:embedContent', json: {} }), undefined);
  assert.equal(wire.stubReply({ method: 'POST', path: '/v1/messages', json: {} }), undefined);
  // Through the recording stub's dispatch over every registered format.
  const recorded = (url: string, json: unknown): RecordedRequest => ({
    index: 0,
    method: 'POST',
    url,
    headers: {},
    json,
    text: JSON.stringify(json),
  });
  assert.equal(
    stubReplyTo(recorded(`${MAIN_PATH}?alt=sse`, raw('gemini-cli-yolo-mcp'))).contentType,
    'text/event-stream',
  );
  assert.equal(stubReplyTo(recorded(ROUTING_PATH, raw('gemini-cli-routing'))).contentType, 'application/json');
});

// ---------------------------------------------------------------------------
// Tool calls (payload runs)

const calls = wire.toolCalls;

/**
 * The keys @google/genai 1.30.0 (src/types.ts) declares on a `Part` and on a
 * `FunctionCall`, written down from its declarations: what the stub sends must be
 * among them for the SDK to hand it on.
 */
const SDK_PART_KEYS = [
  'mediaResolution',
  'codeExecutionResult',
  'executableCode',
  'fileData',
  'functionCall',
  'functionResponse',
  'inlineData',
  'text',
  'thought',
  'thoughtSignature',
  'videoMetadata',
];
const SDK_FUNCTION_CALL_KEYS = ['id', 'args', 'name', 'partialArgs', 'willContinue'];

/**
 * The SDK's `GenerateContentResponse.functionCalls` getter (@google/genai 1.30.0, src/types.ts): the functionCall of
 * each part of the first candidate, undefined when none.
 */
function sdkFunctionCalls(response: unknown): unknown[] | undefined {
  const parts = ((response as JsonRecord)['candidates'] as JsonRecord[] | undefined)?.[0]?.['content'] as
    | JsonRecord
    | undefined;
  const list = parts?.['parts'] as JsonRecord[] | undefined;
  if (list?.length === 0) return undefined;
  const found = list?.filter((p) => p['functionCall']).map((p) => p['functionCall']);
  return found?.length === 0 ? undefined : found;
}

const READ = { id: 'call_stub_1', tool: 'read_file', input: { file_path: '/work/a.txt', start_line: 2 } };

test("toolCalls: streamGenerateContent gets one SSE frame the SDK reads, whose functionCall carries the call's id, name and args", () => {
  const reply = calls.callReply({ method: 'POST', path: MAIN_PATH, json: raw('gemini-cli-yolo-mcp') }, READ)!;
  assert.equal(reply.status, 200);
  assert.equal(reply.contentType, 'text/event-stream');
  assert.deepEqual(
    parseSse(reply.body).map((f) => f.event),
    ['message'],
    'no event: line',
  );
  const [response, ...rest] = sdkFrames(reply.body);
  assert.equal(rest.length, 0);
  assert.deepEqual(sdkFunctionCalls(response), [
    { id: 'call_stub_1', name: 'read_file', args: { file_path: '/work/a.txt', start_line: 2 } },
  ]);
  const candidate = ((response as JsonRecord)['candidates'] as JsonRecord[])[0]!;
  assert.equal(candidate['finishReason'], 'STOP', 'the Gemini API ends a function-calling turn with STOP');
  assert.equal((candidate['content'] as JsonRecord)['role'], 'model');
  for (const part of (candidate['content'] as JsonRecord)['parts'] as JsonRecord[]) {
    for (const key of Object.keys(part)) assert.ok(SDK_PART_KEYS.includes(key), key);
    for (const key of Object.keys(part['functionCall'] as JsonRecord))
      assert.ok(SDK_FUNCTION_CALL_KEYS.includes(key), key);
  }
  assert.equal((response as JsonRecord)['modelVersion'], 'gemini-3.8-flash', 'the model named in the path');
  assert.deepEqual(
    response,
    functionCallJson('gemini-3.8-flash', { id: 'call_stub_1', name: 'read_file', args: READ.input }),
  );
});

test('toolCalls: generateContent gets the same response as JSON; other requests, and a freeform input, get no call', () => {
  const reply = calls.callReply(
    { method: 'POST', path: ROUTING_PATH, json: { contents: [] } },
    { id: 'call_stub_2', tool: 'glob', input: {} },
  )!;
  assert.equal(reply.contentType, 'application/json');
  assert.deepEqual(sdkFunctionCalls(JSON.parse(reply.body)), [{ id: 'call_stub_2', name: 'glob', args: {} }]);
  assert.equal(calls.callReply({ method: 'POST', path: '/v1beta/models/m:countTokens', json: {} }, READ), undefined);
  assert.equal(calls.callReply({ method: 'GET', path: MAIN_PATH, json: undefined }, READ), undefined);
  assert.equal(calls.callReply({ method: 'POST', path: '/v1/chat/completions', json: {} }, READ), undefined);
  assert.equal(
    calls.callReply({ method: 'POST', path: MAIN_PATH, json: {} }, { ...READ, input: '*** Begin Patch' }),
    undefined,
    'the Gemini API has no freeform calls',
  );
  assert.equal(calls.callKind(READ.input), 'functionCall');
  assert.deepEqual([calls.callId(0), calls.callId(11)], ['call_stub_1', 'call_stub_12']);
});

/** A follow-up request as the CLI sends it: the history with the model's calls and the user's function responses. */
const followUp = (modelParts: JsonRecord[], userParts: JsonRecord[]): JsonRecord => ({
  contents: [
    { role: 'user', parts: [{ text: 'go' }] },
    { role: 'model', parts: modelParts },
    { role: 'user', parts: userParts },
  ],
  tools: raw('gemini-cli-yolo-mcp')['tools'],
});
const fc = (id: string | undefined, name: string): JsonRecord => ({
  functionCall: { ...(id === undefined ? {} : { id }), name, args: {} },
  thoughtSignature: 'skip_thought_signature_validator',
});
const fr = (id: string | undefined, name: string, response: JsonRecord): JsonRecord => ({
  functionResponse: { ...(id === undefined ? {} : { id }), name, response },
});

test('toolCalls: findResult finds the functionResponse of a call by its id, verbatim or qualified by the function name, among several', () => {
  const mine = fr('read_file__call_stub_1', 'read_file', { output: 'hello' });
  const body = followUp(
    [fc('read_file__call_stub_1', 'read_file'), fc('call_stub_12', 'glob'), fc('glob__call_stub_2', 'glob')],
    [
      fr('call_stub_12', 'glob', { output: 'twelve' }),
      mine,
      fr('read_file__call_stub_2', 'glob', { output: 'wrong name' }),
      fr('glob__call_stub_2', 'glob', { error: 'two' }),
    ],
  );
  assert.equal(calls.findResult(body, 'call_stub_1'), mine, 'the part itself, verbatim');
  assert.deepEqual(calls.findResult(body, 'call_stub_12'), fr('call_stub_12', 'glob', { output: 'twelve' }));
  assert.deepEqual(
    calls.findResult(body, 'call_stub_2'),
    fr('glob__call_stub_2', 'glob', { error: 'two' }),
    'a prefix naming another function is not this call',
  );
  assert.equal(calls.findResult(body, 'call_stub_3'), undefined);
  assert.equal(
    calls.findResult(followUp([fc('read_file__call_stub_1', 'read_file')], []), 'call_stub_1'),
    undefined,
    'a call without its result',
  );
  assert.equal(calls.findResult(raw('gemini-cli-yolo-mcp'), 'call_stub_1'), undefined);
  assert.equal(
    calls.findResult({ messages: [{ role: 'tool', tool_call_id: 'call_stub_1', content: 'x' }] }, 'call_stub_1'),
    undefined,
    "another format's result",
  );
  assert.equal(calls.findResult(undefined, 'call_stub_1'), undefined);
});

test("toolCalls: results sent without ids are found by the call's name and place among the calls of that name", () => {
  const body = followUp(
    [
      fc('read_file__call_stub_1', 'read_file'),
      fc('glob__call_stub_2', 'glob'),
      fc('read_file__call_stub_3', 'read_file'),
    ],
    [
      fr(undefined, 'glob', { output: 'g' }),
      fr(undefined, 'read_file', { output: 'first' }),
      fr(undefined, 'read_file', { output: 'second' }),
    ],
  );
  assert.deepEqual(calls.findResult(body, 'call_stub_1'), fr(undefined, 'read_file', { output: 'first' }));
  assert.deepEqual(calls.findResult(body, 'call_stub_2'), fr(undefined, 'glob', { output: 'g' }));
  assert.deepEqual(calls.findResult(body, 'call_stub_3'), fr(undefined, 'read_file', { output: 'second' }));
  // The response in that place answers another call: not this one.
  const other = followUp([fc('call_stub_1', 'read_file')], [fr('call_stub_9', 'read_file', { output: 'x' })]);
  assert.equal(calls.findResult(other, 'call_stub_1'), undefined);
  // One response for two calls of a name: the second has none.
  const short = followUp(
    [fc('call_stub_1', 'read_file'), fc('call_stub_2', 'read_file')],
    [fr(undefined, 'read_file', { output: 'x' })],
  );
  assert.deepEqual(calls.findResult(short, 'call_stub_1'), fr(undefined, 'read_file', { output: 'x' }));
  assert.equal(calls.findResult(short, 'call_stub_2'), undefined);
});

test('toolCalls: resultText is the output and/or error text the CLI sent; other values as JSON text', () => {
  const text = (response: unknown): string =>
    calls.resultText({ functionResponse: { id: 'call_stub_1', name: 'n', response } });
  assert.equal(text({ output: 'Exit Code: 3\nhello' }), 'Exit Code: 3\nhello');
  assert.equal(text({ error: 'File not found: /a' }), 'File not found: /a');
  assert.equal(text({ output: 'partial', error: 'then failed' }), 'partial\nthen failed');
  assert.equal(text({ output: { files: ['a', 'b'], count: 2 } }), '{"files":["a","b"],"count":2}');
  assert.equal(text({ output: '' }), '');
  assert.equal(text({ files: ['a'] }), '{"files":["a"]}', 'without output or error the whole response is the output');
  assert.equal(text({}), '{}');
  assert.equal(text(undefined), '');
  assert.equal(calls.resultText({}), '');
});

test('toolCalls through a Conversation: the main request gets the call, the routing request the default reply, the follow-up none', () => {
  const conversation = new Conversation(wire, [{ id: 'call_stub_1', tool: 'read_file', input: READ.input }]);
  assert.equal(conversation.answer({ method: 'POST', url: ROUTING_PATH, json: raw('gemini-cli-routing') }), undefined);
  const first = conversation.answer({ method: 'POST', url: `${MAIN_PATH}?alt=sse`, json: raw('gemini-cli-yolo-mcp') })!;
  assert.deepEqual(sdkFunctionCalls(sdkFrames(first.body)[0]), [
    { id: 'call_stub_1', name: 'read_file', args: READ.input },
  ]);
  const after = followUp(
    [fc('read_file__call_stub_1', 'read_file')],
    [fr('read_file__call_stub_1', 'read_file', { output: 'hello' })],
  );
  assert.equal(conversation.answer({ method: 'POST', url: `${MAIN_PATH}?alt=sse`, json: after }), undefined);
  assert.deepEqual([...conversation.sent], [[0, READ.input]]);
});
