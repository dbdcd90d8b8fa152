/**
 * The two sites the benchmark builds, each in its own temp folder (never the
 * project's dist/, .astro/ or node_modules/.astro, which another build or the
 * tests may be using): a copy of this project, and a plain Starlight baseline
 * with the same pages as Markdown. Both get node_modules as hard links
 * (../project-copy.ts says why).
 */
import { spawn, spawnSync } from 'node:child_process';
import { STORE_SWITCH as DIFF_STORE_SWITCH } from '../../../src/lib/history/text-diff-store.ts';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  lstatSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { SiteModel } from '../../../src/lib/model/model.ts';
import { toolPath } from '../../../src/lib/site/site.ts';
import { SITE_DESCRIPTION, SITE_TITLE, SITE_URL } from '../../../src/lib/site/site-settings.ts';
import { baselinePages, type SidebarEntry } from './markdown.ts';
import { examplesFromHtml, markdownFromHtml, sidebarFromHtml } from './from-html.ts';
import { isRedirectPage } from './report.ts';
import { linkNodeModules } from '../system/project-copy.ts';

/** Same as astro.config.mjs, so that titles, canonical URLs and the sitemap match. */
const SITE = { site: SITE_URL, title: SITE_TITLE, description: SITE_DESCRIPTION };

/**
 * This project as committed at `revision` (`git archive`, so no uncommitted change and no
 * .git), at `to`, with the checkout's node_modules: the commit it names, or an error saying
 * why not. The dependencies differ only if `dependencies` in package.json differ (returned).
 */
export function exportRevision(
  root: string,
  revision: string,
  to: string,
): { commit: string; otherDependencies: boolean } {
  const git = (args: string[], input?: Buffer) =>
    spawnSync('git', ['-C', root, ...args], { input, maxBuffer: 2 ** 31 - 1, timeout: 120_000 });
  const parsed = git(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
  if (parsed.status !== 0)
    throw new Error(`--before ${revision}: this clone has no such commit (a shallow clone lacks older ones)`);
  const commit = parsed.stdout.toString().trim();
  const archive = git(['archive', '--format=tar', commit]);
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr.toString().trim()}`);
  mkdirSync(to, { recursive: true });
  const tar = spawnSync('tar', ['-x', '-C', to], { input: archive.stdout, timeout: 120_000 });
  if (tar.status !== 0) throw new Error(`unpacking ${commit} into ${to} failed: ${tar.stderr.toString().trim()}`);
  linkNodeModules(root, to);
  const dependencies = (dir: string) =>
    JSON.stringify(
      (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: unknown }).dependencies ?? {},
    );
  return { commit, otherDependencies: dependencies(root) !== dependencies(to) };
}

/**
 * History events committed under `root`'s content/history/ (every file's `events`), whatever the schema of that
 * revision.
 */
export function historyEventCount(root: string): number {
  const dir = join(root, 'content/history');
  if (!existsSync(dir)) return 0;
  let count = 0;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const events = (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { events?: unknown }).events;
    if (Array.isArray(events)) count += events.length;
  }
  return count;
}

/** A built page of the site at URL path `url` (`/a/b/`). */
const builtPage = (siteDist: string, url: string) => readFileSync(join(siteDist, url, 'index.html'), 'utf8');

/**
 * The site's whole sidebar, read from its build: the home page's, each group with the entries the page of its first
 * link shows (a page lists the tools of its own agent only; a group holds the current page only there, so the open
 * state of the others is their `collapsed`).
 */
export function siteSidebar(siteDist: string): SidebarEntry[] {
  const read = (url: string) => sidebarFromHtml(builtPage(siteDist, url));
  return read('/').map((entry) => {
    if (!('items' in entry)) return entry;
    const first = entry.items.find((item) => 'link' in item);
    const whole = first && 'link' in first ? read(first.link).find((e) => e.label === entry.label) : undefined;
    return whole && 'items' in whole ? { ...entry, items: whole.items } : entry;
  });
}

/**
 * The baseline: Starlight alone (same title, site, URLs, sidebar and public/ files), the same pages as Markdown. The
 * sidebar and the recorded calls of each tool page are read from the site's build in `siteDist`.
 */
export function writeBaseline(root: string, to: string, model: SiteModel, siteDist: string): number {
  const docs = join(to, 'src/content/docs');
  const pages = baselinePages(model, (tool) => examplesFromHtml(builtPage(siteDist, toolPath(tool))));
  const files = [...pages, { file: 'about.md', text: readFileSync(join(root, 'src/content/docs/about.md'), 'utf8') }];
  for (const p of files) {
    mkdirSync(dirname(join(docs, p.file)), { recursive: true });
    writeFileSync(join(docs, p.file), p.text);
  }
  // The same static files (the favicon every page links to).
  if (existsSync(join(root, 'public'))) cpSync(join(root, 'public'), join(to, 'public'), { recursive: true });
  // Astro finds the packages to bundle for rendering (Starlight) through package.json
  // dependencies; without them Starlight's middleware is left to Node, which cannot load astro:content.
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const dependencies = {
    astro: own.dependencies['astro'],
    '@astrojs/starlight': own.dependencies['@astrojs/starlight'],
  };
  writeFileSync(
    join(to, 'package.json'),
    `${JSON.stringify({ name: 'bench-baseline', private: true, type: 'module', dependencies }, null, 2)}\n`,
  );
  writeFileSync(
    join(to, 'src/content.config.ts'),
    [
      "import { defineCollection } from 'astro:content';",
      "import { docsLoader } from '@astrojs/starlight/loaders';",
      "import { docsSchema } from '@astrojs/starlight/schema';",
      'export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };',
      '',
    ].join('\n'),
  );
  const starlight = { title: SITE.title, description: SITE.description, sidebar: siteSidebar(siteDist) };
  // The reference gives each alias URL a page that redirects to its tool (when the
  // model names them); Astro's own redirects make the same meta-refresh pages.
  const redirects: Record<string, string> = {};
  for (const tool of model.tools) {
    for (const slug of (tool as { redirectSlugs?: string[] }).redirectSlugs ?? [])
      redirects[`/${tool.agent}/${slug}/`] = toolPath(tool);
  }
  writeFileSync(
    join(to, 'astro.config.mjs'),
    [
      "import { defineConfig } from 'astro/config';",
      "import starlight from '@astrojs/starlight';",
      '',
      '// smartypants off: the reference prints quotes as written, so the baseline must too.',
      `export default defineConfig({`,
      `  site: ${JSON.stringify(SITE.site)},`,
      "  trailingSlash: 'always',",
      '  markdown: { smartypants: false },',
      `  redirects: ${JSON.stringify(redirects)},`,
      `  integrations: [starlight(${JSON.stringify(starlight, null, 2).replace(/\n/g, '\n  ')})],`,
      '});',
      '',
    ].join('\n'),
  );
  linkNodeModules(root, to);
  return files.length;
}

/** Pages of a built site (redirect pages apart) and the size of everything in it. */
/**
 * The URL path a Markdown page of the baseline gets: its front matter's `slug`, or its file path (`a/index.md` →
 * `/a/`).
 */
export function markdownUrl(page: { file: string; text: string }): string {
  const slug = /^---\n[\s\S]*?^slug: (.+)$[\s\S]*?^---$/m.exec(page.text)?.[1];
  const path =
    slug !== undefined ? (JSON.parse(slug) as string) : page.file.replace(/\.md$/, '').replace(/(^|\/)index$/, '');
  return path === '' ? '/' : `/${path}/`;
}

/**
 * URL paths of the pages a built site has (`a/b/index.html` → `/a/b/`), redirect pages, assets and the search index
 * left out.
 */
export function builtPageUrls(dist: string): string[] {
  const urls: string[] = [];
  for (const entry of readdirSync(dist, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name !== 'index.html') continue;
    const rel = relative(dist, entry.parentPath).split(sep).join('/');
    if (/^(_astro|pagefind)(\/|$)/.test(rel)) continue;
    if (isRedirectPage(readFileSync(join(entry.parentPath, entry.name), 'utf8'))) continue;
    urls.push(rel === '' ? '/' : `/${rel}/`);
  }
  return urls.sort();
}

/**
 * The pages of the site's build that the baseline does not have yet, written into the
 * baseline as Markdown read from the built HTML (./from-html.ts), so that both sites
 * build the same pages. Returns the URL paths added.
 */
export function addMissingPages(siteDist: string, baselineRoot: string, model: SiteModel): string[] {
  const docs = join(baselineRoot, 'src/content/docs');
  const covered = new Set([...baselinePages(model), { file: 'about.md', text: '' }].map(markdownUrl));
  const added: string[] = [];
  for (const url of builtPageUrls(siteDist)) {
    if (covered.has(url)) continue;
    const page = markdownFromHtml(readFileSync(join(siteDist, url, 'index.html'), 'utf8'), url);
    if (!page) continue;
    mkdirSync(dirname(join(docs, page.file)), { recursive: true });
    writeFileSync(join(docs, page.file), page.text);
    added.push(url);
  }
  return added;
}

export function distStats(dist: string): { pages: number; redirects: number; bytes: number } {
  const stats = { pages: 0, redirects: 0, bytes: 0 };
  for (const entry of readdirSync(dist, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    stats.bytes += statSync(file).size;
    if (entry.name.endsWith('.html')) {
      if (isRedirectPage(readFileSync(file, 'utf8'))) stats.redirects++;
      else stats.pages++;
    }
  }
  return stats;
}

export interface BuildResult {
  ms: number;
  output: string;
}

/** Astro's cache folder of a benchmark build, inside the temp project. */
const CACHE_DIR = '.bench-cache';

/**
 * What a build of a temp project leaves that the next build could reuse: its
 * output, Astro's cache folder (the content layer's data store), the generated
 * types and Vite's folder. None is a hard link (see NOT_LINKED).
 */
export function buildLeftovers(siteRoot: string, outDir: string): string[] {
  return [
    outDir,
    join(siteRoot, CACHE_DIR),
    join(siteRoot, '.astro'),
    join(siteRoot, 'node_modules/.astro'),
    join(siteRoot, 'node_modules/.vite'),
  ];
}

/**
 * Removes `buildLeftovers`; only in a temp project, whose node_modules is a folder of links, never a symlink to a
 * checkout's.
 */
function removeBuildLeftovers(siteRoot: string, outDir: string): void {
  if (lstatSync(join(siteRoot, 'node_modules')).isSymbolicLink())
    throw new Error(`${siteRoot} is not a benchmark copy: its node_modules is a symlink`);
  for (const path of buildLeftovers(siteRoot, outDir)) rmSync(path, { recursive: true, force: true });
}

/**
 * Builds `siteRoot` into `outDir` in a child Node (scripts/lib/bench/astro-build.ts)
 * and returns its wall-clock time. Every build starts cold, as the first one
 * does: what an earlier build of the same project left is removed first. The
 * child leads its own process group, so a timeout or `kill()` also ends what it
 * started (Pagefind's indexing binary).
 */
export function buildSite(
  siteRoot: string,
  outDir: string,
  timeoutMs: number,
  onStart: (kill: () => void) => void,
): Promise<BuildResult> {
  removeBuildLeftovers(siteRoot, outDir);
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'astro-build.ts'), siteRoot, outDir, join(siteRoot, CACHE_DIR)],
    {
      cwd: siteRoot, // the reference's loader finds content/ from the working directory
      // Diffs kept by earlier processes are not read either (text-diff-store.ts).
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', [DIFF_STORE_SWITCH]: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const kill = () => {
    try {
      if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  onStart(kill);
  const started = performance.now();
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      kill();
      fail(
        new Error(`build of ${basename(siteRoot)} did not finish within ${timeoutMs / 1000} s\n${output.slice(-4000)}`),
      );
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      if (code === 0) ok({ ms, output });
      else
        fail(new Error(`build of ${basename(siteRoot)} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
    });
  });
}
