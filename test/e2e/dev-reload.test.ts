/**
 * `astro dev` reads content through the content layer: an edit to an editorial
 * file shows on the next request, without restarting the server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';

const PORT = 4413;

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _context, ...rest } = env;
  return rest;
}

async function fetchText(url: string, deadline: number): Promise<string> {
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return await res.text();
    } catch {}
    if (Date.now() > deadline) throw new Error(`no answer from ${url}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('astro dev shows an edited editorial file on the next request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-content-'));
  cpSync(join(ROOT, 'test/fixtures/content'), dir, { recursive: true });
  const server = spawn(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev', '--host', '127.0.0.1', '--port', String(PORT)], {
    cwd: ROOT,
    // NODE_TEST_CONTEXT would make the server's Node report to this test runner.
    env: { ...withoutTestContext(process.env), CONTENT_DIR: dir, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    const url = `http://127.0.0.1:${PORT}/claude-code/read/`;
    const before = await fetchText(url, Date.now() + 60_000);
    assert.match(before, /Reads a file/);
    const path = join(dir, 'editorial/claude-code/read.json');
    const notes = JSON.parse(readFileSync(path, 'utf8'));
    notes.summary = 'Summary edited while the server runs';
    writeFileSync(path, JSON.stringify(notes));
    const deadline = Date.now() + 20_000;
    let after = '';
    while (!after.includes('Summary edited while the server runs')) {
      if (Date.now() > deadline) assert.fail('the edit never showed');
      await new Promise((r) => setTimeout(r, 300));
      after = await fetchText(url, deadline);
    }
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
