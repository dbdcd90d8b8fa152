/**
 * The lock of a run folder (scripts/lib/capture/namespace.ts), held by another live process:
 * refused at once by lockRunFolder, waited for by waitForRunFolder (which installs of earlier
 * releases take, so that two runs never share an install one of them deletes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockRunFolder, NamespaceError, waitForRunFolder } from '../../scripts/lib/capture/namespace.ts';

/** Another process that takes the lock, says so, and lets it go after `holdMs`. */
function holder(dir: string, holdMs: number): Promise<void> {
  const script = `
    import { lockRunFolder } from ${JSON.stringify(join(import.meta.dirname, '../../scripts/lib/capture/namespace.ts'))};
    const unlock = lockRunFolder(${JSON.stringify(dir)}, 'the test');
    console.log('locked');
    setTimeout(() => { unlock(); process.exit(0); }, ${holdMs});
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it locked`)));
  });
}

test('a lock held by a live process is refused at once, waited for when asked, and the holder is named when the wait runs out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'run-lock-'));
  try {
    await holder(dir, 1500);
    assert.throws(
      () => lockRunFolder(dir, 'another run'),
      (e: unknown) => e instanceof NamespaceError && /another run \(pid \d+\) is running/.test((e as Error).message),
    );
    assert.throws(() => waitForRunFolder(dir, 'another run', 200, 50), /another run \(pid \d+\) is running/);
    const t0 = Date.now();
    const unlock = waitForRunFolder(dir, 'another run', 10_000, 50);
    assert.ok(Date.now() - t0 >= 500, 'it waited for the holder to let go');
    assert.equal(readFileSync(join(dir, 'lock'), 'utf8'), String(process.pid));
    unlock();
    assert.ok(!existsSync(join(dir, 'lock')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
