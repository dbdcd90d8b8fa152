import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  deferredNamespaceTool,
  openaiResponses as wire,
  replyEvents,
  replyJson,
} from '../../src/lib/wire/openai-responses.ts';
import { parseSse } from '../../src/lib/wire/shared.ts';
import { CaptureFormatError, type CaptureFile } from '../../src/lib/wire/types.ts';
import { capturedNamespaces, capturedTools, unannouncedTexts } from '../../src/lib/agents/index.ts';
import { QUIRKS, quirksOfFixture } from '../helpers/quirks.ts';
import type { JsonRecord } from '../../src/lib/core/json.ts';

const ROOT = join(import.meta.dirname, '../..');
const RAW = join(ROOT, 'test/fixtures/captures/raw');
const raw = (name: string): JsonRecord => JSON.parse(readFileSync(join(RAW, `${name}.json`), 'utf8')) as JsonRecord;
const capture = (body: JsonRecord, agent = 'codex'): CaptureFile => ({
  agent,
  cli: { package: 'fixture-cli', version: '1.0.0' },
  configuration: 'fixture',
  request: { method: 'POST', path: '/v1/responses' },
  body,
});
const PROMPT = 'Reply with the single word: ok';

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

/** Every pointer resolves, in the capture, to what the tool's input was read from. */
function assertPointersResolve(file: CaptureFile): void {
  for (const t of capturedTools(file)) {
    const value = resolve(file, t.pointer);
    if (t.input.kind === 'json-schema') assert.deepEqual(value, t.input.schema, t.fullName);
    else if (t.input.kind === 'grammar') assert.equal(value, t.input.definition, t.fullName);
    else if (t.delivery === 'code-mode')
      assert.ok(typeof value === 'string' && value.includes('declare const tools'), t.fullName);
    else assert.equal(typeof value, 'object', t.fullName);
    const name = resolve(file, t.namePointer);
    assert.ok(typeof name === 'string' && name.includes(t.name), `${t.fullName}: ${t.namePointer}`);
  }
}

test('gpt-5.5: top-level function, custom grammar, client built-in and hosted tools, each at its pointer', () => {
  const file = capture(raw('codex-gpt-5-5'));
  const tools = capturedTools(file);
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery, t.pointer, t.namePointer]),
    [
      ['exec_command', 'function', '/body/tools/0/parameters', '/body/tools/0/name'],
      ['write_stdin', 'function', '/body/tools/1/parameters', '/body/tools/1/name'],
      ['request_user_input', 'function', '/body/tools/2/parameters', '/body/tools/2/name'],
      ['apply_patch', 'custom', '/body/tools/3/format/definition', '/body/tools/3/name'],
      ['view_image', 'function', '/body/tools/4/parameters', '/body/tools/4/name'],
      ['get_goal', 'function', '/body/tools/5/parameters', '/body/tools/5/name'],
      ['create_goal', 'function', '/body/tools/6/parameters', '/body/tools/6/name'],
      ['update_goal', 'function', '/body/tools/7/parameters', '/body/tools/7/name'],
      ['tool_search', 'client-builtin', '/body/tools/8/parameters', '/body/tools/8/type'],
      ['web_search', 'hosted', '/body/tools/9', '/body/tools/9/type'],
    ],
  );
  assertPointersResolve(file);
});

test('unknown model: the tools of a namespace point into it', () => {
  const file = capture(raw('codex-unknown-model'));
  const spawn = capturedTools(file).find((t) => t.fullName === 'multi_agent_v1.spawn_agent')!;
  assert.deepEqual(
    [spawn.name, spawn.namespace, spawn.pointer, spawn.namePointer],
    ['spawn_agent', 'multi_agent_v1', '/body/tools/4/tools/3/parameters', '/body/tools/4/tools/3/name'],
  );
  assertPointersResolve(file);
});

test('default model: additional_tools namespaces, and code mode nested tools pointing at the exec description', () => {
  const file = capture(raw('codex-default-model'));
  const tools = capturedTools(file);
  const at = (name: string) => tools.find((t) => t.fullName === name)!;
  assert.deepEqual(
    [at('exec').delivery, at('exec').pointer],
    ['custom', '/body/input/0/tools/0/tools/0/format/definition'],
  );
  assert.deepEqual(
    [at('exec_command').delivery, at('exec_command').pointer],
    ['code-mode', '/body/input/0/tools/0/tools/0/description'],
  );
  assert.deepEqual(
    [at('clock.curr_time').delivery, at('clock.curr_time').pointer],
    ['code-mode', '/body/input/0/tools/0/tools/0/description'],
  );
  assert.equal(
    at('wait').pointer,
    '/body/input/0/tools/0/tools/1/parameters',
    'the default namespace `functions` adds no prefix',
  );
  assert.equal(at('clock.sleep').pointer, '/body/input/0/tools/1/tools/0/parameters');
  assert.equal(at('collaboration.spawn_agent').pointer, '/body/input/0/tools/2/tools/4/parameters');
  assertPointersResolve(file);
});

test('a malformed tool is a CaptureFormatError at its exact pointer, with the tool full name', () => {
  const cases: [string, (b: JsonRecord) => void, string, string | undefined, RegExp][] = [
    [
      'codex-unknown-model',
      (b) => (((b['tools'] as JsonRecord[])[4]!['tools'] as JsonRecord[])[3]!['parameters'] = 'object'),
      '/body/tools/4/tools/3/parameters',
      'multi_agent_v1.spawn_agent',
      /`parameters` is not an object/,
    ],
    [
      'codex-default-model',
      (b) =>
        ((((b['input'] as JsonRecord[])[0]!['tools'] as JsonRecord[])[2]!['tools'] as JsonRecord[])[4]!['parameters'] =
          []),
      '/body/input/0/tools/2/tools/4/parameters',
      'collaboration.spawn_agent',
      /not an object/,
    ],
    [
      'codex-default-model',
      (b) =>
        ((((b['input'] as JsonRecord[])[0]!['tools'] as JsonRecord[])[0]!['tools'] as JsonRecord[])[1]!['parameters'] =
          1),
      '/body/input/0/tools/0/tools/1/parameters',
      'wait',
      /not an object/,
    ],
    [
      'codex-default-model',
      (b) => {
        const exec = (((b['input'] as JsonRecord[])[0]!['tools'] as JsonRecord[])[0]!['tools'] as JsonRecord[])[0]!;
        exec['description'] = (exec['description'] as string).replace(
          'declare const tools: {',
          'declare const tools: {(',
        );
      },
      '/body/input/0/tools/0/tools/0/description',
      'exec',
      /code-mode declarations.*does not parse/,
    ],
    [
      'codex-gpt-5-5',
      (b) => delete (b['tools'] as JsonRecord[])[1]!['name'],
      '/body/tools/1',
      undefined,
      /^a function tool has no name$/,
    ],
    [
      'codex-gpt-5-5',
      (b) => ((b['tools'] as JsonRecord[])[3]!['format'] = 'lark'),
      '/body/tools/3/format',
      'apply_patch',
      /`format` is not an object/,
    ],
    [
      'codex-gpt-5-5',
      (b) => delete (b['tools'] as JsonRecord[])[0]!['type'],
      '/body/tools/0',
      'exec_command',
      /a tool without a type/,
    ],
    [
      'codex-unknown-model',
      (b) => delete (b['tools'] as JsonRecord[])[4]!['tools'],
      '/body/tools/4',
      'multi_agent_v1',
      /a namespace needs a name and tools/,
    ],
    [
      'codex-default-model',
      (b) => ((b['input'] as JsonRecord[])[0]!['tools'] = {}),
      '/body/input/0/tools',
      undefined,
      /not an array/,
    ],
    [
      'codex-gpt-5-5',
      (b) => ((b['input'] as unknown[])[2] = 'text'),
      '/body/input/2',
      undefined,
      /the input item is not an object/,
    ],
    ['codex-gpt-5-5', (b) => (b['tools'] = {}), '/body/tools', undefined, /`tools` is not an array/],
  ];
  for (const [fixture, spoil, pointer, tool, message] of cases) {
    const body = raw(fixture);
    spoil(body);
    const e = formatError(() => capturedTools(capture(body)));
    assert.deepEqual([e.pointer, e.tool], [pointer, tool], `${fixture} → ${e.message}`);
    assert.match(e.message, message);
  }
});

test('deferred namespaces: named in a developer message, with the pointer of that text in the capture', () => {
  const file = JSON.parse(readFileSync(join(ROOT, 'content/captures/codex/mcp.json'), 'utf8')) as CaptureFile;
  const deferred = capturedNamespaces(file);
  assert.deepEqual(
    deferred.map((d) => [d.name, d.pointer]),
    [
      ['mcp__capture', '/body/input/0/content/0/text'],
      ['multi_agent_v1', '/body/input/0/content/0/text'],
    ],
  );
  // The reason a namespace's tools have no definition here is the announcing agent's, naming the namespace.
  assert.match(deferred[0]!.reason, /only the namespace mcp__capture\b/);
  assert.match(
    resolve(file, deferred[0]!.pointer) as string,
    /^<tools>\nDeferred tool namespaces:\n[\s\S]*- mcp__capture/,
  );
  const named = capture({
    model: 'm',
    input: [
      {
        type: 'message',
        role: 'developer',
        content: [
          { type: 'input_text', text: 'other' },
          {
            type: 'input_text',
            text: '<tools>\nDeferred tool namespaces:\n- mcp__capture\n- multi_agent_v1: Tools for agents.\n</tools>',
          },
        ],
      },
    ],
  });
  assert.deepEqual(
    capturedNamespaces(named).map((d) => [d.name, d.pointer]),
    [
      ['mcp__capture', '/body/input/0/content/1/text'],
      ['multi_agent_v1', '/body/input/0/content/1/text'],
    ],
  );
  const known = capturedTools(capture(raw('codex-unknown-model'))).find(
    (t) => t.fullName === 'multi_agent_v1.spawn_agent',
  )!;
  const standIn = deferredNamespaceTool(known, capturedNamespaces(named)[1]!);
  assert.deepEqual(
    [standIn.fullName, standIn.namespace, standIn.delivery, standIn.input.kind, standIn.pointer, standIn.namePointer],
    [
      'multi_agent_v1.spawn_agent',
      'multi_agent_v1',
      'deferred',
      'unavailable',
      '/body/input/0/content/1/text',
      '/body/input/0/content/1/text',
    ],
  );
});

test('captureBody keeps the tool-related keys in the order sent; input only its non-message items and the deferred-namespace part', () => {
  const gpt = raw('codex-gpt-5-5');
  const kept = wire.captureBody(gpt, QUIRKS.codex);
  assert.deepEqual(Object.keys(kept), ['model', 'tools', 'tool_choice', 'parallel_tool_calls']);
  assert.deepEqual(kept['tools'], gpt['tools']);
  const body = raw('codex-default-model');
  const keptDefault = wire.captureBody(body, QUIRKS.codex);
  assert.deepEqual(Object.keys(keptDefault), ['model', 'input', 'tool_choice', 'parallel_tool_calls']);
  assert.deepEqual(keptDefault['input'], [(body['input'] as JsonRecord[])[0]]);
  const announcement = {
    type: 'message',
    role: 'developer',
    id: 'msg_1',
    content: [
      { type: 'input_text', text: 'You are Codex.' },
      { type: 'input_text', text: '<tools>\nDeferred tool namespaces:\n- a\n</tools>' },
    ],
  };
  assert.deepEqual(wire.captureBody({ model: 'm', input: [announcement] }, QUIRKS.codex)['input'], [
    { type: 'message', role: 'developer', content: [announcement.content[1]] },
  ]);
});

test('countTools: namespaces, names with prefixes, nested code-mode tools', () => {
  const count = wire.countTools(wire.captureBody(raw('codex-default-model'), QUIRKS.codex), QUIRKS.codex);
  assert.deepEqual([count.tools, count.namespaces, count.nested], [12, 3, 11]);
  assert.ok(count.names.includes('functions.exec') && count.names.includes('collaboration.spawn_agent'));
  const unknown = wire.countTools(wire.captureBody(raw('codex-unknown-model'), QUIRKS.codex), QUIRKS.codex);
  assert.deepEqual(
    unknown.names.filter((n) => n.startsWith('multi_agent_v1.')),
    [
      'multi_agent_v1.close_agent',
      'multi_agent_v1.resume_agent',
      'multi_agent_v1.send_input',
      'multi_agent_v1.spawn_agent',
      'multi_agent_v1.wait_agent',
    ],
  );
  assert.deepEqual(
    QUIRKS.codex.codeMode!.identifiers(
      'declare const tools: { a(x: {}): Promise<void>; };\ndeclare const tools: { b__c(x: {}): Promise<void>; };',
    ),
    ['a', 'b__c'],
  );
});

test('request checks: the body shape, streaming, and the last user text', () => {
  assert.equal(wire.problem({ model: 'g', input: [] }), undefined);
  assert.equal(wire.problem({ model: 'g', messages: [] }), 'it has no `input` array');
  assert.equal(wire.problem({ input: [] }), 'it has no string `model`');
  assert.equal(wire.lastUserText(raw('codex-gpt-5-5'))?.trim(), PROMPT);
  const req = (json: unknown) => ({ method: 'POST', url: '/v1/responses', headers: {}, json });
  assert.equal(wire.isStreaming(req({ stream: true })), true);
  assert.equal(wire.isStreaming(req({})), true, 'Codex streams unless told otherwise');
  assert.equal(wire.isStreaming(req({ stream: false })), false);
});

test('the stub reply streams one response: numbered events ending with response.completed carrying the message and usage', () => {
  const reply = wire.stubReply({ method: 'POST', path: '/v1/responses', json: { model: 'gpt-x', stream: true } })!;
  assert.deepEqual([reply.status, reply.contentType], [200, 'text/event-stream']);
  const frames = parseSse(reply.body);
  assert.deepEqual(
    frames.map((f) => f.event),
    replyEvents('gpt-x').map(([e]) => e),
  );
  assert.equal(frames[0]!.event, 'response.created');
  assert.equal(frames.at(-1)!.event, 'response.completed');
  const data = frames.map((f) => JSON.parse(f.data) as JsonRecord);
  data.forEach((d, i) => {
    assert.equal(d['type'], frames[i]!.event);
    assert.equal(d['sequence_number'], i);
  });
  const response = data.at(-1)!['response'] as {
    status: string;
    model: string;
    output: { type: string; content: { text: string }[] }[];
    usage: { total_tokens: number };
  };
  assert.deepEqual(
    [
      response.status,
      response.model,
      response.output[0]!.type,
      response.output[0]!.content[0]!.text,
      response.usage.total_tokens,
    ],
    ['completed', 'gpt-x', 'message', 'ok', 2],
  );
  assert.deepEqual(
    data.filter((d) => d['type'] === 'response.output_text.delta').map((d) => d['delta']),
    ['ok'],
  );
});

test('the stub answers `stream: false` with the completed response as JSON, and leaves other requests alone', () => {
  const reply = wire.stubReply({ method: 'POST', path: '/v1/responses', json: { model: 'gpt-x', stream: false } })!;
  assert.equal(reply.contentType, 'application/json');
  assert.deepEqual(JSON.parse(reply.body), replyJson('gpt-x'));
  assert.equal((JSON.parse(reply.body) as JsonRecord)['status'], 'completed');
  assert.equal(wire.stubReply({ method: 'POST', path: '/v1/messages', json: {} }), undefined);
  assert.equal(wire.stubReply({ method: 'GET', path: '/v1/responses', json: undefined }), undefined);
});

const QWEN_DIRECT = [
  'agent',
  'get_goal',
  'glob',
  'grep_search',
  'list_agents',
  'read_file',
  'skill',
  'tool_call',
  'tool_search',
  'update_goal',
];
const QWEN_DEFERRED = [
  'cron_create',
  'cron_delete',
  'cron_list',
  'enter_worktree',
  'exit_worktree',
  'loop_wakeup',
  'read_mcp_resource',
  'record_artifact',
  'report_findings',
  'send_message',
  'task_stop',
  'web_fetch',
  'zoom_image',
];

test('Qwen Code over Responses: function tools, then the deferred tools its reminder names, pointing at the reminder text', () => {
  const body = raw('qwen-code-responses-print');
  const tools = capturedTools(capture(body, 'qwen-code'));
  assert.deepEqual(
    tools.map((t) => t.name),
    [...QWEN_DIRECT, ...QWEN_DEFERRED],
  );
  assert.deepEqual(
    tools.map((t) => t.delivery),
    [...QWEN_DIRECT.map(() => 'function'), ...QWEN_DEFERRED.map(() => 'deferred')],
  );
  const web = tools.find((t) => t.name === 'web_fetch')!;
  assert.deepEqual(
    [web.pointer, web.namePointer, web.input.kind],
    ['/body/input/0/content/2/text', '/body/input/0/content/2/text', 'unavailable'],
  );
  assert.match((web.input as { reason: string }).reason, /tool_search.*tool_call/);
  assert.match(
    resolve(capture(body), web.pointer) as string,
    /^<system-reminder>\nThe following tools are reachable through `tool_search`[\s\S]*- "web_fetch": /,
  );
  assert.deepEqual(capturedNamespaces(capture(body, 'qwen-code')), [], 'no namespaces');
});

test('Qwen Code over Responses: captureBody keeps only the reminder of the user message, and reads back the same tools', () => {
  const body = raw('qwen-code-responses-print');
  const kept = wire.captureBody(body, QUIRKS.qwen);
  assert.deepEqual(Object.keys(kept), ['model', 'input', 'tools', 'tool_choice', 'parallel_tool_calls']);
  const reminder = ((body['input'] as JsonRecord[])[0]!['content'] as JsonRecord[])[2]!;
  assert.deepEqual(
    kept['input'],
    [{ type: 'message', role: 'user', content: [reminder] }],
    'the reminder part, verbatim; the prompt and the other reminders left out',
  );
  assert.doesNotMatch(JSON.stringify(kept), /<trimmed>|Reply with/);
  const names = (b: JsonRecord) => capturedTools(capture(b, 'qwen-code')).map((t) => `${t.fullName}:${t.delivery}`);
  assert.deepEqual(names(kept), names(body));
  const file = capture(kept, 'qwen-code');
  for (const t of capturedTools(file).filter((t) => t.delivery === 'deferred')) {
    assert.equal(t.pointer, '/body/input/0/content/0/text');
    assert.ok((resolve(file, t.pointer) as string).includes(`- ${JSON.stringify(t.name)}: `), t.name);
  }
  const count = wire.countTools(kept, QUIRKS.qwen);
  assert.deepEqual([count.tools, count.deferred, count.namespaces, count.nested], [23, 13, 0, 0]);
  assert.deepEqual(count.names, [...QWEN_DIRECT, ...QWEN_DEFERRED]);
  // Only the reminder is kept of a longer text, as a part of the same type; string content too.
  const text = `Context.\n${reminder['text'] as string}\nMore context.`;
  assert.deepEqual(
    wire.captureBody(
      { model: 'm', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }] },
      QUIRKS.qwen,
    )['input'],
    [{ type: 'message', role: 'user', content: [reminder] }],
  );
  assert.deepEqual(
    wire.captureBody({ model: 'm', input: [{ type: 'message', role: 'user', content: text }] }, QUIRKS.qwen)['input'],
    [{ type: 'message', role: 'user', content: [reminder] }],
  );
  assert.equal(
    wire.captureBody(
      {
        model: 'm',
        input: [{ type: 'message', role: 'user', content: 'The following tools are reachable through `tool_search`' }],
      },
      QUIRKS.qwen,
    )['input'],
    undefined,
    'only a complete reminder counts',
  );
});

test("a message in the API's short form ({ role, content }, no type) is a message: a capture leaves it out like one", () => {
  const body = {
    model: 'm',
    input: [
      { role: 'developer', content: 'You are a coding agent at /home/someone' },
      { role: 'user', content: [{ type: 'input_text', text: 'Reply ok' }] },
    ],
    tools: [],
  };
  assert.equal(wire.captureBody(body, QUIRKS.qwen)['input'], undefined);
  // Items that are not messages are kept whole.
  const call = { type: 'function_call_output', call_id: 'c', output: 'x' };
  assert.deepEqual(wire.captureBody({ ...body, input: [...body.input, call] }, QUIRKS.qwen)['input'], [call]);
});

test('Qwen Code over Responses: a kept reminder is what the capture schema and the loader allow in `input`', async () => {
  const { schemaAjv } = await import('../../scripts/lib/capture/ajv.ts');
  const validate = schemaAjv().compile(
    JSON.parse(readFileSync(join(ROOT, 'schemas/capture.schema.json'), 'utf8')) as object,
  );
  const file = (body: JsonRecord) => ({
    agent: 'qwen-code',
    cli: { package: '@qwen-code/qwen-code', version: '0.24.4' },
    configuration: 'responses',
    request: { method: 'POST', path: '/v1/responses' },
    body,
  });
  assert.ok(
    validate(file(wire.captureBody(raw('qwen-code-responses-print'), quirksOfFixture('qwen-code-responses-print')))),
    JSON.stringify(validate.errors),
  );
  assert.ok(
    validate(file(wire.captureBody(raw('codex-default-model'), quirksOfFixture('codex-default-model')))),
    JSON.stringify(validate.errors),
  );
  // Any other text passes the schema (it names no agent's words) and is refused by the loader, where it is.
  const other = file({
    model: 'm',
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Reply with the single word: ok' }] },
    ],
  }) as unknown as CaptureFile;
  assert.deepEqual(
    unannouncedTexts(other).map((t) => t.at),
    ['/body/input/0/content/0/text'],
    'no other text',
  );
  const kept = file(
    wire.captureBody(raw('qwen-code-responses-print'), quirksOfFixture('qwen-code-responses-print')),
  ) as unknown as CaptureFile;
  assert.deepEqual(unannouncedTexts(kept), []);
});
