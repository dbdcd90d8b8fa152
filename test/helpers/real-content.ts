/**
 * The site model of the real content, for tests that read it (not for tests of the loader).
 * Loading and validating all content takes seconds, and some twenty test files each ran
 * their own load. The first load under a given content key (src/lib/content/cached.ts
 * `contentKey`: content, schemas and src/lib, by name, size and modification time) is kept
 * as a V8 serialization in the system's temporary folder; later test processes read it back
 * in a few tens of milliseconds.
 *
 * A process gets one model, frozen through and through: the unit files share one process, and
 * when each held a copy of its own (25 MB serialized) the garbage collector went through them
 * all (the unit run alone, twice each: 82 and 96 processor-seconds, 79 and 70 with one). A test
 * that would change the model fails at the change instead of changing another test's; one that
 * needs to change it takes `realContentCopy()`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { replaceFile } from '../../scripts/lib/system/atomic-write.ts';
import { contentKey } from '../../src/lib/content/cached.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import type { SiteModel } from '../../src/lib/model/model.ts';

const ROOT = join(import.meta.dirname, '../..');
const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** One folder per checkout, holding the model of its current content only. */
const CACHE = join(tmpdir(), 'agent-tool-reference-content', sha(ROOT));

let shared: SiteModel | undefined;

/** The real content's model, the same frozen one for every call of a process. */
export function realContent(): SiteModel {
  if (shared === undefined) {
    shared = realContentCopy();
    deepFreeze(shared);
  }
  return shared;
}

/** A copy of the real content's model of its own, to change: what a load gives. */
export function realContentCopy(): SiteModel {
  const file = join(CACHE, `${sha(contentKey(ROOT))}.v8`);
  try {
    return deserialize(readFileSync(file)) as SiteModel;
  } catch {
    // Not cached yet (or unreadable): load, then keep it for the next process.
  }
  const model = loadContent({ root: ROOT, sharedDiffs: true });
  mkdirSync(CACHE, { recursive: true });
  for (const old of readdirSync(CACHE))
    if (old.endsWith('.v8') && join(CACHE, old) !== file) rmSync(join(CACHE, old), { force: true });
  // Written beside it, then renamed: a process reading at the same time sees all of it or none.
  replaceFile(file, serialize(model));
  return model;
}

/** Freezes `value` and everything it reaches (the entries of maps and sets too, though their methods still work). */
function deepFreeze(value: unknown, seen = new Set<object>()): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (value instanceof Map)
    for (const [key, entry] of value) {
      deepFreeze(key, seen);
      deepFreeze(entry, seen);
    }
  if (value instanceof Set) for (const entry of value) deepFreeze(entry, seen);
  for (const entry of Object.values(value)) deepFreeze(entry, seen);
  Object.freeze(value);
}
