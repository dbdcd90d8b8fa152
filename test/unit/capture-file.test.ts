import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildCapture,
  checkOutcome,
  cliExitOf,
  cliWords,
  countTools,
  summaryLine,
  withoutNotices,
} from '../../scripts/lib/capture/capture-file.ts';
import { maskRules } from '../../scripts/lib/capture/placeholders.ts';
import { CaptureError } from '../../scripts/lib/capture/normalise.ts';
import { PROMPT, type RunOutcome } from '../../scripts/lib/capture/runner.ts';
import type { Configuration } from '../../scripts/lib/capture/matrix.ts';
import type { RecordedRequest } from '../../scripts/lib/capture/stub-server.ts';

const RAW = join(import.meta.dirname, '../fixtures/captures/raw');
const raw = (name: string): Record<string, any> => JSON.parse(readFileSync(join(RAW, `${name}.json`), 'utf8'));
const exec: Configuration = { id: 'default-model', label: 'x', description: 'x', mode: 'exec', args: [], env: {} };

function outcome(requests: RecordedRequest[], over: Partial<RunOutcome> = {}): RunOutcome {
  return {
    requests,
    exitCode: 0,
    signal: null,
    timedOut: false,
    endedAfterRequest: false,
    stdout: '',
    stderr: '',
    variables: {
      HOME: '/work/cache/capture-run/home',
      WORKDIR: '/work/cache/capture-run/work',
      STUB_URL: 'http://127.0.0.1:4000',
    },
    startedAt: new Date(Date.UTC(2026, 10, 29)),
    endedAt: new Date(Date.UTC(2026, 10, 29)),
    ...over,
  };
}
const post = (url: string, json: unknown, headers: Record<string, string> = {}): RecordedRequest => ({
  index: 0,
  method: 'POST',
  url,
  headers,
  text: JSON.stringify(json),
  json,
});

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
  assert.match(
    summaryLine('codex', 'default-model', countTools(capture)),
    /^codex\/default-model +12 tools, 3 namespaces, 11 nested in code mode$/,
  );

  const claude = buildCapture(
    'claude-code',
    'p',
    'v',
    { ...exec, mode: 'print' },
    outcome([post('/v1/messages?beta=true', raw('claude-code-print'))]),
  );
  assert.deepEqual(claude.request, { method: 'POST', path: '/v1/messages' });
});

test('a run that timed out, crashed, or (interactive) ended before its request is a clear CaptureError', () => {
  const req = [post('/v1/responses', { model: 'm', input: [] })];
  assert.throws(
    () => checkOutcome(exec, outcome(req, { timedOut: true, stderr: 'still waiting' })),
    (e: unknown) =>
      e instanceof CaptureError && /did not finish within 60 s/.test(e.message) && /still waiting/.test(e.message),
  );
  assert.throws(
    () => checkOutcome(exec, outcome([], { exitCode: 1, stderr: 'Error: bad flag' })),
    /exited with code 1 \(no request reached the stub\)[\s\S]*bad flag/,
  );
  assert.throws(() => checkOutcome(exec, outcome(req, { exitCode: null, signal: 'SIGSEGV' })), /signal SIGSEGV/);
  const interactive: Configuration = { ...exec, mode: 'interactive' };
  assert.throws(() => checkOutcome(interactive, outcome([], { exitCode: 1 })), /ended by itself/);
  assert.doesNotThrow(() =>
    checkOutcome(interactive, outcome(req, { exitCode: null, signal: 'SIGKILL', endedAfterRequest: true })),
  );
  // A terminal session that ends by itself after its turn reached the stub still recorded that turn; one that ends
  // before, did not.
  assert.doesNotThrow(() => checkOutcome(interactive, outcome(req, { exitCode: 1, turnRecorded: true })));
  assert.throws(
    () => checkOutcome(interactive, outcome(req, { exitCode: 1, turnRecorded: false })),
    /ended by itself \(exit 1\) before its main request was recorded/,
  );
  assert.throws(
    () => buildCapture('codex', 'p', 'v', exec, outcome([post('/v1/chat/completions', { model: 'm', messages: [] })])),
    /no POST \/v1\/responses request reached the stub \(requests seen: POST \/v1\/chat\/completions\)/,
  );
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
  const kept = buildCapture(
    'claude-code',
    'p',
    'v',
    print,
    outcome([post('/v1/messages?beta=true', title), post('/v1/messages?beta=true', turn)]),
  );
  assert.equal((kept.body['tools'] as unknown[]).length, turn['tools'].length);
  // A request that does not carry the prompt at all is not the turn either.
  const other = JSON.parse(JSON.stringify(turn).replaceAll(PROMPT, 'Summarise this conversation'));
  assert.throws(
    () => buildCapture('claude-code', 'p', 'v', print, outcome([post('/v1/messages?beta=true', other)])),
    /no request answered the prompt/,
  );
});

test('a capture that names another model than its configuration declares is refused', () => {
  const body = raw('codex-default-model');
  const asked = body['model'] as string;
  assert.equal(typeof asked, 'string');
  assert.doesNotThrow(() =>
    buildCapture('codex', 'p', 'v', { ...exec, model: asked }, outcome([post('/v1/responses', body)])),
  );
  assert.throws(
    () => buildCapture('codex', 'p', 'v', { ...exec, model: `${asked}-other` }, outcome([post('/v1/responses', body)])),
    (e: unknown) =>
      e instanceof CaptureError &&
      e.message.includes(`asks for model ${asked}-other, but the request names model ${asked}`),
  );
});

test('a failed run names what the CLI said in its first line, the line a history keeps', () => {
  // Gemini CLI 0.1.1 given --approval-mode (which it does not know): yargs prints its usage, then the error.
  const usage = [
    'Options:',
    '  -m, --model  Model  [string] [default: "gemini-2.5-pro"]',
    '  -h, --help   Show help  [boolean]',
    '',
    'Unknown arguments: approval-mode, approvalMode',
    '',
  ].join('\n');
  assert.equal(cliWords(usage, ''), 'Unknown arguments: approval-mode, approvalMode');
  const failed = (o: Partial<RunOutcome>) => {
    try {
      checkOutcome({ ...exec, mode: 'print' }, outcome([], o));
    } catch (error) {
      return (error as Error).message.split('\n')[0];
    }
    return undefined;
  };
  assert.equal(
    failed({ exitCode: 1, stderr: usage }),
    'the CLI exited with code 1 (no request reached the stub); the CLI said: “Unknown arguments: approval-mode, approvalMode”',
  );
  assert.equal(
    failed({ timedOut: true }),
    'the CLI did not finish within 60 s and was killed (no request reached the stub); the CLI printed nothing',
  );
  // A crash banner and stack trace (0.1.1 with usage statistics on): the error line, its host not named.
  const crash = [
    '=========================================',
    'CRITICAL: Unhandled Promise Rejection!',
    '=========================================',
    'Reason: Error: getaddrinfo EAI_AGAIN telemetry.example.test',
    '    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:123:26) {',
    '  errno: -3001,',
    "  hostname: 'telemetry.example.test'",
    '}',
    'Stack trace may follow:',
  ].join('\n');
  assert.equal(cliWords(crash, ''), 'Reason: Error: getaddrinfo EAI_AGAIN <host>');
  // The run's own values are masked, addresses and absolute folders left out, terminal escapes dropped.
  const rules = maskRules({ HOME: '/work/cache/run/home', STUB_URL: 'http://127.0.0.1:4000' });
  assert.equal(
    cliWords('\x1b[31mError: cannot read /work/cache/run/home/.config/x.json\x1b[0m', '', rules),
    'Error: cannot read $HOME/.config/x.json',
  );
  assert.equal(
    cliWords(
      'Error: failed to fetch http://127.0.0.1:4000/api.json and https://models.example.test/api.json',
      '',
      rules,
    ),
    'Error: failed to fetch $STUB_URL/api.json and <address>',
  );
  assert.equal(
    cliWords('Failed to load GitHub Copilot CLI: Error: Cannot find module /usr/lib/node_modules/x/index.js', ''),
    'Failed to load GitHub Copilot CLI: Error: Cannot find module …/index.js',
  );
  // OpenCode 0.1.174: its log file is named after the moment of the run, which a history must not keep.
  assert.equal(
    cliWords(
      'Error: Unexpected error, check log file at /work/cache/run/home/.local/share/opencode/log/2026-12-04T040019.log for more details',
      '',
      rules,
    ),
    'Error: Unexpected error, check log file at $HOME/.local/share/opencode/log/<time>.log for more details',
  );
  assert.equal(cliWords('Error: connect ECONNREFUSED 127.0.0.1:39513', ''), 'Error: connect ECONNREFUSED <address>');
  // A run that exits cleanly without the turn: the reason names the missing request, then the CLI's words.
  assert.throws(
    () =>
      buildCapture(
        'opencode',
        'p',
        'v',
        { ...exec, mode: 'print' },
        outcome([], { stderr: 'Error: Unable to connect. Is the computer able to access the url?' }),
      ),
    (e: unknown) =>
      e instanceof CaptureError &&
      /^no POST \/v1\/chat\/completions request reached the stub \(requests seen: none\); the CLI said: “Error: Unable to connect\. Is the computer able to access the url\?”$/m.test(
        e.message.split('\n')[0]!,
      ),
  );
  // Standard output when standard error is empty; the last line when none says it failed.
  assert.equal(cliWords('', 'starting\nwaiting for the model'), 'waiting for the model');
  assert.equal(cliWords('', ''), undefined);
  assert.equal(cliWords('x'.repeat(300), '')!.length, 240);
});

test('a print run ended by the runner once its turn was answered (autopilot) is sound; one that exits by itself is judged by its exit code', () => {
  const req = [post('/v1/chat/completions', { model: 'm', stream: true, messages: [] })];
  assert.doesNotThrow(() =>
    checkOutcome(
      { ...exec, mode: 'print' },
      outcome(req, { exitCode: null, signal: 'SIGKILL', endedAfterRequest: true }),
    ),
  );
  assert.throws(
    () => checkOutcome({ ...exec, mode: 'print' }, outcome(req, { exitCode: null, signal: 'SIGKILL' })),
    /signal SIGKILL/,
  );
});

test("a case's exit: killed at its limit, or its code, with the CLI's own words when no result reached the model, notices left out", () => {
  const ended = (stderr: string, stdout: string, extra: Partial<RunOutcome> = {}) =>
    outcome([], { stderr, stdout, ...extra });
  assert.deepEqual(cliExitOf(ended('', '', { timedOut: true }), 30, false), { code: null, killedAfterSeconds: 30 });
  assert.deepEqual(
    cliExitOf(ended('Error: Exec ended early: insufficient permission.\n', '', { exitCode: 1 }), 60, false),
    { code: 1, said: 'Error: Exec ended early: insufficient permission.' },
  );
  // A result reached the model: its words are not the reason for anything.
  assert.deepEqual(cliExitOf(ended('Error: something\n', ''), 60, true), { code: 0 });
  // Runtime warnings (with their stack) and a note about the machine's Node are not the reason; the standard output's
  // line is.
  const noisy =
    'DeprecationWarning: AI SDK Warning: Deprecated key\n      at iX (/$bunfs/root/chunk.js:26:46952)\n[cline] Node 20.20.2 cannot read the OS trust store (needs >= 22.15); upgrade Node.\n';
  assert.deepEqual(cliExitOf(ended(noisy, '[abort] aborted by another client\n'), 60, false), {
    code: 0,
    said: '[abort] aborted by another client',
  });
  assert.equal(withoutNotices('(node:12) Warning: x\n    at y (z.js:1:1)\nreal words'), 'real words');
});
