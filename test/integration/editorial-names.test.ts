/**
 * Every field-like name that editorial prose puts in code style is backed by
 * the evidence (a field or value of the tool in some table, configuration or
 * release; a tool, namespace, alias or feature flag), or listed by the file
 * itself under `namesNotInSchema` with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import { checkEditorialNames, mentionedNames } from '../../src/lib/editorial-names.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = loadContent({ root: ROOT });

test('no editorial text names a field the evidence does not have, unless it says why', () => {
  assert.deepEqual(checkEditorialNames(site).map((f) => `${f.tool}: ${f.name} (${f.problem})`), []);
});

test('the check has something to check', () => {
  const mentioned = site.tools.flatMap((t) => mentionedNames(t));
  assert.ok(mentioned.length > 100, `${mentioned.length} names mentioned`);
});
