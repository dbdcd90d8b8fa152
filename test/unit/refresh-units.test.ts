import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planRefresh, type RefreshStep } from '../../scripts/lib/refresh/plan.ts';
import {
  eventCountLine,
  outcomeLines,
  recordedFailure,
  refreshExitCode,
  refreshUnits,
  type UnitOutcome,
} from '../../scripts/lib/refresh/units.ts';
import { newlyListed } from '../../scripts/lib/history/releases.ts';
import { loadSiteContent } from '../../src/lib/content/cached.ts';

const state = {
  types: { alpha: { pinned: '1.0.0', latest: '1.0.1' }, beta: { pinned: '3.0.0', latest: '3.0.0', withCli: true } },
  clis: {
    alpha: { pinned: '2.0.0', latest: '2.0.1' },
    beta: { pinned: '3.0.0', latest: '3.1.0', payloads: true },
    gamma: { pinned: '5.0.0', latest: '5.0.0' },
  },
  histories: { 'alpha.sdk': '1.0.0', 'alpha.capture': '2.0.0', 'beta.capture': '3.0.0', 'gamma.capture': '5.0.0' },
};

test('the plan is grouped per agent and source: types with their history, a CLI with its capture, payloads, types released with it and its history', () => {
  const units = refreshUnits(planRefresh(state), (agent) => agent === 'beta');
  assert.deepEqual(
    units.map((u) => [`${u.agent} ${u.source}`, u.steps.map((s) => s.kind)]),
    [
      ['alpha types', ['ingest-types', 'history']],
      ['alpha cli', ['capture', 'history']],
      ['beta cli', ['capture', 'payloads', 'ingest-types', 'history']],
    ],
  );
  // Each unit's history step is its own file.
  assert.equal((units[0]!.steps[1] as Extract<RefreshStep, { kind: 'history' }>).file, 'alpha.sdk');
  assert.equal((units[1]!.steps[1] as Extract<RefreshStep, { kind: 'history' }>).file, 'alpha.capture');
});

test('a newer release its history records as unable to run is not tried again, and its history is not cut back to the pin', () => {
  const steps = planRefresh({
    ...state,
    clis: { ...state.clis, gamma: { pinned: '5.0.0', latest: '5.1.0', cannotRun: '5.1.0' } },
    histories: { ...state.histories, 'gamma.capture': '5.1.0' },
  });
  assert.ok(
    !steps.some((s) => ('agent' in s && s.agent === 'gamma') || ('file' in s && s.file === 'gamma.capture')),
    JSON.stringify(steps),
  );
  // A later release that is not recorded as failing moves the pin past it.
  const later = planRefresh({
    ...state,
    clis: { ...state.clis, gamma: { pinned: '5.0.0', latest: '5.2.0' } },
    histories: { ...state.histories, 'gamma.capture': '5.1.0' },
  });
  assert.deepEqual(
    later.filter((s) => ('agent' in s && s.agent === 'gamma') || ('file' in s && s.file === 'gamma.capture')),
    [
      { kind: 'capture', agent: 'gamma', from: '5.0.0', to: '5.2.0' },
      { kind: 'history', file: 'gamma.capture', from: '5.1.0', to: '5.2.0' },
    ],
  );
});

test('releases listed after a history was written are read again, up to the newest release it covers', () => {
  assert.deepEqual(
    newlyListed(
      ['0.169.0', '0.169.1', '0.170.0', '0.171.0', '0.172.0', '0.172.0-alpha.1'],
      ['0.169.0', '0.169.1', '0.171.0'],
    ),
    ['0.170.0'],
    'a release past the history is not "newly listed": the pin decides',
  );
  assert.deepEqual(newlyListed(['1.0.0', '1.0.1'], ['1.0.0', '1.0.1']), []);
  assert.deepEqual(newlyListed(['1.0.0'], []), []);
  const steps = planRefresh({ ...state, newlyListed: { 'gamma.capture': ['4.9.1'] } });
  assert.deepEqual(
    steps.filter((s) => s.kind === 'history' && s.file === 'gamma.capture'),
    [{ kind: 'history', file: 'gamma.capture', from: '5.0.0', to: '5.0.0', newlyListed: ['4.9.1'] }],
  );
});

test("a release's recorded failure is its first failed configuration's reason; a release read without failures or not read has none", () => {
  const releases = [
    { version: '7.7.9', read: true },
    { version: '7.8.0', read: false },
    {
      version: '7.8.1',
      read: true,
      failed: { print: 'the CLI exited with code 1; the CLI said: “no platform package”', 'plan-agent': 'the same' },
    },
  ];
  assert.equal(
    recordedFailure(releases, '7.8.1'),
    'print: the CLI exited with code 1; the CLI said: “no platform package”',
  );
  assert.equal(recordedFailure(releases, '7.7.9'), undefined);
  assert.equal(recordedFailure(releases, '7.8.0'), undefined);
  assert.equal(recordedFailure(releases, '9.9.9'), undefined);
});

test('the exit status: 0 when nothing failed for our reasons, 2 when something else moved or was recorded, 1 when every unit failed for our reasons', () => {
  const [types, cli] = refreshUnits(planRefresh(state), () => false);
  const moved: UnitOutcome = { unit: types!, moved: true };
  const release: UnitOutcome = {
    unit: cli!,
    moved: false,
    by: 'release',
    release: '2.0.1',
    said: 'print: it said no',
    recorded: true,
  };
  const ours: UnitOutcome = { unit: cli!, moved: false, by: 'ours', reason: 'scripts/capture.ts failed (exit 1)' };
  assert.equal(refreshExitCode([moved, release]), 0);
  assert.equal(refreshExitCode([release]), 0);
  assert.equal(refreshExitCode([moved, ours]), 2);
  assert.equal(refreshExitCode([release, ours]), 2);
  assert.equal(refreshExitCode([ours]), 1);
  const lines = outcomeLines([moved, release, ours], (s) => s.kind);
  assert.deepEqual(lines, [
    'moved: ingest-types',
    'moved: history',
    'not moved: alpha CLI: 2.0.1 cannot run (print: it said no); recorded in its history; the pin stays',
    'not moved: alpha CLI: our failure, nothing kept or recorded: scripts/capture.ts failed (exit 1)',
  ]);
});

test('content under a tree with an unfinished refresh is not loaded for the site: the error says what to do', () => {
  const root = mkdtempSync(join(tmpdir(), 'unfinished-refresh-'));
  try {
    mkdirSync(join(root, '.refresh-before'));
    assert.throws(
      () => loadSiteContent(root),
      /\.refresh-before\/ exists: a refresh is running, or one was stopped.*npm run refresh -- --restore.*\[rule: refresh-unfinished\]/s,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a history that lost changes says so plainly, with the counts; one that gained says how many; none when equal', () => {
  assert.equal(eventCountLine('pi.capture', 10, 13), 'pi.capture: 3 new changes');
  assert.equal(eventCountLine('pi.capture', 10, 11), 'pi.capture: 1 new change');
  assert.equal(eventCountLine('pi.capture', 14, 0), 'pi.capture: 14 changes fewer than before the run (14 → 0)');
  assert.equal(eventCountLine('pi.capture', 2, 1), 'pi.capture: 1 change fewer than before the run (2 → 1)');
  assert.equal(eventCountLine('pi.capture', 5, 5), undefined);
});
