/**
 * The sweep's helpers (test/helpers/sweep.ts): SWEEP read, its shares, and the items a check over every item takes,
 * each call given its share here rather than reading SWEEP (so the sweep does not list this file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atScale, readSweep, spread, sweepShare } from '../helpers/sweep.ts';

test('the shares of the sweep split the pages: for each N, the N shares together hold every page once, in order', () => {
  const pages = Array.from({ length: 23 }, (_, i) => `/page-${String(i).padStart(2, '0')}/`);
  assert.deepEqual(readSweep('all'), { share: 1, of: 1 });
  assert.equal(readSweep(undefined), undefined);
  for (let of = 1; of <= 6; of++) {
    const shares = Array.from({ length: of }, (_, k) => sweepShare(pages, readSweep(`${k + 1}/${of}`)!));
    assert.deepEqual(shares.flat().sort(), pages, `N = ${of}`);
    for (const share of shares) assert.deepEqual(share, [...share].sort(), 'in the order of the pages');
    assert.ok(Math.max(...shares.map((s) => s.length)) - Math.min(...shares.map((s) => s.length)) <= 1, 'even');
  }
  for (const bad of ['0/3', '4/3', 'some', '1/'])
    assert.throws(() => readSweep(bad), /SWEEP must be "all" or K\/N/, bad);
});

test('a check over every item takes its everyday sample, and with SWEEP the items of the share too, in their order', () => {
  const items = Array.from({ length: 20 }, (_, i) => ({ i }));
  const at = (...indexes: number[]) => indexes.map((i) => items[i]!);
  assert.deepEqual(spread(items, 8), at(0, 8, 16));
  // Everyday: the sample alone, in the items' order whatever order it was given in, each once.
  assert.deepEqual(atScale(items, at(7, 2, 7), undefined), at(2, 7));
  assert.deepEqual(atScale(items, [], undefined), []);
  // SWEEP=all: every item; SWEEP=2/8: the sample and every eighth item from the second.
  assert.deepEqual(atScale(items, at(7), readSweep('all')), items);
  assert.deepEqual(atScale(items, at(7), readSweep('2/8')), at(1, 7, 9, 17));
  // The eight shares together, each with the same sample, hold every item.
  const union = new Set(Array.from({ length: 8 }, (_, k) => atScale(items, at(7), readSweep(`${k + 1}/8`))).flat());
  assert.equal(union.size, items.length);
});
