import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicMessageSse, openaiResponseSse, parseSse, sseFrame } from '../../scripts/lib/capture/sse.ts';

test('an SSE frame is an event line, one data line of JSON and a blank line', () => {
  assert.equal(sseFrame('ping', { type: 'ping' }), 'event: ping\ndata: {"type":"ping"}\n\n');
  assert.deepEqual(parseSse(sseFrame('a', { x: 1 }) + sseFrame('b', [2])), [
    { event: 'a', data: '{"x":1}' },
    { event: 'b', data: '[2]' },
  ]);
});

test('the Anthropic Messages reply is one complete text message whose data types match the event names', () => {
  const text = anthropicMessageSse('claude-x');
  assert.ok(text.endsWith('\n\n'));
  const frames = parseSse(text);
  assert.deepEqual(frames.map((f) => f.event), [
    'message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
  ]);
  const data = frames.map((f) => JSON.parse(f.data) as { type: string });
  for (const [i, d] of data.entries()) assert.equal(d.type, frames[i]!.event);
  const start = data[0] as unknown as { message: { model: string; role: string; content: unknown[] } };
  assert.equal(start.message.model, 'claude-x');
  assert.equal(start.message.role, 'assistant');
  assert.deepEqual(start.message.content, []);
  assert.equal((data[2] as unknown as { delta: { type: string; text: string } }).delta.text, 'ok');
  assert.equal((data[4] as unknown as { delta: { stop_reason: string } }).delta.stop_reason, 'end_turn');
});

test('the OpenAI Responses reply ends with response.completed carrying the message and usage', () => {
  const frames = parseSse(openaiResponseSse('gpt-x'));
  assert.equal(frames[0]!.event, 'response.created');
  assert.equal(frames.at(-1)!.event, 'response.completed');
  const data = frames.map((f) => JSON.parse(f.data) as { type: string; sequence_number: number });
  data.forEach((d, i) => {
    assert.equal(d.type, frames[i]!.event);
    assert.equal(d.sequence_number, i);
  });
  const completed = data.at(-1) as unknown as { response: { status: string; model: string; output: { type: string; content: { text: string }[] }[]; usage: { total_tokens: number } } };
  assert.equal(completed.response.status, 'completed');
  assert.equal(completed.response.model, 'gpt-x');
  assert.equal(completed.response.output[0]!.type, 'message');
  assert.equal(completed.response.output[0]!.content[0]!.text, 'ok');
  assert.equal(completed.response.usage.total_tokens, 2);
  const deltas = data.filter((d) => d.type === 'response.output_text.delta') as unknown as { delta: string }[];
  assert.deepEqual(deltas.map((d) => d.delta), ['ok']);
});
