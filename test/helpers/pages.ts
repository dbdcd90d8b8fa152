/**
 * Shared by the accessibility, layout and keyboard tests: which pages the built
 * site has, a deterministic sample of tool pages, and opening a page in a
 * given theme and viewport.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import { loadContent } from '../../src/lib/content/load.ts';
import { DIST, ROOT } from './browser.ts';

/** Folders of dist/ that hold assets and the search index, not pages. */
const NOT_PAGES = new Set(['_astro', 'pagefind']);

/** A page that only sends the browser elsewhere (Astro's static redirects for aliases). */
const isRedirect = (file: string) => /<meta\s+http-equiv="refresh"/i.test(readFileSync(file, 'utf8'));

/**
 * URL paths of every built page (`dist/a/b/index.html` → `/a/b/`), sorted,
 * read from the file tree; redirect stubs are left out (they show nothing).
 */
export function builtPages(dir = DIST): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        if (!(folder === dir && NOT_PAGES.has(name))) walk(path);
      } else if (name === 'index.html' && !isRedirect(path)) {
        const rel = relative(dir, folder).split('\\').join('/');
        found.push(rel === '' ? '/' : `/${rel}/`);
      }
    }
  };
  walk(dir);
  return found.sort();
}

export interface ToolPage {
  agent: string;
  slug: string;
  url: string;
}

/** Every tool page the content model describes, sorted by URL. */
export function toolPages(): ToolPage[] {
  return loadContent({ root: ROOT })
    .tools.map((t) => ({ agent: t.agent, slug: t.slug, url: `/${t.agent}/${t.slug}/` }))
    .sort((a, b) => a.url.localeCompare(b.url));
}

/**
 * `required` (which must exist: a renamed page must not silently drop out of
 * the sample) plus every k-th of `all` until there are `count` items, spread
 * evenly over the sorted list so that both agents are represented.
 */
export function sample(all: string[], required: string[], count: number): string[] {
  const missing = required.filter((r) => !all.includes(r));
  if (missing.length > 0) throw new Error(`pages the sample needs are not in the site: ${missing.join(', ')}`);
  const picked = new Set(required);
  const step = Math.max(1, Math.floor(all.length / Math.max(1, count - required.length)));
  for (let i = 0; picked.size < Math.min(count, all.length); i = (i + step) % all.length) {
    // Stepping over an already chosen page moves on by one, so the loop always ends.
    let j = i;
    while (picked.has(all[j]!)) j = (j + 1) % all.length;
    picked.add(all[j]!);
  }
  return [...picked].sort();
}

export type Theme = 'light' | 'dark';

export interface ViewOptions {
  width: number;
  height: number;
  /** Starlight's stored theme choice; it reads it from localStorage before the first paint. */
  theme?: Theme;
  permissions?: string[];
}

/** A browser context with this viewport and theme; every page opened in it starts in that theme. */
export async function newView(browser: Browser, base: string, view: ViewOptions): Promise<BrowserContext> {
  const options: BrowserContextOptions = { baseURL: base, viewport: { width: view.width, height: view.height } };
  if (view.theme) options.colorScheme = view.theme;
  if (view.permissions) options.permissions = view.permissions;
  const context = await browser.newContext(options);
  if (view.theme) {
    await context.addInitScript((theme) => localStorage.setItem('starlight-theme', theme), view.theme);
  }
  return context;
}

/** Opens `path` in a new tab of `context` and checks that the requested theme is the one applied. */
export async function openPage(context: BrowserContext, path: string, theme?: Theme): Promise<Page> {
  const page = await context.newPage();
  const response = await page.goto(path, { waitUntil: 'load' });
  if (!response?.ok()) throw new Error(`${path}: HTTP ${response?.status()}`);
  if (theme) {
    const applied = await page.evaluate(() => document.documentElement.dataset.theme);
    if (applied !== theme) throw new Error(`${path}: asked for the ${theme} theme, the page shows ${applied}`);
  }
  return page;
}

/**
 * Opens every <details> (collapsed definitions are content too) in one pass,
 * then waits for what opening them loads: a long definition is fetched when
 * its <details> is first expanded. Settled means no request of the page in
 * flight and no change to the document for 100 ms.
 */
export async function expandAllDetails(page: Page): Promise<number> {
  const inFlight = new Set<Request>();
  const started = (r: Request) => inFlight.add(r);
  const ended = (r: Request) => inFlight.delete(r);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    const opened = await page.evaluate(() => {
      const all = [...document.querySelectorAll('details')];
      for (const d of all) d.open = true;
      return all.length;
    });
    for (const deadline = Date.now() + 10_000; ; ) {
      const quiet = await page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            let changed = false;
            const observer = new MutationObserver(() => (changed = true));
            observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
            setTimeout(() => {
              observer.disconnect();
              resolve(!changed);
            }, 100);
          }),
      );
      if (quiet && inFlight.size === 0) return opened;
      if (Date.now() > deadline) throw new Error(`${page.url()}: still loading 10 s after opening every <details>`);
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

/** Runs `task` over `items` with at most `workers` at a time; results keep the order of `items`. */
export async function inParallel<T, R>(items: readonly T[], workers: number, task: (item: T, worker: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(workers, items.length) }, async (_, worker) => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, worker);
      }
    }),
  );
  return results;
}
