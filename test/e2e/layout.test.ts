/**
 * Two sites, at a phone width (375 px), a desktop width (1280 px) and the
 * narrowest content column each layout has (320 px; 800 px, where the sidebar
 * appears; 1152 px, where the table of contents appears), with every <details>
 * opened (each page is loaded once and the window resized to each width):
 * - one real page per template of the real build (pagesOfEveryKind: each
 *   route's largest page, and pages until every component some page has is
 *   checked);
 * - the pages of the small fixture site (test/helpers/fixture-site.ts: the
 *   fixture content plus a tool whose names and values are as long as the
 *   content rules allow) whose main text shows that tool's long names, and any
 *   with a route or component the real choice lacks (a template is not laid out
 *   twice at the same sizes); SWEEP=all (`npm run test:sweep`: over half an hour here; SWEEP=K/N a share, as CI runs it)
 *   checks every page instead.
 * On each:
 * - the page never scrolls sideways;
 * - no table cell has its content cut off;
 * - field tables fit the content column: they must never need sideways scrolling.
 * All problems of one kind are reported together, grouped by site, width and cause.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { serveStatic, type StaticServer } from '../../scripts/lib/system/static-server.ts';
import { DIST, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { buildFixtureSite, LONG_FIELD, LONG_TOOL, type FixtureSite } from '../helpers/fixture-site.ts';
import {
  builtPages,
  expandAllDetails,
  fileOfPage,
  inParallel,
  kindsNotChecked,
  newView,
  pagesOfEveryKind,
  pagesToCheck,
} from '../helpers/pages.ts';
import { SWEEP, sweepShare } from '../helpers/sweep.ts';

const WORKERS = 4;
const WIDTHS: readonly { width: number; height: number }[] = [
  { width: 375, height: 812 },
  { width: 1280, height: 900 },
  { width: 320, height: 640 },
  { width: 800, height: 900 },
  { width: 1152, height: 900 },
];

type Check = 'overflow' | 'cell' | 'field-table';
/** One problem on one page. `what` names the cause without page-specific ids, so pages group by it. */
interface Problem {
  check: Check;
  what: string;
  detail: string;
}
interface Finding extends Problem {
  site: string;
  width: number;
  page: string;
}

/**
 * Runs in the page and returns its problems. It is sent to the browser as
 * source text, so everything it uses is declared inside it.
 */
function measure(): Problem[] {
  const vw = window.innerWidth;
  const problems: Problem[] = [];
  const px = (n: number) => `${Math.round(n)}px`;
  const style = (el: Element) => getComputedStyle(el);
  /** overflow-x other than visible: the element clips (hidden, clip) or scrolls (auto, scroll) what sticks out. */
  const clipsX = (el: Element) => style(el).overflowX !== 'visible';
  const scrollsX = (el: Element) => ['auto', 'scroll'].includes(style(el).overflowX);
  const isRoot = (el: Element) => el === document.documentElement || el === document.body;
  /** A short selector: up to three levels, stopping at an id; Astro's scoping classes left out. */
  const describe = (el: Element): string => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && !isRoot(e) && parts.length < 3; e = e.parentElement) {
      if (e.id) {
        parts.unshift(`${e.localName}[id="${e.id}"]`);
        break;
      }
      parts.unshift(
        e.localName +
          [...e.classList]
            .filter((c) => !c.startsWith('astro-'))
            .slice(0, 2)
            .map((c) => `.${c}`)
            .join(''),
      );
    }
    return parts.join(' > ');
  };
  /** The selector without row ids, so that one cause on many rows or pages is reported once. */
  const generic = (el: Element) => describe(el).replace(/^tr\[id="[^"]*"\]/, 'tr[id]');
  /** Rendered, and not visually hidden (a screen-reader-only header is a clipped 1×1 box). */
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    if ((r.width === 0 && r.height === 0) || !el.checkVisibility({ visibilityProperty: true })) return false;
    for (let a: Element | null = el; a && !isRoot(a); a = a.parentElement) {
      const b = a.getBoundingClientRect();
      if ((b.width <= 1 || b.height <= 1) && clipsX(a)) return false;
    }
    return true;
  };

  // (a) The page scrolls sideways. Name the outermost elements that stick out (their parent does
  // not) and that no ancestor clips or scrolls (those cannot widen the page).
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > vw) {
    let culprits: { sel: string; right: number }[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const right = el.getBoundingClientRect().right;
      if (right <= vw + 0.5 || !shown(el) || style(el).position === 'fixed') continue;
      const parent = el.parentElement!;
      if (!isRoot(parent) && parent.getBoundingClientRect().right > vw + 0.5) continue;
      let contained = false;
      for (let a: Element | null = parent; a && !isRoot(a); a = a.parentElement) contained ||= clipsX(a);
      if (!contained) culprits.push({ sel: describe(el), right });
    }
    // None on its own (e.g. only hidden or positioned content): name whatever reaches furthest.
    if (culprits.length === 0) {
      culprits = [...document.body.querySelectorAll('*')]
        .map((el) => ({ sel: describe(el), right: el.getBoundingClientRect().right }))
        .filter((c) => c.right > vw + 0.5);
    }
    culprits.sort((a, b) => b.right - a.right);
    const counted = new Map<string, { right: number; n: number }>();
    for (const c of culprits)
      counted.set(c.sel, { right: counted.get(c.sel)?.right ?? c.right, n: (counted.get(c.sel)?.n ?? 0) + 1 });
    const widest = [...counted]
      .slice(0, 4)
      .map(([sel, c]) => `${sel}${c.n > 1 ? ` ×${c.n}` : ''} (right edge ${px(c.right)})`);
    problems.push({
      check: 'overflow',
      what: `sticking out: ${culprits[0]?.sel.replace(/\[id="[^"]*"\]/g, '') ?? '(nothing visible)'}`,
      detail: `${pageWidth}px wide; ${widest.join(', ')}`,
    });
  }

  // (b) Table cells. Problems are counted per table and cause, with the worst cell as the example.
  const found = new Map<
    string,
    { check: Check; what: string; cells: number; tables: Set<Element>; worst: number; example: string }
  >();
  const report = (check: Check, table: Element, cause: string, amount: number, cell: Element) => {
    const what = `${generic(table)}: ${cause}`;
    const entry = found.get(what) ?? { check, what, cells: 0, tables: new Set<Element>(), worst: -1, example: '' };
    entry.cells++;
    entry.tables.add(table);
    if (amount > entry.worst) {
      entry.worst = amount;
      entry.example = describe(cell);
    }
    found.set(what, entry);
  };

  for (const cell of document.querySelectorAll('td, th')) {
    if (!shown(cell)) continue;
    const table = cell.closest('table')!;
    const fieldTable = table.classList.contains('field-table');
    // Right edge of what the cell draws, content that overflows it included.
    const contentRight =
      cell.getBoundingClientRect().left + cell.clientLeft + Math.max(cell.scrollWidth, cell.clientWidth);

    // Content wider than the cell: cut off if the cell clips, drawn over the next cell if not.
    if (cell.scrollWidth > cell.clientWidth + 1) {
      const cause = clipsX(cell)
        ? `text cut off inside the cell (overflow-x: ${style(cell).overflowX})`
        : 'content wider than its cell, drawn over the next cell';
      report('cell', table, cause, cell.scrollWidth - cell.clientWidth, cell);
    }
    // An element in the cell that hides part of its own text (overflow hidden, text-overflow: ellipsis).
    for (const inner of cell.querySelectorAll('*')) {
      if (clipsX(inner) && !scrollsX(inner) && inner.scrollWidth > inner.clientWidth + 1 && shown(inner)) {
        report(
          'cell',
          table,
          `text cut off inside ${generic(inner).split(' > ').pop()}`,
          inner.scrollWidth - inner.clientWidth,
          cell,
        );
      }
    }

    // Follow what the cell draws out through each ancestor that clips. One that scrolls makes what
    // lies past its edge reachable (fine for an ordinary table unless its scrollbar is hidden; a field
    // table must not scroll at all, checked below); one that hides overflow, or the root, cuts it off.
    let right = contentRight;
    let scroller: Element | null = null;
    for (let a = cell.parentElement; a; a = a.parentElement) {
      if (!isRoot(a) && !clipsX(a)) continue;
      const visibleRight = isRoot(a) ? vw : a.getBoundingClientRect().left + a.clientLeft + a.clientWidth;
      if (right <= visibleRight + 1) {
        if (isRoot(a)) break;
        continue;
      }
      if (isRoot(a)) {
        report('cell', table, 'cell extends beyond the viewport', right - vw, cell);
        break;
      }
      if (!scrollsX(a)) {
        report(
          'cell',
          table,
          `cell cut off by ${generic(a)} (overflow-x: ${style(a).overflowX})`,
          right - visibleRight,
          cell,
        );
        break;
      }
      scroller ??= a;
      if (!fieldTable && style(a).scrollbarWidth === 'none')
        report(
          'cell',
          table,
          `table scrolls sideways in ${generic(a)} with its scrollbar hidden`,
          right - visibleRight,
          cell,
        );
      // Scrolled into view inside `a`: from here on, what matters is where `a` itself ends.
      right = a.getBoundingClientRect().right;
    }

    // Field tables: every cell within the visible width of the content column, at every width.
    if (fieldTable) {
      const column = cell.closest('.sl-markdown-content') ?? cell.closest('main')!;
      const columnRight = Math.min(column.getBoundingClientRect().right, vw);
      if (contentRight > columnRight + 1) {
        const how = scroller
          ? `needs sideways scrolling in ${generic(scroller).split(' > ').pop()}`
          : 'cut off or widens the page';
        report(
          'field-table',
          table,
          `cells extend beyond the content column (${how})`,
          contentRight - columnRight,
          cell,
        );
      }
    }
  }
  for (const e of found.values()) {
    problems.push({
      check: e.check,
      what: e.what,
      detail: `${e.cells} cell(s) in ${e.tables.size} table(s), up to ${px(e.worst)} too far, e.g. ${e.example}`,
    });
  }
  return problems;
}

/**
 * Loads `path` in `tab` at the first width, opens every <details>, and measures
 * it at each width in turn, resizing the window as a reader turning a tablet
 * or narrowing a window does: one load instead of one per width.
 */
async function measurePage(tab: Page, path: string): Promise<{ width: number; problems: Problem[] }[]> {
  await tab.setViewportSize(WIDTHS[0]!);
  const response = await tab.goto(path, { waitUntil: 'load' });
  if (!response?.ok()) throw new Error(`${path}: HTTP ${response?.status()}`);
  await expandAllDetails(tab);
  const out: { width: number; problems: Problem[] }[] = [];
  for (const view of WIDTHS) {
    await tab.setViewportSize(view);
    // Two animation frames: the resize has been laid out before anything is measured.
    await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    out.push({ width: view.width, problems: await tab.evaluate(measure) });
  }
  return out;
}

interface Site {
  name: string;
  base: string;
  pages: string[];
}
/** The built pages of `dir` whose <main> shows the fixture's long tool or field name. */
function pagesShowingLongNames(dir: string): string[] {
  return builtPages(dir).filter((url) => {
    const html = readFileSync(fileOfPage(dir, url), 'utf8');
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    return main.includes(LONG_TOOL) || main.includes(LONG_FIELD);
  });
}

let served: Served | undefined;
let fixture: FixtureSite | undefined;
let fixtureServer: StaticServer | undefined;
const sites: Site[] = [];
const findings: Finding[] = [];

before(async () => {
  fixture = buildFixtureSite();
  fixtureServer = await serveStatic(fixture.out);
  served = await serveAndLaunch();
  const real = pagesToCheck(DIST);
  const fixturePages = new Set([
    ...pagesShowingLongNames(fixture.out),
    ...pagesToCheck(fixture.out, 'largest', pagesOfEveryKind(DIST).covered),
  ]);
  sites.push({ name: 'fixture site', base: fixtureServer.base, pages: [...fixturePages].sort() });
  sites.push({ name: 'real site', base: served.base, pages: real });
  for (const site of sites) {
    const context = await newView(served.browser, site.base, WIDTHS[0]!);
    const tabs = await Promise.all(Array.from({ length: WORKERS }, () => context.newPage()));
    await inParallel(site.pages, WORKERS, async (path, worker) => {
      for (const { width, problems } of await measurePage(tabs[worker]!, path)) {
        for (const p of problems) findings.push({ ...p, site: site.name, width, page: path });
      }
    });
    await context.close();
  }
});
after(async () => {
  await served?.close();
  await fixtureServer?.close();
  fixture?.remove();
});

/** The findings of one check, grouped by site and width, then by cause, with the pages it occurs on. */
function grouped(check: Check): string {
  const lines: string[] = [];
  for (const site of sites) {
    for (const { width } of WIDTHS) {
      const atWidth = findings.filter((f) => f.check === check && f.site === site.name && f.width === width);
      if (atWidth.length === 0) continue;
      lines.push(
        `${site.name} at ${width}px: ${atWidth.length} problem(s) on ${new Set(atWidth.map((f) => f.page)).size} page(s)`,
      );
      const byCause = [...Map.groupBy(atWidth, (f) => f.what)].sort((a, b) => b[1].length - a[1].length);
      for (const [what, list] of byCause) {
        lines.push(`  ${what} — ${list.length} page(s):`);
        for (const f of list.sort((a, b) => a.page.localeCompare(b.page))) lines.push(`    ${f.page}: ${f.detail}`);
      }
    }
  }
  return lines.join('\n');
}

test('the checks find what they look for (a made-up page with every kind of problem)', async () => {
  const context = await newView(served!.browser, sites[0]!.base, { width: 375, height: 812 });
  try {
    const tab = await context.newPage();
    const row = (id: string, text: string) => `<tr id="${id}"><td>${text}</td><td>x</td></tr>`;
    await tab.setContent(`<!doctype html><body style="margin:0"><main><div class="sl-markdown-content" style="width:300px">
      <table id="hidden-cell" style="table-layout:fixed;width:100px"><tr><td style="overflow:hidden;white-space:nowrap">a_rather_long_identifier_cut_mid_word</td></tr></table>
      <div style="overflow-x:auto"><table id="scrolls-fine"><tr><td style="white-space:nowrap">${'wide '.repeat(40)}</td></tr></table></div>
      <div style="overflow:hidden"><table id="clipped-by-wrapper"><tr><td style="white-space:nowrap">${'wide '.repeat(40)}</td></tr></table></div>
      <div style="overflow-x:auto"><table class="field-table">${row('input.a', `<code style="white-space:nowrap">${'long.path.'.repeat(20)}</code>`)}
        <thead style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)"><tr><th>Header that would not fit</th></tr></thead></table></div>
      <p style="width:600px">a paragraph that widens the page</p>
    </div></main></body>`);
    const problems = await tab.evaluate(measure);
    const whats = problems.map((p) => `${p.check} ${p.what}`);
    const has = (check: Check, pattern: RegExp) =>
      assert.ok(
        whats.some((w) => w.startsWith(check) && pattern.test(w)),
        `${check} ${pattern} not in:\n${whats.join('\n')}`,
      );
    has('overflow', /sticking out: .*div\.sl-markdown-content > p$/);
    has('cell', /table\[id="hidden-cell"\]: text cut off inside the cell/);
    has('cell', /table\[id="clipped-by-wrapper"\]: cell cut off by .*overflow-x: hidden/);
    has('field-table', /field-table: cells extend beyond the content column \(needs sideways scrolling in div\)/);
    assert.ok(
      !whats.some((w) => w.includes('scrolls-fine')),
      `a table in a scrolling wrapper is not cut off:\n${whats.join('\n')}`,
    );
    assert.ok(
      !whats.some((w) => w.startsWith('cell') && w.includes('field-table')),
      `the hidden header and the scrolled field table are not "cut off":\n${whats.join('\n')}`,
    );
  } finally {
    await context.close();
  }
});

test('the pages checked: every fixture page showing the long names, and every route and component of either site on a page checked', () => {
  const [fixtureSite, real] = sites as [Site, Site];
  const long = fixtureSite.pages.find((p) => p.includes(LONG_TOOL.toLowerCase()));
  assert.ok(long, `the fixture site has a page for ${LONG_TOOL}: ${fixtureSite.pages.join(' ')}`);
  // The long names also stand on the agent's index and in its tools' related links: every such page is checked.
  const showing = builtPages(fixture!.out).filter((url) =>
    new RegExp(`<main[\\s\\S]*${LONG_TOOL}[\\s\\S]*</main>`).test(readFileSync(fileOfPage(fixture!.out, url), 'utf8')),
  );
  assert.ok(showing.length > 1, `the long name shows on more pages than its own: ${showing.join(' ')}`);
  assert.deepEqual(
    showing.filter((url) => !fixtureSite.pages.includes(url)),
    [],
  );
  assert.deepEqual(
    kindsNotChecked([
      { name: fixtureSite.name, dir: fixture!.out, pages: fixtureSite.pages },
      { name: real.name, dir: DIST, pages: real.pages },
    ]),
    [],
    'routes and components on no page checked',
  );
  const kinds = pagesOfEveryKind(DIST);
  // Each page route of the source tree builds pages, and each is among those checked.
  const withoutPages = kinds.routes.filter((r) => !kinds.all.some((p) => p.route === r.name)).map((r) => r.name);
  assert.deepEqual(withoutPages, [], 'routes of src/pages or src/content/docs that built no page');
  const unchecked = kinds.routes
    .filter((r) => !real.pages.some((url) => kinds.all.find((p) => p.url === url)?.route === r.name))
    .map((r) => r.name);
  assert.deepEqual(unchecked, [], 'routes with no page checked');
  if (SWEEP) {
    const every = builtPages(DIST);
    const missing = sweepShare(every, SWEEP).filter((page) => !real.pages.includes(page));
    assert.deepEqual(missing, [], `pages of share ${SWEEP.share} of ${SWEEP.of} not checked`);
    if (SWEEP.of === 1) assert.deepEqual(real.pages, every);
  } else assert.ok(real.pages.length < kinds.all.length, `one page per template, not all ${kinds.all.length}`);
});

test("the fixture's long names are on its pages, so the checks saw them", async () => {
  const page = await served!.browser.newPage();
  try {
    const path = sites[0]!.pages.find((p) => p.includes(LONG_TOOL.toLowerCase()))!;
    await page.goto(sites[0]!.base + path);
    assert.equal((await page.locator('h1').innerText()).replace(/\s/g, ''), LONG_TOOL);
    assert.ok(await page.locator(`tr[id="input.${LONG_FIELD}"]`).isVisible(), `the row of ${LONG_FIELD}`);
  } finally {
    await page.close();
  }
});

test('no page is wider than the viewport', () => {
  const report = grouped('overflow');
  assert.ok(report === '', `pages that scroll sideways (documentElement.scrollWidth > innerWidth):\n${report}`);
});

test('no table cell has its content cut off', () => {
  const report = grouped('cell');
  assert.ok(report === '', `table cells whose content is cut off or cannot be scrolled into view:\n${report}`);
});

test('field tables fit the content column at every width from 320 px (they never scroll sideways)', () => {
  const report = grouped('field-table');
  assert.ok(report === '', `field tables wider than the visible content column:\n${report}`);
});

test('the home page: its tables never scroll sideways, no header is clipped, and "On this page" lists every section', async () => {
  // A table Starlight makes a scroll container (display: block) is never "cut off" for the checks above,
  // yet a header scrolled out of view by a few pixels reads as clipped (issue 51: "Tools" at 375 px).
  const problems: string[] = [];
  const context = await newView(served!.browser, served!.base, WIDTHS[0]!);
  const tab = await context.newPage();
  const response = await tab.goto('/', { waitUntil: 'load' });
  assert.ok(response?.ok(), `/: HTTP ${response?.status()}`);
  for (const view of WIDTHS) {
    await tab.setViewportSize(view);
    await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const found = await tab.evaluate(() => {
      const out: string[] = [];
      const tables = [...document.querySelectorAll('.sl-markdown-content table')];
      if (tables.length === 0) out.push('no table');
      for (const table of tables) {
        if (table.scrollWidth > table.clientWidth)
          out.push(`a table scrolls sideways by ${table.scrollWidth - table.clientWidth}px`);
        for (const th of table.querySelectorAll('th'))
          if (th.scrollWidth > th.clientWidth)
            out.push(`header "${th.textContent}" is clipped by ${th.scrollWidth - th.clientWidth}px`);
      }
      const sections = [...document.querySelectorAll('.sl-markdown-content h2[id]')].map((h) => `#${h.id}`);
      const listed = new Set(
        [...document.querySelectorAll('starlight-toc a, mobile-starlight-toc a')].map((a) => a.getAttribute('href')),
      );
      if (sections.length < 2) out.push(`only ${sections.length} section heading(s)`);
      for (const id of sections) if (!listed.has(id)) out.push(`"On this page" does not list ${id}`);
      return out;
    });
    for (const p of found) problems.push(`${view.width}px: ${p}`);
  }
  await context.close();
  assert.deepEqual(problems, []);
});
