import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareReleases, compareVersions, isRelease, releaseParts } from '../../src/lib/core/version-order.ts';

test('compareVersions follows the precedence example of the semver 2.0.0 specification (section 11)', () => {
  // The specification's own list, in ascending order.
  const ascending = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
  ];
  const shuffled = [...ascending].reverse();
  assert.deepEqual(shuffled.sort(compareVersions), ascending);
  assert.ok(
    compareVersions('1.0.0', '2.0.0') < 0 &&
      compareVersions('2.0.0', '2.1.0') < 0 &&
      compareVersions('2.1.0', '2.1.1') < 0,
  );
});

test('compareVersions: numeric parts by value, build metadata ignored, a missing part is 0', () => {
  assert.ok(compareVersions('0.3.10', '0.3.9') > 0);
  assert.ok(compareVersions('0.150.0', '0.99.9') > 0);
  assert.equal(compareVersions('1.2.3+build.5', '1.2.3'), 0);
  assert.equal(compareVersions('1.2', '1.2.0'), 0);
});

test('plain releases: x.y.z without leading zeros or suffixes; compareReleases refuses anything else', () => {
  assert.ok(isRelease('0.171.0') && isRelease('10.0.1'));
  for (const v of ['1.2', '1.2.3-beta.1', '1.2.3+b', '01.2.3', 'v1.2.3']) assert.equal(isRelease(v), false, v);
  assert.deepEqual(releaseParts('2.1.335'), [2, 1, 335]);
  assert.throws(() => compareReleases('1.2.3-beta.1', '1.2.3'), /not a plain x\.y\.z release/);
  assert.ok(compareReleases('2.1.9', '2.1.10') < 0);
});
