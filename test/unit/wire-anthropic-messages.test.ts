import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicMessages as wire, replyEvents, replyJson } from '../../src/lib/wire/anthropic-messages.ts';
import { parseSse } from '../../src/lib/wire/shared.ts';
import { CaptureFormatError, type CaptureFile } from '../../src/lib/wire/types.ts';
import { capturedTools } from '../../src/lib/agents/index.ts';
import { QUIRKS, quirksOfFixture } from '../helpers/quirks.ts';
import type { JsonRecord } from '../../src/lib/core/json.ts';

const RAW = join(import.meta.dirname, '../fixtures/captures/raw');
const raw = (name: string): JsonRecord => JSON.parse(readFileSync(join(RAW, `${name}.json`), 'utf8')) as JsonRecord;
const capture = (body: JsonRecord): CaptureFile => ({
  agent: 'claude-code',
  cli: { package: 'fixture-cli', version: '1.0.0' },
  configuration: 'fixture',
  request: { method: 'POST', path: '/v1/messages' },
  body,
});
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

test('print: every tool points at its input_schema in the capture file, deferred names at the text that names them', () => {
  const file = capture(raw('claude-code-print'));
  const tools = capturedTools(file);
  const at = (name: string) => tools.find((t) => t.fullName === name)!;
  assert.equal(at('Agent').pointer, '/body/tools/0/input_schema');
  assert.equal(at('Read').pointer, '/body/tools/4/input_schema');
  assert.equal(at('Read').namePointer, '/body/tools/4/name');
  assert.equal(
    at('Write').pointer,
    '/body/tools/11/input_schema',
    'the DeferredToolPlaceholder at 10 is skipped, not renumbered',
  );
  assert.equal(
    tools.some((t) => t.name === 'DeferredToolPlaceholder'),
    false,
  );
  assert.deepEqual(at('TaskStop'), {
    name: 'TaskStop',
    delivery: 'deferred',
    fullName: 'TaskStop',
    input: {
      kind: 'unavailable',
      reason:
        'Deferred in this configuration: the model is told only the name, and loads the schema through ToolSearch when it needs the tool.',
    },
    output: at('Read').output,
    pointer: '/body/messages/1/content/0/text',
    namePointer: '/body/messages/1/content/0/text',
  });
  for (const t of tools) {
    const value = resolve(file, t.pointer);
    if (t.input.kind === 'json-schema') assert.deepEqual(value, t.input.schema, t.fullName);
    else assert.ok(typeof value === 'string' && value.split('\n').some((l) => l.trim() === t.name), t.fullName);
  }
  assert.equal(tools.filter((t) => t.delivery === 'deferred').length, 12);
});

test('tool search off: every tool has a schema at /body/tools/N/input_schema, in order', () => {
  const tools = capturedTools(capture(raw('claude-code-print-no-tool-search')));
  assert.equal(tools.length, 22);
  tools.forEach((t, i) => {
    assert.equal(t.delivery, 'function');
    assert.equal(t.pointer, `/body/tools/${i}/input_schema`);
  });
});

test('a server tool points at itself and keeps its settings; a function without input_schema gets an empty object schema', () => {
  const tools = wire.extractTools(
    {
      model: 'm',
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
        { name: 'Ping', description: 'Ping.' },
      ],
    },
    {
      origin: { package: 'p', version: 'v', file: 'f' },
      pointer: '/body',
      quirks: QUIRKS.claude,
    },
  );
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery, t.pointer, t.namePointer]),
    [
      ['web_search', 'hosted', '/body/tools/0', '/body/tools/0/name'],
      ['Ping', 'function', '/body/tools/1', '/body/tools/1/name'],
    ],
  );
  assert.deepEqual(tools[0]!.settings, { type: 'web_search_20250305', max_uses: 5 });
  assert.deepEqual(tools[1]!.input, {
    kind: 'json-schema',
    schema: { type: 'object' },
    origin: { package: 'p', version: 'v', file: 'f' },
    absentMember: 'input_schema',
  });
});

test('a malformed tool is a CaptureFormatError at its exact pointer, naming the tool when it can', () => {
  const body = raw('claude-code-print');
  const tools = structuredClone(body['tools']) as JsonRecord[];
  tools[4]!['input_schema'] = 'object';
  let e = formatError(() => capturedTools(capture({ ...body, tools })));
  assert.deepEqual(
    [e.pointer, e.tool, e.message],
    ['/body/tools/4/input_schema', 'Read', '`input_schema` is not an object'],
  );

  const nameless = structuredClone(body['tools']) as JsonRecord[];
  delete nameless[7]!['name'];
  e = formatError(() => capturedTools(capture({ ...body, tools: nameless })));
  assert.deepEqual([e.pointer, e.tool, e.message], ['/body/tools/7', undefined, 'a tool has no name']);

  e = formatError(() => capturedTools(capture({ model: 'm', tools: [{ name: 'A', input_schema: {} }, null] })));
  assert.deepEqual([e.pointer, e.tool, e.message], ['/body/tools/1', undefined, 'the tool is not an object']);

  e = formatError(() => capturedTools(capture({ model: 'm', tools: { Read: {} } })));
  assert.deepEqual([e.pointer, e.message], ['/body/tools', '`tools` is not an array']);
});

test('captureBody keeps model, tools, tool_choice and the deferred-tool paragraph, in the order sent', () => {
  const body = raw('claude-code-print');
  const kept = wire.captureBody(body, QUIRKS.claude);
  assert.deepEqual(Object.keys(kept), ['model', 'messages', 'tools']);
  assert.deepEqual(kept['tools'], body['tools']);
  const messages = kept['messages'] as JsonRecord[];
  assert.equal(messages.length, 1, 'only the message that names deferred tools');
  assert.equal(messages[0]!['role'], 'system');
  const text = (messages[0]!['content'] as JsonRecord[])[0]!['text'] as string;
  assert.match(text, /^The following deferred tools are now available via ToolSearch/);
  assert.match(text, /\nTaskStop\n/);
  assert.doesNotMatch(text, /Primary working directory/, 'the rest of the message (machine details) is left out');
  // Read back from the kept body, the announcement yields the same deferred tools as the raw body.
  const names = (b: JsonRecord) => capturedTools(capture(b)).map((t) => `${t.fullName}:${t.delivery}`);
  assert.deepEqual(names(kept), names(body));
  assert.equal(
    wire.captureBody(raw('claude-code-print-no-tool-search'), quirksOfFixture('claude-code-print-no-tool-search'))[
      'messages'
    ],
    undefined,
    'no announcement, no messages',
  );
  assert.deepEqual(
    Object.keys(
      wire.captureBody(
        { system: 's', tool_choice: { type: 'auto' }, model: 'm', messages: [], tools: [] },
        QUIRKS.claude,
      ),
    ),
    ['tool_choice', 'model', 'tools'],
  );
});

test('countTools counts every declared tool, the placeholder as deferred', () => {
  const count = wire.countTools(
    wire.captureBody(raw('claude-code-print'), quirksOfFixture('claude-code-print')),
    QUIRKS.claude,
  );
  assert.equal(count.tools, 12);
  assert.equal(count.deferred, 1);
  assert.equal(count.namespaces, 0);
  assert.ok(count.names.includes('ToolSearch') && count.names.includes('DeferredToolPlaceholder'));
});

test('request checks: the body shape, streaming, and the last user text', () => {
  assert.equal(wire.problem({ model: 'm', messages: [] }), undefined);
  assert.equal(wire.problem({ model: 'm', messages: [], tools: {} }), '`tools` is not an array');
  assert.equal(wire.problem({ model: 'm', input: [] }), 'it has no `messages` array');
  assert.equal(wire.problem('x'), 'the body is not a JSON object');
  assert.equal(wire.lastUserText(raw('claude-code-print'))?.trim(), PROMPT);
  assert.equal(wire.lastUserText({ messages: [{ role: 'user', content: 'hi' }] }), 'hi');
  const req = (json: unknown) => ({ method: 'POST', url: '/v1/messages?beta=true', headers: {}, json });
  assert.equal(wire.isStreaming(req({ stream: true })), true);
  assert.equal(wire.isStreaming(req({})), false);
  assert.equal(wire.isToolRequestPath('/v1/messages'), true);
  assert.equal(wire.isToolRequestPath('/v1/messages/count_tokens'), false);
});

test('the stub reply is one complete streamed text message whose data types match the event names', () => {
  const reply = wire.stubReply({ method: 'POST', path: '/v1/messages', json: { model: 'claude-x', stream: true } })!;
  assert.equal(reply.status, 200);
  assert.equal(reply.contentType, 'text/event-stream');
  assert.ok(reply.body.endsWith('\n\n'));
  const frames = parseSse(reply.body);
  assert.deepEqual(
    frames.map((f) => f.event),
    [
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ],
  );
  assert.deepEqual(
    frames.map((f) => f.event),
    replyEvents('claude-x').map(([e]) => e),
  );
  const data = frames.map((f) => JSON.parse(f.data) as JsonRecord);
  data.forEach((d, i) => assert.equal(d['type'], frames[i]!.event));
  const start = data[0]!['message'] as JsonRecord;
  assert.deepEqual([start['model'], start['role'], start['content']], ['claude-x', 'assistant', []]);
  assert.equal((data[2]!['delta'] as JsonRecord)['text'], 'ok');
  assert.equal((data[4]!['delta'] as JsonRecord)['stop_reason'], 'end_turn');
});

test('the stub answers non-streaming requests with the message as JSON, counts tokens, and leaves other requests alone', () => {
  const json = wire.stubReply({ method: 'POST', path: '/v1/messages', json: { model: 'claude-x' } })!;
  assert.equal(json.contentType, 'application/json');
  const message = JSON.parse(json.body) as JsonRecord;
  assert.deepEqual(message, replyJson('claude-x'));
  assert.deepEqual(
    [message['type'], message['stop_reason'], (message['content'] as JsonRecord[])[0]!['text']],
    ['message', 'end_turn', 'ok'],
  );
  assert.deepEqual(JSON.parse(wire.stubReply({ method: 'POST', path: '/v1/messages/count_tokens', json: {} })!.body), {
    input_tokens: 1,
  });
  assert.equal(wire.stubReply({ method: 'GET', path: '/v1/messages', json: undefined }), undefined);
  assert.equal(wire.stubReply({ method: 'POST', path: '/v1/responses', json: {} }), undefined);
  assert.equal(
    JSON.parse(wire.stubReply({ method: 'POST', path: '/v1/messages', json: 'not json' })!.body).model,
    'stub-model',
  );
});

test('the earlier <available-deferred-tools> block (2.1.69 deferred every tool but ToolSearch) names deferred tools too, and a capture keeps it', () => {
  // The shape 2.1.69's cli.js builds: a meta user message in front of the conversation, one name a line, `name — hint`
  // when search hints are on.
  const block = '<available-deferred-tools>\nBash\nRead — read a file\nmcp__capture__echo\n</available-deferred-tools>';
  const body: JsonRecord = {
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'user', content: [{ type: 'text', text: block }] },
      {
        role: 'user',
        content: [{ type: 'text', text: `<system-reminder>machine details</system-reminder>\n${PROMPT}` }],
      },
    ],
    tools: [
      {
        name: 'ToolSearch',
        description: 'Search deferred tools',
        input_schema: { type: 'object', properties: { query: { type: 'string' } } },
      },
    ],
  };
  const names = (b: JsonRecord) =>
    capturedTools(capture(b))
      .map((t) => `${t.fullName}:${t.delivery}`)
      .sort();
  assert.deepEqual(
    names(body),
    ['Bash:deferred', 'Read:deferred', 'ToolSearch:function', 'mcp__capture__echo:deferred'].sort(),
  );
  const kept = wire.captureBody(body, QUIRKS.claude);
  assert.deepEqual(
    kept['messages'],
    [{ role: 'user', content: [{ type: 'text', text: block }] }],
    'the block, and nothing of the prompt message',
  );
  assert.deepEqual(names(kept), names(body));
  // A deferred name points at the text that names it.
  const tools = capturedTools(capture(body));
  const bash = tools.find((t) => t.fullName === 'Bash')!;
  assert.match(String(resolve(capture(body), bash.pointer)), /^<available-deferred-tools>\nBash\n/);
});
