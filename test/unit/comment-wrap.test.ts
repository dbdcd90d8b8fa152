/**
 * scripts/lib/comment-wrap.ts: long JSDoc lines are folded at the width with their prefix, the words kept in order;
 * everything else is left as written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapCommentLines } from '../../scripts/lib/comment-wrap.ts';

const words = (lines: string[], prefix: string) => lines.map((l) => l.slice(prefix.length)).join(' ');

test('a long JSDoc line becomes lines of the same prefix, each within the width, the same words in order', () => {
  const prefix = '   * ';
  const body = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
  const out = wrapCommentLines(`${prefix}${body}`, 40).split('\n');
  assert.ok(out.length > 1);
  for (const line of out) {
    assert.ok(line.startsWith(prefix), line);
    assert.ok(line.length <= 40, `${line.length}: ${line}`);
  }
  assert.equal(words(out, prefix), body);
});

test('short lines, code, indented comment lines and a word longer than the width are kept as written', () => {
  const long = 'x'.repeat(50);
  const text = [
    '/**',
    ' * short',
    ' *   an example indented further, which is long enough to pass the width of forty',
    ` * ${long}`,
    ' */',
    'export const value = "a string that is much longer than forty characters, as code";',
  ].join('\n');
  assert.equal(wrapCommentLines(text, 40), text);
});

test('a word longer than the width gets a line of its own; the words around it are folded', () => {
  const long = 'y'.repeat(50);
  const out = wrapCommentLines(` * one two ${long} three four`, 20).split('\n');
  assert.deepEqual(out, [' * one two', ` * ${long}`, ' * three four']);
});
