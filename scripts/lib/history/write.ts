/**
 * The one writer of history files (content/history/<agent>.<source>.json), whichever source computed them:
 * checked against schemas/history.schema.json and against itself (every event names releases the file lists),
 * then replaced atomically, and only when its text changes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryFile } from '../../../src/lib/core/content-types.ts';
import { jsonText, replaceFile } from '../system/atomic-write.ts';
import { schemaAjv, schemaRefusal } from '../capture/ajv.ts';
import { readJson, ScriptError } from '../script-files.ts';

const SCHEMA = 'schemas/history.schema.json';
const SCHEMA_FILE = join(import.meta.dirname, '../../..', SCHEMA);

/** Refuses a history the schema refuses, or one whose events name a release it does not list. */
export function checkHistory(doc: HistoryFile, what = 'the history'): void {
  const check = schemaAjv().compile(readJson<object>(SCHEMA_FILE, 'the history schema'));
  if (!check(doc)) throw new ScriptError(schemaRefusal(what, SCHEMA, check.errors));
  const versions = new Set(doc.releases.map((r) => r.version));
  for (const e of doc.events) {
    if (!versions.has(e.release) || !versions.has(e.previous))
      throw new ScriptError(`an event names a release that is not listed: ${e.previous} → ${e.release}`);
  }
}

/** Checks the history and writes it to `path` when its text differs from the file's; whether it wrote. */
export function writeHistory(path: string, doc: HistoryFile, what?: string): boolean {
  checkHistory(doc, what);
  const text = jsonText(doc);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (before === text) return false;
  replaceFile(path, text);
  return true;
}
