/**
 * Benchmark (not a test): this site against a plain Starlight site of the same
 * pages as Markdown. Builds both into a temp folder (never dist/), then
 * measures build time, page counts, what Chromium fetches for four pages (and
 * any asked for with `--page`) and for a first search, and Lighthouse scores
 * (medians of `--lighthouse-runs`, default 3); prints a table and, with
 * `--json <file>`, writes the same rows as JSON. `--before REV` (by default
 * DEFAULT_BEFORE, `none` for none) also builds this project as committed at
 * REV, interleaved with the other two, and prints the build times of the
 * checkout against it with both revisions' history event counts. `--runs N` builds each site N
 * times, interleaved (site, baseline, site, …), and reports the medians and the
 * median of the per-run ratios. `--keep` leaves the temp folder (both projects
 * and their last builds) for inspection.
 *
 *   npm run bench [-- --runs 3] [--lighthouse-runs 5] [--page /claude-code/bash/] [--before REV|none]
 *                 [--json bench.json] [--keep]
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadContent } from '../src/lib/content/load.ts';
import type { SiteModel } from '../src/lib/model/model.ts';
import { agentUrl, toolUrl } from '../src/lib/site/site.ts';
import { parseBenchArgs, type BenchArgs } from './lib/bench/args.ts';
import { launchBrowser, measureLoad, measureSearch } from './lib/bench/browser.ts';
import { Cleanup } from './lib/bench/cleanup.ts';
import { CATEGORIES, lighthouseScores, type Scores } from './lib/bench/lighthouse.ts';
import { jsonRows, renderTable, sumBytes, under, withoutFavicon, type Row } from './lib/bench/report.ts';
import { buildOrder, buildTimeRows, summarizeBuildTimes, type SiteKey } from './lib/bench/runs.ts';
import { copyProject } from './lib/system/project-copy.ts';
import { fileFor, serveStatic } from './lib/system/static-server.ts';
import {
  addMissingPages,
  buildSite,
  distStats,
  exportRevision,
  historyEventCount,
  writeBaseline,
} from './lib/bench/sites.ts';
import { withTimeout } from './lib/bench/timeout.ts';

const ROOT = resolve(import.meta.dirname, '..');
interface BenchPage {
  name: string;
  path: string;
}

/** Pages measured: home, the first agent's page, and that agent's tool page with the most input rows (a long one). */
function benchPages(model: SiteModel): BenchPage[] {
  const agent = model.agents[0]!.id;
  const tools = model.tools.filter((t) => t.agent === agent);
  const longest = tools.reduce((a, b) => (b.input.rows.length > a.input.rows.length ? b : a));
  return [
    { name: 'home', path: '/' },
    { name: 'agent page', path: agentUrl(agent) },
    { name: 'tool page (most input rows)', path: toolUrl(longest) },
  ];
}

/** The tool page of any agent whose built HTML is the largest in this site: the most for a browser to parse. */
function largestToolPage(model: SiteModel, dist: string): BenchPage {
  const size = (path: string) => {
    const file = fileFor(dist, path);
    return file && existsSync(file) ? statSync(file).size : 0;
  };
  const largest = model.tools
    .map((t) => ({ path: toolUrl(t), bytes: size(toolUrl(t)) }))
    .reduce((a, b) => (b.bytes > a.bytes ? b : a));
  return { name: 'tool page (largest HTML)', path: largest.path };
}

/** The measured pages in order, each path once (the first name it got wins). */
function uniquePages(pages: readonly BenchPage[]): BenchPage[] {
  const seen = new Set<string>();
  return pages.filter((p) => !seen.has(p.path) && seen.add(p.path));
}
const SEARCH = { page: '/', query: 'write_stdin' };
const BUILD_MS = 600_000;

const log = (message: string) => console.error(`bench: ${message}`);

interface Site {
  label: string;
  root: string;
  dist: string;
  base: string;
}

/** Both sites' values of one measurement, as a table row. */
function row(metric: string, unit: Row['unit'], measure: (site: 'site' | 'baseline') => number | null): Row {
  return { metric, unit, site: measure('site'), baseline: measure('baseline') };
}

/** This project at `--before`'s revision: which commit, and the folder it was unpacked into. */
interface Before {
  revision: string;
  commit: string;
  site: Site;
}

/** The checkout's figures against the earlier revision's: history events, pages, build times. */
function beforeRows(
  root: string,
  before: Before,
  buildMs: { site: number[]; before: number[] },
  siteDist: string,
): Row[] {
  const events = { site: historyEventCount(root), before: historyEventCount(before.site.root) };
  const pages = { site: distStats(siteDist).pages, before: distStats(before.site.dist).pages };
  return [
    { metric: 'history events (content/history/)', unit: 'count', site: events.site, baseline: events.before },
    { metric: 'pages (HTML, without redirects)', unit: 'count', site: pages.site, baseline: pages.before },
    ...buildTimeRows(summarizeBuildTimes(buildMs.site, buildMs.before)),
  ];
}

/**
 * `--before`'s revision unpacked beside the other two; undefined when none is asked for, or the default one is not in
 * this clone.
 */
function exportBefore(args: BenchArgs, tmp: string): Before | undefined {
  if (!args.before) return undefined;
  const root = join(tmp, 'before');
  try {
    const { commit, otherDependencies } = exportRevision(ROOT, args.before.revision, root);
    log(`revision ${args.before.revision} (${commit.slice(0, 12)}) unpacked to ${root}`);
    if (otherDependencies)
      log(
        `warning: ${commit.slice(0, 12)}` +
          ` declares other dependencies in package.json; it is built with this checkout's node_modules`,
      );
    return {
      revision: args.before.revision,
      commit,
      site: { label: `revision ${commit.slice(0, 12)}`, root, dist: join(root, 'dist'), base: '' },
    };
  } catch (error) {
    if (args.before.explicit) throw error;
    log(`no build before: ${(error as Error).message}`);
    return undefined;
  }
}

/** The temp folder, the two sites' places in it, and the earlier revision when one is asked for. */
interface Setup {
  tmp: string;
  sites: Record<'site' | 'baseline', Site>;
  before: Before | undefined;
}

function setUp(cleanup: Cleanup, args: BenchArgs): Setup {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-'));
  if (args.keep) cleanup.add(`keep ${tmp}`, () => log(`kept ${tmp}`));
  else cleanup.add(`remove ${tmp}`, () => rmSync(tmp, { recursive: true, force: true }));
  const sites: Record<'site' | 'baseline', Site> = {
    site: { label: 'this site', root: join(tmp, 'site'), dist: join(tmp, 'site/dist'), base: '' },
    baseline: { label: 'baseline', root: join(tmp, 'baseline'), dist: join(tmp, 'baseline/dist'), base: '' },
  };
  log(`copying the project to ${sites.site.root}`);
  copyProject(ROOT, sites.site.root);
  return { tmp, sites, before: exportBefore(args, tmp) };
}

/**
 * The baseline, written once the site is built: its Markdown pages (with the recorded calls and the sidebar the site's
 * pages show), then every page its Markdown renderers do not write, read from the site's build, so both build the same
 * pages.
 */
function writeBaselineFrom(model: SiteModel, sites: Setup['sites']): void {
  const markdownFiles = writeBaseline(ROOT, sites.baseline.root, model, sites.site.dist);
  log(`baseline: ${markdownFiles} Markdown pages in ${sites.baseline.root}`);
  const added = addMissingPages(sites.site.dist, sites.baseline.root, model);
  log(
    `baseline: ${added.length} more pages read from this site's build (${added.slice(0, 3).join(', ')}` +
      `${added.length > 3 ? ', …' : ''})`,
  );
}

/**
 * Every build of every site, interleaved, so that a change in the machine's load falls on all sites alike; each build
 * starts cold. The site builds first (buildOrder): the baseline is written from its build.
 */
async function buildAll(
  cleanup: Cleanup,
  args: BenchArgs,
  model: SiteModel,
  { sites, before }: Setup,
): Promise<Record<SiteKey, number[]>> {
  const buildMs: Record<SiteKey, number[]> = { site: [], baseline: [], before: [] };
  const siteOf = (key: SiteKey): Site => (key === 'before' ? before!.site : sites[key]);
  for (const { run, key } of buildOrder(args.runs, before !== undefined)) {
    const of = args.runs > 1 ? ` (run ${run} of ${args.runs})` : '';
    const target = siteOf(key);
    log(`building ${target.label}${of}…`);
    const result = await buildSite(target.root, target.dist, BUILD_MS, (kill) =>
      cleanup.add(`stop the build of ${target.label}`, kill),
    );
    buildMs[key].push(result.ms);
    log(`built ${target.label}${of} in ${(result.ms / 1000).toFixed(1)} s`);
    if (key === 'site' && buildMs.site.length === 1) writeBaselineFrom(model, sites);
  }
  return buildMs;
}

/** The pages measured: benchPages, the largest tool page, those asked for with `--page` (each on both sites). */
function pagesToMeasure(model: SiteModel, args: BenchArgs, sites: Setup['sites']): BenchPage[] {
  const pages = uniquePages([
    ...benchPages(model),
    largestToolPage(model, sites.site.dist),
    ...args.pages.map((path) => ({ name: 'asked for', path })),
  ]);
  for (const p of args.pages) {
    for (const key of ['site', 'baseline'] as const) {
      const file = fileFor(sites[key].dist, p);
      if (!file || !existsSync(file)) throw new Error(`--page ${p}: ${sites[key].label} has no such page`);
    }
  }
  return pages;
}

/** What Chromium fetches for each page on both sites, and for the first search. */
async function browserRows(pages: readonly BenchPage[], sites: Setup['sites']): Promise<Row[]> {
  log('measuring page loads and the first search in Chromium');
  const rows: Row[] = [];
  const browser = await launchBrowser();
  try {
    const load = async (key: 'site' | 'baseline', path: string) =>
      sumBytes(
        withoutFavicon(await withTimeout(`loading ${path}`, 60_000, measureLoad(browser, sites[key].base + path))),
      );
    for (const p of pages) {
      const sums = { site: await load('site', p.path), baseline: await load('baseline', p.path) };
      rows.push(
        row(`${p.name} ${p.path}: HTML`, 'bytes', (k) => sums[k].html),
        row(`${p.name} ${p.path}: CSS`, 'bytes', (k) => sums[k].css),
        row(`${p.name} ${p.path}: JS`, 'bytes', (k) => sums[k].js),
        row(`${p.name} ${p.path}: all responses`, 'bytes', (k) => sums[k].total),
        row(`${p.name} ${p.path}: on the wire (gzip)`, 'bytes', (k) => sums[k].transferred),
        row(`${p.name} ${p.path}: requests`, 'count', (k) => sums[k].requests),
      );
    }
    const searchOn = (key: 'site' | 'baseline') =>
      withTimeout('the first search', 60_000, measureSearch(browser, sites[key].base + SEARCH.page, SEARCH.query));
    const search = { site: await searchOn('site'), baseline: await searchOn('baseline') };
    const pagefind = {
      site: sumBytes(under(search.site.fetched, '/pagefind/')),
      baseline: sumBytes(under(search.baseline.fetched, '/pagefind/')),
    };
    const q = `first search "${SEARCH.query}"`;
    rows.push(
      row(`${q}: /pagefind/ bytes`, 'bytes', (k) => pagefind[k].total),
      row(`${q}: /pagefind/ on the wire`, 'bytes', (k) => pagefind[k].transferred),
      row(`${q}: /pagefind/ requests`, 'count', (k) => pagefind[k].requests),
      row(`${q}: results`, 'count', (k) => search[k].results),
    );
  } finally {
    await browser.close();
  }
  return rows;
}

/** Lighthouse's scores for each page on both sites (medians of `--lighthouse-runs`); empty cells when it cannot run. */
async function lighthouseRows(pages: readonly BenchPage[], sites: Setup['sites'], runs: number): Promise<Row[]> {
  log(
    `running Lighthouse (default config: mobile, simulated throttling), ${runs} round(s) of ${pages.length * 2} pages`,
  );
  let scores = new Map<string, Scores>();
  try {
    const result = await lighthouseScores(
      pages.flatMap((p) => [sites.site.base + p.path, sites.baseline.base + p.path]),
      runs,
    );
    scores = result.scores;
    for (const error of result.errors) log(`Lighthouse could not score ${error}`);
  } catch (error) {
    log(`Lighthouse did not run: ${(error as Error).message}`);
  }
  return pages.flatMap((p) => {
    const of = (k: 'site' | 'baseline') => scores.get(sites[k].base + p.path);
    const name = `${p.name} ${p.path}: Lighthouse${runs > 1 ? ` (median of ${runs})` : ''}`;
    return [
      ...CATEGORIES.map((c) => row(`${name} ${c}`, 'score', (k) => of(k)?.[c] ?? null)),
      row(`${name} largest contentful paint`, 'ms', (k) => of(k)?.lcp ?? null),
      row(`${name} total blocking time`, 'ms', (k) => of(k)?.tbt ?? null),
    ];
  });
}

/** The table, and the checkout against `--before`'s revision when there is one; its rows, for the JSON report. */
function printTables(rows: Row[], before: Before | undefined, buildMs: Record<SiteKey, number[]>, siteDist: string) {
  console.log(renderTable(rows));
  console.log('\nratio = this site / baseline.');
  if (!before) return undefined;
  const againstBefore = beforeRows(ROOT, before, { site: buildMs.site, before: buildMs.before }, siteDist);
  const which =
    before.revision === before.commit
      ? before.commit.slice(0, 12)
      : `${before.revision} (${before.commit.slice(0, 12)})`;
  console.log(`\nThis checkout against ${which}, as committed, built with this checkout's node_modules:\n`);
  console.log(renderTable(againstBefore, { site: 'this checkout', baseline: before.commit.slice(0, 12) }));
  console.log('\nratio = this checkout / that revision.');
  return againstBefore;
}

async function main(cleanup: Cleanup, args: BenchArgs): Promise<void> {
  const started = performance.now();
  const jsonPath = args.json === undefined ? undefined : resolve(args.json);
  const model = loadContent({ root: ROOT });
  const setup = setUp(cleanup, args);
  const { sites, before } = setup;
  const buildMs = await buildAll(cleanup, args, model, setup);
  const buildTimes = summarizeBuildTimes(buildMs.site, buildMs.baseline);
  const stats = { site: distStats(sites.site.dist), baseline: distStats(sites.baseline.dist) };
  const pages = pagesToMeasure(model, args, sites);
  const rows: Row[] = [
    row('pages (HTML, without redirects)', 'count', (k) => stats[k].pages),
    row('redirect pages', 'count', (k) => stats[k].redirects),
    ...buildTimeRows(buildTimes),
    row('built site, all files', 'bytes', (k) => stats[k].bytes),
  ];
  for (const key of ['site', 'baseline'] as const) {
    const server = await serveStatic(sites[key].dist);
    cleanup.add(`stop the server of ${sites[key].label}`, () => server.close());
    sites[key].base = server.base;
  }
  rows.push(...(await browserRows(pages, sites)), ...(await lighthouseRows(pages, sites, args.lighthouseRuns)));
  const againstBefore = printTables(rows, before, buildMs, sites.site.dist);
  console.log(`Took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  if (!jsonPath) return;
  const report = {
    date: new Date().toISOString(),
    lighthouse:
      `default config (mobile emulation, simulated throttling); ` + `median of ${args.lighthouseRuns} run(s) per page`,
    pages,
    search: SEARCH,
    buildTimes: { runs: args.runs, order: buildOrder(args.runs, before !== undefined), ...buildTimes },
    rows: jsonRows(rows),
    before:
      before && againstBefore
        ? { revision: before.revision, commit: before.commit, rows: jsonRows(againstBefore) }
        : null,
  };
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${jsonPath}`);
}

if (import.meta.main) {
  const cleanup = new Cleanup();
  const finish = async (code: number) => {
    for (const failure of await cleanup.run()) log(`clean-up: ${failure}`);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void finish(130));
  const args = parseBenchArgs(process.argv.slice(2));
  if ('help' in args) {
    console.log(args.help);
    process.exit(0);
  }
  if ('error' in args) {
    log(args.error);
    process.exit(2);
  }
  try {
    await main(cleanup, args);
    await finish(0);
  } catch (error) {
    log(`failed: ${(error as Error).message}`);
    await finish(1);
  }
}
