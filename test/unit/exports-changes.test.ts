/**
 * `/changes.json` (src/lib/exports/changes-export.ts): a hand-made history's changes in words written here, and the
 * export of the real content validated against schemas/changes.schema.json and compared with the history files read
 * as JSON, with /changes/ (its window) and with the HTML of the feeds (the same line, word for word).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { AGENT_IDS } from '../../src/lib/agents/index.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';
import { changesExport, publishedChangesSchema, type ChangesExport } from '../../src/lib/exports/changes-export.ts';
import { releaseHtml } from '../../src/lib/exports/changelog-feed.ts';
import { allEntries, changesPage, WINDOW_DAYS } from '../../src/lib/views/changes-page.ts';
import { agent, row, site, tool, view } from '../helpers/model-fixtures.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const model = realContent();
const exported = changesExport(model, { site: 'https://site.invalid' });
/** The content address of a text, as the history files key their texts. */
const idOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
const changesOf = (e: ChangesExport) =>
  e.releases.flatMap((r) => r.groups.flatMap((g) => g.tools.flatMap((t) => t.changes)));

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['documentFragment'];
const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text'
    ? node.value
    : 'childNodes' in node
      ? node.childNodes.map(textOf).join('')
      : '';
/** The innermost list items: one per change in a release's HTML. */
function changeItems(node: Node): DefaultTreeAdapterMap['element'][] {
  const children = 'childNodes' in node ? node.childNodes : [];
  const own =
    'tagName' in node && node.tagName === 'li' && !children.some((c) => 'tagName' in c && c.tagName === 'ul')
      ? [node]
      : [];
  return [...own, ...children.flatMap(changeItems)];
}

test('words: a field added reads as its changelog line; a changed description is named, its texts stored once by id', () => {
  const A = AGENT_IDS[0]!;
  const before = 'Runs a command.';
  const after = 'Runs a command in a shell.';
  const added = 'How long to wait, in milliseconds.';
  const histories = [
    {
      agent: A,
      source: 'capture',
      package: 'cli',
      method: 'm',
      configurations: ['c'],
      releases: [
        { version: '1.0.0', published: '2026-03-01T10:00:00Z' },
        { version: '1.1.0', published: '2026-03-05T08:00:00Z' },
      ],
      events: [
        { release: '1.1.0', previous: '1.0.0', tool: 'Run', kind: 'field-added', side: 'input' },
        { release: '1.1.0', previous: '1.0.0', tool: 'Run', kind: 'description-changed', side: 'input' },
        { release: '1.1.0', previous: '1.0.0', tool: 'Run', kind: 'description-changed', side: 'input' },
      ].map((e, i) => ({
        ...e,
        configuration: 'c',
        ...[
          { field: '.timeout_ms', path: 'timeout_ms', to: 'number' },
          { fromText: idOf(before), toText: idOf(after) },
          { field: '.timeout_ms', path: 'timeout_ms', to: added },
        ][i],
      })),
      texts: { [idOf(before)]: before, [idOf(after)]: after },
    },
  ] as HistoryFile[];
  const made = changesExport(
    site({
      agents: [agent(A)],
      tools: [tool(A, 'Run', { input: view('json-schema', [row('input.timeout_ms')]) })],
      histories,
    }),
    {},
  );
  assert.deepEqual(
    made.releases.map((r) => [r.release, r.published, r.changes, r.breaking]),
    [['1.1.0', '2026-03-05T08:00:00.000Z', 3, 0]],
  );
  const changes = changesOf(made);
  const byWords = new Map(changes.map((c) => [c.words, c]));
  assert.deepEqual([...byWords.keys()].sort(), [
    'description changed in c',
    'description changed timeout_ms',
    'field added timeout_ms: number',
  ]);
  assert.deepEqual(byWords.get('field added timeout_ms: number'), {
    kind: 'field-added',
    words: 'field added timeout_ms: number',
    field: 'timeout_ms',
    fieldPage: `/${A}/run/#input.timeout_ms`,
  });
  assert.deepEqual(
    made.releases.map((r) => [r.id, r.url, r.groups.map((g) => g.tools.map((t) => [t.name, t.page]))]),
    [[`${A}-1.1.0`, `/${A}/changelog/#1.1.0`, [[['Run', `/${A}/run/`]]]]],
  );
  // The tool's description: both texts, compared by words.
  assert.deepEqual(byWords.get('description changed in c'), {
    kind: 'description-changed',
    words: 'description changed in c',
    before: idOf(before),
    after: idOf(after),
    by: 'words',
  });
  // A field's description added: no text before.
  const field = byWords.get('description changed timeout_ms')!;
  assert.equal(field.before, undefined);
  assert.equal(field.after, idOf(added));
  assert.deepEqual(made.texts, { [idOf(added)]: added, [idOf(before)]: before, [idOf(after)]: after });
  assert.deepEqual(Object.keys(made.texts), Object.keys(made.texts).sort(), 'texts in id order');
});

test('changes.json of the real content validates against schemas/changes.schema.json, published with the registry', () => {
  const file = JSON.parse(readFileSync(join(ROOT, 'schemas/changes.schema.json'), 'utf8'));
  const published = publishedChangesSchema(file, { site: 'https://site.invalid' }) as {
    $id: string;
    $defs: { agentId: { enum: string[] } };
  };
  assert.equal(published.$id, 'https://site.invalid/changes.schema.json');
  assert.deepEqual(published.$defs.agentId.enum, [...AGENT_IDS]);
  assert.equal(exported.$schema, published.$id);
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(published);
  assert.ok(validate(exported), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  assert.ok(exported.releases.length > 0);
  // The kinds the schema lists are the history files' own.
  const history = JSON.parse(readFileSync(join(ROOT, 'schemas/history.schema.json'), 'utf8'));
  assert.deepEqual(file.$defs.change.properties.kind.enum, history.$defs.event.properties.kind.enum);
});

test('changes.json lists every release with changes and a publication time, newer or equal first, its counts its own', () => {
  for (const [a, b] of exported.releases.slice(1).map((r, i) => [exported.releases[i]!, r] as const))
    assert.ok(Date.parse(a.published) >= Date.parse(b.published), `${a.id} (${a.published}) before ${b.id}`);
  // From the history files read as JSON: a release with an event whose label some history dates.
  const expected = new Set<string>();
  const dated = new Set<string>();
  const histories = readdirSync(join(ROOT, 'content/history')).map(
    (f) => JSON.parse(readFileSync(join(ROOT, 'content/history', f), 'utf8')) as HistoryFile,
  );
  for (const h of histories)
    for (const r of h.releases) if (r.published !== undefined) dated.add(`${h.agent}-${r.cliVersion ?? r.version}`);
  for (const h of histories) {
    const label = new Map(h.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
    for (const e of h.events) {
      const id = `${h.agent}-${label.get(e.release) ?? e.release}`;
      if (dated.has(id)) expected.add(id);
    }
  }
  assert.deepEqual(new Set(exported.releases.map((r) => r.id)), expected);
  for (const r of exported.releases) {
    const changes = r.groups.flatMap((g) => g.tools.flatMap((t) => t.changes));
    assert.equal(r.changes, changes.length, r.id);
    assert.equal(r.breaking, changes.filter((c) => c.breaking !== undefined).length, r.id);
    assert.equal(r.id, `${r.agent}-${r.release}`);
  }
});

test('every text id a change names is in texts, with the text the history file stores under it; no text unnamed', () => {
  const stored = new Map<string, string>();
  for (const f of readdirSync(join(ROOT, 'content/history'))) {
    const h = JSON.parse(readFileSync(join(ROOT, 'content/history', f), 'utf8')) as HistoryFile;
    for (const [id, text] of Object.entries(h.texts ?? {})) if (text !== undefined) stored.set(id, text);
  }
  const named = new Set<string>();
  let fromStore = 0;
  for (const c of changesOf(exported)) {
    for (const id of [c.before, c.after]) {
      if (id === undefined) continue;
      named.add(id);
      assert.ok(id in exported.texts, `${c.words}: text ${id}`);
      assert.equal(idOf(exported.texts[id]!), id, 'an id is its text address');
      if (stored.has(id)) {
        assert.equal(exported.texts[id], stored.get(id));
        fromStore++;
      }
    }
    assert.equal(c.by !== undefined, c.before !== undefined || c.after !== undefined, c.words);
    // A changed description is named, not quoted.
    if (c.kind === 'description-changed') assert.match(c.words, /^description changed( |$)/);
  }
  assert.deepEqual(new Set(Object.keys(exported.texts)), named);
  assert.ok(fromStore > 0);
});

test("the releases of /changes/'s window are the export's newest, in its order", () => {
  const newest = Date.parse(exported.releases[0]!.published);
  const since = newest - WINDOW_DAYS * 86_400_000;
  assert.deepEqual(
    changesPage(model).days.flatMap((d) => d.entries.map((e) => e.id)),
    exported.releases.filter((r) => Date.parse(r.published) > since).map((r) => r.id),
  );
});

test("each change's words are its line in the feeds' HTML, as a feed reader shows it", () => {
  const entries = allEntries(model);
  assert.equal(entries.length, exported.releases.length);
  let checked = 0;
  for (const [i, entry] of entries.entries()) {
    const release = exported.releases[i]!;
    assert.equal(release.id, entry.id);
    const html = releaseHtml(
      { section: { id: entry.release, title: entry.release, depth: 2 }, groups: entry.groups },
      (path) => `https://site.invalid${path}`,
    );
    const items = changeItems(parseFragment(html)).map(textOf);
    const changes = release.groups.flatMap((g) => g.tools.flatMap((t) => t.changes));
    assert.equal(items.length, changes.length, release.id);
    for (const [j, c] of changes.entries()) {
      const prefix = c.breaking !== undefined ? `Breaking (${c.breaking}): ` : '';
      const item = items[j]!;
      const where = `${release.id}: ${JSON.stringify(item.slice(0, 200))}`;
      assert.ok(item.startsWith(prefix + c.words), `${where} reads ${JSON.stringify(prefix + c.words)}`);
      // After the line, only a changed text's comparison ("12 → 34 characters; …").
      const rest = item.slice(prefix.length + c.words.length);
      if (c.by === undefined) assert.equal(rest, '', where);
      else assert.match(rest, /^[\d,]+ → [\d,]+ characters; /, where);
      checked++;
    }
  }
  assert.ok(checked > 0);
});
