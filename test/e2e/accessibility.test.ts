/**
 * axe-core (WCAG 2.x A/AA and best-practice rules), in the light and the dark
 * theme (each page loaded once and switched as Starlight's theme picker does),
 * with every <details> opened, on one page per template of the real build
 * (pagesOfEveryKind in test/helpers/pages.ts: each route's smallest page, since
 * axe's time grows with the page, then pages until every component is on one)
 * and on the pages of the small fixture site (test/helpers/fixture-site.ts) with
 * a route or component the real build's choice lacks (none when the real content
 * shows every one: a template is not checked twice); SWEEP=all (`npm run test:sweep`: over half an hour here; SWEEP=K/N a share, as CI runs it) checks every
 * page of both instead. A violation is allowed only when it belongs to
 * Starlight itself and is listed in STARLIGHT_ALLOWLIST.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type * as Axe from 'axe-core';
import { serveStatic, type StaticServer } from '../../scripts/lib/system/static-server.ts';
import { buildSite, DIST, ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { buildFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import {
  builtPages,
  expandAllDetails,
  kindsNotChecked,
  loadIn,
  newView,
  openPage,
  pagesOfEveryKind,
  pagesToCheck,
  type Theme,
} from '../helpers/pages.ts';
import { SWEEP, sweepShare } from '../helpers/sweep.ts';

const AXE_SCRIPT = join(ROOT, 'node_modules/axe-core/axe.min.js');

interface AllowedViolation {
  /** axe rule id. */
  rule: string;
  /** CSS selector the offending element matches: an element Starlight renders, never one of ours. */
  selector: string;
  /** Why it is Starlight's, with the upstream issue. */
  reason: string;
}

/**
 * Violations that come from Starlight's own markup or styles. Each entry must
 * match at least one violation in this run, or the last test fails: an entry
 * Starlight has fixed upstream is removed, not kept.
 */
const STARLIGHT_ALLOWLIST: readonly AllowedViolation[] = [
  {
    rule: 'label-content-name-mismatch',
    selector: 'site-search > button[data-open-modal]',
    reason:
      'Starlight\'s Search.astro labels the search button aria-label="Search" while it shows the Ctrl K shortcut as text ' +
      '(markup from withastro/starlight#2025); no upstream issue found',
  },
  {
    rule: 'label-title-only',
    selector: 'site-search input.pagefind-ui__search-input',
    reason:
      'Pagefind\'s default UI, which Starlight\'s search dialog mounts, names its search input only by title="Search" ' +
      '(and a placeholder), with no <label>; seen in the open dialog only',
  },
];

const THEMES: readonly Theme[] = ['light', 'dark'];

interface FoundNode {
  target: string;
  summary: string;
  /** Index into STARLIGHT_ALLOWLIST of the entry that allows it, or -1. */
  allowedBy: number;
}
interface Found {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: FoundNode[];
}

// Both sites are built while the test file loads: the tests below are declared per page.
buildSite();
const fixture: FixtureSite = buildFixtureSite();
const realKinds = pagesOfEveryKind(DIST, ROOT, { prefer: 'smallest' });
const SITES = [
  { name: 'fixture site', dir: fixture.out, pages: pagesToCheck(fixture.out, 'smallest', realKinds.covered) },
  { name: 'real site', dir: DIST, pages: pagesToCheck(DIST, 'smallest') },
] as const;

let served: Served | undefined;
let fixtureServer: StaticServer | undefined;
/** Browser contexts by site name; pages open in the first theme and switch to the other. */
const contexts = new Map<string, BrowserContext>();
/** Tabs by site name, free for the next page: a tab is reused rather than one opened per page. */
const idleTabs = new Map<string, Page[]>(SITES.map((site) => [site.name, []]));
/** Allowlist entries that matched at least one node, over all pages and themes. */
const used = new Set<number>();

before(async () => {
  served = await serveAndLaunch();
  fixtureServer = await serveStatic(fixture.out);
  for (const site of SITES) {
    const base = site.dir === DIST ? served.base : fixtureServer.base;
    contexts.set(site.name, await newView(served.browser, base, { width: 1280, height: 900, theme: THEMES[0]! }));
  }
});
after(async () => {
  await served?.close();
  await fixtureServer?.close();
  fixture.remove();
});

test('the pages checked: every route and component either site builds is on a page checked (with SWEEP, every page of its share too)', () => {
  const unchecked = kindsNotChecked(SITES);
  assert.deepEqual(unchecked, [], 'routes and components on no page checked');
  assert.ok(SITES[1].pages.length < builtPages(DIST).length || SWEEP?.of === 1, 'one real page per kind, not all');
  for (const site of SITES) {
    if (SWEEP) {
      const every = builtPages(site.dir);
      const missing = sweepShare(every, SWEEP).filter((page) => !site.pages.includes(page));
      assert.deepEqual(missing, [], `${site.name}: pages of share ${SWEEP.share} of ${SWEEP.of} not checked`);
      if (SWEEP.of === 1) assert.deepEqual(site.pages, every, `${site.name}: every page`);
    }
  }
});

/**
 * axe-core over the page as it is now (or the part `within` selects): every violation, each node
 * marked with the allowlist entry that explains it.
 */
function runAxe(page: Page, within?: string): Promise<Found[]> {
  return page.evaluate(
    async ({ allow, within }): Promise<Found[]> => {
      const axe = (window as unknown as { axe: typeof Axe }).axe;
      const results = await axe.run(within === undefined ? document : { include: [within] }, {
        resultTypes: ['violations'],
      });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n) => {
          const last = n.target[n.target.length - 1];
          const el = typeof last === 'string' ? document.querySelector(last) : null;
          return {
            target: n.target.map(String).join(' >>> '),
            summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
            allowedBy: allow.findIndex((a) => a.rule === v.id && el?.matches(a.selector) === true),
          };
        }),
      }));
    },
    { allow: STARLIGHT_ALLOWLIST.map(({ rule, selector }) => ({ rule, selector })), within },
  );
}

/** The violations no allowlist entry explains, as lines of a report; marks the entries used. */
function unexplained(violations: Found[]): string[] {
  const ours: string[] = [];
  for (const v of violations) {
    const left = v.nodes.filter((n) => n.allowedBy < 0);
    for (const n of v.nodes) if (n.allowedBy >= 0) used.add(n.allowedBy);
    if (left.length === 0) continue;
    ours.push(
      `${v.id} (${v.impact}): ${v.help} — ${v.helpUrl}\n` +
        left.map((n) => `    ${n.target}\n      ${n.summary}`).join('\n'),
    );
  }
  return ours;
}

/**
 * Switches an open page to another theme as Starlight's theme picker does to
 * the page (`data-theme`; the stored choice is left alone, as other tabs of the
 * context are loading), with the matching color scheme, and waits until it is
 * painted: one page load serves both themes.
 */
async function switchTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((t) => {
    (
      window as unknown as { StarlightThemeProvider?: { updatePickers(theme: string): void } }
    ).StarlightThemeProvider?.updatePickers(t);
    document.documentElement.dataset.theme = t;
  }, theme);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const applied = await page.evaluate(() => document.documentElement.dataset.theme);
  if (applied !== theme) throw new Error(`${page.url()}: asked for the ${theme} theme, the page shows ${applied}`);
}

describe('axe-core', { concurrency: 4 }, () => {
  for (const { site, path } of SITES.flatMap((site) => site.pages.map((path) => ({ site, path })))) {
    test(`${site.name}: ${path} has no violations of ours in the ${THEMES.join(' or the ')} theme`, async () => {
      // A tab of an earlier page, set back to the first theme's color scheme, or a new one.
      const page = idleTabs.get(site.name)?.pop() ?? (await contexts.get(site.name)!.newPage());
      await page.emulateMedia({ colorScheme: THEMES[0]! });
      try {
        await loadIn(page, path, THEMES[0]!);
        await expandAllDetails(page);
        await page.addScriptTag({ path: AXE_SCRIPT });
        const report: string[] = [];
        for (const theme of THEMES) {
          if (theme !== THEMES[0]) await switchTheme(page, theme);
          const ours = unexplained(await runAxe(page));
          if (ours.length > 0)
            report.push(
              `${theme} theme: ${ours.length} axe rule(s) violated by this project's markup or styles:\n  ${ours.join('\n  ')}`,
            );
        }
        assert.equal(report.length, 0, `${site.name}: ${path}\n${report.join('\n')}`);
      } finally {
        idleTabs.get(site.name)!.push(page);
      }
    });
  }
});

test('real site: the open search dialog, with results and the agent filter, has no violations of ours in either theme', async () => {
  // A tool page of the real build (its route has an agent and a tool segment); the query is its own name, as its h1
  // shows it.
  const path = SITES[1].pages.find((p) => p.split('/').filter(Boolean).length === 2 && !p.startsWith('/jobs/'));
  assert.ok(path, 'a tool page among the pages checked');
  const page = await openPage(contexts.get(SITES[1].name)!, path, THEMES[0]!);
  try {
    const name = (await page.textContent('h1'))!.trim();
    await page.waitForFunction(() => customElements.get('site-search') !== undefined, undefined, { timeout: 30_000 });
    // A click before Pagefind's UI has loaded may open nothing: tried again (as site.test.ts does).
    for (let attempt = 1; ; attempt++) {
      await page.click('site-search button[data-open-modal]');
      try {
        await page.waitForSelector('site-search input.pagefind-ui__search-input', { timeout: 20_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        await page.keyboard.press('Escape');
      }
    }
    await page.fill('site-search input.pagefind-ui__search-input', name);
    await page.waitForSelector('site-search .pagefind-ui__result-link', { timeout: 20_000 });
    // The filter group is a closed <details> until a reader opens it: opened, so axe sees its checkboxes.
    await page.waitForSelector('site-search .pagefind-ui__filter-checkbox', { state: 'attached', timeout: 20_000 });
    await page.$$eval('site-search details.pagefind-ui__filter-block', (blocks) =>
      blocks.forEach((b) => ((b as HTMLDetailsElement).open = true)),
    );
    await page.waitForSelector('site-search .pagefind-ui__filter-checkbox', { timeout: 20_000 });
    await page.addScriptTag({ path: AXE_SCRIPT });
    const report: string[] = [];
    for (const theme of THEMES) {
      if (theme !== THEMES[0]) await switchTheme(page, theme);
      const ours = unexplained(await runAxe(page, 'site-search dialog'));
      if (ours.length > 0) report.push(`${theme} theme: ${ours.join('\n  ')}`);
    }
    assert.equal(report.length, 0, `search dialog on ${path} searching ${name}\n${report.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('every Starlight allowlist entry still matches a violation (remove entries fixed upstream)', () => {
  const stale = STARLIGHT_ALLOWLIST.filter((_, i) => !used.has(i)).map((a) => `${a.rule} ${a.selector} (${a.reason})`);
  assert.deepEqual(stale, []);
});
