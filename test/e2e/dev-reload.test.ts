/**
 * `astro dev` reads content through the content layer: an edit to an editorial
 * file shows on the next request, without restarting the server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _context, ...rest } = env;
  return rest;
}

/**
 * The address `astro dev --port 0` prints once the system has given it a free
 * port (`Local    http://127.0.0.1:40123/`). Its output is read to the end, so
 * the server never blocks on a full pipe.
 */
function announcedBase(server: ChildProcess, deadline: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`astro dev announced no address:\n${seen}`)),
      deadline - Date.now(),
    );
    server.stdout!.setEncoding('utf8');
    server.stdout!.on('data', (chunk: string) => {
      if (seen.length < 100_000) seen += chunk;
      const m = /Local\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(seen.replace(/\x1b\[[0-9;]*m/g, ''));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    server.once('exit', (code) =>
      reject(new Error(`astro dev exited (${code}) before it announced an address:\n${seen}`)),
    );
  });
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
  const server = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev', '--host', '127.0.0.1', '--port', '0'],
    {
      cwd: ROOT,
      // NODE_TEST_CONTEXT would make the server's Node report to this test runner.
      env: { ...withoutTestContext(process.env), CONTENT_DIR: dir, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  );
  try {
    const url = `${await announcedBase(server, Date.now() + 60_000)}/claude-code/read/`;
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
