import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, nextCallIndex, type PlannedCall } from '../../scripts/lib/payloads/conversation.ts';
import { startStub } from '../../scripts/lib/capture/stub-server.ts';
import { anthropicMessages, toolUseEvents, toolUseReply } from '../../src/lib/wire/anthropic-messages.ts';
import { openaiResponses, splitNamespace, toolCallItem, toolCallReply } from '../../src/lib/wire/openai-responses.ts';
import { parseSse } from '../../src/lib/wire/shared.ts';

const TOOLS = [{ name: 'Bash', input_schema: { type: 'object' } }];
const anthropic = (messages: unknown[]) => ({ model: 'claude-x', stream: true, tools: TOOLS, messages });
const toolResult = (id: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content, ...extra }],
});

test('toolUseReply streams one tool_use block whose input arrives as one input_json_delta, and stops for tool use', () => {
  const reply = toolUseReply(
    { method: 'POST', path: '/v1/messages', json: { model: 'm', stream: true } },
    { id: 'toolu_stub_1', name: 'Bash', input: { command: 'ls' } },
  )!;
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
  const start = JSON.parse(frames[1]!.data);
  assert.deepEqual(start.content_block, { type: 'tool_use', id: 'toolu_stub_1', name: 'Bash', input: {} });
  assert.deepEqual(JSON.parse(JSON.parse(frames[2]!.data).delta.partial_json), { command: 'ls' });
  assert.equal(JSON.parse(frames[4]!.data).delta.stop_reason, 'tool_use');
  const plain = JSON.parse(
    toolUseReply({ method: 'POST', path: '/v1/messages', json: { model: 'm' } }, { id: 't', name: 'Bash', input: {} })!
      .body,
  );
  assert.equal(plain.stop_reason, 'tool_use');
  assert.equal(
    toolUseReply({ method: 'POST', path: '/v1/responses', json: {} }, { id: 't', name: 'x', input: {} }),
    undefined,
  );
  assert.equal(toolUseEvents('m', { id: 't', name: 'x', input: {} }).length, 6);
});

test('toolCallReply sends a function_call (arguments as JSON text) or a custom_tool_call (the text itself), with a namespace when given', () => {
  assert.deepEqual(
    toolCallItem({
      type: 'function_call',
      callId: 'call_stub_1',
      name: 'sleep',
      namespace: 'clock',
      arguments: { duration_ms: 5 },
    }),
    {
      type: 'function_call',
      id: 'fc_stub',
      status: 'completed',
      call_id: 'call_stub_1',
      name: 'sleep',
      namespace: 'clock',
      arguments: '{"duration_ms":5}',
    },
  );
  assert.equal(
    toolCallItem({ type: 'custom_tool_call', callId: 'c', name: 'apply_patch', input: '*** Begin Patch\n' })['input'],
    '*** Begin Patch\n',
  );
  const reply = toolCallReply(
    { method: 'POST', path: '/v1/responses', json: { model: 'gpt' } },
    { type: 'function_call', callId: 'c', name: 'exec_command', arguments: {} },
  )!;
  const frames = parseSse(reply.body);
  assert.equal(frames.at(-1)!.event, 'response.completed');
  assert.equal(JSON.parse(frames.at(-1)!.data).response.output[0].type, 'function_call');
  assert.equal(
    JSON.parse(
      toolCallReply(
        { method: 'POST', path: '/v1/responses', json: { stream: false } },
        { type: 'custom_tool_call', callId: 'c', name: 'p', input: 'x' },
      )!.body,
    ).output[0].type,
    'custom_tool_call',
  );
});

const messagesCalls = anthropicMessages.toolCalls;
const responsesCalls = openaiResponses.toolCalls;

test('call ids, kinds and namespaces', () => {
  assert.equal(messagesCalls.callId(0), 'toolu_stub_1');
  assert.equal(responsesCalls.callId(1), 'call_stub_2');
  assert.equal(messagesCalls.callKind('text'), 'tool_use');
  assert.equal(responsesCalls.callKind('patch'), 'custom_tool_call');
  assert.equal(responsesCalls.callKind({}), 'function_call');
  assert.deepEqual(splitNamespace('mcp__capture.echo'), { name: 'echo', namespace: 'mcp__capture' });
  assert.deepEqual(splitNamespace('exec_command'), { name: 'exec_command' });
});

test('findResult finds a call result in either wire format, and resultText reads its text', () => {
  const body = anthropic([
    { role: 'user', content: 'go' },
    toolResult('toolu_stub_1', [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }]),
  ]);
  const found = messagesCalls.findResult(body, 'toolu_stub_1')!;
  assert.equal(messagesCalls.resultText(found), 'a\nb');
  assert.equal(messagesCalls.findResult(body, 'toolu_stub_2'), undefined);
  const responses = {
    input: [{ type: 'function_call_output', call_id: 'call_stub_1', output: 'Process running with session ID 4' }],
  };
  assert.equal(
    responsesCalls.resultText(responsesCalls.findResult(responses, 'call_stub_1')!),
    'Process running with session ID 4',
  );
  assert.equal(
    responsesCalls.findResult(
      { input: [{ type: 'custom_tool_call_output', call_id: 'call_stub_2', output: 'x' }] },
      'call_stub_2',
    )!['output'],
    'x',
  );
  // Each format reads only its own shape.
  assert.equal(responsesCalls.findResult(body, 'toolu_stub_1'), undefined);
  assert.equal(messagesCalls.findResult(responses, 'call_stub_1'), undefined);
});

test('hasTools: a tools list, or (OpenAI Responses only) an additional_tools input item (Codex on its default model)', () => {
  for (const wire of [anthropicMessages, openaiResponses]) {
    assert.equal(wire.hasTools({ tools: [{}] }), true);
    assert.equal(wire.hasTools({ tools: [] }), false);
    assert.equal(wire.hasTools(undefined), false);
  }
  assert.equal(openaiResponses.hasTools({ input: [{ type: 'additional_tools', tools: [] }] }), true);
  assert.equal(anthropicMessages.hasTools({ input: [{ type: 'additional_tools', tools: [] }] }), false);
});

test('nextCallIndex: the first call to a request with tools and no results, the next after each result, then none', () => {
  const calls: PlannedCall[] = [
    { id: 'toolu_stub_1', tool: 'Bash', input: {} },
    { id: 'toolu_stub_2', tool: 'TaskStop', input: {} },
  ];
  assert.equal(nextCallIndex(anthropicMessages, anthropic([]), calls), 0);
  assert.equal(nextCallIndex(anthropicMessages, { model: 'm', messages: [] }, calls), undefined); // a side request without tools
  assert.equal(nextCallIndex(anthropicMessages, anthropic([toolResult('toolu_stub_1', 'x')]), calls), 1);
  assert.equal(
    nextCallIndex(
      anthropicMessages,
      anthropic([toolResult('toolu_stub_1', 'x'), toolResult('toolu_stub_2', 'y')]),
      calls,
    ),
    undefined,
  );
  assert.equal(
    nextCallIndex(anthropicMessages, anthropic([toolResult('toolu_stub_1', 'x')]), calls.slice(0, 1)),
    undefined,
  );
});

test('a Conversation binds the follow-up from the first result, sends the same input again if asked again, and reports a binding that finds nothing', () => {
  const calls: PlannedCall[] = [
    { id: 'call_stub_1', tool: 'exec_command', input: { cmd: 'cat' } },
    {
      id: 'call_stub_2',
      tool: 'write_stdin',
      input: { session_id: '$SESSION_ID', chars: 'hi\n' },
      bind: [{ name: 'SESSION_ID', pattern: 'session ID (\\d+)', type: 'number' }],
    },
  ];
  const conversation = new Conversation(openaiResponses, calls);
  const first = conversation.answer({
    method: 'POST',
    url: '/v1/responses',
    json: { model: 'gpt', tools: [{}], input: [] },
  })!;
  assert.match(first.body, /"name":"exec_command"/);
  const withResult = {
    model: 'gpt',
    tools: [{}],
    input: [
      { type: 'function_call_output', call_id: 'call_stub_1', output: 'Process running with session ID 51904\n' },
    ],
  };
  const second = conversation.answer({ method: 'POST', url: '/v1/responses', json: withResult })!;
  assert.match(second.body, /\\"session_id\\":51904/);
  assert.deepEqual(conversation.sent.get(1), { session_id: 51904, chars: 'hi\n' });
  assert.deepEqual([...conversation.bound], [['SESSION_ID', 51904]]);
  conversation.answer({ method: 'POST', url: '/v1/responses', json: withResult });
  assert.deepEqual(conversation.sent.get(1), { session_id: 51904, chars: 'hi\n' });
  assert.equal(conversation.answer({ method: 'GET', url: '/v1/models', json: undefined }), undefined);
  // A POST elsewhere (a token count carrying the tools) neither gets nor uses up the call.
  const fresh = new Conversation(openaiResponses, calls);
  assert.equal(
    fresh.answer({ method: 'POST', url: '/v1/responses/input_tokens', json: { model: 'gpt', tools: [{}], input: [] } }),
    undefined,
  );
  assert.equal(fresh.sent.size, 0);
  assert.match(
    fresh.answer({ method: 'POST', url: '/v1/responses', json: { model: 'gpt', tools: [{}], input: [] } })!.body,
    /"name":"exec_command"/,
  );

  const failing = new Conversation(openaiResponses, calls);
  const reply = failing.answer({
    method: 'POST',
    url: '/v1/responses',
    json: {
      tools: [{}],
      input: [{ type: 'function_call_output', call_id: 'call_stub_1', output: 'Process exited with code 0' }],
    },
  });
  assert.equal(reply, undefined);
  assert.match(failing.error!, /\$SESSION_ID/);
});

test('a call made inside a subagent answers the first request that carries no result once the first call went out, once; the main conversation never gets it', () => {
  const calls: PlannedCall[] = [
    { id: 'toolu_stub_1', tool: 'Agent', input: { prompt: 'p' } },
    { id: 'toolu_stub_2', tool: 'Bash', input: { command: 'echo sub' }, subagent: true },
  ];
  const conversation = new Conversation(anthropicMessages, calls);
  const post = (json: unknown) => ({ method: 'POST', url: '/v1/messages', json });
  const toolOf = (reply: ReturnType<Conversation['answer']>) =>
    reply === undefined ? undefined : JSON.parse(parseSse(reply.body)[1]!.data).content_block.name;
  assert.equal(toolOf(conversation.answer(post(anthropic([{ role: 'user', content: 'go' }])))), 'Agent');
  // The subagent's first request: tools, no result of this conversation.
  assert.equal(toolOf(conversation.answer(post(anthropic([{ role: 'user', content: 'Print a line' }])))), 'Bash');
  // Its request with the Bash result, and the main one with the Agent result: the final text.
  assert.equal(conversation.answer(post(anthropic([toolResult('toolu_stub_2', 'sub')]))), undefined);
  assert.equal(nextCallIndex(anthropicMessages, anthropic([toolResult('toolu_stub_1', 'launched')]), calls), undefined);
  // Another fresh request (a second subagent, a new context window): plain text.
  assert.equal(conversation.answer(post(anthropic([{ role: 'user', content: 'again' }]))), undefined);
});

test('the stub asks its answer first and falls back to the default reply', async () => {
  const conversation = new Conversation(anthropicMessages, [
    { id: 'toolu_stub_1', tool: 'Bash', input: { command: 'ls' } },
  ]);
  const stub = await startStub((r) => conversation.answer(r));
  try {
    const post = (body: unknown) =>
      fetch(`http://127.0.0.1:${stub.port}/v1/messages?beta=true`, { method: 'POST', body: JSON.stringify(body) }).then(
        (r) => r.text(),
      );
    assert.match(await post(anthropic([])), /"type":"tool_use"/);
    assert.match(await post(anthropic([toolResult('toolu_stub_1', 'x')])), /"text_delta"/);
    // A later request that carries no result (a new context window) does not get the call again.
    assert.match(await post(anthropic([])), /"text_delta"/);
  } finally {
    await stub.close();
  }
});
