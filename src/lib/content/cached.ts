/**
 * One load of the content per change of content/, for the whole process: the
 * Starlight plugin (for the sidebar), each content collection and
 * scripts/build.ts's check ask for the same model, and `astro dev` gets a
 * fresh one after an edit.
 *
 * The cache lives on globalThis, not in this module: one build evaluates this
 * module several times (natively in scripts/build.ts, through Vite for the
 * config, again for the content layer), and a cache per evaluation loaded and
 * validated all content once per evaluation. Since an evaluation may then
 * reuse a model another evaluation's code built, the key also covers the code
 * and schemas that build it (src/lib/, schemas/): after an edit there, the
 * next request loads again, as a fresh evaluation did before.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteModel } from '../model/model.ts';
import { loadContent, type ContentWarning } from './load.ts';
import { unfinishedRefresh } from './unfinished-refresh.ts';

/** Where the content is: the project root, and CONTENT_DIR when tests point the build at fixtures. */
export function contentLocation(root: string = process.cwd()): { root: string; contentDir: string } {
  const base = process.env.CONTENT_ROOT ?? root;
  return { root: base, contentDir: process.env.CONTENT_DIR ?? join(base, 'content') };
}

/** Names, sizes and modification times of every file under `dir`: changes whenever a file there changes. */
function fingerprint(dir: string): string {
  const parts: string[] = [];
  const walk = (d: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(d, name);
      const s = statSync(path);
      if (s.isDirectory()) walk(path);
      else parts.push(`${path}:${s.size}:${s.mtimeMs}`);
    }
  };
  walk(dir);
  return parts.join('\n');
}

interface Loaded {
  key: string;
  model: SiteModel;
  warnings: ContentWarning[];
}

const SLOT = Symbol.for('agent-tool-reference.loaded-content');

/** The process's last load, shared by every evaluation of this module. */
const shared = globalThis as { [SLOT]?: Loaded };

/**
 * What a load of the content depends on: where it is, and the names, sizes and modification
 * times of the content, the schemas and the code that reads them. Equal keys, equal models.
 */
export function contentKey(root?: string): string {
  const where = contentLocation(root);
  return [
    where.root,
    where.contentDir,
    fingerprint(where.contentDir),
    fingerprint(join(where.root, 'schemas')),
    fingerprint(join(where.root, 'src/lib')),
  ].join('\n');
}

export function loadSiteContent(root?: string): { model: SiteModel; warnings: ContentWarning[] } {
  const where = contentLocation(root);
  const unfinished = unfinishedRefresh(where.root);
  if (unfinished) throw new Error(unfinished);
  const key = contentKey(root);
  let loaded = shared[SLOT];
  if (loaded?.key !== key) {
    const warnings: ContentWarning[] = [];
    const model = loadContent({ ...where, onWarning: (w) => warnings.push(w), sharedDiffs: true });
    loaded = { key, model, warnings };
    shared[SLOT] = loaded;
  }
  return { model: loaded.model, warnings: loaded.warnings };
}
