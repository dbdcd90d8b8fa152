import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  openaiChatCompletions as wire,
  replyChunks,
  replyJson,
  toolCallChunks,
} from '../../src/lib/wire/openai-chat-completions.ts';
import { Conversation } from '../../scripts/lib/payloads/conversation.ts';
import { parseSse } from '../../src/lib/wire/shared.ts';
import { CaptureFormatError, type CaptureFile } from '../../src/lib/wire/types.ts';
import { wireFormatForPath } from '../../src/lib/wire/index.ts';
import { capturedTools } from '../../src/lib/agents/index.ts';
import { QUIRKS, quirksOfFixture } from '../helpers/quirks.ts';
import type { JsonRecord } from '../../src/lib/core/json.ts';

const RAW = join(import.meta.dirname, '../fixtures/captures/raw');
const rawText = (name: string): string => readFileSync(join(RAW, `${name}.json`), 'utf8');
const raw = (name: string): JsonRecord => JSON.parse(rawText(name)) as JsonRecord;
const capture = (body: JsonRecord): CaptureFile => ({
  agent: 'qwen-code',
  cli: { package: 'fixture-cli', version: '1.0.0' },
  configuration: 'fixture',
  request: { method: 'POST', path: '/v1/chat/completions' },
  body,
});

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
 * The function names of a fixture, read from its text line by line (no JSON walk): `"name"` lines right after
 * `"function": {`.
 */
function functionNamesInText(text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) =>
    /^\s*"function": \{$/.test(lines[i - 1] ?? '') ? [/^\s*"name": "([^"]+)",?$/.exec(line)![1]!] : [],
  );
}

/** Names in Qwen's deferred-tool reminder, read by cutting each `- "name": …` line at its second quote. */
function reminderNames(body: JsonRecord): string[] {
  const parts = ((body['messages'] as JsonRecord[])[1]!['content'] as JsonRecord[]).map((p) => p['text'] as string);
  const reminder = parts.find((p) => p.includes('reachable through `tool_search`'))!;
  return reminder
    .split('\n')
    .filter((l) => l.startsWith('- "'))
    .map((l) => l.slice(3, l.indexOf('"', 3)));
}

/** Every pointer resolves, in the capture, to what the tool was read from; every name pointer to text naming it. */
function assertPointersResolve(file: CaptureFile): void {
  for (const t of capturedTools(file)) {
    const value = resolve(file, t.pointer);
    if (t.input.kind === 'json-schema' && t.pointer.endsWith('/parameters'))
      assert.deepEqual(value, t.input.schema, t.fullName);
    else if (t.input.kind === 'json-schema')
      assert.equal(
        (value as JsonRecord)['type'],
        'function',
        `${t.fullName}: a function without parameters points at itself`,
      );
    else assert.ok(typeof value === 'string' && value.includes(`- ${JSON.stringify(t.name)}: `), t.fullName);
    const name = resolve(file, t.namePointer);
    if (t.delivery === 'deferred') assert.equal(name, value, t.fullName);
    else assert.equal(name, t.name, t.fullName);
  }
}

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

test('Qwen Code: function tools at /body/tools/N/function/parameters, then the deferred tools its reminder names', () => {
  const body = raw('qwen-code-default');
  const file = capture(body);
  const tools = capturedTools(file);
  const direct = tools.filter((t) => t.delivery === 'function');
  const deferred = tools.filter((t) => t.delivery === 'deferred');
  assert.deepEqual(
    direct.map((t) => t.name),
    functionNamesInText(rawText('qwen-code-default')),
  );
  assert.deepEqual(
    direct.map((t) => t.name),
    QWEN_DIRECT,
  );
  assert.deepEqual(
    deferred.map((t) => t.name),
    reminderNames(body),
  );
  assert.deepEqual(
    deferred.map((t) => t.name),
    QWEN_DEFERRED,
  );
  assert.deepEqual(
    tools.map((t) => t.delivery),
    [...QWEN_DIRECT.map(() => 'function'), ...QWEN_DEFERRED.map(() => 'deferred')],
    'direct tools first, in order',
  );
  const at = (name: string) => tools.find((t) => t.fullName === name)!;
  assert.deepEqual(
    [at('read_file').pointer, at('read_file').namePointer],
    ['/body/tools/5/function/parameters', '/body/tools/5/function/name'],
  );
  assert.deepEqual(
    [at('get_goal').pointer, at('get_goal').namePointer],
    ['/body/tools/1', '/body/tools/1/function/name'],
    'no parameters: the tool itself',
  );
  assert.deepEqual(
    at('get_goal').input,
    {
      kind: 'json-schema',
      schema: { type: 'object' },
      origin: { package: 'fixture-cli', version: '1.0.0', file: 'content/captures/qwen-code/fixture.json' },
      absentMember: 'parameters',
    },
    'no parameters member: said so',
  );
  assert.match(at('tool_search').description!, /./);
  assert.deepEqual(at('web_fetch'), {
    name: 'web_fetch',
    fullName: 'web_fetch',
    delivery: 'deferred',
    input: {
      kind: 'unavailable',
      reason:
        'Deferred in this configuration: the model is told only the name and a one-line description, loads the schema through tool_search, and calls the tool through tool_call.',
    },
    output: at('read_file').output,
    pointer: '/body/messages/1/content/2/text',
    namePointer: '/body/messages/1/content/2/text',
  });
  assertPointersResolve(file);
});

test('OpenCode and Copilot: function tools only, each at its pointer, names as listed in the file', () => {
  const expected = {
    'opencode-run': ['bash', 'edit', 'glob', 'grep', 'read', 'skill', 'task', 'todowrite', 'webfetch', 'write'],
    'copilot-cli-prompt': [
      'bash',
      'read_bash',
      'stop_bash',
      'list_bash',
      'view',
      'create',
      'edit',
      'fetch_copilot_cli_documentation',
      'skill',
      'sql',
      'session_store_sql',
      'read_agent',
      'list_agents',
      'write_agent',
      'grep',
      'glob',
      'task',
    ],
  };
  for (const [name, names] of Object.entries(expected)) {
    const file = capture(raw(name));
    const tools = capturedTools(file);
    assert.deepEqual(
      tools.map((t) => t.name),
      functionNamesInText(rawText(name)),
      name,
    );
    assert.deepEqual(
      tools.map((t) => t.name),
      names,
      name,
    );
    tools.forEach((t, i) => {
      assert.equal(t.delivery, 'function');
      assert.deepEqual(
        [t.pointer, t.namePointer],
        [`/body/tools/${i}/function/parameters`, `/body/tools/${i}/function/name`],
      );
      assert.equal(t.settings, undefined, 'nothing sent beside name, description and parameters');
    });
    assertPointersResolve(file);
  }
});

test('settings keep what is sent beside the definition, such as strict', () => {
  const [tool] = wire.extractTools(
    {
      model: 'm',
      tools: [{ type: 'function', function: { name: 'Ping', strict: true, parameters: { type: 'object' } } }],
    },
    {
      origin: { package: 'p', version: 'v', file: 'f' },
      pointer: '/body',
      quirks: QUIRKS.none,
    },
  );
  assert.deepEqual([tool!.settings, tool!.description], [{ strict: true }, undefined]);
});

test('captureBody keeps model, tools, tool_choice and only the deferred-tool reminder, in the order sent', () => {
  const qwen = raw('qwen-code-default');
  const kept = wire.captureBody(qwen, QUIRKS.qwen);
  assert.deepEqual(Object.keys(kept), ['model', 'messages', 'tools']);
  assert.deepEqual(kept['tools'], qwen['tools']);
  const messages = kept['messages'] as JsonRecord[];
  assert.equal(messages.length, 1);
  assert.equal(messages[0]!['role'], 'user');
  const text = (messages[0]!['content'] as JsonRecord[])[0]!['text'] as string;
  assert.match(text, /^<system-reminder>\nThe following tools are reachable through `tool_search` and `tool_call`\./);
  assert.match(text, /<\/system-reminder>$/);
  assert.doesNotMatch(JSON.stringify(kept), /"hi"|<trimmed>/, 'the prompt and the other reminders are left out');
  // Read back from the kept body, the reminder yields the same tools as the raw body, now at the kept text.
  const names = (b: JsonRecord) => capturedTools(capture(b)).map((t) => `${t.fullName}:${t.delivery}`);
  assert.deepEqual(names(kept), names(qwen));
  const web = capturedTools(capture(kept)).find((t) => t.name === 'web_fetch')!;
  assert.equal(web.pointer, '/body/messages/0/content/0/text');
  assertPointersResolve(capture(kept));

  assert.deepEqual(Object.keys(wire.captureBody(raw('opencode-run'), quirksOfFixture('opencode-run'))), [
    'model',
    'tools',
    'tool_choice',
  ]);
  assert.deepEqual(Object.keys(wire.captureBody(raw('copilot-cli-prompt'), quirksOfFixture('copilot-cli-prompt'))), [
    'model',
    'tools',
  ]);
  assert.equal(
    wire.captureBody(
      { model: 'm', messages: [{ role: 'user', content: 'The following tools are reachable through `tool_search`' }] },
      QUIRKS.qwen,
    )['messages'],
    undefined,
    'only a complete reminder counts',
  );
});

test('countTools counts function tools and the deferred tools the reminder names', () => {
  const qwen = wire.countTools(wire.captureBody(raw('qwen-code-default'), QUIRKS.qwen), QUIRKS.qwen);
  assert.deepEqual([qwen.tools, qwen.deferred, qwen.namespaces, qwen.nested], [23, 13, 0, 0]);
  assert.deepEqual(qwen.names, [...QWEN_DIRECT, ...QWEN_DEFERRED]);
  const copilot = wire.countTools(
    wire.captureBody(raw('copilot-cli-prompt'), quirksOfFixture('copilot-cli-prompt')),
    quirksOfFixture('copilot-cli-prompt'),
  );
  assert.deepEqual([copilot.tools, copilot.deferred], [17, 0]);
});

test('request checks: the body shape, streaming, and the last user text', () => {
  assert.equal(wire.problem({ model: 'm', messages: [] }), undefined);
  assert.equal(wire.problem(raw('copilot-cli-prompt')), undefined);
  assert.equal(wire.problem({ model: 'm', messages: [], tools: {} }), '`tools` is not an array');
  assert.equal(wire.problem({ model: 'm', input: [] }), 'it has no `messages` array');
  assert.equal(wire.problem({ messages: [] }), 'it has no string `model`');
  assert.equal(wire.problem('x'), 'the body is not a JSON object');
  assert.equal(wire.lastUserText(raw('qwen-code-default')), 'hi', 'the last text part');
  assert.equal(wire.lastUserText(raw('opencode-run')), 'hi', 'string content');
  assert.match(
    wire.lastUserText(raw('copilot-cli-prompt'))!,
    /^<current_datetime>[^<]+<\/current_datetime>\n\nhi$/,
    'Copilot prefixes the date',
  );
  assert.equal(
    wire.lastUserText({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
    }),
    'a',
  );
  const req = (json: unknown) => ({ method: 'POST', url: '/v1/chat/completions', headers: {}, json });
  assert.equal(wire.isStreaming(req({ stream: true })), true);
  assert.equal(wire.isStreaming(req({})), false);
  assert.equal(wire.isStreaming(req(undefined)), false);
  assert.equal(wire.isToolRequestPath('/v1/chat/completions'), true);
  assert.equal(wire.isToolRequestPath('/v1/completions'), false);
  assert.equal(wireFormatForPath('/v1/chat/completions'), wire);
});

test('the streamed stub reply is data-only SSE: chunks of one text message, usage when asked for, then [DONE]', () => {
  for (const includeUsage of [true, false]) {
    const json = { model: 'gpt-x', stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) };
    const reply = wire.stubReply({ method: 'POST', path: '/v1/chat/completions', json })!;
    assert.equal(reply.status, 200);
    assert.equal(reply.contentType, 'text/event-stream');
    assert.ok(reply.body.endsWith('data: [DONE]\n\n'));
    assert.doesNotMatch(reply.body, /^event:/m);
    const frames = parseSse(reply.body);
    assert.equal(frames.at(-1)!.data, '[DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data) as JsonRecord);
    assert.deepEqual(chunks, replyChunks('gpt-x', includeUsage));
    for (const c of chunks) assert.deepEqual([c['object'], c['model']], ['chat.completion.chunk', 'gpt-x']);
    const choices = chunks.flatMap((c) => c['choices'] as JsonRecord[]);
    assert.deepEqual(
      choices.map((c) => c['delta']),
      [{ role: 'assistant', content: 'ok' }, {}],
    );
    assert.deepEqual(
      choices.map((c) => c['finish_reason']),
      [null, 'stop'],
    );
    assert.equal(chunks.filter((c) => c['usage'] !== undefined).length, includeUsage ? 1 : 0);
  }
});

test('the stub answers non-streaming requests with a chat.completion and leaves other requests alone', () => {
  const reply = wire.stubReply({
    method: 'POST',
    path: '/v1/chat/completions',
    json: { model: 'gpt-x', stream: false },
  })!;
  assert.equal(reply.contentType, 'application/json');
  const completion = JSON.parse(reply.body) as JsonRecord;
  assert.deepEqual(completion, replyJson('gpt-x'));
  const choice = (completion['choices'] as JsonRecord[])[0]!;
  assert.deepEqual(
    [completion['object'], (choice['message'] as JsonRecord)['content'], choice['finish_reason']],
    ['chat.completion', 'ok', 'stop'],
  );
  assert.equal(
    JSON.parse(wire.stubReply({ method: 'POST', path: '/v1/chat/completions', json: undefined })!.body).model,
    'stub-model',
  );
  assert.equal(wire.stubReply({ method: 'GET', path: '/v1/chat/completions', json: undefined }), undefined);
  assert.equal(wire.stubReply({ method: 'POST', path: '/v1/responses', json: {} }), undefined);
});

test('a malformed tool is a CaptureFormatError at its exact pointer, naming the tool when it can', () => {
  const body = raw('opencode-run');
  const edit = (change: (tools: JsonRecord[]) => void): JsonRecord => {
    const tools = structuredClone(body['tools']) as JsonRecord[];
    change(tools);
    return { ...body, tools };
  };
  const cases: [JsonRecord, string, string | undefined, string][] = [
    [
      edit((t) => {
        (t[4]!['function'] as JsonRecord)['parameters'] = 'object';
      }),
      '/body/tools/4/function/parameters',
      'read',
      '`parameters` is not an object',
    ],
    [
      edit((t) => {
        delete (t[2]!['function'] as JsonRecord)['name'];
      }),
      '/body/tools/2/function',
      undefined,
      'a function tool has no name',
    ],
    [
      edit((t) => {
        t[3]!['function'] = [];
      }),
      '/body/tools/3/function',
      undefined,
      '`function` is not an object',
    ],
    [
      edit((t) => {
        delete t[3]!['function'];
      }),
      '/body/tools/3',
      undefined,
      'a function tool has no `function`',
    ],
    [
      edit((t) => {
        t[1]!['type'] = 'hosted_search';
      }),
      '/body/tools/1/type',
      undefined,
      'a tool of type "hosted_search" is neither a function nor a custom tool',
    ],
    [
      edit((t) => {
        delete t[0]!['type'];
      }),
      '/body/tools/0',
      undefined,
      'a tool without a type',
    ],
    [
      edit((t) => {
        t[5] = null as unknown as JsonRecord;
      }),
      '/body/tools/5',
      undefined,
      'the tool is not an object',
    ],
    [{ model: 'm', tools: { read: {} } }, '/body/tools', undefined, '`tools` is not an array'],
  ];
  for (const [b, ptr, tool, message] of cases) {
    const e = formatError(() => capturedTools(capture(b)));
    assert.deepEqual([e.pointer, e.tool, e.message], [ptr, tool, message]);
  }
});

test('Qwen code mode: the tools exec declares in TypeScript lines, each pointing at the exec description, results undeclared', () => {
  const file = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../content/captures/qwen-code/code-mode-only.json'), 'utf8'),
  ) as CaptureFile;
  const tools = capturedTools(file);
  const execIndex = (file.body['tools'] as JsonRecord[]).findIndex(
    (t) => (t['function'] as JsonRecord)['name'] === 'exec',
  );
  const description = ((file.body['tools'] as JsonRecord[])[execIndex]!['function'] as JsonRecord)[
    'description'
  ] as string;
  // The nested names, read from the text: the `tools.<name>(` lines.
  const declared = description
    .split('\n')
    .filter((l) => l.startsWith('tools.'))
    .map((l) => l.slice('tools.'.length, l.indexOf('(')));
  assert.deepEqual(declared, [
    'cron_create',
    'cron_delete',
    'cron_list',
    'get_goal',
    'glob',
    'grep_search',
    'list_agents',
    'loop_wakeup',
    'read_file',
    'read_mcp_resource',
    'record_artifact',
    'report_findings',
    'skill',
    'task_stop',
    'update_goal',
    'web_fetch',
    'zoom_image',
  ]);
  const nested = tools.filter((t) => t.delivery === 'code-mode');
  assert.deepEqual(
    nested.map((t) => t.name),
    declared,
  );
  assert.deepEqual(
    tools.map((t) => t.name),
    ['agent', 'enter_worktree', 'exec', ...declared, 'exit_worktree', 'send_message'],
    'nested tools follow exec, in the order declared',
  );
  const at = `/body/tools/${execIndex}/function/description`;
  const allTools = JSON.parse(/^const ALL_TOOLS = (\[.*\]) as const;$/m.exec(description)![1]!) as {
    name: string;
    description: string;
  }[];
  for (const t of nested) {
    assert.deepEqual([t.pointer, t.namePointer, t.namespace], [at, at, undefined], t.name);
    assert.equal(
      t.description,
      allTools.find((a) => a.name === t.name)!.description,
      `${t.name}: the description ALL_TOOLS gives`,
    );
    assert.ok(t.input.kind === 'typescript', t.name);
    assert.match(
      description,
      new RegExp(
        `^tools\\.${t.name}\\(args: ${t.input.source.slice(`type ${t.input.typeName} = `.length, -2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): Promise<CodeModeToolResult>;$`,
        'm',
      ),
      `${t.name}: the input type as declared`,
    );
    assert.deepEqual(t.output.kind, 'unavailable', `${t.name}: CodeModeToolResult is an envelope, not a result type`);
    assert.match((t.output as { reason: string }).reason, /CodeModeToolResult/);
  }
  const web = nested.find((t) => t.name === 'web_fetch')!;
  assert.deepEqual(web.input, {
    kind: 'typescript',
    typeName: 'WebFetchInput',
    source:
      'type WebFetchInput = { "format"?: "auto" | "markdown" | "html" | "text"; "prompt": string; "url": string };\n',
    origin: {
      package: '@qwen-code/qwen-code',
      version: file.cli.version,
      file: 'content/captures/qwen-code/code-mode-only.json',
    },
  });
  assert.deepEqual(tools.find((t) => t.name === 'exec')!.delivery, 'function');
  const count = wire.countTools(file.body, QUIRKS.qwen);
  assert.deepEqual([count.tools, count.nested, count.deferred], [5, 17, 0]);
});

test('Qwen code mode: a result type of its own is kept, and declarations that do not parse are a CaptureFormatError at the exec description', () => {
  const exec = (description: string): JsonRecord => ({
    model: 'm',
    tools: [{ type: 'function', function: { name: 'exec', description, parameters: { type: 'object' } } }],
  });
  const description = [
    'Execute JavaScript.',
    '',
    'type CodeModeToolResult = { callId: string; output: string };',
    'type Stat = { size: number };',
    'tools.stat(args: { "path": string }): Promise<Stat>;',
    'tools.mcp__srv__ping(args: {  }): Promise<CodeModeToolResult>;',
    '',
    'const ALL_TOOLS = [{"name":"stat","jsName":"stat","description":"Stats a file.","deferred":false},{"name":"mcp__srv__ping","jsName":"mcp__srv__ping","description":"Pings.","deferred":true}] as const;',
  ].join('\n');
  const tools = capturedTools(capture(exec(description)));
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery, t.description]),
    [
      ['exec', 'function', description],
      ['stat', 'code-mode', 'Stats a file.'],
      ['mcp__srv__ping', 'code-mode', 'Pings.'],
    ],
  );
  assert.deepEqual(tools[1]!.output, {
    kind: 'typescript',
    typeName: 'StatResult',
    source: 'type Stat = { size: number };\ntype StatResult = Stat;\n',
    origin: { package: 'fixture-cli', version: '1.0.0', file: 'content/captures/qwen-code/fixture.json' },
  });
  assert.equal(tools[2]!.output.kind, 'unavailable');
  assert.equal(wire.countTools(exec(description), QUIRKS.qwen).nested, 2);
  const e = formatError(() =>
    capturedTools(capture(exec(description.replace('{ "path": string }', '{ "path": string ')))),
  );
  assert.deepEqual([e.pointer, e.tool], ['/body/tools/0/function/description', 'exec']);
  assert.match(e.message, /code-mode declarations.*does not parse/);
  const plain = capturedTools(capture(exec('Run JavaScript; call tools.read_file(...) from it.')));
  assert.deepEqual(
    plain.map((t) => t.name),
    ['exec'],
    'a description that only mentions tools declares none',
  );
});

test('a freeform custom tool (Copilot CLI sends apply_patch so to gpt-5 models) gives its grammar, at its pointer', () => {
  const grammarText = 'start: begin_patch hunk+ end_patch\n';
  const body = {
    model: 'gpt-5.5',
    tools: [
      {
        type: 'custom',
        custom: {
          name: 'apply_patch',
          description: 'Edit files.',
          format: { type: 'grammar', grammar: { syntax: 'lark', definition: grammarText } },
        },
      },
    ],
  };
  const file = {
    agent: 'copilot-cli',
    cli: { package: 'fixture-cli', version: '1.0.0' },
    configuration: 'fixture',
    request: { method: 'POST', path: '/v1/chat/completions' },
    body,
  };
  const [tool] = capturedTools(file as CaptureFile);
  assert.equal(tool!.delivery, 'custom');
  assert.deepEqual(tool!.input, {
    kind: 'grammar',
    syntax: 'lark',
    definition: grammarText,
    origin: { package: 'fixture-cli', version: '1.0.0', file: 'content/captures/copilot-cli/fixture.json' },
  });
  assert.equal(tool!.pointer, '/body/tools/0/custom/format/grammar/definition');
  assert.equal(tool!.namePointer, '/body/tools/0/custom/name');
  assert.throws(
    () => capturedTools({ ...file, body: { model: 'm', tools: [{ type: 'custom', custom: {} }] } } as CaptureFile),
    /a custom tool has no name/,
  );
});

// ---------------------------------------------------------------------------
// Tool calls (payload runs)

const calls = wire.toolCalls;
const PATH = '/v1/chat/completions';

/**
 * The openai SDK's reading of a Chat Completions stream (openai-node, src/core/streaming.ts:
 * Stream.fromSSEResponse with its SSEDecoder): a line ending `\r` loses it; a blank line
 * ends an event; `data:` lines (one space after the colon dropped) join with newlines;
 * lines starting with `:` are comments; `[DONE]` ends the stream; every other event is
 * JSON, and one with an `error` member throws.
 */
function sdkChunks(text: string): JsonRecord[] {
  const out: JsonRecord[] = [];
  let data: string[] = [];
  let done = false;
  for (let line of text.split('\n')) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') {
      if (data.length === 0) continue;
      const joined = data.join('\n');
      data = [];
      if (joined === '[DONE]') {
        done = true;
        break;
      }
      const chunk = JSON.parse(joined) as JsonRecord;
      assert.equal(chunk['error'], undefined);
      out.push(chunk);
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
  }
  assert.ok(done, 'the stream ends with [DONE]');
  return out;
}

/**
 * The message the SDK assembles from the chunks (openai-node, src/lib/ChatCompletionStream.ts,
 * #accumulateChatCompletion, for choice 0): role set, content appended, each tool call
 * delta merged into the call of its `index` — `id`, `type` and names set when present,
 * `function.arguments` and `custom.input` appended — and the last finish_reason kept.
 */
function sdkMessage(chunks: readonly JsonRecord[]): { message: JsonRecord; finishReason: unknown } {
  const message: JsonRecord = {};
  let finishReason: unknown = null;
  for (const chunk of chunks) {
    for (const choice of chunk['choices'] as JsonRecord[]) {
      assert.equal(choice['index'], 0);
      if (choice['finish_reason']) finishReason = choice['finish_reason'];
      const delta = (choice['delta'] ?? {}) as JsonRecord;
      if (delta['role']) message['role'] = delta['role'];
      if (delta['content'] != null)
        message['content'] = ((message['content'] as string | undefined) ?? '') + (delta['content'] as string);
      for (const d of (delta['tool_calls'] ?? []) as JsonRecord[]) {
        const index = d['index'] as number;
        assert.ok(Number.isSafeInteger(index) && index >= 0, 'a tool call delta has an index');
        const list = (message['tool_calls'] ??= []) as JsonRecord[];
        const call = (list[index] ??= {});
        if (d['id']) call['id'] = d['id'];
        if (d['type']) call['type'] = d['type'];
        const fn = d['function'] as JsonRecord | undefined;
        if (fn) {
          const snap = (call['function'] ??= { name: fn['name'] ?? '', arguments: '' }) as JsonRecord;
          if (fn['name']) snap['name'] = fn['name'];
          if (fn['arguments']) snap['arguments'] = (snap['arguments'] as string) + (fn['arguments'] as string);
        }
        const custom = d['custom'] as JsonRecord | undefined;
        if (custom) {
          const snap = (call['custom'] ??= { name: custom['name'] ?? '', input: '' }) as JsonRecord;
          if (custom['name']) snap['name'] = custom['name'];
          if (custom['input']) snap['input'] = (snap['input'] as string) + (custom['input'] as string);
        }
      }
    }
  }
  return { message, finishReason };
}

/** The finish reasons ChatCompletion.Choice declares (openai-node, src/resources/chat/completions/completions.ts). */
const SDK_FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'];

const SHELL = {
  id: 'call_stub_1',
  tool: 'run_shell_command',
  input: { command: 'echo "hi"; exit 3', is_background: false },
};
const PATCH = {
  id: 'call_stub_2',
  tool: 'apply_patch',
  input: '*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch\n',
};

test('toolCalls: a streamed request gets the call as OpenAI streams one — id, type and name first, the arguments after, finish_reason tool_calls, [DONE]', () => {
  for (const includeUsage of [true, false]) {
    const json = { ...raw('qwen-code-default'), ...(includeUsage ? {} : { stream_options: undefined }) };
    const reply = calls.callReply({ method: 'POST', path: PATH, json }, SHELL)!;
    assert.equal(reply.status, 200);
    assert.equal(reply.contentType, 'text/event-stream');
    assert.doesNotMatch(reply.body, /^event:/m);
    const chunks = sdkChunks(reply.body);
    assert.deepEqual(chunks, toolCallChunks('qwen3-coder-plus', includeUsage, SHELL));
    for (const c of chunks) assert.deepEqual([c['object'], c['model']], ['chat.completion.chunk', 'qwen3-coder-plus']);
    const { message, finishReason } = sdkMessage(chunks);
    assert.deepEqual(message, {
      role: 'assistant',
      tool_calls: [
        {
          id: 'call_stub_1',
          type: 'function',
          function: {
            name: 'run_shell_command',
            arguments: '{"command":"echo \\"hi\\"; exit 3","is_background":false}',
          },
        },
      ],
    });
    assert.deepEqual(
      JSON.parse(((message['tool_calls'] as JsonRecord[])[0]!['function'] as JsonRecord)['arguments'] as string),
      SHELL.input,
      'the arguments round-trip',
    );
    assert.equal(finishReason, 'tool_calls');
    assert.ok(SDK_FINISH_REASONS.includes(finishReason as string));
    // Incremental: the first delta names the call, a later one carries the arguments.
    const deltas = chunks
      .flatMap((c) => (c['choices'] as JsonRecord[]).map((ch) => ch['delta'] as JsonRecord))
      .filter((d) => d['tool_calls']);
    assert.equal(deltas.length, 2);
    assert.equal(((deltas[0]!['tool_calls'] as JsonRecord[])[0]!['function'] as JsonRecord)['arguments'], '');
    assert.equal((deltas[1]!['tool_calls'] as JsonRecord[])[0]!['id'], undefined);
    assert.equal(chunks.filter((c) => c['usage'] !== undefined).length, includeUsage ? 1 : 0);
    assert.deepEqual(
      chunks.filter((c) => c['usage'] !== undefined).map((c) => c['choices']),
      includeUsage ? [[]] : [],
      'usage comes in a chunk without choices',
    );
  }
});

test('toolCalls: a non-streamed request gets a chat.completion whose message holds the tool call; a freeform input is a custom call', () => {
  const reply = calls.callReply({ method: 'POST', path: PATH, json: { model: 'gpt-x', messages: [] } }, SHELL)!;
  assert.equal(reply.contentType, 'application/json');
  const completion = JSON.parse(reply.body) as JsonRecord;
  assert.equal(completion['object'], 'chat.completion');
  const choice = (completion['choices'] as JsonRecord[])[0]!;
  assert.equal(choice['finish_reason'], 'tool_calls');
  const message = choice['message'] as JsonRecord;
  assert.deepEqual([message['role'], message['content']], ['assistant', null]);
  // ChatCompletionMessageFunctionToolCall: {id, function: {arguments, name}, type: 'function'}.
  const [call, ...more] = message['tool_calls'] as JsonRecord[];
  assert.equal(more.length, 0);
  assert.deepEqual(Object.keys(call!).sort(), ['function', 'id', 'type']);
  assert.deepEqual(Object.keys(call!['function'] as JsonRecord).sort(), ['arguments', 'name']);
  assert.deepEqual(
    [call!['id'], call!['type'], (call!['function'] as JsonRecord)['name']],
    ['call_stub_1', 'function', 'run_shell_command'],
  );
  assert.deepEqual(JSON.parse((call!['function'] as JsonRecord)['arguments'] as string), SHELL.input);

  // ChatCompletionMessageCustomToolCall: {id, custom: {input, name}, type: 'custom'}.
  const custom = (
    (JSON.parse(calls.callReply({ method: 'POST', path: PATH, json: { model: 'gpt-x' } }, PATCH)!.body) as JsonRecord)[
      'choices'
    ] as JsonRecord[]
  )[0]!;
  assert.deepEqual((custom['message'] as JsonRecord)['tool_calls'], [
    { id: 'call_stub_2', type: 'custom', custom: { name: 'apply_patch', input: PATCH.input } },
  ]);
  const streamed = sdkMessage(
    sdkChunks(calls.callReply({ method: 'POST', path: PATH, json: { model: 'gpt-x', stream: true } }, PATCH)!.body),
  );
  assert.deepEqual(streamed.message['tool_calls'], [
    { id: 'call_stub_2', type: 'custom', custom: { name: 'apply_patch', input: PATCH.input } },
  ]);
  assert.deepEqual([calls.callKind(SHELL.input), calls.callKind(PATCH.input)], ['function', 'custom']);
  assert.deepEqual([calls.callId(0), calls.callId(1)], ['call_stub_1', 'call_stub_2']);

  assert.equal(calls.callReply({ method: 'GET', path: PATH, json: undefined }, SHELL), undefined);
  assert.equal(calls.callReply({ method: 'POST', path: '/v1/responses', json: {} }, SHELL), undefined);
  assert.equal(
    calls.callReply({ method: 'POST', path: '/v1beta/models/m:generateContent', json: {} }, SHELL),
    undefined,
  );
});

/**
 * A follow-up request: the assistant's calls, then a `tool` message per result (ChatCompletionToolMessageParam: role,
 * content, tool_call_id).
 */
const followUp = (results: JsonRecord[]): JsonRecord => ({
  model: 'qwen3-coder-plus',
  stream: true,
  tools: raw('qwen-code-default')['tools'],
  messages: [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_stub_1', type: 'function', function: { name: 'run_shell_command', arguments: '{}' } }],
    },
    ...results,
  ],
});
const toolMessage = (id: string, content: unknown): JsonRecord => ({ role: 'tool', tool_call_id: id, content });

test("toolCalls: findResult finds the tool message with the call's tool_call_id among several, and nothing else", () => {
  const mine = toolMessage('call_stub_1', 'Exit Code: 3');
  const body = followUp([
    toolMessage('call_stub_12', 'twelve'),
    mine,
    toolMessage('call_stub_2', [{ type: 'text', text: 'two' }]),
  ]);
  assert.equal(calls.findResult(body, 'call_stub_1'), mine, 'the message itself, verbatim');
  assert.deepEqual(calls.findResult(body, 'call_stub_2'), toolMessage('call_stub_2', [{ type: 'text', text: 'two' }]));
  assert.equal(calls.findResult(body, 'call_stub_3'), undefined);
  assert.equal(calls.findResult(followUp([]), 'call_stub_1'), undefined, "the assistant's call is not its result");
  assert.equal(
    calls.findResult(followUp([{ role: 'user', tool_call_id: 'call_stub_1', content: 'x' }]), 'call_stub_1'),
    undefined,
    'only role tool',
  );
  assert.equal(
    calls.findResult({ input: [{ type: 'function_call_output', call_id: 'call_stub_1', output: 'x' }] }, 'call_stub_1'),
    undefined,
    "another format's result",
  );
  assert.equal(calls.findResult(undefined, 'call_stub_1'), undefined);
});

test('toolCalls: resultText reads string content, or the text parts joined by newlines', () => {
  assert.equal(calls.resultText(toolMessage('c', 'Exit Code: 3\nhi')), 'Exit Code: 3\nhi');
  assert.equal(
    calls.resultText(
      toolMessage('c', [
        { type: 'text', text: 'a' },
        { type: 'image_url', image_url: { url: 'data:' } },
        { type: 'text', text: 'b' },
      ]),
    ),
    'a\nb',
  );
  assert.equal(calls.resultText(toolMessage('c', '')), '');
  assert.equal(calls.resultText(toolMessage('c', [])), '');
  assert.equal(calls.resultText({ role: 'tool', tool_call_id: 'c' }), '');
});

test('toolCalls through a Conversation: the first request with tools gets the call, the follow-up with its result the second, then the default reply', () => {
  const conversation = new Conversation(wire, [
    SHELL,
    { id: 'call_stub_2', tool: 'read_file', input: { absolute_path: '/a' } },
  ]);
  const url = PATH;
  assert.equal(
    conversation.answer({
      method: 'POST',
      url,
      json: { model: 'm', stream: true, messages: [{ role: 'user', content: 'title?' }] },
    }),
    undefined,
    'a side request without tools',
  );
  const first = sdkMessage(
    sdkChunks(conversation.answer({ method: 'POST', url, json: raw('qwen-code-default') })!.body),
  );
  assert.equal(
    ((first.message['tool_calls'] as JsonRecord[])[0]!['function'] as JsonRecord)['name'],
    'run_shell_command',
  );
  const second = sdkMessage(
    sdkChunks(conversation.answer({ method: 'POST', url, json: followUp([toolMessage('call_stub_1', 'x')]) })!.body),
  );
  assert.deepEqual((second.message['tool_calls'] as JsonRecord[])[0], {
    id: 'call_stub_2',
    type: 'function',
    function: { name: 'read_file', arguments: '{"absolute_path":"/a"}' },
  });
  assert.equal(
    conversation.answer({
      method: 'POST',
      url,
      json: followUp([toolMessage('call_stub_1', 'x'), toolMessage('call_stub_2', 'y')]),
    }),
    undefined,
  );
});
