import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { decodeBody, startStub, stubReplyTo, type RecordedRequest } from '../../scripts/lib/capture/stub-server.ts';
import { parseSse } from '../../src/lib/wire/shared.ts';

test('request bodies are decoded whatever their content-encoding', () => {
  const text = Buffer.from('{"model":"m"}');
  assert.equal(decodeBody(text, undefined).toString(), '{"model":"m"}');
  assert.equal(decodeBody(gzipSync(text), 'gzip').toString(), '{"model":"m"}');
  assert.equal(decodeBody(zstdCompressSync(text), 'zstd').toString(), '{"model":"m"}');
  assert.throws(() => decodeBody(text, 'snappy'), /unsupported content-encoding/);
});

test('the stub (on 127.0.0.1) records requests and answers each API with its streaming reply', async () => {
  const stub = await startStub();
  try {
    const base = `http://127.0.0.1:${stub.port}`;
    const messages = await fetch(`${base}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-x', stream: true, messages: [] }),
    });
    assert.equal(messages.headers.get('content-type'), 'text/event-stream');
    assert.equal(parseSse(await messages.text()).at(-1)!.event, 'message_stop');
    const responses = await fetch(`${base}/v1/responses`, {
      method: 'POST',
      headers: { 'content-encoding': 'zstd' },
      body: zstdCompressSync(Buffer.from(JSON.stringify({ model: 'gpt-x', input: [] }))),
    });
    assert.equal(parseSse(await responses.text()).at(-1)!.event, 'response.completed');
    const plain = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'claude-x', messages: [] }),
    });
    assert.equal(((await plain.json()) as { type: string }).type, 'message');
    const other = await fetch(`${base}/v1/models`);
    assert.equal(other.status, 404);
    await other.text();
    assert.deepEqual(
      stub.requests.map((r) => `${r.method} ${r.url}`),
      ['POST /v1/messages?beta=true', 'POST /v1/responses', 'POST /v1/messages', 'GET /v1/models'],
    );
    assert.deepEqual(stub.requests[1]!.json, { model: 'gpt-x', input: [] });
    const seen = await stub.waitFor((r) => r.url === '/v1/responses');
    assert.equal(seen.index, 1);
  } finally {
    await stub.close();
  }
});

test('the stub dispatches to the wire format modules by method and path, and answers 404 otherwise', () => {
  const req = (method: string, url: string, json: unknown): RecordedRequest => ({
    index: 0,
    method,
    url,
    headers: {},
    text: '',
    json,
  });
  assert.equal(
    stubReplyTo(req('POST', '/v1/messages?beta=true', { model: 'c', stream: true })).contentType,
    'text/event-stream',
  );
  assert.deepEqual(JSON.parse(stubReplyTo(req('POST', '/v1/messages/count_tokens?beta=true', {})).body), {
    input_tokens: 1,
  });
  assert.equal(
    JSON.parse(stubReplyTo(req('POST', '/v1/responses', { model: 'g', stream: false })).body).object,
    'response',
  );
  const missing = stubReplyTo(req('GET', '/v1/models', undefined));
  assert.equal(missing.status, 404);
  assert.equal(JSON.parse(missing.body).error.message, 'stub: no GET /v1/models');
});
