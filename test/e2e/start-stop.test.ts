/**
 * `npm start` stops cleanly however it is stopped: nothing it started is left, and its port is free again.
 * scripts/start.ts is started on a port the system picks (PORT=0) into a temporary folder and stopped
 * while its build runs (the server listens from before the build, so the port is taken by then):
 * by SIGTERM to its own pid; by SIGTERM to npm's pid, as `npm start` runs (npm passes the signal to
 * the shell it runs the script in, not to the script); and by SIGKILL, after which the build must
 * end by itself. Stopped early, no run builds the site: each takes seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';
import { processTable } from '../../scripts/lib/system/process-table.ts';

/** Every live process below `pid`, read from /proc. */
function descendants(pid: number): number[] {
  const table = processTable().filter((p) => p.state !== 'Z');
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0; ) {
    parents = table.filter((p) => parents.includes(p.ppid)).map((p) => p.pid);
    found.push(...parents);
  }
  return found;
}

const alive = (pid: number) => processTable().some((p) => p.pid === pid && p.state !== 'Z');

async function until(what: string, ms: number, done: () => boolean | Promise<boolean>): Promise<void> {
  for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 100))) {
    if (await done()) return;
    if (Date.now() > end) throw new Error(`${what} within ${ms / 1000} s`);
  }
}

/** Whether a server can listen on `port` of localhost now: the port is free. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: 'localhost', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

interface Started {
  child: ChildProcess;
  out: string;
  port: number;
  /** scripts/start.ts's own pid. */
  startPid: number;
}

/** Starts `command` (which runs scripts/start.ts), waits until its build has started, and gives its port. */
async function startUntilBuilding(command: string, args: string[]): Promise<Started> {
  const out = mkdtempSync(join(tmpdir(), 'start-stop-'));
  const { NODE_TEST_CONTEXT: _context, SITE_URL: _site, ...env } = process.env;
  const child = spawn(command, [...args, '--out', out], {
    cwd: ROOT,
    env: { ...env, PORT: '0', ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`start did not start its build within 120 s:\n${output}`)),
      120_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /^start: building .* for http:\/\/localhost:(\d+)\//m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`start ended (${code ?? signal}) before its build started:\n${output}`));
    });
  });
  const startPid = [child.pid!, ...descendants(child.pid!)].find((pid) => /scripts\/start\.ts/.test(cmdline(pid)));
  assert.ok(startPid, 'the process of scripts/start.ts is found');
  // The build is a child of start.ts: wait until it is there, so that stopping must end it too.
  await until('the build did not start', 30_000, () => descendants(startPid).length > 0);
  return { child, out, port, startPid };
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** After `stop`: every process of the run has ended, the port is free, and no staging folder is left. */
async function assertClean(started: Started, left: number[], ms = 30_000): Promise<void> {
  try {
    await until('processes of npm start were left running', ms, () => left.every((pid) => !alive(pid)));
    assert.ok(await portFree(started.port), `port ${started.port} is free again`);
    const staging = readdirSync(dirname(started.out)).filter((f) => f.startsWith(`.${basename(started.out)}.staging-`));
    assert.deepEqual(staging, [], 'the build removed its staging folder');
  } finally {
    for (const pid of left.filter(alive)) process.kill(pid, 'SIGKILL');
    rmSync(started.out, { recursive: true, force: true });
  }
}

test('SIGTERM to its pid: the build and the server end, with exit status 143', async () => {
  const started = await startUntilBuilding(process.execPath, [join(ROOT, 'scripts/start.ts')]);
  // The build really runs: it loaded what start.ts gives it (a wrong path there ends it at once, and stopping
  // it would then prove nothing). start.ts starts the server before the build: wait for the build itself.
  try {
    let build: number | undefined;
    await until('the build did not start', 30_000, () => {
      build = descendants(started.startPid).find((pid) => /scripts\/build\.ts/.test(cmdline(pid)));
      return build !== undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.ok(alive(build!), 'the build is still running two seconds after it started');
  } catch (error) {
    // Nothing of the run may outlive the test, which would otherwise wait on its output forever.
    for (const pid of [started.startPid, ...descendants(started.startPid)].filter(alive)) process.kill(pid, 'SIGKILL');
    rmSync(started.out, { recursive: true, force: true });
    throw error;
  }
  const left = [started.startPid, ...descendants(started.startPid)];
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  process.kill(started.startPid, 'SIGTERM');
  assert.equal(await exited, 143);
  await assertClean(started, left);
});

test("SIGTERM to npm's pid, as `npm start` runs: the script ends with the shell npm ran it in", async () => {
  const started = await startUntilBuilding('npm', ['start', '--']);
  const left = [started.child.pid!, ...descendants(started.child.pid!)];
  process.kill(started.child.pid!, 'SIGTERM');
  await assertClean(started, left);
});

test('SIGKILL to its pid: the build it started ends by itself', async () => {
  const started = await startUntilBuilding(process.execPath, [join(ROOT, 'scripts/start.ts')]);
  const left = [started.startPid, ...descendants(started.startPid)];
  process.kill(started.startPid, 'SIGKILL');
  // Killed as soon as the build process exists: before it can have read who its parent is (start.ts names
  // itself). With a SIGTERM handler installed, the build runs it when its main thread is free: time for that.
  await assertClean(started, left, 60_000);
});

test('the checks can fail: a port in use is not free, a running process is alive', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen({ port: 0, host: 'localhost' }, resolve));
  const sleeper = spawn('sleep', ['30']);
  try {
    assert.equal(await portFree((server.address() as { port: number }).port), false);
    assert.ok(alive(sleeper.pid!));
  } finally {
    sleeper.kill('SIGKILL');
    server.close();
  }
});
