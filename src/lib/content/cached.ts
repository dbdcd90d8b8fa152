/**
 * One load of the content per change of content/: the Starlight plugin (for
 * the sidebar) and each content collection ask for the same model, and
 * `astro dev` gets a fresh one after an edit.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteModel } from '../model.ts';
import { loadContent, type ContentWarning } from './load.ts';

/** Where the content is: the project root, and CONTENT_DIR when tests point the build at fixtures. */
export function contentLocation(root: string = process.cwd()): { root: string; contentDir: string } {
  const base = process.env.CONTENT_ROOT ?? root;
  return { root: base, contentDir: process.env.CONTENT_DIR ?? join(base, 'content') };
}

/** Names, sizes and modification times of every file under `dir`: changes whenever content changes. */
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

let cache: { key: string; model: SiteModel; warnings: ContentWarning[] } | undefined;

export function loadSiteContent(root?: string): { model: SiteModel; warnings: ContentWarning[] } {
  const where = contentLocation(root);
  const key = `${where.root}\n${where.contentDir}\n${fingerprint(where.contentDir)}`;
  if (cache?.key !== key) {
    const warnings: ContentWarning[] = [];
    const model = loadContent({ ...where, onWarning: (w) => warnings.push(w) });
    cache = { key, model, warnings };
  }
  return { model: cache.model, warnings: cache.warnings };
}
