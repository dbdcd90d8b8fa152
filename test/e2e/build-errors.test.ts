/**
 * The real `astro build` on fixture content: invalid content stops it with the
 * file, the JSON pointer and the rule, before any output is written; upstream
 * text that looks like HTML comes out as text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'parse5';
import { ROOT, runAstroBuild } from '../helpers/browser.ts';

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

test('an unknown job id stops the build naming file, pointer and rule, and writes nothing', () => {
  withFixture(
    (content) => {
      const path = join(content, 'editorial/claude-code/read.json');
      const data = JSON.parse(readFileSync(path, 'utf8'));
      data.jobs.push('no-such-job');
      writeFileSync(path, JSON.stringify(data));
    },
    (content, out) => {
      const result = runAstroBuild(['--outDir', out], { CONTENT_DIR: content });
      const output = result.stdout + result.stderr;
      assert.notEqual(result.status, 0, 'the build must fail');
      assert.match(output, /editorial\/claude-code\/read\.json: \/jobs\/1: unknown job id no-such-job .*\[rule: known-job\]/);
      assert.equal(existsSync(out), false, 'no output folder is left behind');
    },
  );
});

test('a schema violation stops the build with the schema rule', () => {
  withFixture(
    (content) => writeFileSync(join(content, 'agents/claude-code.json'), JSON.stringify({ id: 'claude-code', product: 'Claude Code', version: '1', checked: 'yesterday', sources: [] })),
    (content, out) => {
      const result = runAstroBuild(['--outDir', out], { CONTENT_DIR: content });
      const output = result.stdout + result.stderr;
      assert.notEqual(result.status, 0);
      assert.match(output, /agents\/claude-code\.json: \/checked: must match pattern .* \[rule: agent\.schema\.json#\/properties\/checked\/pattern\]/);
      assert.match(output, /agents\/claude-code\.json: \/sources: must NOT have fewer than 1 items/);
      assert.equal(existsSync(out), false);
    },
  );
});

test('text that looks like HTML in definitions is rendered as text', () => {
  withFixture(
    () => {},
    (content, out) => {
      const result = runAstroBuild(['--outDir', out], { CONTENT_DIR: content });
      assert.equal(result.status, 0, result.stdout + result.stderr);
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
      assert.ok(shell.text.some((t) => t.includes('Command <title>x</title>')), 'the description is a text node');
      assert.equal(shell.tags.filter((t) => t === 'title').length, 1, 'only the document title element exists');
      const read = treeOf('claude-code/read/index.html');
      assert.ok(read.text.some((t) => t.includes('Path like <environment_context>')));
      assert.equal(read.tags.includes('environment_context'), false);
    },
  );
});
