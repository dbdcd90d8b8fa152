/**
 * Pages built from release histories (src/lib/views/history-pages.ts): an agent's
 * changelog, a tool's version history and a removed tool's page. Expectations
 * come from the fixture history file read as JSON, and from histories written
 * here by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, AGENT_PRODUCTS } from '../../src/lib/agents/index.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';
import { CHANGES_PER_PAGE } from '../../src/lib/history/changelog-parts.ts';
import { changelogFeed } from '../../src/lib/exports/changelog-feed.ts';
import {
  changelogAgents,
  changelogPage,
  changelogPages,
  removedToolPage,
  versionHistory,
  type VersionHistoryView,
} from '../../src/lib/views/history-pages.ts';
import { releaseUrl } from '../../src/lib/history/changelog-addresses.ts';
import { agent, row, site, tool, view } from '../helpers/model-fixtures.ts';
import { toolHistoryFacts } from '../../src/lib/content/tool-facts.ts';
import type { ToolModel } from '../../src/lib/model/model.ts';

/** A tool's "Version history", its history facts computed from `histories` as the loader computes them. */
function historyOf(t: ToolModel, histories: HistoryFile[]): VersionHistoryView {
  t.facts = { ...t.facts, history: toolHistoryFacts(t, histories) };
  return versionHistory(t, { record: agent(t.agent), histories });
}

const ROOT = join(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/content');
const model = loadContent({ root: ROOT, contentDir: FIXTURE });
const raw = JSON.parse(readFileSync(join(FIXTURE, 'history/claude-code.sdk.json'), 'utf8')) as HistoryFile;
const cli = new Map(raw.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
const agentId = raw.agent;

test('changelog: one section per release with changes, newest first, its count of changes in "On this page"', () => {
  const page = changelogPage(model, agentId);
  const counts = new Map<string, number>();
  for (const e of raw.events) counts.set(cli.get(e.release)!, (counts.get(cli.get(e.release)!) ?? 0) + 1);
  // The fixture's releases are listed oldest first; the changelog goes the other way.
  const releases = raw.releases
    .map((r) => r.cliVersion!)
    .filter((r) => counts.has(r))
    .reverse();
  assert.deepEqual(
    page.sections,
    releases.map((r) => ({ id: r, title: r, depth: 2, tocTitle: `${r} (${counts.get(r)})` })),
  );
  assert.deepEqual(
    page.releases.map((r) => r.section),
    page.sections,
  );
  assert.equal(page.title, `${AGENT_PRODUCTS[agentId]} changelog`);
  const [first, last] = [raw.releases[0]!, raw.releases[raw.releases.length - 1]!];
  assert.deepEqual(page.coverage, [
    {
      label: 'SDK types',
      package: raw.package,
      count: raw.releases.length,
      first: first.cliVersion,
      last: last.cliVersion,
    },
  ]);
});

test('changelog: changes grouped by the releases compared, then by tool; tools and fields linked where they have a page', () => {
  const page = changelogPage(model, agentId);
  for (const release of page.releases) {
    const events = raw.events.filter((e) => cli.get(e.release) === release.section.id);
    const evidence = [...new Set(events.map((e) => `${raw.package} ${raw.file}: ${e.previous} → ${e.release}`))];
    assert.deepEqual(
      release.groups.map((g) => g.evidence),
      evidence,
    );
    assert.deepEqual(
      release.groups.flatMap((g) => g.tools.map((t) => t.name)),
      [...new Set(events.map((e) => e.tool))].sort(),
    );
  }
  const tools = new Map(
    page.releases.flatMap((r) =>
      r.groups.flatMap((g) => g.tools.map((t) => [`${r.section.id} ${t.name}`, t] as const)),
    ),
  );
  // A removed tool has no page here; a former name links to the tool that has it now.
  assert.equal(tools.get('2.0.3 Gone')!.url, undefined);
  assert.equal(tools.get('2.0.3 OldShell')!.url, `/${agentId}/shell/`);
  // A field still on the page links to its row; a removed field to the note that keeps its old anchor.
  assert.deepEqual(
    tools.get('2.0.1 Read')!.changes.map((c) => c.fieldHref),
    [`/${agentId}/read/#input.limit`],
  );
  assert.deepEqual(
    tools.get('2.0.3 Read')!.changes.map((c) => c.fieldHref),
    [`/${agentId}/read/#input.offset`],
  );
  assert.deepEqual(
    tools.get('2.0.3 Gone')!.changes.map((c) => c.fieldHref),
    [undefined],
  );
});

test('changelog of captures: configurations of one comparison are one block; only agents with a history have a changelog', () => {
  const [A, B] = AGENT_IDS as [(typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number]];
  const history: HistoryFile = {
    agent: A,
    source: 'capture',
    package: 'pkg',
    method: 'm',
    configurations: ['one', 'two'],
    releases: [{ version: '1.0.0' }, { version: '1.1.0' }],
    events: [
      {
        release: '1.1.0',
        previous: '1.0.0',
        tool: 'T',
        kind: 'field-added',
        side: 'input',
        field: '.x',
        path: 'x',
        configuration: 'one',
      },
      {
        release: '1.1.0',
        previous: '1.0.0',
        tool: 'T',
        kind: 'field-added',
        side: 'input',
        field: '.y',
        path: 'y',
        configuration: 'two',
      },
    ],
  } as HistoryFile;
  const s = site({
    agents: [agent(A), agent(B)],
    tools: [
      tool(A, 'T', { input: view('json-schema', [row('input.x')]), captured: { one: 'function', two: 'function' } }),
    ],
    histories: [history],
  });
  assert.deepEqual(
    changelogAgents(s).map((a) => a.id),
    [A],
  );
  const [release] = changelogPage(s, A).releases;
  assert.deepEqual(
    release!.groups.map((g) => g.evidence),
    ['pkg: 1.0.0 → 1.1.0'],
  );
  assert.deepEqual(
    release!.groups[0]!.tools.map((t) => [t.name, t.changes.map((c) => c.fieldHref)]),
    [['T', [`/${A}/t/#input.x`, undefined]]],
  );
  assert.equal(release!.section.tocTitle, '1.1.0 (2)');
  assert.deepEqual(
    changelogPage(s, A).coverage.map((c) => c.label),
    ['Captures'],
  );
});

test('a change the history cannot place exactly is "between" on the changelog, the feed and the version history; an exact one in the same release is not', () => {
  const [A] = AGENT_IDS as [(typeof AGENT_IDS)[number]];
  const history = {
    agent: A,
    source: 'capture',
    package: 'pkg',
    method: 'm',
    configurations: ['one', 'two'],
    // 1.1.0 not read; 1.2.0 read, `one` failing there; 1.3.0 read in both.
    releases: [
      { version: '1.0.0', read: true },
      { version: '1.1.0', read: false },
      { version: '1.2.0', read: true, failed: { one: 'crash' } },
      { version: '1.3.0', read: true },
    ],
    events: [
      // Seen in `one`, last run in 1.0.0: 1.1.0 not read and `one` failed in 1.2.0.
      {
        release: '1.3.0',
        previous: '1.0.0',
        tool: 'T',
        kind: 'field-added',
        side: 'input',
        field: '.x',
        path: 'x',
        configuration: 'one',
      },
      // Seen in `two`, which ran in 1.2.0: adjacent, exact.
      { release: '1.3.0', previous: '1.2.0', tool: 'T', kind: 'description-changed', configuration: 'two' },
    ],
  } as HistoryFile;
  const s = site({
    agents: [agent(A)],
    tools: [
      tool(A, 'T', { input: view('json-schema', [row('input.x')]), captured: { one: 'function', two: 'function' } }),
    ],
    histories: [history],
  });
  const [release] = changelogPage(s, A).releases;
  assert.deepEqual(
    release!.groups.map((g) => [g.evidence, g.between]),
    [
      ['pkg: 1.2.0 → 1.3.0', undefined],
      ['pkg: 1.0.0 → 1.3.0', { previous: '1.0.0', why: 'not read: 1.1.0; failed in one: 1.2.0' }],
    ],
  );
  const feed = changelogFeed(s, A, 'https://example.invalid/');
  const html = feed.entries[0]!.content.value;
  assert.match(
    html,
    /<strong>Between 1\.0\.0 and 1\.3\.0<\/strong>, not exactly in 1\.3\.0 \(not known in between: not read: 1\.1\.0; failed in one: 1\.2\.0\): pkg: 1\.0\.0 → 1\.3\.0/,
  );
  assert.equal((html.match(/Between/g) ?? []).length, 1, 'the exact change is not said to be between');
  const notes = historyOf(s.tools[0]!, s.histories).notes;
  assert.deepEqual(
    notes.map((n) => [n.release, n.between?.previous, n.items.map((i) => i.change.event.kind)]),
    [
      ['1.3.0', '1.0.0', ['field-added']],
      ['1.3.0', undefined, ['description-changed']],
    ],
  );
});

test('changelog coverage names the releases read whose configurations failed, with the reasons; none when all ran', () => {
  const [A] = AGENT_IDS as [(typeof AGENT_IDS)[number]];
  const history = {
    agent: A,
    source: 'capture',
    package: 'pkg',
    method: 'm',
    configurations: ['one', 'two'],
    releases: [
      { version: '1.0.0', read: true, failed: { one: 'cannot run: x', two: 'cannot run: x' } },
      { version: '1.1.0', read: true, failed: { two: 'unknown flag' } },
      { version: '1.2.0', read: true },
    ],
    events: [],
  } as HistoryFile;
  const s = site({ agents: [agent(A)], tools: [], histories: [history] });
  assert.deepEqual(changelogPage(s, A).coverage[0]!.failed, [
    {
      first: '1.0.0',
      last: '1.0.0',
      read: 1,
      all: true,
      reasons: [{ configurations: ['one', 'two'], reason: 'cannot run: x' }],
    },
    {
      first: '1.1.0',
      last: '1.1.0',
      read: 1,
      all: false,
      reasons: [{ configurations: ['two'], reason: 'unknown flag' }],
    },
  ]);
  const ran = {
    ...history,
    releases: history.releases.map((r) => ({ version: r.version, read: true })),
  } as HistoryFile;
  assert.equal(
    changelogPage(site({ agents: [agent(A)], tools: [], histories: [ran] }), A).coverage[0]!.failed,
    undefined,
  );
});

test("version history of a tool: coverage, notes newest first with their ids and links, documentation's notes", () => {
  const read = model.tools.find((t) => t.fullName === 'Read')!;
  const history = historyOf(read, model.histories);
  assert.equal(history.changelogUrl, `/${agentId}/changelog/`);
  assert.deepEqual(
    history.coverage.map((c) => [c.label, c.package]),
    [['published SDK types', raw.package]],
  );
  const own = raw.events.filter((e) => e.tool === 'Read');
  assert.deepEqual(
    history.notes.map((n) => [n.release, n.releaseUrl, n.items.map((i) => i.change.event.field)]),
    [...own].reverse().map((e) => [cli.get(e.release), `/${agentId}/changelog/#${cli.get(e.release)}`, [e.field]]),
  );
  const items = history.notes.flatMap((n) => n.items);
  // The added field's row is on the page: its note links there. The removed field has no row: its note takes the old
  // anchor.
  assert.deepEqual(
    items.map((i) => [i.change.event.kind, i.id, i.fieldHref]),
    [
      ['field-removed', 'input.offset', undefined],
      ['field-added', 'since-input.limit', '#input.limit'],
    ],
  );
  const documented = tool(agentId, 'X', {
    editorial: { versionNotes: [{ version: '1.0', change: 'c', evidence: 'e' }] },
  });
  assert.deepEqual(historyOf(documented, []).documented, [{ version: '1.0', change: 'c', evidence: 'e' }]);
  assert.deepEqual(historyOf(documented, []).notes, []);
  assert.deepEqual(historyOf(tool(agentId, 'Y'), []).documented, []);
});

test("a removed tool's page: two sections, its own changes only, each linked to the changelog", () => {
  const gone = model.removedTools.find((t) => t.name === 'Gone')!;
  const page = removedToolPage(gone, model.histories);
  assert.deepEqual(
    page.sections.map((s) => [s.id, s.title]),
    [
      ['version-notes', 'Version history'],
      ['provenance', 'Provenance'],
    ],
  );
  assert.deepEqual([page.history.section, page.provenance.section], page.sections);
  const own = raw.events.filter((e) => e.tool === 'Gone');
  assert.deepEqual(
    page.history.changes.map((c) => [c.release, c.releaseUrl, c.change.event.kind]),
    own.map((e) => [cli.get(e.release), `/${agentId}/changelog/#${cli.get(e.release)}`, e.kind]),
  );
  assert.equal(page.removedInUrl, `/${agentId}/changelog/#${gone.removedIn}`);
  assert.equal(page.source, 'the published SDK types');
  assert.equal(page.description, `${AGENT_PRODUCTS[agentId]} tool Gone, removed in ${gone.removedIn}`);
  assert.equal(page.provenance.file, gone.file);
});

test('a changelog over the budget: an index keeping every release anchor, one part page per minor line, links straight to the parts', () => {
  const [A] = AGENT_IDS as [(typeof AGENT_IDS)[number]];
  // Three minor lines of a capture history, each with half a page of changes: together over the budget.
  const lines = ['1.0', '2.0', '2.1'];
  const perLine = Math.floor(CHANGES_PER_PAGE / 2);
  const versions = lines.flatMap((l) => [0, 1, 2, 3].map((p) => `${l}.${p}`));
  const events = lines.flatMap((l) =>
    Array.from({ length: perLine }, (_, i) => {
      const patch = 1 + (i % 3);
      const release = `${l}.${patch}`;
      return {
        release,
        previous: versions[versions.indexOf(release) - 1]!,
        tool: 'T',
        kind: 'field-added',
        side: 'input',
        field: `.f${l.replace('.', '_')}_${i}`,
        path: `f${i}`,
        configuration: 'one',
      };
    }),
  );
  const history = {
    agent: A,
    source: 'capture',
    package: 'pkg',
    method: 'm',
    configurations: ['one'],
    releases: versions.map((version) => ({ version })),
    events,
  } as HistoryFile;
  const s = site({
    agents: [agent(A)],
    tools: [tool(A, 'T', { input: view('json-schema', [row('input.f2_1_0')]), captured: { one: 'function' } })],
    histories: [history],
  });
  const pages = changelogPages(s, A);
  assert.equal(pages.kind, 'index');
  if (pages.kind !== 'index') return;
  // Expected from the events: per line, newest first, the releases with changes and their counts.
  const count = (release: string) => events.filter((e) => e.release === release).length;
  const expected = [...lines]
    .reverse()
    .map((l) => ({ line: l, releases: versions.filter((v) => v.startsWith(`${l}.`) && count(v) > 0).reverse() }));
  assert.deepEqual(
    pages.page.parts.map((p) => [p.label, p.url, p.changes]),
    expected.map((e) => [e.line, `/${A}/changelog/${e.line}/`, perLine]),
  );
  assert.deepEqual(
    pages.page.sections.map((x) => x.id),
    expected.map((e) => `line-${e.line}`),
  );
  assert.deepEqual(
    pages.page.parts.map((p) => p.releases),
    expected.map((e) => e.releases.map((r) => ({ id: r, url: `/${A}/changelog/${e.line}/#${r}`, changes: count(r) }))),
  );
  // Each part page lists its line's releases as the one-page changelog does.
  const whole = changelogPage(s, A).releases;
  assert.deepEqual(
    pages.parts.map((p) => p.slug),
    expected.map((e) => e.line),
  );
  assert.deepEqual(
    pages.parts.flatMap((p) => p.releases),
    whole,
  );
  for (const [i, part] of pages.parts.entries()) {
    assert.deepEqual(
      part.sections.map((x) => x.id),
      expected[i]!.releases,
    );
    assert.equal(part.title, `${AGENT_PRODUCTS[A]} changelog: ${expected[i]!.line}`);
    assert.equal(part.scope, `${expected[i]!.line}.x`);
    assert.deepEqual(part.newer?.url, i > 0 ? `/${A}/changelog/${expected[i - 1]!.line}/` : undefined);
    assert.deepEqual(
      part.older?.url,
      i < expected.length - 1 ? `/${A}/changelog/${expected[i + 1]!.line}/` : undefined,
    );
  }
  // New links go to the part page; the feed's entry ids stay the one-page addresses.
  for (const e of expected)
    for (const r of e.releases) assert.equal(releaseUrl(A, r, s.histories), `/${A}/changelog/${e.line}/#${r}`);
  const notes = historyOf(s.tools[0]!, s.histories).notes;
  assert.ok(notes.length > 0);
  for (const n of notes)
    assert.equal(n.releaseUrl, `/${A}/changelog/${n.release.split('.').slice(0, 2).join('.')}/#${n.release}`);
  const feed = changelogFeed(s, A, 'https://feeds.test/');
  assert.deepEqual(
    feed.entries.map((x) => x.link),
    expected.flatMap((e) => e.releases.map((r) => `https://feeds.test/${A}/changelog/${e.line}/#${r}`)),
  );
  assert.deepEqual(
    feed.entries.map((x) => x.id),
    expected.flatMap((e) => e.releases.map((r) => `https://feeds.test/${A}/changelog/#${r}`)),
  );
});
