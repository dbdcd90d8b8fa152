/**
 * loadSiteContent (src/lib/content/cached.ts): one load per process however
 * many times the module is evaluated (a build evaluates it natively, through
 * Vite for the config, and again for the content layer), and a new load after
 * a content file changes. Works on a copy of the fixture tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
type Cached = typeof import('../../src/lib/content/cached.ts');
const MODULE = new URL('../../src/lib/content/cached.ts', import.meta.url).href;

test('two evaluations of the module share one load; a changed content file loads again, for both', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-cache-'));
  const before = process.env.CONTENT_DIR;
  try {
    const content = join(dir, 'content');
    cpSync(join(ROOT, 'test/fixtures/content'), content, { recursive: true });
    process.env.CONTENT_DIR = content;
    // A query makes Node evaluate the module anew, as Vite does for the config and the content layer.
    const first = (await import(`${MODULE}?evaluation=1`)) as Cached;
    const second = (await import(`${MODULE}?evaluation=2`)) as Cached;
    assert.notEqual(first.loadSiteContent, second.loadSiteContent, 'two evaluations');

    const a = first.loadSiteContent(ROOT);
    assert.ok(a.model.tools.length > 0);
    assert.equal(
      second.loadSiteContent(ROOT).model,
      a.model,
      'the other evaluation gets the same model, not a second load',
    );
    assert.equal(first.loadSiteContent(ROOT).model, a.model);

    // An edit (here: the same text, a later modification time) makes the next call load again.
    const jobs = join(content, 'jobs.json');
    writeFileSync(jobs, readFileSync(jobs));
    utimesSync(jobs, new Date(), new Date(Date.now() + 60_000));
    const b = second.loadSiteContent(ROOT);
    assert.notEqual(b.model, a.model);
    assert.deepEqual(b.model.jobs, a.model.jobs);
    assert.equal(first.loadSiteContent(ROOT).model, b.model);
  } finally {
    if (before === undefined) delete process.env.CONTENT_DIR;
    else process.env.CONTENT_DIR = before;
    rmSync(dir, { recursive: true, force: true });
  }
});
