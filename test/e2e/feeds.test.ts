/**
 * The Atom feeds of the built site (dist/<agent>/changelog.xml), read by an
 * established feed parser (feedsmith) and by Chromium's XML parser (strict XML
 * 1.0), against the history files read here as JSON: one entry per release
 * with changes, newest first, updated at its publication time, linking to a
 * section of the built changelog page (or of its part page). The changelog page names its feed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { chromium, type Browser } from 'playwright-core';
import { AGENT_IDS, AGENT_PRODUCTS, type AgentId } from '../../src/lib/agents/index.ts';
import { atomXml } from '../../src/lib/exports/feed.ts';
import { SITE_URL } from '../../src/lib/site/site-settings.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/system/chromium.ts';
import { readAtom } from '../helpers/atom.ts';
import { buildSite, DIST, ensureChromium, ROOT } from '../helpers/browser.ts';

interface RawHistory {
  agent: string;
  releases: { version: string; cliVersion?: string; published?: string }[];
  events: { release: string }[];
}

/** A hook behaviour history: each change is an entry of the release it first showed in. */
interface RawBehaviourHistory {
  changes: { case: string; between: [string, string] }[];
}

/** The agent's hook behaviour changes as feed ids (`behaviour-<case>-<release>`), with their release. */
function behaviourEntries(agent: string): { id: string; release: string }[] {
  const file = join(ROOT, 'content/hook-behaviour-history', `${agent}.json`);
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as RawBehaviourHistory).changes.map((c) => ({
    id: `behaviour-${c.case}-${c.between[1]}`,
    release: c.between[1],
  }));
}

const HISTORY_DIR = join(ROOT, 'content/history');
const histories = readdirSync(HISTORY_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(HISTORY_DIR, f), 'utf8')) as RawHistory);
const agentsWithHistory = [...new Set(histories.map((h) => h.agent))];
const site = new URL(SITE_URL);
const absolute = (path: string) => new URL(path, site).href;

/** `1.2.10` after `1.2.9`: numeric, part by part. */
const newestFirst = (a: string, b: string) => {
  const [pa, pb] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++)
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pb[i] ?? 0) - (pa[i] ?? 0);
  return 0;
};

/**
 * The releases of an agent's changelog (named as the CLI release), newest first, each with its latest publication time
 * in ms.
 */
function expectedReleases(agent: string): { release: string; published: number | undefined }[] {
  const published = publishedTimes(agent);
  const withEvents = new Set<string>();
  for (const h of histories.filter((f) => f.agent === agent)) {
    const label = new Map(h.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
    for (const e of h.events) withEvents.add(label.get(e.release) ?? e.release);
  }
  return [...withEvents].sort(newestFirst).map((release) => ({ release, published: published.get(release) }));
}

/** Each release's latest publication time in ms, by its CLI release, as the agent's history files record it. */
function publishedTimes(agent: string): Map<string, number> {
  const published = new Map<string, number>();
  for (const h of histories.filter((f) => f.agent === agent)) {
    for (const r of h.releases)
      if (r.published)
        published.set(
          r.cliVersion ?? r.version,
          Math.max(Date.parse(r.published), published.get(r.cliVersion ?? r.version) ?? 0),
        );
  }
  return published;
}

/**
 * The agent's product and the day its sources were checked: its record (content/agents/), else its capture matrix
 * entry.
 */
function agentRecord(agent: string): { product: string; checked: string } {
  const file = join(ROOT, 'content/agents', `${agent}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { product: string; checked: string };
  const matrix = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as {
    agents: Record<string, { checked: string }>;
  };
  return { product: AGENT_PRODUCTS[agent as AgentId], checked: matrix.agents[agent]!.checked };
}

type Element = DefaultTreeAdapterMap['element'];
function elements(node: DefaultTreeAdapterMap['parentNode'] | DefaultTreeAdapterMap['childNode']): Element[] {
  const own = 'tagName' in node ? [node] : [];
  return [...own, ...('childNodes' in node ? node.childNodes.flatMap(elements) : [])];
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const textOf = (node: DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['parentNode']): string =>
  node.nodeName === '#text' && 'value' in node
    ? node.value
    : 'childNodes' in node
      ? node.childNodes.map(textOf).join('')
      : '';

const pages = new Map<string, Element[]>();
/** The elements of the built page a site URL names, or undefined when no file is built there. */
function builtPage(url: string): Element[] | undefined {
  const { pathname } = new URL(url);
  if (!pages.has(pathname)) {
    const file = join(DIST, decodeURIComponent(pathname), pathname.endsWith('/') ? 'index.html' : '');
    if (!existsSync(file)) return undefined;
    pages.set(pathname, elements(parse(readFileSync(file, 'utf8'))));
  }
  return pages.get(pathname);
}

/** Fails unless the URL is on the site, names a built page, and its fragment (if any) is an id on that page. */
function assertResolves(url: string, where: string): void {
  const u = new URL(url);
  assert.equal(u.origin, site.origin, `${where}: ${url} is on the site`);
  const page = builtPage(url);
  assert.ok(page, `${where}: ${url} is a built file`);
  if (u.hash) {
    const id = decodeURIComponent(u.hash.slice(1));
    assert.ok(
      page.some((el) => attr(el, 'id') === id),
      `${where}: ${url} names an id of the page`,
    );
  }
}

let browser: Browser;
before(async () => {
  buildSite();
  ensureChromium();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
});
after(async () => {
  await browser?.close();
});

/**
 * How Chromium's XML parser reads a document: its error if it is not well-formed, else the root's namespace and the
 * titles' text.
 */
async function chromiumReads(
  xml: string,
): Promise<{ error: string | null; namespace: string | null; titles: string[] }> {
  const page = await browser.newPage();
  try {
    return await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const error = doc.getElementsByTagName('parsererror')[0];
      return {
        error: error ? error.textContent : null,
        namespace: doc.documentElement.namespaceURI,
        titles: [...doc.getElementsByTagName('title')].map((t) => t.textContent ?? ''),
      };
    }, xml);
  } finally {
    await page.close();
  }
}

test('every agent with a release history has a feed, and no other agent has one', () => {
  assert.ok(agentsWithHistory.length > 0);
  for (const agent of AGENT_IDS)
    assert.equal(existsSync(join(DIST, agent, 'changelog.xml')), agentsWithHistory.includes(agent), agent);
});

test('each feed is well-formed XML in the Atom namespace, and its entries are the releases of the history files, newest first', async () => {
  for (const agent of agentsWithHistory) {
    const xml = readFileSync(join(DIST, agent, 'changelog.xml'), 'utf8');
    const strict = await chromiumReads(xml);
    assert.equal(strict.error, null, `${agent}: Chromium reads the feed as XML`);
    assert.equal(strict.namespace, 'http://www.w3.org/2005/Atom');
    const all = readAtom(xml);
    // Hook behaviour changes are entries of their own, beside the releases, each after its release's changes.
    const behaviour = behaviourEntries(agent);
    const releaseOf = (id: string) =>
      behaviour.find((b) => id.endsWith(`#${b.id}`))?.release ?? id.slice(id.lastIndexOf('#') + 1);
    const order = all.entries.map((e) => releaseOf(e.id ?? ''));
    assert.deepEqual(order, [...order].sort(newestFirst), `${agent}: entries newest release first`);
    assert.deepEqual(
      all.entries
        .filter((e) => e.id?.includes('#behaviour-'))
        .map((e) => e.id)
        .sort(),
      behaviour.map((b) => absolute(`/${agent}/changelog/#${b.id}`)).sort(),
      `${agent}: one entry per hook behaviour change`,
    );
    const feed = { ...all, entries: all.entries.filter((e) => !e.id?.includes('#behaviour-')) };
    const record = agentRecord(agent);
    const page = absolute(`/${agent}/changelog/`);
    assert.equal(feed.self, absolute(`/${agent}/changelog.xml`));
    assert.equal(feed.alternate, page);
    assert.ok(feed.id && feed.title && feed.authors.length > 0, `${agent}: feed id, title and author`);
    const expected = expectedReleases(agent);
    // Ids are the release's address on the one-page changelog (kept when the changelog was cut into parts);
    // links go to the page that shows the release now, the one-page changelog or a part page under it.
    assert.deepEqual(
      feed.entries.map((e) => e.id),
      expected.map((r) => `${page}#${r.release}`),
      `${agent}: one entry per release with changes, newest first`,
    );
    for (const [i, entry] of feed.entries.entries()) {
      const link = new URL(entry.link ?? '');
      assert.ok(
        link.href.startsWith(page) && link.hash === `#${expected[i]!.release}`,
        `${agent}: ${entry.link} shows ${expected[i]!.release}`,
      );
    }
    assert.equal(new Set(feed.entries.map((e) => e.id)).size, expected.length, `${agent}: entry ids are unique`);
    const fallback = Date.parse(`${record.checked}T00:00:00Z`);
    assert.deepEqual(
      feed.entries.map((e) => Date.parse(e.updated ?? '')),
      expected.map((r) => r.published ?? fallback),
      `${agent}: updated is the release's publication time, else the day the agent was checked`,
    );
    // A history without a change (every release compared alike) gives a feed without entries, updated the day it was
    // checked.
    const times = [
      ...expected.map((r) => r.published ?? fallback),
      ...behaviour.map((b) => publishedTimes(agent).get(b.release) ?? fallback),
    ];
    assert.equal(Date.parse(feed.updated ?? ''), times.length > 0 ? Math.max(...times) : fallback);
    for (const [i, entry] of feed.entries.entries()) {
      assert.match(
        entry.title ?? '',
        new RegExp(
          `^${record.product.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${expected[i]!.release.replace(/\./g, '\\.')}: [1-9]\\d* changes?$`,
        ),
      );
      assert.equal(entry.contentType, 'html');
      assert.ok(
        elements(parse(entry.content ?? '')).some((el) => el.tagName === 'li'),
        `${agent} ${expected[i]!.release}: the entry lists its changes`,
      );
    }
  }
});

test('every link of every feed resolves to a built page, with its fragment an id there', () => {
  for (const agent of agentsWithHistory) {
    const feed = readAtom(readFileSync(join(DIST, agent, 'changelog.xml'), 'utf8'));
    assertResolves(feed.alternate!, `${agent} feed`);
    for (const entry of feed.entries) {
      assertResolves(entry.link!, `${agent} entry`);
      for (const a of elements(parse(entry.content ?? '')).filter((el) => el.tagName === 'a'))
        assertResolves(attr(a, 'href')!, `${agent} entry ${entry.id}`);
    }
  }
});

test('the changelog page names its feed in its head and with a visible link', () => {
  for (const agent of agentsWithHistory) {
    const page = builtPage(absolute(`/${agent}/changelog/`))!;
    const feedPath = `/${agent}/changelog.xml`;
    const head = page.filter(
      (el) => el.tagName === 'link' && attr(el, 'rel') === 'alternate' && attr(el, 'type') === 'application/atom+xml',
    );
    assert.deepEqual(
      head.map((el) => attr(el, 'href')),
      [feedPath],
      agent,
    );
    const visible = page.filter((el) => el.tagName === 'a' && attr(el, 'href') === feedPath);
    assert.deepEqual(
      visible.map((el) => textOf(el).trim()),
      ['Subscribe (Atom)'],
      agent,
    );
  }
});

test('a feed built with hostile names is well-formed for a strict XML parser, which reads them as text', async () => {
  const name = `</title><script>alert(1)</script>]]><![CDATA[ & &amp; "q" 'a' \u0001\u0000\uFFFE`;
  const xml = atomXml({
    id: absolute('/f.xml'),
    title: name,
    updated: '2026-01-01T00:00:00Z',
    self: absolute('/f.xml'),
    alternate: absolute(`/x"'<>/`),
    author: name,
    entries: [
      {
        id: absolute('/f/#1'),
        title: name,
        updated: '2026-01-01T00:00:00Z',
        link: absolute('/f/#1'),
        content: { type: 'text', value: name },
      },
    ],
  });
  const strict = await chromiumReads(xml);
  assert.equal(strict.error, null);
  const shown = `</title><script>alert(1)</script>]]><![CDATA[ & &amp; "q" 'a' \uFFFD\uFFFD\uFFFD`;
  assert.deepEqual(strict.titles, [shown, shown]);
});
