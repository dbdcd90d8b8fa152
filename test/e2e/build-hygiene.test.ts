/**
 * What the real build (scripts/build.ts) leaves beside its output, on fixture
 * content: an interrupted build removes its staging folder and keeps the
 * previous site; staging folders of builds that were killed outright go with
 * the next build; a page over the size limit stops the build; invalid content
 * is reported by our message only.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runBuild } from '../helpers/browser.ts';
import { snapshot } from '../helpers/files.ts';
import { buildFixtureSite, LONG_TOOL, type FixtureSite } from '../helpers/fixture-site.ts';

const FIXTURE = join(ROOT, 'test/fixtures/content');
let work: string;
/**
 * A good build, copied as the previous site into tests that need one: the fixture site `npm test` builds once
 * (test/helpers/fixture-site.ts), or one of its own when this file runs alone.
 */
let fixtureSite: FixtureSite;
let goodSite: string;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'hygiene-'));
  fixtureSite = buildFixtureSite();
  goodSite = fixtureSite.out;
});

after(() => {
  rmSync(work, { recursive: true, force: true });
  fixtureSite?.remove();
});

/** A fresh folder holding `content/` (the fixture) and, if asked, `out/` (a copy of the good build). */
function freshSite(withPreviousSite: boolean): { dir: string; content: string; out: string } {
  const dir = mkdtempSync(join(work, 'site-'));
  const content = join(dir, 'content');
  const out = join(dir, 'out');
  cpSync(FIXTURE, content, { recursive: true });
  if (withPreviousSite) cpSync(goodSite, out, { recursive: true });
  return { dir, content, out };
}

const leftovers = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.out.'));

async function waitFor(
  condition: () => boolean,
  timeoutMs: number,
  what: string,
  stop: () => string | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    const stopped = stop();
    if (stopped !== undefined) throw new Error(`gave up waiting for ${what}: ${stopped}`);
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`a build stopped by ${signal} removes its staging folder, exits ${code} and leaves the previous site as it was`, async () => {
    const { dir, content, out } = freshSite(true);
    const before = snapshot(out);
    const child = spawn(process.execPath, [join(ROOT, 'scripts/build.ts'), '--out', out], {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: content },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    try {
      const staging = join(dir, `.out.staging-${child.pid}`);
      await waitFor(
        () => existsSync(staging),
        180_000,
        'the staging folder',
        () => (child.exitCode !== null ? `the build ended first:\n${output}` : undefined),
      );
      child.kill(signal);
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, 60_000, 'timeout').unref());
      const exitCode = await Promise.race([exited, timeout]);
      assert.notEqual(exitCode, 'timeout', `the build did not end within 60 s of ${signal}`);
      assert.equal(exitCode, code, output);
      assert.deepEqual(leftovers(dir), [], 'the staging folder is removed');
      assert.deepEqual(snapshot(out), before, 'the previous site is byte for byte as it was');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
}

test('a page over the size limit stops the build, naming the page, its size and the limit; the previous site stays', () => {
  const { dir, content, out } = freshSite(true);
  const before = snapshot(out);
  // The pages this content builds: the previous site's but the long-named tool's, which only the fixture site has.
  const pages = [...before.keys()]
    .filter((p) => p.endsWith('.html') && !p.includes(LONG_TOOL))
    .map((p) => ({ page: p, size: statSync(join(out, p)).size }));
  const largest = pages.reduce((a, b) => (b.size > a.size ? b : a));
  const smallest = pages.reduce((a, b) => (b.size < a.size ? b : a));
  // Lowered so that an ordinary fixture page is over it, with room for small differences between builds.
  const limit = Math.floor(largest.size * 0.9);
  assert.ok(smallest.size < limit);
  const result = runBuild(['--out', out], { CONTENT_DIR: content, PAGE_SIZE_LIMIT_BYTES: String(limit) });
  const output = result.stdout + result.stderr;
  assert.notEqual(result.status, 0, output);
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(
    output,
    new RegExp(
      `^(?:build failed: )?out/${escapeRegExp(largest.page)} is [0-9.]+ kB, over the ${escapeRegExp(String(Number((limit / 1000).toFixed(1))))} kB limit for one page \\[rule: page-size\\]$`,
      'm',
    ),
  );
  assert.doesNotMatch(output, new RegExp(`out/${escapeRegExp(smallest.page)} is`));
  assert.match(output, /out is unchanged/);
  assert.deepEqual(leftovers(dir), [], 'the staging folder is removed');
  assert.deepEqual(snapshot(out), before, 'the previous site is byte for byte as it was');
});

test('invalid content is reported by our message alone, without Astro announcing an unhandled error in a hook', () => {
  const { content, out } = freshSite(false);
  const read = join(content, 'editorial/claude-code/read.json');
  const data = JSON.parse(readFileSync(read, 'utf8'));
  data.jobs.push('no-such-job');
  writeFileSync(read, JSON.stringify(data));
  const result = runBuild(['--out', out], { CONTENT_DIR: content });
  const output = result.stdout + result.stderr;
  assert.notEqual(result.status, 0);
  assert.match(
    output,
    /editorial\/claude-code\/read\.json: \/jobs\/1: unknown job id no-such-job .*\[rule: known-job\]/,
  );
  assert.doesNotMatch(output, /unhandled error|astro:config:setup/i);
});

test('the next build removes staging and retired folders of builds no longer running (those of a running build stay), and an output on another file system (Astro moves files with renames) is built and swapped in, with nothing left in the project folder', (t) => {
  // One build checks both: beside an output on another file system when this machine has one, else in the work folder.
  const other = '/dev/shm';
  const crossDevice = existsSync(other) && statSync(other).dev !== statSync(ROOT).dev;
  if (!crossDevice) t.diagnostic(`${other} is not another file system here: the build writes beside the project`);
  const dir = mkdtempSync(join(crossDevice ? other : work, 'cross-device-'));
  try {
    const content = join(work, `content-${process.pid}`);
    cpSync(FIXTURE, content, { recursive: true });
    const out = join(dir, 'out');
    // A pid that is certainly free: that of a process that has ended.
    const deadPid = spawnSync('true').pid;
    assert.ok(deadPid);
    const stale = [`.out.staging-${deadPid}`, `.out.old-${deadPid}`];
    const running = `.out.staging-${process.pid}`;
    for (const name of [...stale, running]) {
      mkdirSync(join(dir, name, 'claude-code'), { recursive: true });
      writeFileSync(join(dir, name, 'claude-code', 'index.html'), '<!doctype html><title>left over</title>');
    }
    const before = readdirSync(ROOT).filter((n) => n.startsWith('.cross-device-build'));
    const result = runBuild(['--out', out], { CONTENT_DIR: content });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stderr, /EXDEV/);
    assert.deepEqual(leftovers(dir), [running], 'only the folder of the running build is left');
    // The pages of the fixture site, whose content is this fixture plus one tool with a long name.
    const pages = (root: string) => [...snapshot(root).keys()].filter((f) => f.endsWith('.html')).sort();
    assert.deepEqual(
      pages(out),
      pages(goodSite).filter((p) => !p.includes(LONG_TOOL)),
    );
    assert.deepEqual(
      readdirSync(ROOT).filter((n) => n.startsWith('.cross-device-build')),
      before,
      'no build folder left in the project',
    );
    assert.deepEqual(readdirSync(dir).sort(), [running, 'out'].sort(), 'no staging folder left beside the output');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
