import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCapture, checkOutcome, countTools, summaryLine } from '../../scripts/lib/capture/capture-file.ts';
import { CaptureError } from '../../scripts/lib/capture/normalise.ts';
import { PROMPT, type RunOutcome } from '../../scripts/lib/capture/runner.ts';
import type { Configuration } from '../../scripts/lib/capture/matrix.ts';
import type { RecordedRequest } from '../../scripts/lib/capture/stub-server.ts';

const RAW = join(import.meta.dirname, '../fixtures/captures/raw');
const raw = (name: string): Record<string, any> => JSON.parse(readFileSync(join(RAW, `${name}.json`), 'utf8'));
const exec: Configuration = { id: 'default-model', label: 'x', description: 'x', mode: 'exec', args: [], env: {} };

function outcome(requests: RecordedRequest[], over: Partial<RunOutcome> = {}): RunOutcome {
  return {
    requests, exitCode: 0, signal: null, timedOut: false, endedAfterRequest: false, stdout: '', stderr: '',
    variables: { HOME: '/work/cache/capture-run/home', WORKDIR: '/work/cache/capture-run/work', STUB_URL: 'http://127.0.0.1:4000' },
    startedAt: new Date(Date.UTC(2026, 10, 29)), endedAt: new Date(Date.UTC(2026, 10, 29)), ...over,
  };
}
const post = (url: string, json: unknown, headers: Record<string, string> = {}): RecordedRequest => ({ index: 0, method: 'POST', url, headers, text: JSON.stringify(json), json });

test('a capture keeps the tool-related keys, masks volatile ids, and records the path without its query', () => {
  const body = raw('codex-default-model');
  const capture = buildCapture('codex', '@openai/codex', '0.171.0', exec, outcome([post('/v1/responses', body)]));
  assert.deepEqual(Object.keys(capture), ['agent', 'cli', 'configuration', 'request', 'body']);
  assert.deepEqual(capture.request, { method: 'POST', path: '/v1/responses' });
  assert.deepEqual(capture.cli, { package: '@openai/codex', version: '0.171.0' });
  const item = (capture.body['input'] as Record<string, unknown>[])[0]!;
  assert.match(body['input'][0].id, /^at_[0-9a-f-]{36}$/);
  assert.equal(item['id'], 'at_$UUID');
  assert.deepEqual(item['tools'], body['input'][0].tools, 'the tools themselves carry nothing volatile');
  assert.match(summaryLine('codex', 'default-model', countTools(capture)), /^codex\/default-model +12 tools, 3 namespaces, 11 nested in code mode$/);

  const claude = buildCapture('claude-code', 'p', 'v', { ...exec, mode: 'print' }, outcome([post('/v1/messages?beta=true', raw('claude-code-print'))]));
  assert.deepEqual(claude.request, { method: 'POST', path: '/v1/messages' });
});

test('a run that timed out, crashed, or (interactive) ended before its request is a clear CaptureError', () => {
  const req = [post('/v1/responses', { model: 'm', input: [] })];
  assert.throws(() => checkOutcome(exec, outcome(req, { timedOut: true, stderr: 'still waiting' })), (e: unknown) => e instanceof CaptureError && /did not finish within 60 s/.test(e.message) && /still waiting/.test(e.message));
  assert.throws(() => checkOutcome(exec, outcome([], { exitCode: 1, stderr: 'Error: bad flag' })), /exited with code 1 \(no request reached the stub\)[\s\S]*bad flag/);
  assert.throws(() => checkOutcome(exec, outcome(req, { exitCode: null, signal: 'SIGSEGV' })), /signal SIGSEGV/);
  const interactive: Configuration = { ...exec, mode: 'interactive' };
  assert.throws(() => checkOutcome(interactive, outcome([], { exitCode: 1 })), /ended by itself/);
  assert.doesNotThrow(() => checkOutcome(interactive, outcome(req, { exitCode: null, signal: 'SIGKILL', endedAfterRequest: true })));
  assert.throws(() => buildCapture('codex', 'p', 'v', exec, outcome([post('/v1/chat/completions', { model: 'm', messages: [] })])), /no POST \/v1\/responses request reached the stub \(requests seen: POST \/v1\/chat\/completions\)/);
});

test('a capture is the request that answers the prompt with tools: a side request alone is refused, not recorded as no tools', () => {
  const print: Configuration = { ...exec, mode: 'print' };
  const turn = raw('claude-code-print');
  assert.ok(Array.isArray(turn['tools']) && turn['tools'].length > 0, 'the fixture is a real turn');
  // What Claude Code sends first from 2.1.81: a title request quoting the prompt, with no tools.
  const title = { ...turn, tools: [] };
  assert.throws(
    () => buildCapture('claude-code', 'p', 'v', print, outcome([post('/v1/messages?beta=true', title)])),
    (e: unknown) => e instanceof CaptureError && /carries the prompt but offers no tools/.test(e.message),
  );
  // With the turn after it, the turn is kept, whatever the order.
  const kept = buildCapture('claude-code', 'p', 'v', print, outcome([post('/v1/messages?beta=true', title), post('/v1/messages?beta=true', turn)]));
  assert.equal((kept.body['tools'] as unknown[]).length, turn['tools'].length);
  // A request that does not carry the prompt at all is not the turn either.
  const other = JSON.parse(JSON.stringify(turn).replaceAll(PROMPT, 'Summarise this conversation'));
  assert.throws(() => buildCapture('claude-code', 'p', 'v', print, outcome([post('/v1/messages?beta=true', other)])), /no request answered the prompt/);
});

test('a capture that names another model than its configuration declares is refused', () => {
  const body = raw('codex-default-model');
  const asked = body['model'] as string;
  assert.equal(typeof asked, 'string');
  assert.doesNotThrow(() => buildCapture('codex', 'p', 'v', { ...exec, model: asked }, outcome([post('/v1/responses', body)])));
  assert.throws(
    () => buildCapture('codex', 'p', 'v', { ...exec, model: `${asked}-other` }, outcome([post('/v1/responses', body)])),
    (e: unknown) => e instanceof CaptureError && e.message.includes(`asks for model ${asked}-other, but the request names model ${asked}`),
  );
});
