/** Updating some capture files in place, or comparing a set of them with what is there. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '../atomic-write.ts';

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
