import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedJsonRules, learnValues, maskPayloadValue, payloadMask } from '../../scripts/lib/payloads/mask.ts';
import { maskText } from '../../scripts/lib/capture/placeholders.ts';

const DAY = new Date('2026-11-30T09:11:29.773Z');
const EXACT = {
  HOME: '/cache/payload-run/home',
  WORKDIR: '/cache/payload-run/work',
  RUN: '/cache/payload-run',
  WORKDIR_SLUG: '-cache-payload-run-work',
  KERNEL: '6.18.44-fc-v657',
};
const mask = (value: unknown, learned = new Map<string | number, string>()) =>
  maskPayloadValue(value, payloadMask(EXACT, [DAY], learned));

test('run paths, the project folder name, the kernel, UUIDs and timestamps', () => {
  assert.equal(
    mask(
      '$x /cache/payload-run/home/.claude/projects/-cache-payload-run-work/1401e979-3ceb-4271-b36e-f5477ae91654.jsonl',
    ),
    '$x $HOME/.claude/projects/$WORKDIR_SLUG/$UUID.jsonl',
  );
  assert.equal(mask('/cache/payload-run/tmp/claude-0'), '$RUN/tmp/claude-0');
  assert.equal(mask('OS Version: Linux 6.18.44-fc-v657'), 'OS Version: Linux $KERNEL');
  assert.equal(mask('at 2026-11-30T09:11:29.773Z and 2026-11-30T09:11:29+00:00'), 'at $TIMESTAMP and $TIMESTAMP');
  assert.equal(
    mask(
      '/cache/payload-run/home/.codex/sessions/2026/11/30/rollout-2026-11-30T09-11-29-01a22bb9-3cd4-7862-918e-c1b876f24482.jsonl',
    ),
    '$HOME/.codex/sessions/$DATE/rollout-$TIMESTAMP-$UUID.jsonl',
  );
  assert.equal(mask('It is 2026-11-30 09:25:52 UTC.'), 'It is $DATE $TIME UTC.');
});

test("the work and home folders named relative to the file-system root (OpenCode's titles), not only absolute", () => {
  assert.equal(mask('A cache/payload-run/work/added.txt'), 'A $WORKDIR_FROM_ROOT/added.txt');
  assert.equal(mask('cache/payload-run/home/.config'), '$HOME_FROM_ROOT/.config');
  assert.equal(
    mask('/cache/payload-run/work/added.txt and cache/payload-run/work/b'),
    '$WORKDIR/added.txt and $WORKDIR_FROM_ROOT/b',
  );
  assert.equal(mask('/cache/payload-run/tmp'), '$RUN/tmp');
});

test("Codex's chunk ids, wall times and token budget; CLI-made call ids; device ids; a cron's next run", () => {
  assert.equal(
    mask('Chunk ID: f38339\nWall time: 0.5018 seconds\nProcess exited with code 0'),
    'Chunk ID: $CHUNK_ID\nWall time: $WALL_TIME seconds\nProcess exited with code 0',
  );
  assert.equal(mask('Wall time: 0 seconds'), 'Wall time: $WALL_TIME seconds');
  assert.equal(mask('Process running with session ID 87203\n'), 'Process running with session ID $SESSION_ID\n');
  assert.equal(
    mask('You have 244798 tokens left in this context window.'),
    'You have $TOKENS tokens left in this context window.',
  );
  assert.equal(
    mask('toolu_01ABCdefGHIjklMNO and toolu_stub_1, call_AbCdEfGhIjKlMn and call_stub_2'),
    '$TOOL_USE_ID and toolu_stub_1, $CALL_ID and call_stub_2',
  );
  assert.equal(mask('device ' + 'ab12'.repeat(16)), 'device $DEVICE_ID');
  assert.equal(mask('Next run: Jan 1 8:59am. Session-only'), 'Next run: $NEXT_RUN. Session-only');
  assert.equal(mask('This session is work-2a [4c77e2] — the name'), 'This session is $SESSION_NAME — the name');
  // Cline's task, session and agent ids.
  assert.equal(
    mask('conv_1796536792311_sciq66p in 1796536792196_kngdp by agent_1796536792279_cyjl80'),
    '$TASK_ID in $SESSION_ID by $AGENT_ID',
  );
  // Kilo Code's wakeup ids; a shorter word after the same prefix is left alone.
  assert.equal(
    mask('Scheduled wakeup wku_249d8e7e7001rZjpTG47kVflJU, due soon; wku_short'),
    'Scheduled wakeup $WAKEUP_ID, due soon; wku_short',
  );
  // A task list's task ids after `UUID:`.
  assert.equal(
    mask('[ ] UUID:bWxYzmdDAUxR5sSLecBqSE NAME:Current Task List'),
    '[ ] UUID:$TASK_ID NAME:Current Task List',
  );
});

test("Gemini CLI's transcript file names, Qwen Code's tool-use ids and the shells' process groups", () => {
  assert.equal(
    mask('/cache/payload-run/home/.gemini/tmp/work/chats/session-2026-11-30T09-11-a63d6b20.jsonl'),
    '$HOME/.gemini/tmp/work/chats/session-$TIMESTAMP-$SESSION_PREFIX.jsonl',
  );
  // A session id that starts with two digits is not taken for the seconds of Codex's file-name time.
  assert.equal(
    mask('/cache/payload-run/home/.gemini/tmp/work/chats/session-2026-11-30T09-11-35a6040f.jsonl'),
    '$HOME/.gemini/tmp/work/chats/session-$TIMESTAMP-$SESSION_PREFIX.jsonl',
  );
  assert.equal(mask('toolu_1796176874541_k2fhetyqj then toolu_stub_1'), '$TOOL_USE_ID then toolu_stub_1');
  assert.equal(mask('Exit Code: 3\nProcess Group PGID: 13919\n'), 'Exit Code: 3\nProcess Group PGID: $PID\n');
  assert.equal(mask('Process Group PGID: (none)'), 'Process Group PGID: (none)');
  assert.equal(mask('Background shell started.\nid: x\npid: 7190\n'), 'Background shell started.\nid: x\npid: $PID\n');
  assert.equal(mask('Background shell 1 started (pid 18170).'), 'Background shell 1 started (pid $PID).');
  assert.equal(mask('id: mon_59f2f982b927446d\n'), 'id: $MONITOR_ID\n');
  assert.equal(
    mask(
      '--- Content from MCP resource capture:capture://readme [647f67c2] ---\ntext\n--- End of MCP resource capture:capture://readme [647f67c2] ---',
    ),
    '--- Content from MCP resource capture:capture://readme [$RESOURCE_TAG] ---\ntext\n--- End of MCP resource capture:capture://readme [$RESOURCE_TAG] ---',
  );
});

test('timings, epochs and process ids by key, but never inside a tool input', () => {
  const out = mask({
    duration_ms: 8,
    durationMs: 12,
    duration: { secs: 0, nanos: 6320 },
    started_at_ms: 1796029889869,
    start_time_ms: 1796577497537,
    process_id: '50259',
    nextFireAt: 1798793920541.171,
    numLines: 3,
    input: { duration_ms: 100 },
    tool_input: { duration_ms: 100, nested: { pid: 4 } },
    arguments: { timeout_ms: 1000 },
  });
  assert.deepEqual(out, {
    duration_ms: '$DURATION',
    durationMs: '$DURATION',
    duration: '$DURATION',
    started_at_ms: '$EPOCH',
    start_time_ms: '$EPOCH',
    process_id: '$PID',
    nextFireAt: '$EPOCH',
    numLines: 3,
    input: { duration_ms: 100 },
    tool_input: { duration_ms: 100, nested: { pid: 4 } },
    arguments: { timeout_ms: 1000 },
  });
  assert.deepEqual(mask({ duration: 'fast' }), { duration: 'fast' });
});

test('the same keys inside JSON text', () => {
  const rules = embeddedJsonRules({ createdAt: '$EPOCH', duration_ms: '$DURATION' });
  assert.equal(
    maskText('{"createdAt":1796030616,"x":1,"duration_ms": 12.5}', rules),
    '{"createdAt":"$EPOCH","x":1,"duration_ms":"$DURATION"}',
  );
  assert.equal(
    mask('{"goal":{"createdAt":1796030616,"updatedAt":1796030617}}'),
    '{"goal":{"createdAt":"$EPOCH","updatedAt":"$EPOCH"}}',
  );
  // Kilo Code's board and cron results.
  assert.equal(
    mask('{"availability":{"observedAt":1796535229818,"total":0},"dueAt":1796621661234}'),
    '{"availability":{"observedAt":"$EPOCH","total":0},"dueAt":"$EPOCH"}',
  );
});

test('learned values: made-up ids found under known keys, and bound numbers, replaced as whole words everywhere', () => {
  const learned = learnValues([
    { toolUseResult: { backgroundTaskId: 'b5cx10yj7' } },
    { hooks: [{ tool_response: { task_id: 'b5cx10yj7' } }] },
  ]);
  assert.deepEqual([...learned], [['b5cx10yj7', 'TASK_ID']]);
  learned.set(51904, 'SESSION_ID');
  const out = mask(
    {
      text: 'ID: b5cx10yj7. tasks/b5cx10yj7.output, xb5cx10yj7',
      session_id: 51904,
      n: 519040,
      log: 'session ID 51904',
    },
    learned,
  );
  assert.deepEqual(out, {
    text: 'ID: $TASK_ID. tasks/$TASK_ID.output, xb5cx10yj7',
    session_id: '$SESSION_ID',
    n: 519040,
    log: 'session ID $SESSION_ID',
  });
  assert.equal(learnValues({ taskId: '$X' }).size, 0);
  // Claude Code's subagent id, wherever it appears (its output file is named after it).
  const sub = learnValues({ tool_response: { agentId: 'aac4d39b5a6e8c336' } });
  assert.equal(
    mask('agentId: aac4d39b5a6e8c336; tasks/aac4d39b5a6e8c336.output', sub),
    'agentId: $AGENT_ID; tasks/$AGENT_ID.output',
  );
  // Cline's team, made up per session, also inside the result's JSON text.
  const team = learnValues({ output: { teamId: 't_gt9zjeyn_t', teamName: 'team-8xK_I' } });
  assert.equal(
    mask('{"teamId":"t_gt9zjeyn_t","teamName":"team-8xK_I"}', team),
    '{"teamId":"$TEAM_ID","teamName":"$TEAM_NAME"}',
  );
});

test('masking is stable: the same run text gives the same result twice, and keeps key order', () => {
  const value = { b: '2026-11-30T01:02:03Z', a: { duration_ms: 3 } };
  assert.equal(JSON.stringify(mask(value)), JSON.stringify(mask(value)));
  assert.deepEqual(Object.keys(mask(value) as object), ['b', 'a']);
});
