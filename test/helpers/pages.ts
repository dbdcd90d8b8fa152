/**
 * Shared by the accessibility, layout and keyboard tests: which pages a built
 * site has, one page of every kind, and opening a page in a given theme and
 * viewport.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import { after, before } from 'node:test';
import { DIST, ROOT, serveAndLaunch, type Served } from './browser.ts';
import { SWEEP, sweepShare } from './sweep.ts';

/** Folders of dist/ that hold assets and the search index, not pages. */
const NOT_PAGES = new Set(['_astro', 'pagefind']);

/** A page that only sends the browser elsewhere (Astro's static redirects for aliases). */
const isRedirect = (file: string) => /<meta\s+http-equiv="refresh"/i.test(readFileSync(file, 'utf8'));

/** The file of a page's URL path in a built site: `/a/b/` → `a/b/index.html`, `/404.html` as it is. */
export const fileOfPage = (dir: string, url: string): string => join(dir, url.endsWith('/') ? `${url}index.html` : url);

/**
 * URL paths of every built page (`dist/a/b/index.html` → `/a/b/`, and
 * `/404.html`), sorted, read from the file tree; redirect stubs are left out
 * (they show nothing: the browser leaves them at once).
 */
export function builtPages(dir = DIST): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        if (!(folder === dir && NOT_PAGES.has(name))) walk(path);
      } else if (name === 'index.html' && !isRedirect(path)) {
        const rel = relative(dir, folder).split(sep).join('/');
        found.push(rel === '' ? '/' : `/${rel}/`);
      } else if (folder === dir && /^\d{3}\.html$/.test(name)) {
        found.push(`/${name}`);
      }
    }
  };
  walk(dir);
  return found.sort();
}

/** One kind of page: a page route of src/pages, or one of Starlight's Markdown pages (src/content/docs). */
export interface Route {
  /** The route as Astro spells it: `/[agent]/changelog/`, `/404.html`, `/about/`. */
  name: string;
  pattern: RegExp;
  /** Static segments: of two routes that match a URL, Astro serves the one with more. */
  statics: number;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The kinds of HTML page the project has, from its source tree: each `.astro`
 * file under src/pages (endpoints written in .ts make JSON, JS and text, not
 * pages), and each Markdown page under src/content/docs, which Starlight serves
 * at its own path.
 */
export function pageRoutes(root = ROOT): Route[] {
  const routes: Route[] = [];
  const pagesDir = join(root, 'src/pages');
  for (const file of readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.astro')) continue;
    const segments = file.slice(0, -'.astro'.length).split(sep);
    if (segments.at(-1) === 'index') segments.pop();
    if (segments.length === 1 && /^\d{3}$/.test(segments[0]!)) {
      // 404.astro is written as 404.html, beside index.html.
      routes.push({ name: `/${segments[0]}.html`, pattern: new RegExp(`^/${segments[0]}\\.html$`), statics: 1 });
      continue;
    }
    const part = (s: string) =>
      /^\[\.\.\..+\]$/.test(s) ? '(?:.+/)?' : /^\[.+\]$/.test(s) ? '[^/]+/' : `${escapeRe(s)}/`;
    routes.push({
      name: `/${segments.map((s) => `${s}/`).join('')}`,
      pattern: new RegExp(`^/${segments.map(part).join('')}$`),
      statics: segments.filter((s) => !s.startsWith('[')).length,
    });
  }
  const docsDir = join(root, 'src/content/docs');
  for (const file of readdirSync(docsDir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.mdx?$/.test(file)) continue;
    const slug = file
      .replace(/\.mdx?$/, '')
      .split(sep)
      .join('/')
      .replace(/(^|\/)index$/, '');
    const name = slug === '' ? '/' : `/${slug}/`;
    routes.push({ name, pattern: new RegExp(`^${escapeRe(name)}$`), statics: Number.MAX_SAFE_INTEGER });
  }
  return routes;
}

/** The route that serves `url`: of those that match, the one with the most static segments. */
export function routeOf(url: string, routes: readonly Route[]): Route | undefined {
  const matching = routes.filter((r) => r.pattern.test(url)).sort((a, b) => b.statics - a.statics);
  if (matching.length > 1 && matching[0]!.statics === matching[1]!.statics)
    throw new Error(`${url}: routes ${matching[0]!.name} and ${matching[1]!.name} both match`);
  return matching[0];
}

/**
 * Which component writes each class, read from the source tree: every `.astro` file under
 * src/components and src/pages, its static `class="…"` values, the quoted names and keys of
 * its `class:list`, and the fixed words and prefixes (`delivery-${…}` → `delivery-`) of its
 * `class={`…`}` templates. A class that one file alone writes is that file's; one that
 * several write (`sr-only`), or none (Starlight's, Expressive Code's, the Markdown's), is a
 * kind of its own.
 */
export interface ComponentClasses {
  /** Class → the one source file that writes it. */
  exact: Map<string, string>;
  /** Class prefix of a template → the one source file that writes it. */
  prefixes: Map<string, string>;
}

export function componentClasses(root = ROOT): ComponentClasses {
  const writers = new Map<string, Set<string>>();
  const prefixWriters = new Map<string, Set<string>>();
  const add = (to: Map<string, Set<string>>, key: string, file: string) =>
    (to.get(key) ?? to.set(key, new Set()).get(key)!).add(file);
  for (const folder of ['src/components', 'src/pages']) {
    if (!existsSync(join(root, folder))) continue;
    for (const name of readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.astro')) continue;
      const file = `${folder}/${name.split(sep).join('/')}`;
      const source = readFileSync(join(root, file), 'utf8');
      for (const m of source.matchAll(/\sclass="([^"{]*)"/g))
        for (const c of m[1]!.split(/\s+/)) if (c) add(writers, c, file);
      for (const m of source.matchAll(/\sclass:list=\{([\s\S]*?)\}\s*>/g))
        for (const q of m[1]!.matchAll(/'([\w-]+)'|([\w-]+)\s*:/g)) add(writers, q[1] ?? q[2]!, file);
      for (const m of source.matchAll(/\sclass=\{`([^`]*)`\}/g)) {
        for (const word of m[1]!.split(/\s+/)) {
          const fixed = /^([\w-]+)\$\{/.exec(word);
          if (fixed) add(prefixWriters, fixed[1]!, file);
          else if (/^[\w-]+$/.test(word)) add(writers, word, file);
        }
      }
    }
  }
  const only = (from: Map<string, Set<string>>) =>
    new Map([...from].filter(([, files]) => files.size === 1).map(([key, files]) => [key, [...files][0]!]));
  return { exact: only(writers), prefixes: only(prefixWriters) };
}

/** The kind a class stands for: the component that alone writes it, or the class itself (`.name`). */
export function classKind(name: string, components: ComponentClasses): string {
  const exact = components.exact.get(name);
  if (exact) return exact;
  for (const [prefix, file] of components.prefixes) if (name.startsWith(prefix)) return file;
  return `.${name}`;
}

/**
 * What a page is built of: its route (its template), and the kind of every class in its
 * <main> (Astro's scoping classes left out): the component that writes it, or the class
 * itself (see componentClasses). A component counts once whatever route shows it; heading
 * orders, ids and data- attributes are no kinds (most are data: release numbers, tool
 * groups).
 */
export function pageFeatures(html: string, route: string, components: ComponentClasses): Set<string> {
  const start = html.indexOf('<main');
  const main = start < 0 ? html : html.slice(start, html.indexOf('</main>', start) + 1 || undefined);
  const features = new Set<string>([route]);
  for (const m of main.matchAll(/\sclass="([^"]*)"/g))
    for (const c of m[1]!.split(/\s+/)) if (c && !c.startsWith('astro-')) features.add(classKind(c, components));
  return features;
}

export interface KindSelection {
  /** Every built page with its route. */
  all: { url: string; route: string }[];
  /** The chosen pages, sorted. */
  pages: string[];
  /** The routes and features on the chosen pages, with those the caller said were covered already. */
  covered: Set<string>;
  /** Every route (from the source tree) and the features the built pages have, none left out by the choice. */
  routes: Route[];
  features: Set<string>;
}

/**
 * One real page per template, read from a built site: for each route one page (its
 * largest by default: the longest tables and names are the hardest to lay out; with
 * `prefer: 'smallest'`, its smallest, for checks whose cost grows with the page), then
 * pages chosen greedily until every component and class some page of the site has (see
 * pageFeatures) is on a chosen page — examples, a grammar, a removed tool's page, a
 * placeholder legend, … — without a list of ids. Fails on a page that no route serves.
 * With `covered` (the `covered` of another site's choice), a route or feature already
 * checked there needs no page here: the choice adds only what the other site lacks.
 */
export function pagesOfEveryKind(
  dir = DIST,
  root = ROOT,
  options: { prefer?: 'largest' | 'smallest'; covered?: ReadonlySet<string> | undefined } = {},
): KindSelection {
  const sign = options.prefer === 'smallest' ? -1 : 1;
  const routes = pageRoutes(root);
  const components = componentClasses(root);
  const all = builtPages(dir).map((url) => {
    const route = routeOf(url, routes);
    if (!route) throw new Error(`${url}: no route of src/pages or page of src/content/docs serves it`);
    const html = readFileSync(fileOfPage(dir, url), 'utf8');
    return {
      url,
      route: route.name,
      bytes: Buffer.byteLength(html),
      features: pageFeatures(html, route.name, components),
    };
  });
  const features = new Set(all.flatMap((p) => [...p.features]));
  const chosen = new Set<string>();
  const covered = new Set<string>(options.covered);
  const choose = (page: (typeof all)[number]) => {
    chosen.add(page.url);
    for (const f of page.features) covered.add(f);
  };
  const preferred = (a: (typeof all)[number], b: (typeof all)[number]) => sign * (b.bytes - a.bytes) > 0;
  for (const [route, pages] of Map.groupBy(all, (p) => p.route))
    if (!covered.has(route)) choose(pages.reduce((a, b) => (preferred(a, b) ? b : a)));
  for (;;) {
    let best: (typeof all)[number] | undefined;
    let bestGain = 0;
    for (const page of all) {
      const gain = [...page.features].filter((f) => !covered.has(f)).length;
      if (gain > bestGain || (gain === bestGain && gain > 0 && best && preferred(best, page)))
        [best, bestGain] = [page, gain];
    }
    if (!best) break;
    choose(best);
  }
  return { all: all.map(({ url, route }) => ({ url, route })), pages: [...chosen].sort(), covered, routes, features };
}

/**
 * The routes and components (see pageFeatures) that pages of the given sites have but none of their checked pages
 * does, each with the first page that has it: read from the built HTML, apart from the choice that picked the pages.
 */
export function kindsNotChecked(
  sites: readonly { name: string; dir: string; pages: readonly string[] }[],
  root = ROOT,
) {
  const components = componentClasses(root);
  const routes = pageRoutes(root);
  const checked = new Set<string>();
  const built = new Map<string, string>();
  for (const site of sites) {
    for (const url of builtPages(site.dir)) {
      const route = routeOf(url, routes);
      if (!route) throw new Error(`${site.name} ${url}: no route of src/pages or page of src/content/docs serves it`);
      const features = pageFeatures(readFileSync(fileOfPage(site.dir, url), 'utf8'), route.name, components);
      for (const f of features) if (!built.has(f)) built.set(f, `${site.name} ${url}`);
      if (site.pages.includes(url)) for (const f of features) checked.add(f);
    }
  }
  return [...built].filter(([f]) => !checked.has(f)).map(([f, where]) => `${f} (${where})`);
}

/**
 * The pages the layout and accessibility tests open: one per template (none for what `covered` holds), and with SWEEP
 * the pages of its share too (every page with SWEEP=all).
 */
export function pagesToCheck(
  dir = DIST,
  prefer: 'largest' | 'smallest' = 'largest',
  covered?: ReadonlySet<string>,
): string[] {
  const everyday = pagesOfEveryKind(dir, ROOT, { prefer, covered }).pages;
  return SWEEP ? [...new Set([...everyday, ...sweepShare(builtPages(dir), SWEEP)])].sort() : everyday;
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
  return loadIn(await context.newPage(), path, theme);
}

/**
 * Loads `path` in a tab, a new one or one reused (a new tab costs about as much processor time as loading a large
 * page: 20 loads took 9–10 CPU-seconds in one tab, 17–18 in a tab each), and checks the theme as openPage does.
 */
export async function loadIn(page: Page, path: string, theme?: Theme): Promise<Page> {
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
export async function inParallel<T, R>(
  items: readonly T[],
  workers: number,
  task: (item: T, worker: number) => Promise<R>,
): Promise<R[]> {
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

/**
 * The built site served and Chromium launched for one test file (before its tests), with every
 * view opened through `view` closed after them: `site.served` once the tests run.
 */
export function servedSite(): { readonly served: Served; view(options: ViewOptions): Promise<BrowserContext> } {
  let served: Served | undefined;
  const contexts: BrowserContext[] = [];
  before(async () => {
    served = await serveAndLaunch();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await served?.close();
  });
  return {
    get served(): Served {
      if (!served) throw new Error('servedSite: the site is served only once the tests run');
      return served;
    },
    async view(options: ViewOptions): Promise<BrowserContext> {
      const context = await newView(this.served.browser, this.served.base, options);
      contexts.push(context);
      return context;
    },
  };
}
