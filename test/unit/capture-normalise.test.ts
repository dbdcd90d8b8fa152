import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseMainRequest, requestsSeen, CaptureError } from '../../scripts/lib/capture/normalise.ts';
import type { RecordedRequest } from '../../scripts/lib/capture/stub-server.ts';
import { anthropicMessages } from '../../src/lib/wire/anthropic-messages.ts';
import { openaiResponses } from '../../src/lib/wire/openai-responses.ts';
import { QUIRKS, quirksOfFixture } from '../helpers/quirks.ts';

type Json = Record<string, any>;
const RAW = join(import.meta.dirname, '../fixtures/captures/raw');
const raw = (name: string): Json => JSON.parse(readFileSync(join(RAW, `${name}.json`), 'utf8')) as Json;
const PROMPT = 'Reply with the single word: ok';

let nextIndex = 0;
function request(url: string, json: unknown, headers: Record<string, string> = {}, method = 'POST'): RecordedRequest {
  return { index: nextIndex++, method, url, headers, text: json === undefined ? '' : JSON.stringify(json), json };
}

test('Responses, gpt-5.5: the kept keys are the tool-related ones, in the order sent, tools verbatim', () => {
  const body = raw('codex-gpt-5-5');
  const kept = openaiResponses.captureBody(body, QUIRKS.codex);
  assert.deepEqual(Object.keys(kept), ['model', 'tools', 'tool_choice', 'parallel_tool_calls']);
  assert.deepEqual(
    Object.keys(kept),
    Object.keys(body).filter((k) => k in kept),
  );
  assert.equal(kept['model'], 'gpt-5.5');
  assert.deepEqual(kept['tools'], body['tools']);
  assert.equal('input' in kept, false, 'gpt-5.5 sends only message items, so input is left out');
  const count = openaiResponses.countTools(kept, QUIRKS.codex);
  assert.equal(count.namespaces, 0);
  assert.deepEqual(count.names, [
    'exec_command',
    'write_stdin',
    'request_user_input',
    'apply_patch',
    'view_image',
    'get_goal',
    'create_goal',
    'update_goal',
    'tool_search',
    'web_search',
  ]);
  const applyPatch = (kept['tools'] as Json[]).find((t) => t['name'] === 'apply_patch')!;
  assert.equal(applyPatch['type'], 'custom');
  assert.equal(applyPatch['format'].syntax, 'lark');
  assert.deepEqual(
    (kept['tools'] as Json[]).filter((t) => t['name'] === undefined).map((t) => t['type']),
    ['tool_search', 'web_search'],
  );
});

test('Responses, default model: input keeps only the additional_tools item, whose namespaces hold the tools', () => {
  const body = raw('codex-default-model');
  const kept = openaiResponses.captureBody(body, QUIRKS.codex);
  assert.deepEqual(Object.keys(kept), ['model', 'input', 'tool_choice', 'parallel_tool_calls']);
  const input = kept['input'] as Json[];
  assert.deepEqual(
    input.map((i) => i['type']),
    ['additional_tools'],
  );
  assert.deepEqual(
    input[0],
    body['input'].find((i: Json) => i['type'] === 'additional_tools'),
  );
  const count = openaiResponses.countTools(kept, QUIRKS.codex);
  assert.deepEqual(
    input[0]!['tools'].map((t: Json) => `${t['type']}:${t['name']}`),
    ['namespace:functions', 'namespace:clock', 'namespace:collaboration'],
  );
  assert.equal(count.namespaces, 3);
  assert.ok(count.names.includes('functions.exec'));
  assert.ok(count.names.includes('collaboration.spawn_agent'));
  const exec = input[0]!['tools'][0].tools.find((t: Json) => t['name'] === 'exec');
  const nested = QUIRKS.codex.codeMode!.identifiers(exec.description);
  assert.ok(nested.includes('exec_command') && nested.includes('apply_patch'), nested.join(','));
  assert.equal(count.nested, nested.length);
});

test('Responses, unknown model: a multi_agent_v1 namespace among top-level tools', () => {
  const kept = openaiResponses.captureBody(raw('codex-unknown-model'), quirksOfFixture('codex-unknown-model'));
  const count = openaiResponses.countTools(kept, QUIRKS.codex);
  assert.equal(count.namespaces, 1);
  assert.deepEqual(count.names.filter((n) => n.startsWith('multi_agent_v1.')).sort(), [
    'multi_agent_v1.close_agent',
    'multi_agent_v1.resume_agent',
    'multi_agent_v1.send_input',
    'multi_agent_v1.spawn_agent',
    'multi_agent_v1.wait_agent',
  ]);
});

test('Messages, print: model, tools and the deferred-tool announcement kept, everything else dropped', () => {
  const body = raw('claude-code-print');
  const kept = anthropicMessages.captureBody(body, QUIRKS.claude);
  assert.deepEqual(Object.keys(kept), ['model', 'messages', 'tools']);
  assert.deepEqual(kept['tools'], body['tools']);
  const messages = kept['messages'] as Json[];
  assert.equal(messages.length, 1, 'only the message that names deferred tools');
  const text = (messages[0]!['content'] as Json[])[0]!['text'] as string;
  assert.match(text, /^The following deferred tools are now available via ToolSearch/);
  assert.match(text, /\nTaskStop\n/);
  assert.doesNotMatch(text, /Primary working directory/, 'the rest of the message (machine details) is left out');
  const count = anthropicMessages.countTools(kept, QUIRKS.claude);
  assert.equal(count.deferred, 1);
  assert.ok(count.names.includes('ToolSearch'));
  assert.ok(count.names.includes('DeferredToolPlaceholder'));
  assert.equal(anthropicMessages.lastUserText(body)?.trim(), PROMPT);
});

test('Messages, tool search off: every tool has a full schema and none is deferred', () => {
  const kept = anthropicMessages.captureBody(
    raw('claude-code-print-no-tool-search'),
    quirksOfFixture('claude-code-print-no-tool-search'),
  );
  assert.equal(kept['messages'], undefined, 'no announcement of deferred tools');
  const count = anthropicMessages.countTools(kept, QUIRKS.claude);
  assert.equal(count.deferred, 0);
  assert.ok(!count.names.includes('ToolSearch'));
  // Tools that print mode only names (deferred to ToolSearch) come with schemas here.
  for (const name of ['WebFetch', 'WebSearch', 'NotebookEdit', 'CronCreate'])
    assert.ok(count.names.includes(name), name);
  for (const tool of kept['tools'] as Json[]) assert.equal(typeof tool['input_schema'], 'object', tool['name']);
});

test('Messages: tool_choice is kept where sent, unknown keys never', () => {
  const kept = anthropicMessages.captureBody(
    { system: 's', tool_choice: { type: 'auto' }, model: 'm', messages: [], tools: [] },
    QUIRKS.claude,
  );
  assert.deepEqual(Object.keys(kept), ['tool_choice', 'model', 'tools']);
});

test('choosing the Claude main request: the prompted streaming request with tools, not title generation', () => {
  const title = request('/v1/messages?beta=true', {
    model: 'm',
    stream: true,
    tools: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: `<session>\n${PROMPT}\n</session>` }] }],
  });
  const quota = request('/v1/messages?beta=true', {
    model: 'm',
    max_tokens: 1,
    messages: [{ role: 'user', content: 'quota' }],
  });
  const main = request('/v1/messages?beta=true', {
    model: 'm',
    stream: true,
    tools: [{ name: 'Read' }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'x' },
          { type: 'text', text: `${PROMPT}\n` },
        ],
      },
      { role: 'system', content: 'deferred' },
    ],
  });
  const hello = request('/api/hello', undefined, {}, 'HEAD');
  assert.equal(chooseMainRequest('claude-code', [hello, title, quota, main], PROMPT).request, main);
  // Without the prompt to recognise, the first streaming request with tools.
  assert.equal(chooseMainRequest('claude-code', [title, main]).request, main);
});

test('choosing the Codex main request: the user turn by x-codex-turn-metadata, whatever the order', () => {
  const meta = (m: Json): Record<string, string> => ({ 'x-codex-turn-metadata': JSON.stringify(m) });
  const userInput = (text: string): Json[] => [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  ];
  // memories: a consolidation turn of its own, sent concurrently with the user's turn.
  const memories = request(
    '/v1/responses',
    { model: 'g2', input: userInput('consolidate') },
    meta({ request_kind: 'turn', thread_source: 'memory_consolidation', turn_trigger: 'memory_consolidation' }),
  );
  const turn = request(
    '/v1/responses',
    { model: 'g', input: userInput(`${PROMPT}\n`) },
    meta({ request_kind: 'turn', thread_source: 'user', turn_trigger: 'exec' }),
  );
  const untagged = request('/v1/responses', { model: 'g', input: [] });
  assert.equal(chooseMainRequest('codex', [memories, untagged, turn]).request, turn);
  assert.equal(chooseMainRequest('codex', [turn, memories]).request, turn);
  // Without thread_source: the prompted one, then the first turn, then the first tagged.
  const strip = (r: RecordedRequest): RecordedRequest => ({ ...r, headers: meta({ request_kind: 'turn' }) });
  assert.equal(chooseMainRequest('codex', [strip(memories), strip(turn)], PROMPT).request.json, turn.json);
  assert.equal(chooseMainRequest('codex', [strip(memories), strip(turn)]).request.json, memories.json);
  const summary = request('/v1/responses', { model: 'g', input: [] }, meta({ request_kind: 'compaction' }));
  assert.equal(chooseMainRequest('codex', [untagged, summary]).request, summary);
  assert.equal(chooseMainRequest('codex', [untagged]).request, untagged);
  assert.equal(openaiResponses.lastUserText(turn.json), `${PROMPT}\n`);
});

test('no model request, or a body of another wire format, is a CaptureError that says what was seen', () => {
  assert.throws(
    () => chooseMainRequest('codex', [request('/v1/models', undefined, {}, 'GET')]).request,
    (e: unknown) => e instanceof CaptureError && /no POST \/v1\/responses.*GET \/v1\/models/.test(e.message),
  );
  assert.throws(() => chooseMainRequest('codex', []).request, /requests seen: none/);
  const chat = request('/v1/responses', { model: 'g', messages: [] });
  assert.throws(
    () => chooseMainRequest('codex', [chat]).request,
    (e: unknown) =>
      e instanceof CaptureError && /not an OpenAI Responses request: it has no `input` array/.test(e.message),
  );
  const claude = request('/v1/messages', { model: 'm', stream: true, input: [] });
  assert.throws(
    () => chooseMainRequest('claude-code', [claude]).request,
    /not an Anthropic Messages request: it has no `messages` array/,
  );
});

test('requestsSeen: each request in order, a request repeated back to back counted once (a run looping until killed)', () => {
  const r = (method: string, url: string) => ({ method, url });
  assert.equal(requestsSeen([]), 'none');
  assert.equal(requestsSeen([r('GET', '/a'), r('POST', '/b')]), 'GET /a, POST /b');
  const loop = [
    r('GET', '/models'),
    ...Array.from({ length: 152 }, () => r('POST', '/v1/chat/completions')),
    r('GET', '/models'),
    r('POST', '/v1/chat/completions'),
  ];
  assert.equal(
    requestsSeen(loop),
    'GET /models, POST /v1/chat/completions ×152, GET /models, POST /v1/chat/completions',
  );
  assert.equal(requestsSeen([r('POST', '/x'), r('GET', '/x')]), 'POST /x, GET /x', 'another method is another request');
});
