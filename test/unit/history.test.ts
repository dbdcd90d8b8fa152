/**
 * How computed release histories reach the pages: a tool's notes, the "since"
 * of each field row, and the changelog by release. Fixture history:
 * test/fixtures/content/history/claude-code.sdk.json (SDK releases 1.0.0,
 * 1.0.1, 1.0.3 bundling Claude Code 2.0.0, 2.0.1, 2.0.3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import { compareVersions } from '../../src/lib/core/version-order.ts';
import {
  changeLine,
  changelog,
  checkDocumentedNotes,
  coverage,
  fieldSince,
  firstCompared,
  linkableAnchors,
  toolChanges,
  versionNotes,
} from '../../src/lib/history/history.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = loadContent({ root: ROOT, contentDir: join(ROOT, 'test/fixtures/content') });
const tool = (name: string) => site.tools.find((t) => t.fullName === name)!;

test('release numbers compare numerically, not as text', () => {
  assert.ok(compareVersions('2.1.10', '2.1.9') > 0);
  assert.ok(compareVersions('0.150.0', '0.99.9') > 0);
  assert.equal(compareVersions('1.0.0', '1.0.0'), 0);
});

test('a change line: the field, else the configuration; values except for a changed description; folded fields', () => {
  const base = { release: '2', previous: '1', tool: 'T' };
  assert.deepEqual(
    changeLine(
      {
        ...base,
        kind: 'type-changed',
        side: 'input',
        field: '.a',
        path: 'a',
        from: 'string',
        to: 'number',
        configuration: 'c',
      },
      2,
    ),
    {
      kind: 'type changed',
      path: 'a',
      from: 'string',
      to: 'number',
      folded: 2,
    },
  );
  assert.deepEqual(changeLine({ ...base, kind: 'available', configuration: 'c' }), {
    kind: 'now advertised',
    configuration: 'c',
    folded: 0,
  });
  assert.deepEqual(
    changeLine({
      ...base,
      kind: 'description-changed',
      side: 'input',
      field: '.a',
      path: 'a',
      from: 'old text',
      to: 'new text',
    }),
    { kind: 'description changed', path: 'a', folded: 0 },
  );
  assert.deepEqual(
    changeLine({ ...base, kind: 'field-removed', side: 'input', field: '.a', path: 'a', from: 'string' }),
    { kind: 'field removed', path: 'a', from: 'string', folded: 0 },
  );
});

test("a tool's changes are found under its current and former names, newest first, named by the CLI release", () => {
  assert.deepEqual(
    toolChanges(tool('Read'), site.histories).map((c) => [c.release, c.event.kind, c.anchor]),
    [
      ['2.0.3', 'field-removed', 'input.offset'],
      ['2.0.1', 'field-added', 'input.limit'],
    ],
  );
  // Shell was added as OldShell, its former name.
  assert.deepEqual(
    toolChanges(tool('Shell'), site.histories).map((c) => [c.release, c.event.kind]),
    [['2.0.3', 'tool-added']],
  );
  assert.match(toolChanges(tool('Read'), site.histories)[0]!.evidence, /fixture-sdk fixture\.d\.ts: 1\.0\.1 → 1\.0\.3/);
});

test('since: the release that added the field, else the tool, else before the first release compared', () => {
  const read = fieldSince(tool('Read'), site.histories);
  assert.deepEqual(read.get('input.limit'), { kind: 'field', release: '2.0.1', note: 'since-input.limit' });
  assert.deepEqual(read.get('input.file_path'), { kind: 'before', release: '2.0.0', first: true });
  // SDK history says nothing about what the model is told.
  assert.ok(
    [...read.keys()].every((id) => !id.startsWith('model-input')),
    [...read.keys()].join(', '),
  );
  const shell = fieldSince(tool('Shell'), site.histories);
  assert.ok(shell.size > 0);
  for (const since of shell.values())
    assert.deepEqual(since, { kind: 'tool', release: '2.0.3', note: 'since-tool-sdk' });
});

test('the first release compared is the first read in which some configuration ran, not the first listed', () => {
  const capture = (releases: HistoryFile['releases']): HistoryFile =>
    ({
      agent: 'gemini-cli',
      source: 'capture',
      package: 'p',
      method: 'm',
      configurations: ['print', 'yolo'],
      releases,
      events: [],
    }) as unknown as HistoryFile;
  // 0.1.1 crashed in every configuration; 0.1.4 ran in one of the two.
  const history = capture([
    { version: '0.1.1', read: true, failed: { print: 'exit 1', yolo: 'exit 1' } },
    { version: '0.1.2', read: false },
    { version: '0.1.4', read: true, failed: { yolo: 'unknown flag' } },
    { version: '0.1.5', read: true },
  ]);
  assert.equal(firstCompared(history), '0.1.4');
  assert.equal(
    firstCompared(
      capture([
        { version: '1.0.0', read: true },
        { version: '1.0.1', read: true },
      ]),
    ),
    '1.0.0',
  );
  // Nothing ever ran: the first listed release, as before (no claim can be made either way).
  assert.equal(firstCompared(capture([{ version: '2.0.0', read: true, failed: { print: 'x', yolo: 'x' } }])), '2.0.0');
  // An SDK history (no configurations) starts where it starts.
  assert.equal(firstCompared(site.histories.find((h) => h.source === 'sdk')!), '2.0.0');
});

test('every since note a badge links to is a note of the page; a removed field keeps its old anchor', () => {
  for (const t of site.tools) {
    const ids = new Set(versionNotes(t, site.histories).flatMap((g) => g.items.flatMap((n) => (n.id ? [n.id] : []))));
    for (const since of fieldSince(t, site.histories).values())
      if (since.note) assert.ok(ids.has(since.note), `${t.fullName}: ${since.note}`);
  }
  assert.ok(linkableAnchors(tool('Read')).has('input.offset'));
  assert.ok(
    versionNotes(tool('Read'), site.histories).some((g) =>
      g.items.some((n) => n.id === 'input.offset' && n.event.kind === 'field-removed'),
    ),
  );
  assert.deepEqual(
    versionNotes(tool('Read'), site.histories).map((g) => [g.release, g.items.length]),
    [
      ['2.0.3', 1],
      ['2.0.1', 1],
    ],
  );
});

test('the changelog lists releases with changes, newest first, changes sorted by tool', () => {
  const log = changelog('claude-code', site.histories);
  assert.deepEqual(
    log.map((r) => r.release),
    ['2.0.3', '2.0.1'],
  );
  assert.deepEqual(
    log[0]!.changes.map((c) => `${c.tool} ${c.event.kind}`),
    ['Gone tool-removed', 'OldShell tool-added', 'Read field-removed'],
  );
  assert.deepEqual(changelog('codex', site.histories), []);
});

test('documented notes with claims are checked against the computed history', () => {
  const read = tool('Read');
  assert.deepEqual(
    checkDocumentedNotes(read, site.histories).map((c) => [c.note, c.claim, c.verdict]),
    [
      ['2.0.1', 'field-added input.limit', 'agrees'],
      ['1.9.0', 'tool-added', 'outside'],
    ],
  );
  // The same note credited to another release, or claiming a change never computed, contradicts.
  const moved = {
    ...read,
    editorial: {
      ...read.editorial!,
      versionNotes: [
        {
          version: 'Agent SDK 1.0.3',
          change: 'x',
          evidence: 'y',
          claims: [{ kind: 'field-added' as const, field: 'input.limit' }],
        },
      ],
    },
  };
  assert.deepEqual(
    checkDocumentedNotes(moved, site.histories).map((c) => [c.verdict, c.detail]),
    [['contradicts', 'computed in 2.0.1']],
  );
  const never = {
    ...read,
    editorial: {
      ...read.editorial!,
      versionNotes: [
        {
          version: '2.0.3',
          change: 'x',
          evidence: 'y',
          claims: [{ kind: 'field-added' as const, field: 'input.nope' }],
        },
      ],
    },
  };
  assert.deepEqual(
    checkDocumentedNotes(never, site.histories).map((c) => c.detail),
    ['no such change computed'],
  );
});

test('the addition of a field with fields below it is one note; each nested badge links to it', async () => {
  const { foldChanges, foldTarget } = await import('../../src/lib/history/history.ts');
  const change = (
    anchor: string,
    kind: 'field-added' | 'field-removed' = 'field-added',
    release = '2.0.1',
    tool = 'T',
  ) => ({
    event: { release, previous: '1', tool, kind, field: anchor.slice(5) },
    source: 'sdk' as const,
    release,
    span: { exact: true, previous: '1', release, unknown: [] },
    evidence: 'e',
    anchor,
  });
  const parent = change('input.a');
  const child = change('input.a.b');
  const grandchild = change('input.a.b:1.c');
  const sibling = change('input.ab'); // a longer name, not a child
  const elsewhere = change('input.a.z', 'field-added', '2.0.2');
  const all = [grandchild, parent, child, sibling, elsewhere];
  assert.equal(foldTarget(grandchild, all), parent);
  assert.equal(foldTarget(sibling, all), sibling);
  assert.equal(foldTarget(elsewhere, all), elsewhere, 'another release is its own note');
  assert.deepEqual(
    foldChanges(all).map((c) => [c.anchor, c.folded]),
    [
      ['input.a', 2],
      ['input.ab', 0],
      ['input.a.z', 0],
    ],
  );
});

test('a capture history speaks only about tools that a configuration it compared advertises', () => {
  const captured = site.tools.find((t) => t.agent === 'claude-code' && t.captured)!;
  const configs = [...captured.captured!.byConfig.keys()];
  const history = (configurations: string[]) => ({
    agent: 'claude-code' as const,
    source: 'capture' as const,
    package: 'fixture-cli',
    method: 'fixture',
    configurations,
    releases: [{ version: '2.0.0' }, { version: '2.0.1' }],
    events: [],
  });
  const compared = fieldSince(captured, [history(configs)]);
  assert.ok(compared.size > 0, `${captured.fullName} is covered`);
  for (const since of compared.values()) assert.deepEqual(since, { kind: 'before', release: '2.0.0', first: true });
  assert.equal(fieldSince(captured, [history(['some-other-configuration'])]).size, 0);
});

test('editorial names: a code-style field name must be established or listed with a reason, and a listed name must be used', async () => {
  const { checkEditorialNames, looksLikeFieldName } = await import('../../src/lib/content/editorial-names.ts');
  assert.ok(looksLikeFieldName('file_path') && looksLikeFieldName('backgroundCwdHint'));
  assert.ok(!looksLikeFieldName('git') && !looksLikeFieldName('TaskStop') && !looksLikeFieldName('--tools'));
  const read = tool('Read');
  const withProse = (lifecycle: string, namesNotInSchema?: { name: string; why: string }[]) => ({
    ...site,
    tools: [
      { ...read, editorial: { ...read.editorial!, lifecycle, ...(namesNotInSchema ? { namesNotInSchema } : {}) } },
    ],
  });
  assert.deepEqual(checkEditorialNames(withProse('Takes `file_path`; `offset` was removed.')), []); // a field, and one of an earlier release
  assert.deepEqual(
    checkEditorialNames(withProse('Reads `cache_hint`.')).map((f) => f.problem),
    ['unestablished'],
  );
  assert.deepEqual(
    checkEditorialNames(withProse('Reads `cache_hint`.', [{ name: 'cache_hint', why: 'a setting' }])),
    [],
  );
  assert.deepEqual(
    checkEditorialNames(withProse('Reads it.', [{ name: 'cache_hint', why: 'a setting' }])).map((f) => f.problem),
    ['listed-but-not-mentioned'],
  );
  assert.deepEqual(
    checkEditorialNames(withProse('Takes `file_path`.', [{ name: 'file_path', why: 'x' }])).map((f) => f.problem),
    ['listed-but-established'],
  );
});

test('a history read from two packages: each change names the packages compared, the range starts at the older package, coverage lists both', () => {
  // Made up: the CLI package's 1.9.0 and 1.9.2, then the SDK's 1.0.0 (CLI 2.0.0) and 1.0.1 (CLI 2.0.1).
  const file: HistoryFile = {
    agent: 'claude-code',
    source: 'sdk',
    package: 'fixture-sdk',
    method: 'm',
    file: 'fixture.d.ts',
    releases: [
      { version: '1.9.0', package: 'fixture-cli', cliVersion: '1.9.0' },
      { version: '1.9.2', package: 'fixture-cli', cliVersion: '1.9.2' },
      { version: '1.0.0', cliVersion: '2.0.0' },
      { version: '1.0.1', cliVersion: '2.0.1' },
    ],
    events: [
      {
        release: '1.9.2',
        previous: '1.9.0',
        tool: 'Read',
        kind: 'field-added',
        side: 'input',
        field: '.limit',
        path: 'limit',
        to: 'number',
      },
      {
        release: '1.0.0',
        previous: '1.9.2',
        tool: 'Read',
        kind: 'description-changed',
        side: 'input',
        field: '.file_path',
        path: 'file_path',
      },
    ],
  };
  const changes = toolChanges(tool('Read'), [file]);
  assert.deepEqual(
    changes.map((c) => [c.release, c.evidence]),
    [
      ['2.0.0', 'fixture.d.ts: fixture-cli 1.9.2 → fixture-sdk 1.0.0'],
      ['1.9.2', 'fixture-cli fixture.d.ts: 1.9.0 → 1.9.2'],
    ],
  );
  assert.deepEqual(fieldSince(tool('Read'), [file]).get('input.file_path'), {
    kind: 'before',
    release: '1.9.0',
    first: true,
  });
  assert.deepEqual(fieldSince(tool('Read'), [file]).get('input.limit'), {
    kind: 'field',
    release: '1.9.2',
    note: 'since-input.limit',
  });
  const [covered] = coverage('claude-code', [file]);
  assert.deepEqual([covered!.first, covered!.last, covered!.count], ['1.9.0', '2.0.1', 4]);
  assert.deepEqual(covered!.lines, [
    { package: 'fixture-cli', count: 2, first: '1.9.0', last: '1.9.2', firstLabel: '1.9.0', lastLabel: '1.9.2' },
    { package: 'fixture-sdk', count: 2, first: '1.0.0', last: '1.0.1', firstLabel: '2.0.0', lastLabel: '2.0.1' },
  ]);
  // The changelog orders by the release readers know, across both packages.
  assert.deepEqual(
    changelog('claude-code', [file]).map((r) => r.release),
    ['2.0.0', '1.9.2'],
  );
});
