/** Which rows show a "since" badge (src/lib/history/since-badges.ts), on hand-made tables. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badgedRows } from '../../src/lib/history/since-badges.ts';
import type { Since } from '../../src/lib/history/history.ts';

test('an addition with rows below it shows one badge, on its top row; a later addition below it shows its own', () => {
  const rows = [
    { id: 'output:1', depth: 0 }, // came with the tool
    { id: 'output:1.url', depth: 1 },
    { id: 'output:1.updated', depth: 1 }, // added alone, later
    { id: 'output:2', depth: 0 }, // a variant added with its fields
    { id: 'output:2.watch', depth: 1 },
    { id: 'output:2.watch.url', depth: 2 },
    { id: 'output:2.watch.detail', depth: 2 }, // added to it later
    { id: 'output:3', depth: 0 }, // another variant, same release, its own note
    { id: 'output:3.pin', depth: 1 },
  ];
  const since = new Map<string, Since>([
    ['output:1', { kind: 'tool', release: '1.0.0', note: 'since-tool-sdk' }],
    ['output:1.url', { kind: 'tool', release: '1.0.0', note: 'since-tool-sdk' }],
    ['output:1.updated', { kind: 'field', release: '1.0.5', note: 'since-output:+url.updated' }],
    ['output:2', { kind: 'field', release: '1.0.7', note: 'since-output:+watch' }],
    ['output:2.watch', { kind: 'field', release: '1.0.7', note: 'since-output:+watch' }],
    ['output:2.watch.url', { kind: 'field', release: '1.0.7', note: 'since-output:+watch' }],
    ['output:2.watch.detail', { kind: 'field', release: '1.0.9', note: 'since-output:+watch.watch.detail' }],
    ['output:3', { kind: 'field', release: '1.0.7', note: 'since-output:+pin' }],
    ['output:3.pin', { kind: 'field', release: '1.0.7', note: 'since-output:+pin' }],
  ]);
  assert.deepEqual([...badgedRows(rows, since)], ['output:1.updated', 'output:2', 'output:2.watch.detail', 'output:3']);
  assert.deepEqual([...badgedRows(rows, undefined)], []);
});
