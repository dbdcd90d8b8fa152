/**
 * The tests' cache of the real content's model (test/helpers/real-content.ts): what it gives
 * back is what a load gives, and each call gets a copy of its own. (Its key is the content
 * cache's, whose changes with the content test/unit/content-cache.test.ts covers.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { loadContent } from '../../src/lib/content/load.ts';
import { realContent } from '../helpers/real-content.ts';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

test('the cached model equals a fresh load of the real content, and each call gets its own copy', () => {
  const first = realContent();
  const second = realContent();
  assert.notEqual(first, second, 'a copy per call');
  assert.ok(isDeepStrictEqual(second, loadContent({ root: ROOT })), 'the cached model is what the loader gives');
  first.tools.length = 0;
  assert.ok(realContent().tools.length > 0, 'changing one copy changes no other');
});
