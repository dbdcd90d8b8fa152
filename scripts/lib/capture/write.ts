/** Updating some capture files in place, or comparing a set of them with what is there. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { replaceDirectory, replaceFile } from '../system/atomic-write.ts';

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
export function compareTrees(
  current: ReadonlyMap<string, string>,
  next: ReadonlyMap<string, string>,
  onlySome: boolean,
): string[] {
  const out: string[] = [];
  for (const [rel, text] of next) {
    const old = current.get(rel);
    if (old === undefined) out.push(`new      ${rel}`);
    else if (old !== text) out.push(`changed  ${rel}`);
  }
  if (!onlySome) for (const rel of current.keys()) if (!next.has(rel)) out.push(`removed  ${rel}`);
  return out;
}

/**
 * The end of a run of the capture or payload script: with `check`, compare `files`
 * with `dir` and say whether they are identical (exit code 1 when not); else write
 * them, only those files when the run was `partial` (--only), the whole folder
 * otherwise. `what` names the files in messages (`capture`, `payload`); `script` the command.
 */
export function checkOrWrite(
  dir: string,
  files: ReadonlyMap<string, string>,
  o: { check: boolean; partial: boolean; script: string; what: string; shownDir: string },
): number {
  if (o.check) {
    const diff = compareTrees(readTree(dir), files, o.partial);
    if (diff.length > 0) {
      console.error(
        `\n${o.script} --check: the new ${o.what}s differ from ${o.shownDir}:\n${diff.map((d) => `  ${d}`).join('\n')}`,
      );
      return 1;
    }
    console.log(`\n${o.script} --check: ${files.size} ${o.what}(s) identical to ${o.shownDir}`);
    return 0;
  }
  if (o.partial) updateFiles(dir, files);
  else replaceDirectory(dir, files);
  console.log(`\nwrote ${files.size} ${o.what}(s) to ${o.shownDir}`);
  return 0;
}
