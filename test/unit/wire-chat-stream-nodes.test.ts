import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatStreamNodes as wire, replyChunks, toolCallChunks } from '../../src/lib/wire/chat-stream-nodes.ts';
import { wireFormatForPath } from '../../src/lib/wire/index.ts';
import { CaptureFormatError } from '../../src/lib/wire/types.ts';
import type { JsonRecord } from '../../src/lib/core/json.ts';

const origin = { package: 'fixture-cli', version: '1.0.0', file: 'content/captures/x/fixture.json' };
const context = { origin, pointer: '/body', quirks: {} };

/** A turn as the client sends it: the prompt as a text node, the IDE state, two tools. */
const body: JsonRecord = {
  model: '',
  message: '',
  chat_history: [],
  nodes: [
    { id: 1, type: 0, text_node: { content: 'the prompt' } },
    { id: 2, type: 4, ide_state_node: { workspace_folders: [] } },
  ],
  mode: 'CLI_NONINTERACTIVE',
  tool_definitions: [
    {
      name: 'view',
      description: 'Views a file.',
      input_schema_json: JSON.stringify({ type: 'object', properties: { path: { type: 'string' } } }),
      tool_safety: 1,
    },
    { name: 'list-processes', description: 'Lists.', input_schema_json: '', tool_safety: 1 },
  ],
  enable_parallel_tool_use: false,
};

test('a chat-stream turn: its path picks the format, the prompt is the last text node, the tools are read from their JSON text', () => {
  assert.equal(wireFormatForPath('/chat-stream'), wire);
  assert.equal(wire.problem(body), undefined);
  assert.equal(wire.problem({ tool_definitions: [] }), 'it has no `nodes` array');
  assert.equal(wire.lastUserText(body), 'the prompt');
  assert.equal(wire.hasTools(body), true);
  assert.equal(wire.requestModel({ url: '/chat-stream', json: body }), undefined);
  assert.equal(wire.isStreaming({ method: 'POST', url: '/chat-stream', headers: {}, json: body }), true);
  const kept = wire.captureBody(body, {});
  assert.deepEqual(Object.keys(kept), ['model', 'mode', 'tool_definitions', 'enable_parallel_tool_use']);
  assert.deepEqual(wire.countTools(kept, {}).names, ['view', 'list-processes']);
  const tools = wire.extractTools(kept, context);
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.pointer, t.namePointer]),
    [
      ['view', '/body/tool_definitions/0/input_schema_json', '/body/tool_definitions/0/name'],
      ['list-processes', '/body/tool_definitions/1/input_schema_json', '/body/tool_definitions/1/name'],
    ],
  );
  assert.deepEqual(tools[0]!.input, {
    kind: 'json-schema',
    schema: { type: 'object', properties: { path: { type: 'string' } } },
    origin,
  });
  assert.equal(tools[1]!.input.kind === 'json-schema' && tools[1]!.input.absentMember, 'input_schema_json');
  assert.deepEqual(tools[0]!.settings, { tool_safety: 1 });
});

test('an input schema that is not JSON text is a CaptureFormatError at its pointer', () => {
  const bad = { tool_definitions: [{ name: 'x', input_schema_json: '{' }] };
  assert.throws(
    () => wire.extractTools(bad, context),
    (e: unknown) => e instanceof CaptureFormatError && e.pointer === '/body/tool_definitions/0/input_schema_json',
  );
});

test('the stub streams newline-delimited chunks: a finished turn, or a tool call and the stop reason that asks for it', () => {
  const request = { method: 'POST', path: '/chat-stream', json: body };
  const reply = wire.stubReply(request)!;
  assert.deepEqual(
    reply.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown),
    replyChunks(),
  );
  assert.equal(wire.stubReply({ ...request, path: '/get-models' }), undefined);
  const call = { id: wire.toolCalls.callId(0), tool: 'view', input: { path: 'a.txt' } };
  const lines = wire.toolCalls
    .callReply(request, call)!
    .body.trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as JsonRecord);
  assert.deepEqual(lines, toolCallChunks(call));
  assert.equal(lines[1]!['stop_reason'], 3);
  assert.equal(wire.toolCalls.callReply(request, { ...call, input: 'freeform' }), undefined);
  const next = {
    nodes: [{ id: 1, type: 1, tool_result_node: { tool_use_id: call.id, content: 'the file', is_error: false } }],
  };
  const result = wire.toolCalls.findResult(next, call.id)!;
  assert.equal(wire.toolCalls.resultText(result), 'the file');
  assert.equal(wire.toolCalls.findResult(next, 'other'), undefined);
});
