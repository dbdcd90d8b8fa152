/**
 * The Gemini CLI core ingest script itself: at the pinned release it
 * regenerates the committed content byte for byte; when the download fails it
 * says why, writes nothing and leaves no temporary folder behind; a version
 * with no integrity pinned has it recorded, after the content.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';

const PINS = JSON.parse(readFileSync(join(ROOT, 'scripts/pins.json'), 'utf8')) as Record<
  string,
  Record<string, string>
>;
const PIN = PINS['gemini-cli']!;
const PACKAGE = PIN.package!;
const VERSION = PIN.version!;
const PINNED_INTEGRITY = PIN.integrity!;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string, prefix: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(d, entry.name), `${prefix}${entry.name}/`);
      else files.set(prefix + entry.name, readFileSync(join(d, entry.name), 'utf8'));
    }
  };
  walk(dir, '');
  return files;
}

interface Scratch {
  content: string;
  pins: string;
  tmp: string;
}

async function withScratch(run: (s: Scratch) => Promise<void>, pins: unknown = PINS): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'ingest-gemini-'));
  try {
    const s: Scratch = { content: join(root, 'content'), pins: join(root, 'pins.json'), tmp: join(root, 'tmp') };
    cpSync(join(ROOT, 'content'), s.content, { recursive: true });
    writeFileSync(s.pins, JSON.stringify(pins, null, 2) + '\n');
    mkdirSync(s.tmp);
    await run(s);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
  /** What the child left in its TMPDIR (it started empty). */
  leftInTmp: string[];
}

function runIngest(s: Scratch, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/ingest-gemini-core.ts')], {
      cwd: ROOT,
      // NODE_DISABLE_COMPILE_CACHE: npm 11 on Node ≥ 22 otherwise keeps its own compile cache in TMPDIR.
      env: {
        ...process.env,
        CONTENT_DIR: s.content,
        PINS_FILE: s.pins,
        TMPDIR: s.tmp,
        NODE_DISABLE_COMPILE_CACHE: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, leftInTmp: readdirSync(s.tmp) });
    });
  });
}

test('regenerating at the pinned release is byte-identical to the committed content', async () => {
  await withScratch(async (s) => {
    const before = snapshot(s.content);
    const pinsBefore = readFileSync(s.pins, 'utf8');
    const result = await runIngest(s);
    assert.equal(result.status, 0, result.stderr);
    const tools = [...before.keys()].filter((p) => p.startsWith('tools/gemini-cli/')).length;
    assert.ok(tools > 0, 'the committed content has Gemini CLI tool files');
    assert.match(
      result.stdout,
      new RegExp(
        `: ${tools} of \\d+ captured tools mapped to params types of ${escapeRegExp(PACKAGE)}@${escapeRegExp(VERSION)}, integrity ${escapeRegExp(PINNED_INTEGRITY)}`,
      ),
    );
    assert.match(result.stdout, /not mapped, capture only: grep_search: 2 classes pass this name/);
    assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
    assert.equal(readFileSync(s.pins, 'utf8'), pinsBefore, 'the pin does not move when the tarball matches it');
    assert.deepEqual(result.leftInTmp, []);
  });
});

test("an unreachable registry: exit 1 with npm's reason, nothing written, no temporary folder left", async () => {
  await withScratch(async (s) => {
    const before = snapshot(s.content);
    const pinsBefore = readFileSync(s.pins, 'utf8');
    // Nothing listens on port 9 of the loopback address.
    const result = await runIngest(s, {
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_fetch_timeout: '5000',
      // The download's own retry (--fetch-retries=1) comes after npm's shortest wait, 10 s unless set.
      npm_config_fetch_retry_mintimeout: '100',
      npm_config_fetch_retry_maxtimeout: '200',
    });
    assert.equal(result.status, 1);
    const line = result.stderr.split('\n').find((l) => l.includes('could not download'));
    assert.ok(line, result.stderr);
    assert.match(
      line,
      new RegExp(`could not download ${escapeRegExp(PACKAGE)}@${escapeRegExp(VERSION)}: ECONNREFUSED`),
    );
    assert.match(line, /registry http:\/\/127\.0\.0\.1:9\//);
    assert.match(result.stderr, /nothing was written/);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
    assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
    assert.equal(readFileSync(s.pins, 'utf8'), pinsBefore);
    assert.deepEqual(result.leftInTmp, []);
  });
});

test('with no integrity pinned, the first run records it beside the version, after the same content', async () => {
  const { integrity: _dropped, ...withoutIntegrity } = PIN;
  await withScratch(
    async (s) => {
      const before = snapshot(s.content);
      const result = await runIngest(s);
      assert.equal(result.status, 0, result.stderr);
      assert.match(
        result.stdout,
        new RegExp(
          `recorded the integrity of ${escapeRegExp(PACKAGE)}@${escapeRegExp(VERSION)} in .*: ${escapeRegExp(PINNED_INTEGRITY)}`,
        ),
      );
      const pins = JSON.parse(readFileSync(s.pins, 'utf8')) as typeof PINS;
      assert.deepEqual(pins, PINS);
      assert.deepEqual(Object.keys(pins['gemini-cli']!), Object.keys(PIN));
      assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
      assert.deepEqual(result.leftInTmp, []);
    },
    { ...PINS, 'gemini-cli': withoutIntegrity },
  );
});

test('a pin at another release than the captures is refused before anything is downloaded', async () => {
  await withScratch(
    async (s) => {
      const before = snapshot(s.content);
      // The registry is unreachable: a download attempt would fail with another message.
      const result = await runIngest(s, { npm_config_registry: 'http://127.0.0.1:9/' });
      assert.equal(result.status, 1);
      assert.match(
        result.stderr,
        new RegExp(
          `the captures are of @google/gemini-cli ${escapeRegExp(VERSION)} .*the pin is ${escapeRegExp(PACKAGE)} 0\\.0\\.1`,
        ),
      );
      assert.match(result.stderr, /nothing was written/);
      assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
      assert.deepEqual(result.leftInTmp, []);
    },
    { ...PINS, 'gemini-cli': { ...PIN, version: '0.0.1' } },
  );
});
