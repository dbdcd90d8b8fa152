/**
 * The breaking rule (src/lib/history/breaking.ts) against hand-made changes, each written from the rule's own words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakingReason, unionMembers } from '../../src/lib/history/breaking.ts';
import type { HistoryEvent } from '../../src/lib/core/content-types.ts';

const e = (kind: HistoryEvent['kind'], rest: Partial<HistoryEvent> = {}): HistoryEvent => ({
  release: '1.0.1',
  previous: '1.0.0',
  tool: 'Bash',
  kind,
  ...rest,
});
const breaks = (event: HistoryEvent) => breakingReason(event) !== undefined;

test('removing or renaming a tool or a field breaks callers; adding does not', () => {
  assert.ok(breaks(e('tool-removed')));
  assert.ok(breaks(e('renamed', { from: 'Task', to: 'Agent' })));
  assert.ok(
    breaks(e('renamed', { side: 'input', field: '.file_path', formerField: '.path', from: 'path', to: 'file_path' })),
  );
  assert.ok(breaks(e('field-removed', { side: 'output', field: '.stdout', path: 'stdout' })));
  assert.ok(!breaks(e('tool-added')));
  assert.ok(!breaks(e('field-added', { side: 'input', field: '.timeout', path: 'timeout' })));
  assert.ok(!breaks(e('available', { configuration: 'print' })));
  assert.ok(!breaks(e('unavailable', { configuration: 'print' })));
});

test('required and optional break on the side a caller depends on', () => {
  assert.ok(breaks(e('now-required', { side: 'input', field: '.a', path: 'a' })));
  assert.ok(!breaks(e('now-required', { side: 'output', field: '.a', path: 'a' })));
  assert.ok(!breaks(e('now-optional', { side: 'input', field: '.a', path: 'a' })));
  assert.ok(breaks(e('now-optional', { side: 'output', field: '.a', path: 'a' })));
});

test('a type narrowed in an input, or widened in a result, breaks callers', () => {
  const type = (side: 'input' | 'output', from: string, to: string) =>
    e('type-changed', { side, field: '.a', path: 'a', from, to });
  assert.ok(breaks(type('input', 'string | number', 'string')));
  assert.ok(!breaks(type('input', 'string', 'string | number')));
  assert.ok(breaks(type('input', 'string', 'number')));
  assert.ok(!breaks(type('output', 'string | null', 'string')));
  assert.ok(breaks(type('output', 'string', 'string | null')));
  assert.ok(breaks(type('output', '"a" | "b"', '"a" | "b" | "c"')));
});

test('a value removed from an input breaks callers; a union is a break only in a result', () => {
  assert.ok(breaks(e('value-removed', { side: 'input', field: '.mode', path: 'mode', from: '"fast"' })));
  assert.ok(!breaks(e('value-removed', { side: 'output', field: '.mode', path: 'mode', from: '"fast"' })));
  assert.ok(!breaks(e('value-added', { side: 'input', field: '.mode', path: 'mode', to: '"slow"' })));
  assert.ok(breaks(e('now-variant', { side: 'output', field: ':0', formerField: '' })));
  assert.ok(!breaks(e('now-variant', { side: 'input', field: ':0', formerField: '' })));
  assert.ok(!breaks(e('description-changed', { fromText: '0'.repeat(16), toText: '1'.repeat(16) })));
  assert.ok(!breaks(e('definition-changed', { side: 'input' })));
});

test('union members are split at the top level only', () => {
  assert.deepEqual(unionMembers('string | { a: "x | y" } | Array<number | null>'), [
    'string',
    '{ a: "x | y" }',
    'Array<number | null>',
  ]);
  assert.deepEqual(unionMembers('"a|b"'), ['"a|b"']);
});
