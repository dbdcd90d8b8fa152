/**
 * How a changelog is cut into pages (src/lib/history/changelog-parts.ts). Expected cuts
 * are written here by hand for small changelogs; a generated long one is
 * checked against the rule's properties, read back from the release labels
 * with a parser of this file's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  changelogParts,
  CHANGES_PER_PAGE,
  PAGE_BUDGET_BYTES,
  releaseLine,
  type ReleaseCount,
} from '../../src/lib/history/changelog-parts.ts';

const r = (release: string, changes: number): ReleaseCount => ({ release, changes });
const summary = (parts: ReturnType<typeof changelogParts>) =>
  parts?.map((p) => [p.slug, p.label, p.releases.map((x) => x.release), p.changes]);

test('a changelog within the budget is one page, whatever its lines', () => {
  assert.equal(changelogParts([r('2.1.0', 3), r('2.0.9', 4), r('1.0.1', 3)], 10), undefined);
  assert.equal(changelogParts([], 10), undefined);
  assert.equal(changelogParts([r('0.99.0', CHANGES_PER_PAGE)]), undefined);
});

test('a longer one: one part per minor line, newest first, with its counts', () => {
  const parts = changelogParts([r('2.1.3', 2), r('2.1.0', 3), r('2.0.77', 4), r('2.0.1', 1), r('1.0.7', 2)], 10);
  assert.deepEqual(summary(parts), [
    ['2.1', '2.1', ['2.1.3', '2.1.0'], 5],
    ['2.0', '2.0', ['2.0.77', '2.0.1'], 5],
    ['1.0', '1.0', ['1.0.7'], 2],
  ]);
});

test('a line over the budget is cut into fixed blocks of a hundred patch numbers, then fifty, ten, five, one', () => {
  const parts = changelogParts(
    [r('2.1.345', 2), r('2.1.250', 2), r('2.1.170', 3), r('2.1.120', 4), r('2.1.115', 5), r('2.1.5', 2), r('2.0.9', 1)],
    6,
  );
  assert.deepEqual(summary(parts), [
    ['2.1.300-399', '2.1.300 – 2.1.399', ['2.1.345'], 2],
    ['2.1.200-299', '2.1.200 – 2.1.299', ['2.1.250'], 2],
    // 12 rows between 2.1.100 and 2.1.199: blocks of fifty; 9 between 2.1.100 and 2.1.149: of ten.
    ['2.1.150-199', '2.1.150 – 2.1.199', ['2.1.170'], 3],
    ['2.1.120-129', '2.1.120 – 2.1.129', ['2.1.120'], 4],
    ['2.1.110-119', '2.1.110 – 2.1.119', ['2.1.115'], 5],
    ['2.1.0-99', '2.1.0 – 2.1.99', ['2.1.5'], 2],
    ['2.0', '2.0', ['2.0.9'], 1],
  ]);
  // A single release over the budget is its own page: it cannot be cut.
  assert.deepEqual(summary(changelogParts([r('2.1.12', 9), r('2.1.11', 1)], 5)), [
    ['2.1.12', '2.1.12', ['2.1.12'], 9],
    ['2.1.11', '2.1.11', ['2.1.11'], 1],
  ]);
});

test('a release stays on its page when newer releases arrive', () => {
  const older = [r('2.1.150', 3), r('2.1.120', 3), r('2.1.20', 3), r('2.0.5', 3)];
  const before = changelogParts(older, 5)!;
  const after = changelogParts([r('2.1.345', 4), r('2.1.290', 4), ...older], 5)!;
  const pageOf = (parts: NonNullable<ReturnType<typeof changelogParts>>) =>
    new Map(parts.flatMap((p) => p.releases.map((x) => [x.release, p.slug])));
  for (const [release, slug] of pageOf(before)) assert.equal(pageOf(after).get(release), slug, release);
});

test('release lines: major.minor and patch; other labels never reach a URL as they are', () => {
  assert.deepEqual(releaseLine('2.1.17'), { line: '2.1', patch: 17 });
  assert.deepEqual(releaseLine('0.150.0'), { line: '0.150', patch: 0 });
  assert.deepEqual(releaseLine('1.0.0-beta.3'), { line: '1.0', patch: 0 });
  assert.deepEqual(releaseLine('3'), { line: '3', patch: 0 });
  assert.deepEqual(releaseLine('../x'), { line: 'other', patch: 0 });
});

test('a long generated changelog: every release once, in order, each part within the budget unless a single release', () => {
  // Releases 1.0.0–1.0.120, 2.0.0–2.0.80, 2.1.0–2.1.340 newest first, with 0 to 6 changes (deterministic).
  const releases: ReleaseCount[] = [];
  for (const [line, last] of [
    ['2.1', 340],
    ['2.0', 80],
    ['1.0', 120],
  ] as const)
    for (let p = last; p >= 0; p--) releases.push(r(`${line}.${p}`, (p * 7 + line.length) % 7));
  const budget = 150;
  const parts = changelogParts(releases, budget)!;
  assert.deepEqual(
    parts.flatMap((p) => p.releases),
    releases,
  );
  assert.equal(new Set(parts.map((p) => p.slug)).size, parts.length);
  for (const part of parts) {
    assert.equal(
      part.changes,
      part.releases.reduce((n, x) => n + x.changes, 0),
    );
    assert.ok(part.changes <= budget || part.releases.length === 1, `${part.slug}: ${part.changes}`);
    assert.match(part.slug, /^\d+\.\d+(\.\d+(-\d+)?)?$/);
    // Every release of a part is in its line and, for a block, in its range.
    const [, line, from, to] = /^(\d+\.\d+)(?:\.(\d+)(?:-(\d+))?)?$/.exec(part.slug)!;
    for (const x of part.releases) {
      const [a, b, c] = x.release.split('.');
      assert.equal(`${a}.${b}`, line, x.release);
      if (from !== undefined)
        assert.ok(Number(c) >= Number(from) && Number(c) <= Number(to ?? from), `${x.release} in ${part.slug}`);
    }
  }
});

test('the change budget leaves room under the byte budget at the row and frame sizes seen on built pages', () => {
  // Up to 300 bytes of HTML per change row on the built changelogs, a frame of about 31 KB; a fifth to spare.
  assert.ok(CHANGES_PER_PAGE * 300 + 31_000 < PAGE_BUDGET_BYTES * 0.8);
});

test('rows that show a changed text word for word weigh what their diff is long: a few heavy releases are cut like many light ones', () => {
  const light: ReleaseCount[] = [
    { release: '1.0.2', changes: 3 },
    { release: '1.0.1', changes: 3 },
  ];
  assert.equal(changelogParts(light, 10), undefined, 'six plain rows fit a budget of ten');
  const heavy: ReleaseCount[] = [
    { release: '1.1.0', changes: 3, weight: 9 },
    { release: '1.0.1', changes: 3 },
  ];
  const parts = changelogParts(heavy, 10);
  assert.deepEqual(
    parts?.map((p) => [p.slug, p.changes]),
    [
      ['1.1', 3],
      ['1.0', 3],
    ],
    'cut by weight; each part still counts its rows',
  );
});
