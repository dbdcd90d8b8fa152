/**
 * Writing generated content so that a failure never leaves it half-written:
 * everything is first written to a temporary folder beside the target, then
 * swapped in with renames.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';

/** Stable JSON text: 2-space indent and a final newline. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * Replaces `dir` with a folder holding exactly `files` (relative path with `/` → text):
 * all is written to a staging folder beside it, then swapped in with two renames, so a
 * failure leaves the old folder as it was.
 */
export function replaceDirectory(dir: string, files: ReadonlyMap<string, string>): void {
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

/** Replaces the file at `path` with `data`, written beside it first and renamed over it. */
export function replaceFile(path: string, data: string | NodeJS.ArrayBufferView): void {
  mkdirSync(dirname(path), { recursive: true });
  const staging = join(dirname(path), `.${basename(path)}.new-${process.pid}`);
  writeFileSync(staging, data);
  renameSync(staging, path);
}
