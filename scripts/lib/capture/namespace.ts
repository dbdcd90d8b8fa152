/**
 * What every run inside the capture namespace does first: bring loopback up
 * and refuse to go on if any other interface exists; and take the lock of a
 * run folder (its paths are fixed, so two runs must not share it). Shared by
 * `npm run capture` and the capture history.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';

export class NamespaceError extends Error {}

/** Inside the namespace: loopback up, and nothing else there. */
export function prepareNamespace(): void {
  const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (up.error || up.status !== 0)
    throw new NamespaceError(`could not bring loopback up in the namespace: ${up.error?.message ?? up.stderr.trim()}`);
  const others = Object.keys(networkInterfaces()).filter((name) => name !== 'lo');
  if (others.length > 0)
    throw new NamespaceError(
      `the namespace has network interfaces besides lo (${others.join(', ')}); refusing to run the CLIs`,
    );
}

/**
 * Takes `dir/lock` for this process; a lock left by a process that no longer
 * runs is taken over. Returns the release. `holder` names the other run in the
 * error ("another capture").
 */
export function lockRunFolder(dir: string, holder: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (readError) {
        // The holder removed it between our open and our read: try again.
        if ((readError as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw readError;
      }
      // Created and not yet written: its holder is between open and write, alive.
      if (text === '') throw new NamespaceError(`another ${holder} is taking ${path}`);
      const pid = Number(text);
      let alive = false;
      try {
        if (pid > 0) process.kill(pid, 0);
        alive = pid > 0;
      } catch {
        alive = false;
      }
      if (alive) throw new NamespaceError(`${holder} (pid ${pid}) is running; it holds ${path}`);
      rmSync(path, { force: true });
    }
  }
  throw new NamespaceError(`could not take the lock ${path}`);
}

/**
 * `lockRunFolder`, waiting while another live process holds the lock (polled every
 * `pollMs`), for at most `waitMs`; then the holder is named in the error.
 */
export function waitForRunFolder(dir: string, holder: string, waitMs: number, pollMs = 1000): () => void {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return lockRunFolder(dir, holder);
    } catch (error) {
      if (!(error instanceof NamespaceError) || Date.now() >= deadline) throw error;
      Atomics.wait(
        new Int32Array(new SharedArrayBuffer(4)),
        0,
        0,
        Math.min(pollMs, Math.max(1, deadline - Date.now())),
      );
    }
  }
}
