/**
 * What changed, word for word, in the built site driven in Chromium, against the history files
 * read here as JSON (not the model the pages are built from):
 * - each sampled change of a tool's description or definition (with SWEEP, every change of its
 *   share too) reads on its changelog page, in that tool's item, as a diff whose kept and removed
 *   runs give the text before and whose kept and added runs give the text after (cut runs
 *   matching anything);
 * - `/changes/` filters by agent and to breaking changes without JavaScript of its own, and its
 *   feed lists the same releases;
 * - a tool's "Compare two releases" loads nothing before it is opened, lists as many changes
 *   between the oldest and newest release read as the file holds for that tool, and its URL
 *   reproduces the comparison.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { readAtom } from '../helpers/atom.ts';
import { DIST, ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { atScale } from '../helpers/sweep.ts';

interface RawEvent {
  release: string;
  previous: string;
  tool: string;
  kind: string;
  field?: string;
  from?: string;
  configuration?: string;
  fromText?: string;
  toText?: string;
}
interface RawHistory {
  agent: string;
  source: string;
  releases: { version: string; cliVersion?: string; read?: boolean; published?: string }[];
  events: RawEvent[];
  texts?: Record<string, string>;
}

const HISTORY_DIR = join(ROOT, 'content/history');
const histories = readdirSync(HISTORY_DIR).map(
  (f) => JSON.parse(readFileSync(join(HISTORY_DIR, f), 'utf8')) as RawHistory,
);

let served: Served;
let page: Page;
before(async () => {
  served = await serveAndLaunch();
  page = await served.browser.newPage({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  await served?.close();
});

/** A regular expression for a text whose cut runs (`[… N unchanged characters …]`) may be anything. */
function pattern(visible: string[]): RegExp {
  const escaped = visible.map((v) => (v === '\u0000' ? '[\\s\\S]*' : v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('')}$`);
}

/** The text before and after that a rendered diff shows: runs of text, <del>, <ins> and cut marks, in order. */
async function sidesOf(diff: import('playwright-core').Locator): Promise<{ before: RegExp; after: RegExp }> {
  const runs = await diff.evaluate((pre) =>
    [...pre.childNodes].map((n) => {
      if (n.nodeType === Node.TEXT_NODE) return { op: 'same', text: n.textContent ?? '' };
      const e = n as Element;
      if (e.classList.contains('text-diff-skip')) return { op: 'skip', text: '' };
      return { op: e.tagName.toLowerCase(), text: e.textContent ?? '' };
    }),
  );
  // A run of white space alone is shown with marks (↵ for a line break, · for a space).
  const unmark = (t: string) => (/^[↵\n·]+$/.test(t) ? t.replaceAll('↵\n', '\n').replaceAll('·', ' ') : t);
  const side = (drop: string) =>
    runs.filter((r) => r.op !== drop).map((r) => (r.op === 'skip' ? '\u0000' : unmark(r.text)));
  return { before: pattern(side('ins')), after: pattern(side('del')) };
}

/** The release section `openRelease` opened last, and the address of the page it is on. */
let opened: { key: string; url: string; section: import('playwright-core').Locator } | undefined;

/**
 * Opens the section of a release on its agent's changelog, following the index to its part page when the changelog is
 * cut.
 */
async function openRelease(agent: string, release: string): Promise<import('playwright-core').Locator> {
  // The section the page shows already, when it is that release's: a changelog page is long to load.
  if (opened?.key === `${agent} ${release}` && opened.url === page.url()) return opened.section;
  await page.goto(`${served.base}/${agent}/changelog/`);
  const onIndex = page.locator(`li[id="${release}"] > a`);
  if (await onIndex.count()) await page.goto(new URL((await onIndex.getAttribute('href')) as string, page.url()).href);
  const section = page.locator(`section[aria-labelledby="${release}"]`);
  assert.equal(await section.count(), 1, `${agent} ${release} has one section`);
  opened = { key: `${agent} ${release}`, url: page.url(), section };
  return section;
}

test("each sampled description or definition change reads as its text before and after, in its tool's item", async () => {
  let checked = 0;
  const withTexts = (h: RawHistory) => h.events.filter((e) => e.fromText !== undefined && e.toText !== undefined);
  const textLength = (h: RawHistory, e: RawEvent) => h.texts![e.toText!]!.length;
  // The longest text of all, where the cut and the fold are exercised; and of the changes whose texts both start with a
  // line break, the one whose unchanged start is shortest (not cut): HTML drops a line break right after <pre>.
  const longest = histories
    .flatMap((h) => withTexts(h).map((e) => ({ e, length: textLength(h, e) })))
    .reduce((a, b) => (b.length > a.length ? b : a)).e;
  const commonPrefix = (a: string, b: string) => {
    let n = 0;
    while (n < a.length && a[n] === b[n]) n++;
    return n;
  };
  const startsWithBreak = histories
    .flatMap((h) =>
      withTexts(h).flatMap((e) => {
        const [before, after] = [h.texts![e.fromText!]!, h.texts![e.toText!]!];
        return /^\r?\n/.test(before) && /^\r?\n/.test(after) ? [{ e, same: commonPrefix(before, after) }] : [];
      }),
    )
    .reduce<{ e: RawEvent; same: number } | undefined>(
      (a, b) => (a === undefined || b.same < a.same ? b : a),
      undefined,
    )?.e;
  for (const h of histories) {
    const changes = withTexts(h);
    // Everyday the newest change of each kind (most often in one release: one load), and the two above; with SWEEP,
    // every change of its share too.
    const newest = [...new Set(changes.map((e) => e.kind))].map((kind) => changes.findLast((e) => e.kind === kind)!);
    // In release order, so that the events of one release are read on one load of its section.
    const sample = atScale(changes, [...newest, ...changes.filter((e) => e === longest || e === startsWithBreak)]).sort(
      (a, b) =>
        h.releases.findIndex((r) => r.version === a.release) - h.releases.findIndex((r) => r.version === b.release),
    );
    for (const e of sample) {
      const label = h.releases.find((r) => r.version === e.release)?.cliVersion ?? e.release;
      const section = await openRelease(h.agent, label);
      const item = section
        .locator('ul.version-history > li')
        .filter({ has: page.locator(`:scope > a > code:text-is("${e.tool}"), :scope > code:text-is("${e.tool}")`) });
      const kind = e.kind === 'definition-changed' ? 'definition changed' : 'description changed';
      const change = item
        .locator('li.change')
        .filter({ has: page.locator(`.change-kind:text-is("${kind}")`) })
        .filter({ has: page.locator('pre.text-diff-body') });
      assert.ok((await change.count()) >= 1, `${h.agent} ${label} ${e.tool}: a ${kind} line`);
      const diffs = change.locator('pre.text-diff-body');
      const before = h.texts![e.fromText!]!;
      const after = h.texts![e.toText!]!;
      let matched = false;
      for (let i = 0; i < (await diffs.count()) && !matched; i++) {
        const sides = await sidesOf(diffs.nth(i));
        matched = sides.before.test(before) && sides.after.test(after);
      }
      assert.ok(matched, `${h.agent} ${label} ${e.tool}: the page's diff gives the recorded texts`);
      checked++;
    }
  }
  assert.ok(checked > 0, 'some change with texts was checked');
});

test('/changes/ filters by agent and to breaking changes, and its feed lists the same releases', async () => {
  await page.goto(`${served.base}/changes/`);
  const entries = page.locator('article.changes-entry');
  const agents = await entries.evaluateAll((es) => [...new Set(es.map((e) => (e as HTMLElement).dataset.agent!))]);
  assert.ok(agents.length > 0, 'the page lists releases');
  const visibleAgents = () =>
    entries.evaluateAll((es) => [
      ...new Set(
        es.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e as HTMLElement).dataset.agent!),
      ),
    ]);
  assert.deepEqual((await visibleAgents()).sort(), [...agents].sort(), 'every agent shows at first');
  const one = agents[agents.length - 1]!;
  await page.locator(`#changes-agent-${one}`).check();
  assert.deepEqual(await visibleAgents(), [one], `only ${one} shows once chosen`);
  await page.locator('#changes-agent-all').check();
  await page.locator('#changes-breaking').check();
  const shown = await page
    .locator('li.change')
    .evaluateAll((ls) =>
      ls.filter((l) => (l as HTMLElement).offsetParent !== null).map((l) => l.classList.contains('is-breaking')),
    );
  assert.ok(shown.every(Boolean), 'breaking only: every change shown is flagged');
  const feed = readAtom(readFileSync(join(DIST, 'changes.xml'), 'utf8'));
  assert.equal(feed.entries.length, await entries.count(), 'one feed entry per release listed');
  // The releases listed are those of the histories published in the window, newest first.
  const published = histories.flatMap((h) =>
    h.releases.filter((r) => r.published).map((r) => Date.parse(r.published!)),
  );
  const newest = Math.max(...published);
  const dates = await entries.evaluateAll((es) =>
    es.map((e) => e.closest('section')!.getAttribute('aria-labelledby')!),
  );
  assert.ok(
    dates.every((d, i) => i === 0 || d <= dates[i - 1]!),
    'days newest first',
  );
  assert.equal(
    dates[0],
    new Date(newest).toISOString().slice(0, 10),
    'the first day is the newest publication recorded',
  );
});

test("a tool's comparison loads nothing until opened, lists the file's changes between two releases, and its URL reproduces it", async () => {
  // A capture history's tool with the most changes under its own name.
  const h = histories.filter((x) => x.source === 'capture').sort((a, b) => b.events.length - a.events.length)[0]!;
  const counts = new Map<string, number>();
  for (const e of h.events) counts.set(e.tool, (counts.get(e.tool) ?? 0) + 1);
  // A tool with no rename either way: its events are all under its own name.
  const renamed = new Set(
    h.events.filter((e) => e.kind === 'renamed' && e.field === undefined).flatMap((e) => [e.tool, e.from ?? '']),
  );
  const catalog = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as {
    tools: { agent: string; fullName: string; links: { page: string; timeline?: string } }[];
  };
  const current = new Set(catalog.tools.filter((t) => t.agent === h.agent).map((t) => t.fullName));
  const [tool] = [...counts].filter(([t]) => !renamed.has(t) && current.has(t)).sort((a, b) => b[1] - a[1])[0]!;
  const entry = catalog.tools.find((t) => t.agent === h.agent && t.fullName === tool);
  assert.ok(entry?.links.timeline, `${h.agent} ${tool} has a timeline in the catalog`);
  const scripts: string[] = [];
  page.on('request', (r) => scripts.push(new URL(r.url()).pathname));
  await page.goto(served.base + entry.links.page);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(
    scripts.filter((s) => s.startsWith('/compare/') || s.endsWith('timeline.json')),
    [],
    `nothing of the comparison loads before it is opened (${h.agent} ${tool}, ${entry.links.page})`,
  );
  // The sections above it are laid out as they come near the screen (content-visibility: auto), so
  // the page may still move under the first click; a reader whose click missed clicks again.
  const compare = page.locator('details#compare');
  await compare.locator('> summary').click();
  if (!(await compare.evaluate((d) => (d as HTMLDetailsElement).open))) await compare.locator('> summary').click();
  assert.ok(
    await compare.evaluate((d) => (d as HTMLDetailsElement).open),
    `the comparison opens (${h.agent} ${tool}, ${entry.links.page})`,
  );
  // Generous limits: on a busy two-core machine the module and the timeline load slowly.
  await page.locator('details#compare select[name="to"]').waitFor({ timeout: 90_000 });
  const read = h.releases.filter((r) => r.read !== false).map((r) => r.version);
  const [oldest, newest] = [read[0]!, read[read.length - 1]!];
  const source = page.locator('details#compare select[name="source"]');
  if (await source.count()) await source.selectOption(h.source);
  await page.locator('details#compare select[name="from"]').selectOption(oldest);
  await page.locator('details#compare select[name="to"]').selectOption(newest);
  const summary = await page.locator('details#compare .compare-summary').innerText();
  const expected = counts.get(tool)!;
  assert.match(summary, new RegExp(`^${expected} changes? of `), `${h.agent} ${tool} ${oldest}..${newest}: ${summary}`);
  const url = page.url();
  assert.match(
    url,
    new RegExp(`[?&]compare=${h.source}%3A${oldest.replaceAll('.', '\\.')}\\.\\.${newest.replaceAll('.', '\\.')}`),
  );
  const again = await served.browser.newPage();
  await again.goto(url);
  await again.locator('details#compare .compare-summary').waitFor({ timeout: 90_000 });
  assert.equal(
    await again.locator('details#compare .compare-summary').innerText(),
    summary,
    'the URL reproduces the comparison',
  );
  await again.close();
});
