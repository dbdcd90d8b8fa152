/**
 * Pages built from release histories (src/lib/history-pages.ts): an agent's
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
import type { HistoryFile } from '../../src/lib/content-types.ts';
import { changelogAgents, changelogPage, removedToolPage, versionHistory } from '../../src/lib/history-pages.ts';
import { agent, row, site, tool, view } from '../helpers/model-fixtures.ts';

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
  const releases = raw.releases.map((r) => r.cliVersion!).filter((r) => counts.has(r)).reverse();
  assert.deepEqual(page.sections, releases.map((r) => ({ id: r, title: r, depth: 2, tocTitle: `${r} (${counts.get(r)})` })));
  assert.deepEqual(page.releases.map((r) => r.section), page.sections);
  assert.equal(page.title, `${AGENT_PRODUCTS[agentId]} changelog`);
  const [first, last] = [raw.releases[0]!, raw.releases[raw.releases.length - 1]!];
  assert.deepEqual(page.coverage, [{ label: 'SDK types', package: raw.package, count: raw.releases.length, first: first.cliVersion, last: last.cliVersion }]);
});

test('changelog: changes grouped by the releases compared, then by tool; tools and fields linked where they have a page', () => {
  const page = changelogPage(model, agentId);
  for (const release of page.releases) {
    const events = raw.events.filter((e) => cli.get(e.release) === release.section.id);
    const evidence = [...new Set(events.map((e) => `${raw.package} ${raw.file}: ${e.previous} → ${e.release}`))];
    assert.deepEqual(release.groups.map((g) => g.evidence), evidence);
    assert.deepEqual(release.groups.flatMap((g) => g.tools.map((t) => t.name)), [...new Set(events.map((e) => e.tool))].sort());
  }
  const tools = new Map(page.releases.flatMap((r) => r.groups.flatMap((g) => g.tools.map((t) => [`${r.section.id} ${t.name}`, t] as const))));
  // A removed tool has no page here; a former name links to the tool that has it now.
  assert.equal(tools.get('2.0.3 Gone')!.url, undefined);
  assert.equal(tools.get('2.0.3 OldShell')!.url, `/${agentId}/shell/`);
  // A field still on the page links to its row; a removed field to the note that keeps its old anchor.
  assert.deepEqual(tools.get('2.0.1 Read')!.changes.map((c) => c.fieldHref), [`/${agentId}/read/#input.limit`]);
  assert.deepEqual(tools.get('2.0.3 Read')!.changes.map((c) => c.fieldHref), [`/${agentId}/read/#input.offset`]);
  assert.deepEqual(tools.get('2.0.3 Gone')!.changes.map((c) => c.fieldHref), [undefined]);
});

test('changelog of captures: configurations of one comparison are one block; only agents with a history have a changelog', () => {
  const [A, B] = AGENT_IDS as [typeof AGENT_IDS[number], typeof AGENT_IDS[number]];
  const history: HistoryFile = {
    agent: A,
    source: 'capture',
    package: 'pkg',
    method: 'm',
    configurations: ['one', 'two'],
    releases: [{ version: '1.0.0' }, { version: '1.1.0' }],
    events: [
      { release: '1.1.0', previous: '1.0.0', tool: 'T', kind: 'field-added', side: 'input', field: '.x', path: 'x', configuration: 'one' },
      { release: '1.1.0', previous: '1.0.0', tool: 'T', kind: 'field-added', side: 'input', field: '.y', path: 'y', configuration: 'two' },
    ],
  } as HistoryFile;
  const s = site({ agents: [agent(A), agent(B)], tools: [tool(A, 'T', { input: view('json-schema', [row('input.x')]), captured: { one: 'function', two: 'function' } })], histories: [history] });
  assert.deepEqual(changelogAgents(s).map((a) => a.id), [A]);
  const [release] = changelogPage(s, A).releases;
  assert.deepEqual(release!.groups.map((g) => g.evidence), ['pkg: 1.0.0 → 1.1.0']);
  assert.deepEqual(release!.groups[0]!.tools.map((t) => [t.name, t.changes.map((c) => c.fieldHref)]), [['T', [`/${A}/t/#input.x`, undefined]]]);
  assert.equal(release!.section.tocTitle, '1.1.0 (2)');
  assert.deepEqual(changelogPage(s, A).coverage.map((c) => c.label), ['Captures']);
});

test("version history of a tool: coverage, notes newest first with their ids and links, documentation's notes", () => {
  const read = model.tools.find((t) => t.fullName === 'Read')!;
  const history = versionHistory(read, model.histories);
  assert.equal(history.changelogUrl, `/${agentId}/changelog/`);
  assert.deepEqual(history.coverage.map((c) => [c.label, c.package]), [['published SDK types', raw.package]]);
  const own = raw.events.filter((e) => e.tool === 'Read');
  assert.deepEqual(
    history.notes.map((n) => [n.release, n.releaseUrl, n.items.map((i) => i.change.event.field)]),
    [...own].reverse().map((e) => [cli.get(e.release), `/${agentId}/changelog/#${cli.get(e.release)}`, [e.field]]),
  );
  const items = history.notes.flatMap((n) => n.items);
  // The added field's row is on the page: its note links there. The removed field has no row: its note takes the old anchor.
  assert.deepEqual(items.map((i) => [i.change.event.kind, i.id, i.fieldHref]), [
    ['field-removed', 'input.offset', undefined],
    ['field-added', 'since-input.limit', '#input.limit'],
  ]);
  const documented = tool(agentId, 'X', { editorial: { versionNotes: [{ version: '1.0', change: 'c', evidence: 'e' }] } });
  assert.deepEqual(versionHistory(documented, []).documented, [{ version: '1.0', change: 'c', evidence: 'e' }]);
  assert.deepEqual(versionHistory(documented, []).notes, []);
  assert.deepEqual(versionHistory(tool(agentId, 'Y'), []).documented, []);
});

test("a removed tool's page: two sections, its own changes only, each linked to the changelog", () => {
  const gone = model.removedTools.find((t) => t.name === 'Gone')!;
  const page = removedToolPage(gone, model.histories);
  assert.deepEqual(page.sections.map((s) => [s.id, s.title]), [['version-notes', 'Version history'], ['provenance', 'Provenance']]);
  assert.deepEqual([page.history.section, page.provenance.section], page.sections);
  const own = raw.events.filter((e) => e.tool === 'Gone');
  assert.deepEqual(page.history.changes.map((c) => [c.release, c.releaseUrl, c.change.event.kind]), own.map((e) => [cli.get(e.release), `/${agentId}/changelog/#${cli.get(e.release)}`, e.kind]));
  assert.equal(page.removedInUrl, `/${agentId}/changelog/#${gone.removedIn}`);
  assert.equal(page.source, 'the published SDK types');
  assert.equal(page.description, `${AGENT_PRODUCTS[agentId]} tool Gone, removed in ${gone.removedIn}`);
  assert.equal(page.provenance.file, gone.file);
});
