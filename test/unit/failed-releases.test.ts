/** Releases read whose captures failed, grouped by reason (src/lib/history/failed-releases.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failedReleases, failedRuns } from '../../src/lib/history/failed-releases.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';

const file = (releases: HistoryFile['releases']): HistoryFile => ({
  agent: 'codex',
  source: 'capture',
  package: 'p',
  method: 'm',
  configurations: ['a', 'b', 'c'],
  releases,
  events: [],
});

test('one entry per release with failures, oldest first; configurations failing for one reason grouped in matrix order', () => {
  const got = failedReleases(
    file([
      { version: '1.0.0', read: true, failed: { a: 'cannot run', b: 'cannot run', c: 'cannot run' } },
      { version: '1.0.1', read: false },
      { version: '1.0.2', read: true, failed: { a: 'timed out', c: 'timed out' } },
      { version: '1.0.3', read: true, failed: { b: 'unknown flag' } },
      { version: '1.0.4', read: true },
    ]),
  );
  assert.deepEqual(got, [
    { release: '1.0.0', all: true, reasons: [{ configurations: ['a', 'b', 'c'], reason: 'cannot run' }] },
    { release: '1.0.2', all: false, reasons: [{ configurations: ['a', 'c'], reason: 'timed out' }] },
    { release: '1.0.3', all: false, reasons: [{ configurations: ['b'], reason: 'unknown flag' }] },
  ]);
});

test('a history without failures names none', () => {
  assert.deepEqual(
    failedReleases(
      file([
        { version: '1.0.0', read: true },
        { version: '1.0.1', read: true },
      ]),
    ),
    [],
  );
});

test('failures are runs: releases read that fail alike, however many unread releases lie between, are one run', () => {
  const runs = failedRuns(
    file([
      { version: '1.0.0', read: true, failed: { c: 'unknown flag' } },
      { version: '1.0.1', read: false },
      { version: '1.0.2', read: true, failed: { c: 'unknown flag' } },
      { version: '1.0.3', read: true, failed: { c: 'unknown flag' } },
      { version: '1.0.4', read: true, failed: { b: 'unknown flag' } },
      { version: '1.0.5', read: true },
      { version: '1.0.6', read: true, failed: { b: 'unknown flag' } },
      { version: '1.0.7', read: true, failed: { a: 'x', b: 'x', c: 'x' } },
    ]),
  );
  assert.deepEqual(
    runs.map((r) => [
      r.first,
      r.last,
      r.read,
      r.all,
      r.reasons.map((x) => `${x.configurations.join('+')}: ${x.reason}`),
    ]),
    [
      ['1.0.0', '1.0.3', 3, false, ['c: unknown flag']],
      ['1.0.4', '1.0.4', 1, false, ['b: unknown flag']],
      ['1.0.6', '1.0.6', 1, false, ['b: unknown flag']],
      ['1.0.7', '1.0.7', 1, true, ['a+b+c: x']],
    ],
  );
  assert.deepEqual(failedRuns(file([{ version: '1.0.0', read: true }])), []);
});
