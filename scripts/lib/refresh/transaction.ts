/**
 * All or nothing for `npm run refresh`. Its steps are separate scripts that each write
 * their own files (tool files, the agent record, pins, captures, history, archive), so a
 * failure half-way would leave some moved and some not. Before the first step, the
 * folders and files refresh may write are copied to a staging folder beside them
 * (`.refresh-before/` in the project root, on the same file system); once every step has
 * run and the new content has been validated, the copy is dropped. On any failure the
 * copy is swapped back in with renames, so the tree is exactly as it was before the run.
 *
 * A run killed in the middle leaves the staging folder: the next run swaps it back
 * before it does anything (a copy that was never completed is simply removed).
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REFRESH_STAGING } from '../../../src/lib/content/unfinished-refresh.ts';

export const STAGING = REFRESH_STAGING;
const COMPLETE = '.complete';

export interface RefreshTransaction {
  /** Keeps what the steps wrote and drops the saved copy. */
  commit(): void;
  /** Puts every saved path back as it was (a path that did not exist is removed). */
  rollback(): void;
}

function saved(root: string, rel: string): string {
  return join(root, STAGING, 'saved', rel);
}

/** Swaps the saved copy of each path back in; returns whether there was a complete copy to restore. */
export function restoreInterrupted(root: string, paths: readonly string[]): boolean {
  const staging = join(root, STAGING);
  if (!existsSync(staging)) return false;
  const complete = existsSync(join(staging, COMPLETE));
  if (complete) swapBack(root, paths);
  rmSync(staging, { recursive: true, force: true });
  return complete;
}

function swapBack(root: string, paths: readonly string[]): void {
  const discard = join(root, STAGING, 'discard');
  mkdirSync(discard, { recursive: true });
  for (const rel of paths) {
    const live = join(root, rel);
    const copy = saved(root, rel);
    if (existsSync(live)) {
      mkdirSync(dirname(join(discard, rel)), { recursive: true });
      renameSync(live, join(discard, rel));
    }
    if (existsSync(copy)) renameSync(copy, live);
  }
}

/**
 * Saves `paths` (relative to `root`: folders or files, existing or not) before the steps run.
 * Refuses to start while a staging folder from another run exists.
 */
export function beginTransaction(root: string, paths: readonly string[]): RefreshTransaction {
  const staging = join(root, STAGING);
  if (existsSync(staging))
    throw new Error(
      `${STAGING}/ exists: another refresh is running, or one was stopped; run refresh again once it has finished ` +
        `to restore the tree`,
    );
  mkdirSync(join(staging, 'saved'), { recursive: true });
  for (const rel of paths) {
    const live = join(root, rel);
    if (!existsSync(live)) continue;
    mkdirSync(dirname(saved(root, rel)), { recursive: true });
    cpSync(live, saved(root, rel), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }
  writeFileSync(join(staging, COMPLETE), '');
  let done = false;
  return {
    commit() {
      if (done) return;
      done = true;
      rmSync(staging, { recursive: true, force: true });
    },
    rollback() {
      if (done) return;
      done = true;
      swapBack(root, paths);
      rmSync(staging, { recursive: true, force: true });
    },
  };
}
