/**
 * `npm test` (scripts/test.ts) runs every test file of the repository exactly once,
 * and only the end-to-end lane runs files that start a browser or a build.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob, sep } from 'node:path';
import { PHASES } from '../../scripts/test.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Every *.test.ts under test/, as a path from the root, read from the tree. */
const testFiles = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/${f.split(sep).join('/')}`)
  .sort();

/** The files each phase's `node --test` globs select. */
const selected = PHASES.map((phase) => {
  const globs = phase.commands.filter((c) => c.includes('--test')).flatMap((c) => c.filter((a) => a.endsWith('.test.ts')));
  return { phase: phase.name, files: testFiles.filter((f) => globs.some((g) => matchesGlob(f, g))) };
});

test('every test file is run by exactly one phase', () => {
  assert.ok(testFiles.length > 0);
  for (const file of testFiles) {
    const by = selected.filter((s) => s.files.includes(file)).map((s) => s.phase);
    assert.equal(by.length, 1, `${file} is run by ${by.length === 0 ? 'no phase' : by.join(' and ')}`);
  }
});

test('files that launch Chromium or build the project run in the one-at-a-time lane', () => {
  const parallel = PHASES.filter((p) => p.commands.some((c) => c.some((a) => /^--test-concurrency=(?!1$)/.test(a)))).map((p) => p.name);
  assert.ok(parallel.length > 0, 'some phase runs files side by side');
  for (const { phase, files } of selected.filter((s) => parallel.includes(s.phase))) {
    for (const file of files.filter((f) => join(ROOT, f) !== import.meta.filename)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      assert.doesNotMatch(text, /serveAndLaunch|chromium\.launch|buildSite\(|buildFixtureSite\(|runBuild\(/, `${file} (phase ${phase}) starts a browser or a build`);
    }
  }
});
