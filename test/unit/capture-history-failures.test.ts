/**
 * Releases in which a configuration cannot be captured: bisected to the exact boundary, named with their reason
 * (scripts/lib/capture-history/failures.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capturedDiffer, failedConfigurations } from '../../scripts/lib/capture-history/failures.ts';
import { releasesDiffer, type ReleaseSnapshots } from '../../scripts/lib/history/capture-diff.ts';
import { locateChanges } from '../../scripts/lib/capture-history/planner.ts';
import type { ConfigSnapshot } from '../../scripts/lib/history/capture-snapshot.ts';

const ORDER = ['a', 'b'];
const same: ConfigSnapshot = {
  tools: { read: { delivery: 'direct', kind: 'json-schema', definition: '{}', rows: [] } },
  unresolvedNamespaces: [],
};

function release(version: string, captured: Record<string, boolean>): ReleaseSnapshots {
  return { version, configs: new Map(ORDER.map((c) => [c, captured[c] ? same : null])) };
}

test('a configuration captured in one release and not in the other differs; failing or running in both does not', () => {
  assert.equal(
    capturedDiffer(release('1.0.0', { a: true, b: true }), release('1.0.1', { a: true, b: false }), ORDER),
    true,
  );
  assert.equal(
    capturedDiffer(release('1.0.0', { a: false, b: false }), release('1.0.1', { a: true, b: false }), ORDER),
    true,
  );
  assert.equal(
    capturedDiffer(release('1.0.0', { a: true, b: false }), release('1.0.1', { a: true, b: false }), ORDER),
    false,
  );
  assert.equal(
    capturedDiffer(release('1.0.0', { a: false, b: false }), release('1.0.1', { a: false, b: false }), ORDER),
    false,
  );
});

test('bisection finds the first release that runs, though the tools it shows never change', async () => {
  // Releases 0..12; nothing runs before index 7 (made up); every release from 7 on shows the same tools.
  const firstRunning = 7;
  const releases = Array.from({ length: 13 }, (_, i) =>
    release(`1.0.${i}`, { a: i >= firstRunning, b: i >= firstRunning }),
  );
  const events = (x: number, y: number) => releasesDiffer(releases[x]!, releases[y]!, ORDER);
  assert.equal((await locateChanges(releases.length, 4, events)).changes.length, 0, 'the tools alone show no change');
  const plan = await locateChanges(
    releases.length,
    4,
    (x, y) => events(x, y) || capturedDiffer(releases[x]!, releases[y]!, ORDER),
  );
  assert.deepEqual(plan.changes, [[firstRunning - 1, firstRunning]]);
  assert.ok(plan.read.includes(firstRunning - 1) && plan.read.includes(firstRunning));
});

test('failed configurations are named in matrix order with the first line of their reason; none failed gives nothing', () => {
  const errors = new Map([
    ['b', 'cannot run: no program\nstack …'],
    ['a', 'timed out after 75 s'],
  ]);
  const failed = failedConfigurations(errors, ORDER);
  assert.deepEqual(failed, { a: 'timed out after 75 s', b: 'cannot run: no program' });
  assert.deepEqual(Object.keys(failed!), ORDER);
  assert.equal(failedConfigurations(new Map(), ORDER), undefined);
});
