import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capturedTools } from '../../src/lib/agents/index.ts';
import { captureWireFormat, WIRE_FORMAT_IDS, WIRE_FORMATS, wireFormatForPath } from '../../src/lib/wire/index.ts';
import { parseSse, pointer, sseFrame } from '../../src/lib/wire/shared.ts';
import { CaptureFormatError, type CaptureFile } from '../../src/lib/wire/types.ts';

const capture = (path: string): CaptureFile => ({
  agent: 'x',
  cli: { package: 'p', version: 'v' },
  configuration: 'c',
  request: { method: 'POST', path },
  body: { model: 'm' },
});

test('every wire format is registered under its own id, and a request path picks at most one', () => {
  assert.deepEqual(WIRE_FORMAT_IDS, [
    'anthropic-messages',
    'chat-stream-nodes',
    'gemini-api',
    'openai-chat-completions',
    'openai-responses',
  ]);
  for (const id of WIRE_FORMAT_IDS) {
    const wire = WIRE_FORMATS[id];
    assert.equal(wire.id, id);
    assert.equal(wire.isToolRequestPath(wire.requestPath), true, id);
    assert.equal(wireFormatForPath(wire.requestPath), wire);
    assert.equal(
      WIRE_FORMAT_IDS.filter((other) => WIRE_FORMATS[other].isToolRequestPath(wire.requestPath)).length,
      1,
      `${wire.requestPath} is claimed once`,
    );
    // The model is a body key except in the Gemini API, which names it in the path a capture keeps; the tools are
    // `tools`, or `tool_definitions` in the chat stream with request nodes.
    assert.ok(
      ((wire.keptKeys as readonly string[]).includes('tools') ||
        (wire.keptKeys as readonly string[]).includes('tool_definitions')) &&
        ((wire.keptKeys as readonly string[]).includes('model') || id === 'gemini-api'),
      id,
    );
  }
  assert.equal(wireFormatForPath('/v1/embeddings'), undefined);
  assert.equal(captureWireFormat(capture('/v1/chat/completions')).id, 'openai-chat-completions');
  assert.equal(captureWireFormat(capture('/v1/responses')).id, 'openai-responses');
});

test('a capture of an unknown wire format is a CaptureFormatError at /request/path', () => {
  try {
    capturedTools(capture('/v1/embeddings'));
    assert.fail('did not throw');
  } catch (error) {
    assert.ok(error instanceof CaptureFormatError);
    assert.deepEqual(
      [error.pointer, error.tool, error.message],
      ['/request/path', undefined, 'unknown wire format: POST /v1/embeddings'],
    );
    assert.equal(error.name, 'CaptureFormatError');
  }
});

test('JSON pointers escape ~ and / in reference tokens (RFC 6901)', () => {
  assert.equal(pointer('/body', 'tools', 12, 'input_schema'), '/body/tools/12/input_schema');
  assert.equal(pointer('', 'a/b', 'c~d'), '/a~1b/c~0d');
});

test('an SSE frame is an event line, one data line of JSON and a blank line', () => {
  assert.equal(sseFrame('ping', { type: 'ping' }), 'event: ping\ndata: {"type":"ping"}\n\n');
  assert.deepEqual(parseSse(sseFrame('a', { x: 1 }) + sseFrame('b', [2])), [
    { event: 'a', data: '{"x":1}' },
    { event: 'b', data: '[2]' },
  ]);
});
