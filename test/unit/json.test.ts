import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePointerToken, jsonPointer, pointerToken, resolveLocalRef } from '../../src/lib/core/json.ts';

// The example document and fragment pointers of RFC 6901, sections 5 and 6.
const RFC_DOCUMENT = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};

test('resolveLocalRef follows the URI-fragment pointers of RFC 6901 section 6', () => {
  const cases: [string, unknown][] = [
    ['#', RFC_DOCUMENT],
    ['#/foo', ['bar', 'baz']],
    ['#/foo/0', 'bar'],
    ['#/', 0],
    ['#/a~1b', 1],
    ['#/c%25d', 2],
    ['#/e%5Ef', 3],
    ['#/g%7Ch', 4],
    ['#/i%5Cj', 5],
    ['#/k%22l', 6],
    ['#/%20', 7],
    ['#/m~0n', 8],
  ];
  for (const [ref, expected] of cases) assert.deepEqual(resolveLocalRef(RFC_DOCUMENT, ref), expected, ref);
});

test('resolveLocalRef: not local, not there, through a scalar, or a bad escape: undefined', () => {
  assert.equal(resolveLocalRef(RFC_DOCUMENT, 'other.json#/foo'), undefined);
  assert.equal(resolveLocalRef(RFC_DOCUMENT, '#/missing'), undefined);
  assert.equal(resolveLocalRef(RFC_DOCUMENT, '#/foo/0/length'), undefined);
  assert.equal(resolveLocalRef(RFC_DOCUMENT, '#/%E0%A4%A'), undefined);
});

test('tokens: ~1 is decoded before ~0, so ~01 stays the two characters ~1', () => {
  assert.equal(decodePointerToken('~01'), '~1');
  assert.equal(decodePointerToken('a~1b~0c'), 'a/b~c');
  assert.equal(pointerToken('~1'), '~01');
  assert.equal(jsonPointer('/cases', 'a/b', 3), '/cases/a~1b/3');
});
