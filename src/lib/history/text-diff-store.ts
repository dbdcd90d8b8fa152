/**
 * Diffs kept between processes: the real histories' hundreds of changed texts take seconds of a core to diff, and
 * every process that loads the real content needs all of them (the changelog's cut weighs its rows by them): `astro
 * check`, the build, each step of a refresh, the package. The store is one file under node_modules/.cache, like the
 * caches of the build's tools; what it holds is only ever a copy of what `textDiff` gives for the same two texts, and
 * it is read only when written by the same diff code (this folder's text-diff files and jsdiff's, by their text).
 * Anything unreadable or of other code is ignored and written anew.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { freshDiffs, useStoredDiffs, type TextDiff } from './text-diff.ts';

/** How many of this process's diffs were last written: a load that computed none since writes nothing. */
let savedCount = 0;

/** Where a project keeps its diffs. */
export function diffStorePath(root: string): string {
  return join(root, 'node_modules/.cache/agent-tool-reference/text-diffs.v8');
}

/** Past this many diffs, a write keeps only this process's: a store of stale texts does not grow for ever. */
const MAX_KEPT = 20_000;

interface StoredDiffs {
  code: string;
  diffs: [string, TextDiff][];
}

/** Set to `off`, no store is read or written: every diff is computed (the benchmark's builds start cold). */
export const STORE_SWITCH = 'AGENT_TOOL_REFERENCE_DIFF_STORE';

/**
 * The code the diffs come from, as one digest of its text: this folder's diff modules and jsdiff's entry module.
 * Undefined when a file cannot be read (this module is part of a bundle), or the store is switched off: then nothing
 * is stored or read.
 */
function diffCode(): string | undefined {
  if (process.env[STORE_SWITCH] === 'off') return undefined;
  try {
    const hash = createHash('sha256');
    for (const file of ['./text-diff.ts', './text-diff-parts.ts'])
      hash.update(readFileSync(new URL(file, import.meta.url)));
    hash.update(readFileSync(fileURLToPath(import.meta.resolve('diff'))));
    return hash.digest('base64url');
  } catch {
    return undefined;
  }
}

function readStore(path: string, code: string): Map<string, TextDiff> {
  try {
    const stored = deserialize(readFileSync(path)) as StoredDiffs;
    if (stored.code === code && Array.isArray(stored.diffs)) return new Map(stored.diffs);
  } catch {
    // Not written yet, or unreadable: diffs are computed.
  }
  return new Map();
}

/** Makes the diffs the project's store holds known to this process (text-diff.ts consults them before diffing). */
export function openDiffStore(root: string): void {
  const code = diffCode();
  useStoredDiffs(code === undefined ? undefined : readStore(diffStorePath(root), code));
}

/**
 * Adds the diffs this process computed to the project's store, written beside it and renamed over it (a process
 * reading at the same time reads all of it or the one before; of two writing at once, the last one's is kept).
 * Nothing is written when nothing was computed since the last write.
 */
export function saveDiffStore(root: string): void {
  const fresh = freshDiffs();
  const code = diffCode();
  if (fresh.size === savedCount || code === undefined) return;
  savedCount = fresh.size;
  const path = diffStorePath(root);
  const kept = readStore(path, code);
  if (kept.size + fresh.size > MAX_KEPT) kept.clear();
  for (const [key, diff] of fresh) kept.set(key, diff);
  mkdirSync(dirname(path), { recursive: true });
  const beside = `${path}.${process.pid}.new`;
  try {
    writeFileSync(beside, serialize({ code, diffs: [...kept] } satisfies StoredDiffs));
    renameSync(beside, path);
  } catch {
    // A store that cannot be written only means diffing again next time.
    rmSync(beside, { force: true });
  }
}
