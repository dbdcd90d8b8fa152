/**
 * A tool page answers a hook author first, checked against the recorded content
 * (content/payloads/, content/hook-behaviour/) read here without the site's code:
 * - for each agent's most-answered tool (the tool its recorded hook cases call
 *   most), at 1280×900 a block showing one of that tool's recorded hook payloads
 *   and a link to one of its recorded cases both start within the first three
 *   screens, the payload's schema file is linked and served, and the page is at
 *   most twelve screens long with its folds closed;
 * - no reader section of any tool page (everything above Provenance, upstream
 *   text aside) shows `npm run` or a `content/` path (every page is read; only
 *   those whose text, tags stripped, holds either are parsed);
 * - field names never break inside a word, at 1280 and 375 px: a name breaks
 *   only where the page put a break opportunity, and those sit after `_`, `.`,
 *   `/`, before a bracket or at a case change, on the pages whose field rows
 *   name the longest words (FIELD_NAME_PAGES); SWEEP=all (`npm run test:sweep`)
 *   adds every tool page, SWEEP=K/N the tool pages of that share;
 * - a word of a setting a gate names (`--disallowedTools=Bash`, `gpt-5.3-codex`,
 *   as the editorial files give them) is broken across lines only when it alone
 *   is wider than its box: in the support strip of the tool pages with the
 *   longest "Gates" lines (GATE_PAGES) and in the tables of the job pages that
 *   show the most gates (half as many), at 1280 and 375 px; SWEEP adds its
 *   share of the tool pages with an editorial file and of the job pages.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attr, elements, textOf, type Element as HtmlElement } from '../helpers/html.ts';
import type { Page } from 'playwright-core';
import { DIST, ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { inParallel } from '../helpers/pages.ts';
import { atScale } from '../helpers/sweep.ts';

interface CatalogTool {
  agent: string;
  slug: string;
  fullName: string;
  aliases: { name: string }[];
  links: { page: string };
}

const SCREEN = { width: 1280, height: 900 };
let served: Served;
let tools: CatalogTool[];

before(async () => {
  served = await serveAndLaunch();
  tools = (JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as { tools: CatalogTool[] }).tools;
});
after(() => served?.close());

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const files = (dir: string): string[] => {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
};
const toolNamed = (agent: string, name: string) =>
  tools.find((t) => t.agent === agent && (t.fullName === name || t.aliases.some((a) => a.name === name)));

/** Every string anywhere in a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Per agent, its most-answered tool: its recorded cases, and the hook payloads recorded for the tool's own calls. */
function mostAnswered(): { tool: CatalogTool; cases: string[]; payloads: unknown[] }[] {
  const out: { tool: CatalogTool; cases: string[]; payloads: unknown[] }[] = [];
  for (const agent of readdirSync(join(ROOT, 'content/hook-behaviour'))) {
    const byTool = new Map<CatalogTool, string[]>();
    for (const file of files(join(ROOT, 'content/hook-behaviour', agent))) {
      const record = readJson(file) as { case: string; tool: string };
      const tool = toolNamed(agent, record.tool);
      if (tool) byTool.set(tool, [...(byTool.get(tool) ?? []), record.case]);
    }
    const [tool, cases] = [...byTool].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
    if (!tool || !cases) continue;
    const payloads = files(join(ROOT, 'content/payloads', agent)).flatMap((file) => {
      const data = readJson(file) as { calls: { tool: string; hooks?: unknown[] }[] };
      return data.calls.filter((c) => toolNamed(agent, c.tool) === tool).flatMap((c) => c.hooks ?? []);
    });
    out.push({ tool, cases, payloads });
  }
  return out;
}

test("each agent's most-answered tool shows a recorded hook payload and what hook answers did within three screens, on a page of at most twelve", async () => {
  const picked = mostAnswered();
  assert.ok(picked.length >= 3, `agents with recorded hook cases: ${picked.map((p) => p.tool.agent).join(', ')}`);
  const context = await served.browser.newContext({ viewport: SCREEN, baseURL: served.base });
  const failures: string[] = [];
  // One tab loads each page in turn: a new tab per page costs about as much as a page load.
  const page = await context.newPage();
  for (const { tool, cases, payloads } of picked) {
    await page.goto(tool.links.page, { waitUntil: 'load' });
    // Real heights: sections laid out lazily (content-visibility) would otherwise count with an assumed height.
    await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
    const found = await page.evaluate(
      ({ cases, agent }) => {
        const top = (el: Element) => el.getBoundingClientRect().top + window.scrollY;
        const blocks = [...document.querySelectorAll('main pre')]
          .filter((pre) => pre.getClientRects().length > 0)
          .map((pre) => ({ text: pre.textContent ?? '', top: top(pre) }));
        const links = [...document.querySelectorAll<HTMLAnchorElement>('main a[href*="/hooks/#case-"]')].filter(
          (a) => a.getClientRects().length > 0,
        );
        const answers = links
          .filter((a) => cases.includes(a.hash.slice('#case-'.length)) && a.pathname.endsWith(`/${agent}/hooks/`))
          .map(top);
        const schema = [...document.querySelectorAll<HTMLAnchorElement>('main a[href$="hooks.schema.json"]')].map(
          (a) => ({ href: a.href, top: top(a) }),
        );
        return { blocks, answers, schema, height: document.documentElement.scrollHeight };
      },
      { cases, agent: tool.agent },
    );
    const limit = 3 * SCREEN.height;
    // A block shows a recorded payload when every string of that payload (placeholders included) is in it, as is or as
    // JSON writes it.
    const inBlock = (text: string, s: string) =>
      s.length > 200 || text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1));
    const shown = found.blocks.filter((b) => payloads.some((p) => strings(p).every((s) => inBlock(b.text, s))));
    const where = `${tool.links.page}`;
    if (payloads.length === 0) failures.push(`${where}: no hook payload is recorded for its calls`);
    else if (!shown.some((b) => b.top < limit))
      failures.push(`${where}: no recorded payload starts within 3 screens (first at ${shown[0]?.top ?? 'none'})`);
    if (!found.answers.some((t) => t < limit))
      failures.push(
        `${where}: no link to its recorded cases within 3 screens (first at ${found.answers[0] ?? 'none'})`,
      );
    const schema = found.schema[0];
    if (!schema || schema.top > limit) failures.push(`${where}: hooks.schema.json not linked within 3 screens`);
    else {
      const response = await page.request.get(schema.href);
      if (!response.ok()) failures.push(`${where}: ${schema.href} answers ${response.status()}`);
    }
    if (found.height > 12 * SCREEN.height)
      failures.push(`${where}: ${(found.height / SCREEN.height).toFixed(1)} screens long with its folds closed`);
  }
  await context.close();
  assert.deepEqual(failures, []);
});

/** Upstream text quoted on the page (descriptions, recorded payloads, what the model was sent): it may say anything. */
const UPSTREAM = new Set(['field-description', 'upstream-text', 'sent-to-model', 'payload', 'hooks-pre']);
const isUpstream = (el: HtmlElement) =>
  el.tagName === 'pre' || el.tagName === 'q' || (attr(el, 'class') ?? '').split(/\s+/).some((c) => UPSTREAM.has(c));

const READER_WORDS = /.{0,40}(?:npm run|content\/[\w-]+\/).{0,40}/g;

/**
 * Whether a page's <main> up to Provenance could show READER_WORDS: its text with every tag (and so every attribute)
 * replaced by a space, as the check below joins text nodes, upstream text and scripts kept. A page where this finds
 * nothing cannot fail the check, and is not parsed.
 */
function mayShowReaderWords(html: string): boolean {
  const start = html.indexOf('<main');
  const provenance = html.indexOf('id="provenance"', start);
  const end = provenance < 0 ? html.indexOf('</main>', start) : provenance;
  return new RegExp(READER_WORDS.source).test(html.slice(start, end).replace(/<[^>]*>/g, ' '));
}

test('no reader section of a tool page shows `npm run` or a content/ path', (t) => {
  const found: string[] = [];
  let parsed = 0;
  for (const tool of tools) {
    const html = readFileSync(join(DIST, tool.links.page, 'index.html'), 'utf8');
    assert.ok(html.includes('<main'), tool.links.page);
    if (!mayShowReaderWords(html)) continue;
    parsed++;
    const all = elements(html);
    const main = all.find((e) => e.tagName === 'main');
    assert.ok(main, tool.links.page);
    // Reader text: everything in <main> before the Provenance heading, quoted upstream text left out.
    let done = false;
    const text: string[] = [];
    const walk = (node: HtmlElement): void => {
      if (done) return;
      if (attr(node, 'id') === 'provenance') {
        done = true;
        return;
      }
      if (isUpstream(node) || node.tagName === 'script') return;
      for (const child of node.childNodes) {
        if ('tagName' in child) walk(child as HtmlElement);
        else if (child.nodeName === '#text' && !done) text.push(textOf(child));
      }
    };
    walk(main);
    for (const m of text.join(' ').matchAll(READER_WORDS)) found.push(`${tool.links.page}: …${m[0]}…`);
  }
  assert.deepEqual(found, []);
  t.diagnostic(`${parsed} of ${tools.length} pages parsed`);
});

test('the filter of that check keeps what the check finds: words across elements (joined by a space), upstream text', () => {
  const page = (main: string) => `<html><body><main>${main}<h2 id="provenance">P</h2>npm run late</main></body></html>`;
  assert.ok(mayShowReaderWords(page('<p>Run <code>npm run</code> first</p>')));
  assert.ok(mayShowReaderWords(page('<p>see <b>npm</b>run, <i>content/payloads/</i>x</p>')));
  assert.ok(mayShowReaderWords(page('<pre>npm run x</pre>')), 'a superset: upstream text kept');
  assert.ok(!mayShowReaderWords(page('<a href="content/payloads/x.json">a link</a>')), 'attributes are no text');
  assert.ok(!mayShowReaderWords(page('<p>nothing</p>')), 'after Provenance is not read');
});

/**
 * The longest word (a run between the breaks the rule allows) of the field names a page's rows are named by (their ids,
 * `input.a.b`, read from the HTML as it is: the choice only orders pages).
 */
function longestWord(html: string): number {
  let longest = 0;
  for (const m of html.matchAll(/<tr\s[^>]*\bid="[^".]*\.([^"]*)"[^>]*\brole="row"/g))
    for (const word of m[1]!.split(/[_./[\]\s]|(?<=[a-z0-9])(?=[A-Z])/)) longest = Math.max(longest, word.length);
  return longest;
}

/** The pages always checked: those whose field names hold the longest words, the likeliest to break; SWEEP adds its share. */
const FIELD_NAME_PAGES = 8;

/** The `count` items that weigh most (the likeliest to show a problem), with SWEEP its share of the items too. */
function heaviest<T>(items: readonly T[], weight: (item: T) => number, count: number): T[] {
  const weighed = items.map((item) => ({ item, n: weight(item) })).sort((a, b) => b.n - a.n);
  return atScale(
    items,
    weighed.slice(0, count).map((x) => x.item),
  );
}

/**
 * The problems `check` finds on each item's page, at 1280 and then 375 px, each said with its width and path. Two
 * tabs per width, each reused from page to page.
 */
async function atBothWidths<T>(
  items: readonly T[],
  path: (item: T) => string,
  check: (page: Page, item: T) => Promise<string[]>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const width of [1280, 375]) {
    const context = await served.browser.newContext({ viewport: { width, height: 900 }, baseURL: served.base });
    const tabs = [await context.newPage(), await context.newPage()];
    await inParallel(items, tabs.length, async (item, worker) => {
      const page = tabs[worker]!;
      await page.goto(path(item), { waitUntil: 'load' });
      problems.push(...(await check(page, item)).map((found) => `${width} px ${path(item)} ${found}`));
    });
    await context.close();
  }
  return problems;
}

test('field names break only between words, at 1280 and 375 px', async () => {
  const pages = heaviest(
    tools.map((t) => t.links.page),
    (p) => longestWord(readFileSync(join(DIST, p, 'index.html'), 'utf8')),
    FIELD_NAME_PAGES,
  );
  const problems = await atBothWidths(
    pages,
    (p) => p,
    (page) =>
      page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = true;
        document.head.insertAdjacentHTML('beforeend', '<style>* { content-visibility: visible !important; }</style>');
        const out: string[] = [];
        // Where a name may break: after `_`, `.`, `/` or `-`, before `[` or `(`, or where lower case meets upper case.
        const allowed = (before: string, after: string) =>
          /[_./\-\])]$/.test(before) || /^[[(]/.test(after) || (/[a-z0-9]$/.test(before) && /^[A-Z]/.test(after));
        for (const code of document.querySelectorAll('.field-table td:first-child code')) {
          const texts = [...code.childNodes].filter((n): n is Text => n.nodeType === Node.TEXT_NODE);
          const name = code.textContent ?? '';
          for (let i = 1; i < texts.length; i++)
            if (!allowed(texts[i - 1]!.data, texts[i]!.data))
              out.push(`${name}: a break opportunity between "${texts[i - 1]!.data}" and "${texts[i]!.data}"`);
          for (const node of texts) {
            const range = document.createRange();
            range.selectNodeContents(node);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) out.push(`${name}: "${node.data}" is broken across ${lines.size} lines`);
          }
          const cell = code.closest('td')!.getBoundingClientRect();
          if (code.getBoundingClientRect().right > cell.right + 1) out.push(`${name}: sticks out of its cell`);
        }
        return out;
      }),
  );
  assert.deepEqual(problems, []);
});

/** The text of a built tool page's "Gates" line, tags stripped; empty when it has none. */
function gatesLine(page: string): string {
  const html = readFileSync(join(DIST, page, 'index.html'), 'utf8');
  return (/<dt>Gates<\/dt>\s*<dd>([\s\S]*?)<\/dd>/.exec(html)?.[1] ?? '').replace(/<[^>]*>/g, '');
}

/** A tool's editorial file (a tool without one has its gates "not established"). */
const editorialFile = (tool: CatalogTool) => join(ROOT, 'content/editorial', tool.agent, `${tool.slug}.json`);

/**
 * The words of each setting that a tool's editorial file says gates it (`--disallowedTools=Bash`, `X=1`,
 * `--approval-mode=yolo` and `(headless)`, `gpt-5.3-codex,`).
 */
function gateWords(tool: CatalogTool): string[] {
  const file = editorialFile(tool);
  const gates = (readJson(file) as { availability: { gates: { kind: string; name: string; value?: string }[] } })
    .availability.gates;
  return gates
    .filter((g) => g.kind !== 'always')
    .flatMap((g) => (g.value === undefined ? g.name : `${g.name}=${g.value}`).split(/\s+/))
    .filter((word) => word !== '');
}

/**
 * The tool pages always checked: those with the longest "Gates" lines, the likeliest to wrap, and half as many job
 * pages, those whose tables show the most gates; SWEEP adds its share of each.
 */
const GATE_PAGES = 8;

/**
 * Where on the page words of gate settings are broken across lines though one alone fits the width of the box that
 * holds it: the "Gates" line of the support strip, or each gate of a compatibility table. In the strip each word must
 * be there; in a table, those each gate holds are checked.
 */
function brokenWords(page: Page, where: 'strip' | 'table', words: readonly string[]): Promise<string[]> {
  return page.evaluate(
    ({ where, words }) => {
      const boxes =
        where === 'strip'
          ? [...document.querySelectorAll('.support-strip dt')]
              .filter((dt) => dt.textContent === 'Gates')
              .map((dt) => dt.nextElementSibling!)
          : [...document.querySelectorAll('.compat-gates')];
      if (boxes.length === 0) return [`no ${where === 'strip' ? '"Gates" line' : 'gate in a table'}`];
      const wanted = new Set(words);
      const measure = document.createElement('span');
      document.body.append(measure);
      const out: string[] = [];
      for (const box of boxes) {
        // Text node and offset of each character of the box.
        const at: [Text, number][] = [];
        const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null)
          for (let i = 0; i < n.data.length; i++) at.push([n, i]);
        const text = at.map(([n, i]) => n.data[i]).join('');
        const style = getComputedStyle(box);
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        measure.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${style.font}`;
        // Each word of the text (after a space or the start, before a space or the end; a ";" after it not its
        // own), checked when it is a word of a setting.
        const found = new Set<string>();
        for (const m of text.matchAll(/\S+/g)) {
          const setting = wanted.has(m[0]) ? m[0] : m[0].replace(/;$/, '');
          if (!wanted.has(setting)) continue;
          found.add(setting);
          const range = document.createRange();
          range.setStart(...at[m.index]!);
          const [endNode, endOffset] = at[m.index + setting.length - 1]!;
          range.setEnd(endNode, endOffset + 1);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size < 2) continue;
          measure.textContent = setting;
          if (measure.getBoundingClientRect().width <= room)
            out.push(
              `"${setting}" is broken across ${lines.size} lines, though it fits the ${Math.round(room)} px of its box`,
            );
        }
        if (where === 'strip')
          for (const setting of words) if (!found.has(setting)) out.push(`"${setting}" is not in the line: ${text}`);
      }
      measure.remove();
      return out;
    },
    { where, words },
  );
}

test(`a gate's setting ("--disallowedTools=Bash") breaks across lines only when it is wider than its box, in the support strip and the job pages' tables, at 1280 and 375 px`, async () => {
  const edited = tools.filter((t) => existsSync(editorialFile(t)));
  const gated = heaviest(edited, (t) => gatesLine(t.links.page).length, GATE_PAGES);
  const problems = await atBothWidths(
    gated,
    (t) => t.links.page,
    (page, tool) => brokenWords(page, 'strip', gateWords(tool)),
  );
  // The job pages whose tables show the most gates (every one with SWEEP), against every word of a setting any tool
  // is gated by.
  const every = [...new Set(edited.flatMap(gateWords))];
  const gatesOn = (path: string) =>
    readFileSync(join(DIST, path, 'index.html'), 'utf8').split('class="compat-gates"').length - 1;
  const jobPages = heaviest(
    readdirSync(join(DIST, 'jobs'))
      .map((job) => `/jobs/${job}/`)
      .filter((path) => existsSync(join(DIST, path, 'index.html')) && gatesOn(path) > 0),
    gatesOn,
    GATE_PAGES / 2,
  );
  assert.ok(jobPages.length > 0, 'a job page shows gates in its table');
  problems.push(
    ...(await atBothWidths(
      jobPages,
      (p) => p,
      (page) => brokenWords(page, 'table', every),
    )),
  );
  assert.deepEqual(problems, []);
});
