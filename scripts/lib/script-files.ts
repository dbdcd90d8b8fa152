/**
 * What the SDK scripts share for their own files: an error meant for the
 * user (printed without a stack), paths shown relative to the project, and
 * reading a JSON file with a message that names it.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/** A check of a script failed: the message is for the user, no stack trace. */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

/** A path as the user should read it: relative to the project when inside it. */
export function display(path: string): string {
  const rel = relative(ROOT, path);
  return rel.startsWith('..') ? path : rel;
}

/** Parses a JSON file; a missing file or bad JSON is a ScriptError naming `what` and the file. */
export function readJson<T>(path: string, what: string): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScriptError(`cannot read ${what} ${display(path)}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ScriptError(`${display(path)} is not valid JSON: ${(error as Error).message}`);
  }
}
