/**
 * The tests' cache of the real content's model (test/helpers/real-content.ts): what it gives
 * back is what a load gives; a process shares one model, frozen, and a copy to change is a
 * copy of its own. (Its key is the content cache's, whose changes with the content
 * test/unit/content-cache.test.ts covers.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { loadContent } from '../../src/lib/content/load.ts';
import { realContent, realContentCopy } from '../helpers/real-content.ts';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

test('the cached model equals a fresh load of the real content; the shared one is frozen, each copy is its own', () => {
  const shared = realContent();
  assert.equal(realContent(), shared, 'one model per process');
  const copy = realContentCopy();
  assert.ok(isDeepStrictEqual(copy, loadContent({ root: ROOT })), 'the cached model is what the loader gives');
  assert.ok(isDeepStrictEqual(shared, copy), 'the shared model is the cached one');
  // Strict mode (a module): writing to a frozen object throws, deep down too.
  assert.throws(() => {
    shared.tools.length = 0;
  }, TypeError);
  const tool = shared.tools[0]!;
  assert.throws(() => {
    tool.input.definition = copy.tools[1]!.input.definition;
  }, TypeError);
  copy.tools.length = 0;
  assert.ok(realContentCopy().tools.length > 0 && shared.tools.length > 0, 'changing one copy changes no other');
});
