/**
 * A capture that loses most of its tools for one release only is a suspect, not a removal
 * (scripts/lib/capture-history/vanish.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vanishAndReturn, vanishReason } from '../../scripts/lib/capture-history/vanish.ts';
import type { ReleaseSnapshots } from '../../scripts/lib/history/capture-diff.ts';
import type { ConfigSnapshot } from '../../scripts/lib/history/capture-snapshot.ts';

const tool = { delivery: 'function', kind: 'json-schema', definition: '{}', rows: [] };
const snap = (names: readonly string[]): ConfigSnapshot => ({
  tools: Object.fromEntries(names.map((n) => [n, tool])),
  unresolvedNamespaces: [],
});
const TEN = Array.from({ length: 10 }, (_, i) => `T${i}`);
const release = (version: string, configs: Record<string, readonly string[] | null>): ReleaseSnapshots => ({
  version,
  configs: new Map(Object.entries(configs).map(([c, names]) => [c, names === null ? null : snap(names)])),
});

test('a release whose capture lost every tool and whose next read release has them back is a suspect', () => {
  const releases = [
    release('2.1.80', { i: TEN, p: TEN }),
    release('2.1.81', { i: [], p: TEN }),
    release('2.1.83', { i: TEN, p: TEN }),
  ];
  const suspects = vanishAndReturn(releases, ['p', 'i']);
  assert.equal(suspects.length, 1);
  assert.deepEqual(suspects[0], {
    version: '2.1.81',
    configuration: 'i',
    count: 0,
    before: { version: '2.1.80', count: 10 },
    after: { version: '2.1.83', count: 10 },
    returned: 10,
  });
  assert.match(
    vanishReason(suspects[0]!, 3),
    /advertised 0 tools where 2\.1\.80 advertised 10 and 2\.1\.83 10 \(10 of them back\), in each of 3 runs/,
  );
});

test('a real removal (the tools stay gone), a few tools leaving and coming back, and the ends are not suspects', () => {
  const gone = [release('1', { c: TEN }), release('2', { c: TEN.slice(0, 2) }), release('3', { c: TEN.slice(0, 2) })];
  assert.deepEqual(vanishAndReturn(gone, ['c']), [], 'removed for good');
  const few = [release('1', { c: TEN }), release('2', { c: TEN.slice(0, 6) }), release('3', { c: TEN })];
  assert.deepEqual(vanishAndReturn(few, ['c']), [], 'four of ten leaving is not most of them');
  const ends = [release('1', { c: [] }), release('2', { c: TEN }), release('3', { c: [] })];
  assert.deepEqual(vanishAndReturn(ends, ['c']), [], 'the first and last release read have no neighbour on one side');
});

test('a failed configuration is skipped: the neighbours are the releases in which it ran', () => {
  const releases = [
    release('1', { c: TEN }),
    release('2', { c: null }),
    release('3', { c: ['T0'] }),
    release('4', { c: null }),
    release('5', { c: TEN }),
  ];
  const suspects = vanishAndReturn(releases, ['c']);
  assert.deepEqual(
    suspects.map((s) => [s.version, s.before.version, s.after.version]),
    [['3', '1', '5']],
  );
});
