/**
 * Names that become URLs, element ids or file names: tool slugs, agent ids,
 * job ids and configuration ids. They are checked when content is loaded, so
 * that a bad name stops the build before Astro writes a single file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Longest file or folder name most file systems accept (ext4, APFS, XFS: 255 bytes). */
export const MAX_NAME_BYTES = 255;

/**
 * Element ids Starlight puts on every page (its layout, search, sidebar, table
 * of contents, theme icons). A heading or row with one of these ids would break
 * the page; test/e2e checks this list against a built page.
 */
export const STARLIGHT_PAGE_IDS: ReadonlySet<string> = new Set([
  '_top',
  'starlight__mobile-toc',
  'starlight__on-this-page',
  'starlight__on-this-page--mobile',
  'starlight__search',
  'starlight__sidebar',
  'theme-icons',
]);

/**
 * Lowercase URL slug of a tool name; namespaces keep their dot. May be empty
 * (`読む`, `!!!`): urlNameProblem reports that.
 */
export function toolSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[<>]/g, '') // `mcp__<server>__<tool>` → `mcp__server__tool`
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Why `segment` cannot be one folder of a URL (and of the built site's file
 * tree), or undefined when it can. `reserved` holds the names the site already
 * uses at that level.
 */
export function urlNameProblem(segment: string, reserved: ReadonlySet<string>): string | undefined {
  if (segment === '') return 'gives an empty URL segment (no letter or digit survives)';
  if (segment === '.' || segment === '..')
    return `gives the URL segment ${JSON.stringify(segment)}, which names a folder itself or its parent`;
  if (segment.startsWith('.'))
    return `gives the URL segment ${JSON.stringify(segment)}, which starts with a dot (hidden files are not served)`;
  if (!/^[a-z0-9._-]+$/.test(segment))
    return `gives the URL segment ${JSON.stringify(segment)}, with characters other than a-z 0-9 . _ -`;
  const bytes = Buffer.byteLength(segment, 'utf8');
  if (bytes > MAX_NAME_BYTES) return `gives a URL segment of ${bytes} bytes; file names hold at most ${MAX_NAME_BYTES}`;
  if (reserved.has(segment) || reserved.has(segment.replace(/\.html?$/, '')))
    return `gives the URL segment ${JSON.stringify(segment)}, which the site already uses for another page`;
  return undefined;
}

/** Why `id` cannot be an element id on a page that already has `taken` ids, or undefined. */
export function elementIdProblem(id: string, taken: ReadonlySet<string>): string | undefined {
  if (STARLIGHT_PAGE_IDS.has(id)) return `${JSON.stringify(id)} is an id Starlight puts on every page`;
  if (taken.has(id)) return `${JSON.stringify(id)} is already an id on that page`;
  return undefined;
}

/**
 * Page names at one level of src/pages (and public/, src/content/docs at the top): what a content name must not take.
 */
function fixedNames(dirs: string[]): Set<string> {
  const names = new Set(['index']);
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('[')) continue; // a dynamic route: the content itself
      names.add(entry.replace(/\.(astro|md|mdx|ts|js|html)$/, ''));
    }
  }
  return names;
}

export interface ReservedNames {
  /** Top-level names: fixed pages, public files, Astro's and Pagefind's folders. */
  top: ReadonlySet<string>;
  /** Names inside an agent's folder: its overview (index) and any fixed page there. */
  agent: ReadonlySet<string>;
}

export function reservedNames(root: string): ReservedNames {
  const top = fixedNames([join(root, 'src/pages'), join(root, 'src/content/docs'), join(root, 'public')]);
  for (const name of ['_astro', 'pagefind', '404']) top.add(name); // written by Astro and Starlight
  const agent = fixedNames([join(root, 'src/pages/[agent]')]);
  return { top, agent };
}
