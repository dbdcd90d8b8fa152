import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonLines, parseHookLog, recordCalls, RecordError } from '../../scripts/lib/payloads/record.ts';
import { HOOK_SEPARATOR, hookCommand, payloadPaths, runAdditions } from '../../scripts/lib/payloads/drivers.ts';
import type { HookMechanism } from '../../src/lib/agents/index.ts';
import { claudeCode, streamJsonResult } from '../../src/lib/agents/claude-code.ts';
import { codex as codexAgent, execItemEvents, sessionLogEvents } from '../../src/lib/agents/codex.ts';
import { anthropicMessages } from '../../src/lib/wire/anthropic-messages.ts';
import { openaiResponses } from '../../src/lib/wire/openai-responses.ts';

const hooksOf = (mechanism: HookMechanism | { none: string }): HookMechanism => {
  assert.ok(!('none' in mechanism));
  return mechanism;
};
const claudeHooks = hooksOf(claudeCode.hooks);
const codexHooks = hooksOf(codexAgent.hooks);
/** The hook configuration a run in /r writes (its one file); every hook runs the run's hook command. */
const hooksConfig = (hooks: HookMechanism): { hooks: Record<string, { matcher: string }[]> } => {
  const [text] = [...runAdditions(hooks, payloadPaths('/r'), []).files.values()];
  const config = JSON.parse(text!) as { hooks: Record<string, { matcher: string; hooks: { command: string }[] }[]> };
  for (const entries of Object.values(config.hooks))
    assert.equal(entries[0]!.hooks[0]!.command, hookCommand('/r/hooks.log'));
  return config;
};
const callOutcome = (hooks: HookMechanism, result: Record<string, unknown>, payloads: Record<string, unknown>[]) =>
  hooks.outcome(result, String(result['output'] ?? ''), payloads);

const SEP = HOOK_SEPARATOR;

test('the hook command appends standard input and a separator to the hook log; every event has matcher "*"', () => {
  assert.equal(
    hookCommand("/run/it's/hooks.log"),
    `cat >> '/run/it'\\''s/hooks.log'; printf '\\036' >> '/run/it'\\''s/hooks.log'`,
  );
  const claude = hooksConfig(claudeHooks);
  assert.deepEqual(Object.keys(claude.hooks), ['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
  assert.equal(claude.hooks['PreToolUse']![0]!.matcher, '*');
  assert.deepEqual(Object.keys(hooksConfig(codexHooks).hooks), ['PreToolUse', 'PostToolUse']);
});

test('run additions: Claude Code gets stream-json, --allowedTools and its settings file; Codex its bypass flags and hooks.json; both a TMPDIR in the run folder', () => {
  const paths = payloadPaths('/c/payload-run');
  const claude = runAdditions(claudeHooks, paths, ['Bash', 'TaskStop']);
  assert.deepEqual(claude.args, ['--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash,TaskStop']);
  assert.equal(claude.env['TMPDIR'], '/c/payload-run/tmp');
  assert.equal(claude.env['CLAUDE_CODE_TMPDIR'], '/c/payload-run/tmp');
  assert.deepEqual([...claude.files.keys()], ['/c/payload-run/home/.claude/settings.json']);
  const codex = runAdditions(codexHooks, paths, []);
  assert.ok(
    codex.args.includes('--dangerously-bypass-hook-trust') &&
      codex.args.includes('analytics.enabled=false') &&
      codex.args.includes('features.plugins=false'),
  );
  assert.deepEqual([...codex.files.keys()], ['/c/payload-run/home/.codex/hooks.json']);
  assert.match(codex.files.get('/c/payload-run/home/.codex/hooks.json')!, /"matcher": "\*"/);
});

test('jsonLines skips what is not JSON; parseHookLog splits on the separator and refuses a broken record', () => {
  assert.deepEqual(jsonLines('{"a":1}\nReading prompt from stdin...\n\n[2]\n'), [{ a: 1 }, [2]]);
  assert.deepEqual(parseHookLog(`{"hook_event_name":"PreToolUse"}\n${SEP}{"hook_event_name":"PostToolUse"}${SEP}`), [
    { hook_event_name: 'PreToolUse' },
    { hook_event_name: 'PostToolUse' },
  ]);
  assert.deepEqual(parseHookLog(''), []);
  assert.throws(() => parseHookLog(`{"a":${SEP}`), RecordError);
  assert.throws(() => parseHookLog(`[1]${SEP}`), /not a JSON object/);
});

test('streamJsonResult takes the user line that carries the call result: its tool_use_result and this call meta', () => {
  const lines = [
    { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_stub_1' }] } },
    {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_stub_1' }] },
      tool_use_result: 'Error: x',
      tool_result_meta: [{ id: 'other' }, { id: 'toolu_stub_1', permission_decision: { decision: 'accept' } }],
    },
  ];
  assert.deepEqual(streamJsonResult(lines, 'toolu_stub_1'), {
    toolUseResult: 'Error: x',
    toolResultMeta: { id: 'toolu_stub_1', permission_decision: { decision: 'accept' } },
  });
  assert.equal(streamJsonResult(lines, 'toolu_stub_2'), undefined);
});

test('sessionLogEvents keeps the event_msg payloads naming the call; execItemEvents drops the hook-trust warnings and messages', () => {
  const entries = [
    { type: 'response_item', payload: { type: 'function_call', call_id: 'call_stub_1' } },
    { type: 'event_msg', payload: { type: 'item_completed', item: { id: 'call_stub_1' } } },
    { type: 'event_msg', payload: { type: 'item_completed', item: { id: 'call_stub_10' } } },
  ];
  assert.deepEqual(sessionLogEvents(entries, 'call_stub_1'), [{ type: 'item_completed', item: { id: 'call_stub_1' } }]);
  const lines = [
    { type: 'thread.started' },
    { type: 'item.completed', item: { type: 'error', message: '`--dangerously-bypass-hook-trust` is enabled.' } },
    { type: 'item.started', item: { type: 'command_execution', status: 'in_progress' } },
    { type: 'item.completed', item: { type: 'error', message: 'something else' } },
    { type: 'item.completed', item: { type: 'agent_message', text: 'ok' } },
  ];
  assert.deepEqual(
    execItemEvents(lines).map((l) => (l['item'] as { type: string }).type),
    ['command_execution', 'error'],
  );
});

test('callOutcome: is_error for Claude Code; for Codex the stated exit code, else PreToolUse without PostToolUse', () => {
  assert.equal(callOutcome(claudeHooks, { is_error: true }, []), 'failure');
  assert.equal(callOutcome(claudeHooks, { is_error: false }, []), 'success');
  assert.equal(callOutcome(claudeHooks, {}, []), 'success');
  assert.equal(callOutcome(codexHooks, { output: 'Chunk ID: 1\nProcess exited with code 3\n' }, []), 'failure');
  assert.equal(callOutcome(codexHooks, { output: 'Exit code: 0\nWall time: 0 seconds' }, []), 'success');
  const pre = { hook_event_name: 'PreToolUse' };
  assert.equal(callOutcome(codexHooks, { output: 'apply_patch verification failed' }, [pre]), 'failure');
  assert.equal(
    callOutcome(codexHooks, { output: '{"accepted":true}' }, [pre, { hook_event_name: 'PostToolUse' }]),
    'success',
  );
  assert.equal(callOutcome(codexHooks, { output: 'Process running with session ID 5' }, []), 'success');
});

test('recordCalls pairs each call with its result, hooks and structured result, and says when a call was not sent or not answered', () => {
  const bodies = [
    { messages: [{ role: 'user', content: 'go' }] },
    {
      messages: [
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_stub_1', content: 'Exit code 3', is_error: true }],
        },
      ],
    },
  ];
  const stdout =
    JSON.stringify({
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_stub_1' }] },
      tool_use_result: 'Error: Exit code 3',
    }) + '\n';
  const hookLog = [
    { hook_event_name: 'PreToolUse', tool_use_id: 'toolu_stub_1' },
    { hook_event_name: 'PostToolUseFailure', tool_use_id: 'toolu_stub_1' },
    { hook_event_name: 'PreToolUse', tool_use_id: 'other' },
  ]
    .map((h) => JSON.stringify(h) + SEP)
    .join('');
  const { calls, execEvents } = recordCalls(
    claudeHooks,
    anthropicMessages.toolCalls,
    [{ id: 'toolu_stub_1', tool: 'Bash', kind: 'tool_use', input: { command: 'exit 3' } }],
    { bodies, stdout, hookLog, logs: [] },
  );
  assert.equal(execEvents, undefined);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.outcome, 'failure');
  assert.deepEqual(
    calls[0]!.hooks.map((h) => h['hook_event_name']),
    ['PreToolUse', 'PostToolUseFailure'],
  );
  assert.equal(calls[0]!.toolUseResult, 'Error: Exit code 3');
  assert.throws(
    () =>
      recordCalls(
        claudeHooks,
        anthropicMessages.toolCalls,
        [{ id: 'toolu_stub_1', tool: 'Bash', kind: 'tool_use', input: undefined }],
        { bodies, stdout, hookLog, logs: [] },
      ),
    /never sent/,
  );
  assert.throws(
    () =>
      recordCalls(
        claudeHooks,
        anthropicMessages.toolCalls,
        [{ id: 'toolu_stub_9', tool: 'Bash', kind: 'tool_use', input: {} }],
        { bodies, stdout, hookLog, logs: [] },
      ),
    /no later request carried its result/,
  );
  const codex = recordCalls(
    codexHooks,
    openaiResponses.toolCalls,
    [{ id: 'call_stub_1', tool: 'exec_command', kind: 'function_call', input: { cmd: 'true' } }],
    {
      bodies: [
        { input: [{ type: 'function_call_output', call_id: 'call_stub_1', output: 'Process exited with code 0' }] },
      ],
      stdout: '{"type":"item.started","item":{"type":"command_execution"}}\n',
      hookLog: '',
      logs: ['{"type":"event_msg","payload":{"type":"item_completed","item":{"id":"call_stub_1"}}}\n'],
    },
  );
  assert.equal(codex.calls[0]!.sessionLog!.length, 1);
  // A call whose result the CLI never sends (a fresh context window): no result, the outcome from the hooks.
  const hooksOnly = [
    { hook_event_name: 'PreToolUse', tool_use_id: 'call_stub_1' },
    { hook_event_name: 'PostToolUse', tool_use_id: 'call_stub_1' },
  ]
    .map((h) => JSON.stringify(h) + SEP)
    .join('');
  const fresh = recordCalls(
    codexHooks,
    openaiResponses.toolCalls,
    [{ id: 'call_stub_1', tool: 'new_context', kind: 'function_call', input: {}, resultSent: false }],
    { bodies: [{ input: [] }], stdout: '', hookLog: hooksOnly, logs: [] },
  );
  assert.equal('result' in fresh.calls[0]!, false);
  assert.equal(fresh.calls[0]!.outcome, 'success');
  assert.throws(
    () =>
      recordCalls(
        codexHooks,
        openaiResponses.toolCalls,
        [{ id: 'call_stub_1', tool: 'new_context', kind: 'function_call', input: {}, resultSent: false }],
        {
          bodies: [{ input: [{ type: 'function_call_output', call_id: 'call_stub_1', output: 'x' }] }],
          stdout: '',
          hookLog: '',
          logs: [],
        },
      ),
    /says the CLI sends none/,
  );
  assert.equal(codex.execEvents!.length, 1);
});

test('tag records name the event of the payload right after them and are removed; a tag without its payload is refused', async () => {
  const { untagHookLog } = await import('../../scripts/lib/payloads/record.ts');
  const { taggedHookCommand, HOOK_EVENT_TAG } = await import('../../scripts/lib/payloads/drivers.ts');
  const tag = (e: string) => ({ [HOOK_EVENT_TAG]: e });
  const a = { x: 1 },
    b = { y: 2 },
    c = { [HOOK_EVENT_TAG]: 'e', other: 1 };
  assert.deepEqual(
    untagHookLog([tag('one'), a, b, tag('two'), c]),
    { payloads: [a, b, c], events: ['one', undefined, 'two'] },
    'a record with more members than the tag is a payload',
  );
  assert.throws(() => untagHookLog([tag('one'), tag('two'), a]), RecordError);
  assert.throws(() => untagHookLog([a, tag('one')]), RecordError);
  assert.equal(
    taggedHookCommand("/r/it's.log", 'preToolUse'),
    `{ printf '%s\\036' '{"$hookEvent":"preToolUse"}'; cat; printf '\\036'; } >> '/r/it'\\''s.log'`,
  );
});
