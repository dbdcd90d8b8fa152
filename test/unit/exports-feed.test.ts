/**
 * The Atom builder (src/lib/exports/feed.ts) and an agent's changelog feed
 * (src/lib/exports/changelog-feed.ts). Feeds are read back with an established
 * feed parser (feedsmith, test/helpers/atom.ts) and entry contents with parse5, so the
 * expectations are what a feed reader sees; expected texts are written here by
 * hand or read from the history files as JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { AGENT_IDS, AGENT_PRODUCTS } from '../../src/lib/agents/index.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';
import { changelogFeed, releaseTimes } from '../../src/lib/exports/changelog-feed.ts';
import { atomXml, escapeXml, type AtomFeed } from '../../src/lib/exports/feed.ts';
import { readAtom } from '../helpers/atom.ts';
import { agent, row, site, tool, view } from '../helpers/model-fixtures.ts';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/content');
const ORIGIN = 'https://feeds.test/';

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['documentFragment'];
const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text'
    ? node.value
    : 'childNodes' in node
      ? node.childNodes.map(textOf).join('')
      : '';
function elements(node: Node, name: string): DefaultTreeAdapterMap['element'][] {
  const own = 'tagName' in node && node.tagName === name ? [node] : [];
  return [...own, ...('childNodes' in node ? node.childNodes.flatMap((c) => elements(c, name)) : [])];
}

const HOSTILE = `</title><script>alert(1)</script>]]><![CDATA[x]]> & "q" 'a' <!-- c -->`;

function feedOf(parts: Partial<AtomFeed> = {}): AtomFeed {
  return {
    id: `${ORIGIN}f.xml`,
    title: 'T',
    updated: '2026-02-03T04:05:06Z',
    self: `${ORIGIN}f.xml`,
    alternate: `${ORIGIN}page/`,
    author: 'A',
    entries: [],
    ...parts,
  };
}

test('escapeXml: the five specials become references, in text and in attributes', () => {
  assert.equal(escapeXml(`</title><script>`), '&lt;/title&gt;&lt;script&gt;');
  assert.equal(escapeXml(`]]>`), ']]&gt;');
  assert.equal(escapeXml(`a&b "c" 'd'`), 'a&amp;b &quot;c&quot; &apos;d&apos;');
  assert.equal(escapeXml('&amp;'), '&amp;amp;');
});

test('escapeXml: characters XML 1.0 forbids become U+FFFD; tab, newline, carriage return and astral characters stay', () => {
  assert.equal(escapeXml('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg'), 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg');
  assert.equal(escapeXml('lone \uD800 and \uDC00, \uFFFE \uFFFF'), 'lone \uFFFD and \uFFFD, \uFFFD \uFFFD');
  assert.equal(escapeXml('\t\n\r \u{1F600} \uD7FF \uE000 \uFFFD'), '\t\n\r \u{1F600} \uD7FF \uE000 \uFFFD');
});

test('atomXml: a feed parser reads an Atom feed with hostile titles and contents as text, as written', () => {
  const xml = atomXml(
    feedOf({
      title: HOSTILE,
      subtitle: `sub ${HOSTILE}`,
      entries: [
        {
          id: `${ORIGIN}page/#2`,
          title: `two ${HOSTILE}`,
          updated: '2026-02-03T04:05:06.123456+00:00',
          link: `${ORIGIN}page/?a=1&b="2"#2`,
          content: { type: 'text', value: `text ${HOSTILE}` },
        },
        {
          id: `${ORIGIN}page/#1`,
          title: 'one &amp; &lt;b&gt;',
          updated: '2026-01-01T00:00:00Z',
          link: `${ORIGIN}page/#1`,
          content: { type: 'html', value: `<p>${escapeXml(HOSTILE)}</p>` },
        },
      ],
    }),
  );
  assert.equal((xml.match(/<script>/g) ?? []).length, 0, 'no markup from the texts');
  assert.ok(xml.includes(`href="${ORIGIN}page/?a=1&amp;b=&quot;2&quot;#2"`));
  const feed = readAtom(xml);
  assert.equal(feed.id, `${ORIGIN}f.xml`);
  assert.equal(feed.title, HOSTILE);
  assert.equal(feed.subtitle, `sub ${HOSTILE}`);
  assert.equal(feed.self, `${ORIGIN}f.xml`);
  assert.equal(feed.alternate, `${ORIGIN}page/`);
  assert.equal(feed.updated, '2026-02-03T04:05:06Z');
  assert.deepEqual(feed.authors, ['A']);
  assert.deepEqual(
    feed.entries.map((e) => e.id),
    [`${ORIGIN}page/#2`, `${ORIGIN}page/#1`],
  );
  // Text that looks like an entity reference is text too: decoded once, it reads as written.
  assert.deepEqual(
    feed.entries.map((e) => e.title),
    [`two ${HOSTILE}`, 'one &amp; &lt;b&gt;'],
  );
  assert.deepEqual(
    feed.entries.map((e) => e.updated),
    ['2026-02-03T04:05:06.123456+00:00', '2026-01-01T00:00:00Z'],
  );
  assert.equal(feed.entries[0]!.link, `${ORIGIN}page/?a=1&b="2"#2`);
  assert.deepEqual([feed.entries[0]!.contentType, feed.entries[0]!.content], ['text', `text ${HOSTILE}`]);
  // type="html": the reader gets the HTML back, and the HTML shows the hostile text as text.
  assert.equal(feed.entries[1]!.contentType, 'html');
  assert.equal(textOf(parseFragment(feed.entries[1]!.content!)), HOSTILE);
});

test('atomXml: a control character in a title reaches the reader as U+FFFD, and the document declares XML 1.0 in UTF-8', () => {
  const xml = atomXml(feedOf({ title: 'bell\u0007 nul\u0000 end' }));
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'));
  assert.equal(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml), false);
  assert.equal(readAtom(xml).title, 'bell\uFFFD nul\uFFFD end');
});

test('atomXml: a date that is not RFC 3339 is refused, naming the entry', () => {
  assert.throws(() => atomXml(feedOf({ updated: '2026-02-03' })), /feed updated is not an RFC 3339 date-time/);
  const entry = {
    id: 'urn:x',
    title: 't',
    updated: 'yesterday',
    link: ORIGIN,
    content: { type: 'text' as const, value: '' },
  };
  assert.throws(() => atomXml(feedOf({ entries: [entry] })), /updated of entry urn:x/);
});

test('changelog feed of the fixture content: one entry per release with changes, newest first, linked to its section', () => {
  const model = loadContent({ root: ROOT, contentDir: FIXTURE });
  const raw = JSON.parse(readFileSync(join(FIXTURE, 'history/claude-code.sdk.json'), 'utf8')) as HistoryFile;
  const record = JSON.parse(readFileSync(join(FIXTURE, `agents/${raw.agent}.json`), 'utf8')) as {
    product: string;
    checked: string;
  };
  const label = new Map(raw.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
  const counts = new Map<string, number>();
  for (const e of raw.events) counts.set(label.get(e.release)!, (counts.get(label.get(e.release)!) ?? 0) + 1);
  const expected = raw.releases
    .map((r) => label.get(r.version)!)
    .filter((r) => counts.has(r))
    .reverse();
  const feed = readAtom(atomXml(changelogFeed(model, raw.agent, ORIGIN)));
  const page = `${ORIGIN}${raw.agent}/changelog/`;
  assert.equal(feed.alternate, page);
  assert.equal(feed.self, `${ORIGIN}${raw.agent}/changelog.xml`);
  assert.equal(feed.id, feed.self);
  assert.equal(feed.title, `${AGENT_PRODUCTS[raw.agent]} changelog`);
  assert.deepEqual(
    feed.entries.map((e) => e.link),
    expected.map((r) => `${page}#${r}`),
  );
  assert.deepEqual(
    feed.entries.map((e) => e.id),
    expected.map((r) => `${page}#${r}`),
  );
  const changes = (n: number) => `${n} change${n === 1 ? '' : 's'}`;
  assert.deepEqual(
    feed.entries.map((e) => e.title),
    expected.map((r) => `${record.product} ${r}: ${changes(counts.get(r)!)}`),
  );
  // The fixture records no publication time: every entry, and the feed, take the day the agent was checked.
  const checked = `${record.checked}T00:00:00Z`;
  assert.deepEqual(
    feed.entries.map((e) => e.updated),
    expected.map(() => checked),
  );
  assert.equal(feed.updated, checked);
  // Each change is one line, under its tool; a field with a row links to it.
  const newest = parseFragment(feed.entries[0]!.content!);
  const newestEvents = raw.events.filter((e) => label.get(e.release) === expected[0]);
  assert.equal(
    elements(newest, 'ul').flatMap((ul) =>
      ul.childNodes.filter((c) => 'tagName' in c && c.tagName === 'li' && !elements(c, 'ul').length),
    ).length,
    newestEvents.length,
  );
  const older = parseFragment(feed.entries[1]!.content!);
  assert.ok(
    elements(older, 'a').some((a) =>
      a.attrs.some((at) => at.name === 'href' && at.value === `${ORIGIN}${raw.agent}/read/#input.limit`),
    ),
  );
});

test('changelog feed: hostile tool and field names and values reach the reader as text; publication times from every source', () => {
  const A = AGENT_IDS[0]!;
  const name = `</title><script>alert(1)</script>]]>\u0001`;
  const field = `f"><img src=x onerror=alert(2)>'`;
  const value = `<b>&amp;</b>\u0000`;
  const histories = [
    {
      agent: A,
      source: 'capture',
      package: 'cli',
      method: 'm',
      configurations: ['c'],
      releases: [
        { version: '1.0.0', published: '2026-03-01T10:00:00.123456+00:00' },
        { version: '1.1.0', published: '2026-03-05T08:00:00+02:00' },
        { version: '1.2.0' },
      ],
      events: [
        {
          release: '1.1.0',
          previous: '1.0.0',
          tool: name,
          kind: 'field-added',
          side: 'input',
          field: `.${field}`,
          path: field,
          to: value,
          configuration: 'c',
        },
        { release: '1.2.0', previous: '1.1.0', tool: name, kind: 'tool-removed', configuration: 'c' },
      ],
    },
    {
      agent: A,
      source: 'sdk',
      package: 'sdk',
      method: 'm',
      releases: [{ version: '0.1.0', cliVersion: '1.1.0', published: '2026-03-05T07:00:00Z' }],
      events: [],
    },
  ] as HistoryFile[];
  const model = site({
    agents: [agent(A, { checked: '2026-04-01' })],
    tools: [tool(A, 'Other', { input: view('json-schema', [row('input.x')]) })],
    histories,
  });
  assert.deepEqual([...releaseTimes(model, A)].sort(), [
    ['1.0.0', '2026-03-01T10:00:00.123Z'],
    // 08:00 at +02:00 is 06:00Z, earlier than the SDK release that goes with it.
    ['1.1.0', '2026-03-05T07:00:00.000Z'],
  ]);
  const xml = atomXml(changelogFeed(model, A, ORIGIN));
  assert.equal(/<script>|<img/.test(xml), false);
  const feed = readAtom(xml);
  assert.deepEqual(
    feed.entries.map((e) => [e.title, e.updated]),
    [
      [`Product ${A} 1.2.0: 1 change`, '2026-04-01T00:00:00Z'],
      [`Product ${A} 1.1.0: 1 change`, '2026-03-05T07:00:00.000Z'],
    ],
  );
  assert.equal(feed.updated, '2026-04-01T00:00:00Z');
  const added = parseFragment(feed.entries[1]!.content!);
  assert.equal(elements(added, 'script').length + elements(added, 'img').length + elements(added, 'b').length, 0);
  assert.deepEqual(
    elements(added, 'code').map((c) => textOf(c)),
    [name.replace('\u0001', '\uFFFD'), field, value.replace('\u0000', '\uFFFD')],
  );
  assert.equal(textOf(elements(added, 'p')[0]!), 'cli: 1.0.0 → 1.1.0');
});
