/**
 * Children that end with their parent. A script that runs other scripts (refresh) starts each
 * in a process group of its own, so that one signal reaches the child and everything it
 * started in turn (npm, `unshare -n`, the CLIs' helpers that stay in the group), and the
 * terminal's Ctrl-C reaches only the parent, which decides what to stop and in which order.
 *
 * `stopChildren` is synchronous on purpose: it runs inside a signal handler that must have
 * stopped every writer before it restores files, and an event loop turn in between would let
 * a child write again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { processTable } from './process-table.ts';

const running = new Set<ChildProcess>();

/**
 * Runs `command` in its own process group, output inherited; resolves on exit 0, rejects with how it ended otherwise.
 */
export function runInGroup(
  command: string,
  args: readonly string[],
  options: { cwd: string; name: string; onStart?: (pid: number) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: 'inherit', detached: true });
    running.add(child);
    if (child.pid !== undefined) options.onStart?.(child.pid);
    child.on('error', (error) => {
      running.delete(child);
      reject(new Error(`${options.name} could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${options.name} failed (exit ${code ?? signal})`));
    });
  });
}

/** Live (not zombie) processes whose process group is `pgid`, read from /proc. */
export function groupMembers(pgid: number): number[] {
  return processTable()
    .filter((p) => p.pgrp === pgid && p.state !== 'Z')
    .map((p) => p.pid);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group has ended
  }
}

/** Waits until the group has no live member, for at most `ms`; whether it emptied. */
function waitEmpty(pgid: number, ms: number): boolean {
  for (const end = Date.now() + ms; Date.now() < end; sleep(50)) if (groupMembers(pgid).length === 0) return true;
  return groupMembers(pgid).length === 0;
}

/**
 * Stops every running child's group: SIGTERM, then SIGKILL to what is left after `graceMs`.
 * Returns the groups that were stopped. Synchronous (see the file's comment).
 */
export function stopChildren(graceMs = 5000): number[] {
  const groups = [...running].map((c) => c.pid).filter((pid): pid is number => pid !== undefined);
  for (const pgid of groups) signalGroup(pgid, 'SIGTERM');
  for (const pgid of groups) {
    if (waitEmpty(pgid, graceMs)) continue;
    signalGroup(pgid, 'SIGKILL');
    waitEmpty(pgid, 2000);
  }
  return groups;
}

/** The shell's exit status for a process ended by `signal` (128 + its number). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as Record<string, number>)[signal]!;
}

/** Calls `handler` once on the first of SIGINT, SIGTERM or SIGHUP; later ones are ignored while it runs. */
export function onStopSignal(handler: (signal: NodeJS.Signals) => void): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      handler(signal);
    });
  }
}
