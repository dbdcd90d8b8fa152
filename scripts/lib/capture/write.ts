/** Putting a set of capture files in place at once, or comparing them with what is there. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { replaceFile } from '../atomic-write.ts';

/**
 * Replaces the folder `dir` by one holding exactly `files` (relative path with `/` →
 * text): everything is written to a staging folder beside it first, then swapped in with
 * two renames, so that a failure leaves the old folder as it was.
 */
export function replaceTree(dir: string, files: ReadonlyMap<string, string>): void {
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(join(parent, `.${basename(dir)}.new-`));
  try {
    for (const [rel, text] of files) {
      const path = join(staging, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const retired = join(parent, `.${basename(dir)}.old-${process.pid}`);
  if (existsSync(dir)) renameSync(dir, retired);
  renameSync(staging, dir);
  rmSync(retired, { recursive: true, force: true });
}

/** Writes only `files` into `dir`, each atomically, leaving other files alone. */
export function updateFiles(dir: string, files: ReadonlyMap<string, string>): void {
  for (const [rel, text] of files) replaceFile(join(dir, rel), text);
}

/** All files under `dir` as relative path → text (empty when `dir` is missing). */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    const abs = join(dir, rel);
    for (const name of readdirSync(abs).sort()) {
      if (name.startsWith('.')) continue;
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, r)).isDirectory()) walk(r);
      else out.set(r, readFileSync(join(dir, r), 'utf8'));
    }
  };
  if (existsSync(dir)) walk('');
  return out;
}

/** Differences between the files on disk and the new ones: one line per file. */
export function compareTrees(current: ReadonlyMap<string, string>, next: ReadonlyMap<string, string>, onlySome: boolean): string[] {
  const out: string[] = [];
  for (const [rel, text] of next) {
    const old = current.get(rel);
    if (old === undefined) out.push(`new      ${rel}`);
    else if (old !== text) out.push(`changed  ${rel}`);
  }
  if (!onlySome) for (const rel of current.keys()) if (!next.has(rel)) out.push(`removed  ${rel}`);
  return out;
}
