/**
 * The real build (scripts/build.ts) on fixture content: invalid content stops
 * it with the file, the JSON pointer and the rule before anything is written;
 * a build that fails half-way never costs the previous site; upstream text that
 * looks like HTML comes out as text.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'parse5';
import { ROOT, runBuild } from '../helpers/browser.ts';
import { editJson, snapshot } from '../helpers/files.ts';
import { buildFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';

const FIXTURE = join(ROOT, 'test/fixtures/content');

function withFixture<T>(mutate: (content: string) => void, run: (content: string, out: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'site-'));
  try {
    const content = join(dir, 'content');
    cpSync(FIXTURE, content, { recursive: true });
    mutate(content);
    return run(content, join(dir, 'out'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A good build as the previous site in `out`, and a snapshot of it: a copy of the fixture site `npm test` builds once
 * (test/helpers/fixture-site.ts), or of one built here when this file runs alone.
 */
let fixtureSite: FixtureSite | undefined;
after(() => fixtureSite?.remove());
function previousSite(out: string): Map<string, string> {
  fixtureSite ??= buildFixtureSite();
  cpSync(fixtureSite.out, out, { recursive: true });
  return snapshot(out);
}

test('an unknown job id stops the build naming file, pointer and rule, and writes nothing', () => {
  withFixture(
    (content) => editJson(join(content, 'editorial/claude-code/read.json'), (d) => d.jobs.push('no-such-job')),
    (content, out) => {
      const result = runBuild(['--out', out], { CONTENT_DIR: content });
      const output = result.stdout + result.stderr;
      assert.notEqual(result.status, 0, 'the build must fail');
      assert.match(
        output,
        /editorial\/claude-code\/read\.json: \/jobs\/1: unknown job id no-such-job .*\[rule: known-job\]/,
      );
      assert.equal(existsSync(out), false, 'no output folder is left behind');
      assert.deepEqual(
        readdirSync(join(out, '..')).filter((n) => n.startsWith('.out')),
        [],
        'no staging folder is left behind',
      );
    },
  );
});

test('a schema violation stops the build with the schema rule', () => {
  withFixture(
    (content) =>
      writeFileSync(
        join(content, 'agents/claude-code.json'),
        JSON.stringify({ id: 'claude-code', product: 'Claude Code', version: '1', checked: '2026-13-45', sources: [] }),
      ),
    (content, out) => {
      const result = runBuild(['--out', out], { CONTENT_DIR: content });
      const output = result.stdout + result.stderr;
      assert.notEqual(result.status, 0);
      assert.match(
        output,
        /agents\/claude-code\.json: \/checked: must match format "date" \[rule: agent\.schema\.json#\/properties\/checked\/format\]/,
      );
      assert.match(output, /agents\/claude-code\.json: \/sources: must NOT have fewer than 1 items/);
      assert.equal(existsSync(out), false);
    },
  );
});

test('a hostile captured tool name stops the build before the previous site is touched', () => {
  withFixture(
    () => {},
    (content, out) => {
      const before = previousSite(out);
      editJson(join(content, 'captures/claude-code/print.json'), (c) => (c.body.tools[1].name = '..'));
      const bad = runBuild(['--out', out], { CONTENT_DIR: content });
      assert.notEqual(bad.status, 0);
      assert.match(
        bad.stdout + bad.stderr,
        /content\/captures\/claude-code\/print\.json: \/body\/tools\/1\/name: tool name "\.\." gives the URL segment "\.\.".* \[rule: url-name-valid\]/,
      );
      assert.deepEqual(snapshot(out), before, 'the previous site is byte for byte as it was');
    },
  );
});

test('a build that fails while writing pages leaves the previous site intact and names the content file', () => {
  withFixture(
    () => {},
    (content, out) => {
      const before = previousSite(out);
      assert.ok(before.has(join('claude-code', 'shell', 'index.html')) && before.has('index.html'));
      // As on a full disk: writing Shell's page fails after other pages were written.
      const failing = runBuild(
        ['--out', out],
        { CONTENT_DIR: content, FAIL_WRITES_MATCHING: `${'/claude-code/shell/'}` },
        ['--import', join(ROOT, 'test/helpers/fail-writes.ts')],
      );
      const output = failing.stdout + failing.stderr;
      assert.notEqual(failing.status, 0, output);
      assert.match(output, /ENOSPC/);
      // The first file written under Shell's folder fails: its page or one of its definition files.
      assert.match(
        output,
        /while rendering \/claude-code\/shell\/[^ ]* \(content: [^)]*tools\/claude-code\/shell\.json/,
      );
      assert.match(output, /is unchanged/);
      assert.deepEqual(snapshot(out), before, 'the previous site is byte for byte as it was');
      assert.deepEqual(
        readdirSync(join(out, '..')).filter((n) => n.startsWith('.out')),
        [],
        'the staging folder is removed',
      );
    },
  );
});

test('text that looks like HTML in definitions is rendered as text', () => {
  // The fixture content's own descriptions hold such text; the fixture site is that content built (plus a long tool).
  fixtureSite ??= buildFixtureSite();
  const out = fixtureSite.out;
  const treeOf = (page: string) => {
    const text: string[] = [];
    const tags: string[] = [];
    const walk = (node: any): void => {
      if (node.nodeName === '#text') text.push(node.value);
      if (node.tagName) tags.push(node.tagName);
      for (const child of node.childNodes ?? []) walk(child);
    };
    walk(parse(readFileSync(join(out, page), 'utf8')));
    return { text, tags };
  };
  const shell = treeOf('claude-code/shell/index.html');
  assert.ok(
    shell.text.some((t) => t.includes('Command <title>x</title>')),
    'the description is a text node',
  );
  assert.equal(shell.tags.filter((t) => t === 'title').length, 1, 'only the document title element exists');
  const read = treeOf('claude-code/read/index.html');
  assert.ok(read.text.some((t) => t.includes('Path like <environment_context>')));
  assert.equal(read.tags.includes('environment_context'), false);
});
