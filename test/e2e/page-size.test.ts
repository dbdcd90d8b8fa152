/**
 * No built HTML page is larger than the budget (`PAGE_BUDGET_BYTES` of
 * src/lib/changelog-parts.ts): a long changelog is cut into part pages so that
 * none passes it. Reads every .html file of dist/ (redirect stubs included:
 * they are small anyway), and names each one over the budget with its size.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PAGE_BUDGET_BYTES } from '../../src/lib/changelog-parts.ts';
import { buildSite, DIST } from '../helpers/browser.ts';

before(() => buildSite());

/** Every .html file under `dir`, with its size in bytes. */
function htmlFiles(dir: string): { file: string; bytes: number }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .map((f) => ({ file: relative(DIST, join(dir, f)), bytes: statSync(join(dir, f)).size }));
}

test(`no built HTML page is over ${PAGE_BUDGET_BYTES} bytes`, () => {
  const files = htmlFiles(DIST);
  assert.ok(files.some((f) => f.file === 'index.html'), 'the site is built');
  const over = files.filter((f) => f.bytes > PAGE_BUDGET_BYTES).sort((a, b) => b.bytes - a.bytes);
  assert.deepEqual(over.map((f) => `${f.file}: ${f.bytes} bytes`), [], `pages over ${PAGE_BUDGET_BYTES} bytes`);
});

test('every changelog page of the build, its index and its parts, within the budget', () => {
  // The pages the cut exists for, named apart so that a failure says which part grew.
  const changelogs = htmlFiles(DIST).filter((f) => /(^|\/)changelog\//.test(f.file));
  assert.ok(changelogs.length > 0, 'the build has changelog pages');
  for (const f of changelogs) assert.ok(f.bytes <= PAGE_BUDGET_BYTES, `${f.file}: ${f.bytes} bytes`);
});
