/**
 * Union variants by identity and renames as renames, end to end on hand-written
 * releases: declarations → rows (the site's code) → events (scripts/lib/history/field-diff.ts)
 * → the "since" of each row of a page (src/lib/history/history.ts). Every expected anchor,
 * event and release below is written from reading the declarations in this file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shapeFromTypeScript } from '../../src/lib/shapes/ts-shape.ts';
import { fieldRows, type FieldRow } from '../../src/lib/shapes/field-rows.ts';
import { variantIdentities } from '../../src/lib/shapes/variant-identity.ts';
import { parseAnchor } from '../../src/lib/shapes/anchors.ts';
import { releaseSnapshot, type ReleaseSnapshot } from '../../scripts/lib/history/sdk-snapshot.ts';
import { diffReleases, renamedTools } from '../../scripts/lib/history/sdk-diff.ts';
import { unionized } from '../../scripts/lib/history/field-diff.ts';
import { changeLine, fieldSince, historyNames, linkableAnchors, versionNotes } from '../../src/lib/history/history.ts';
import type { HistoryEvent, HistoryFile } from '../../src/lib/core/content-types.ts';
import type { ToolModel } from '../../src/lib/model/model.ts';
import type { NameTable } from '../../scripts/lib/claude-sdk.ts';

const rows = (source: string, type: string, root: 'input' | 'output' = 'output'): FieldRow[] =>
  fieldRows(shapeFromTypeScript(source, type), { root });

test('variant identity: a property only that variant declares, else a type text only it has, else none', () => {
  const shape = (source: string) => {
    const s = shapeFromTypeScript(source, 'T');
    assert.equal(s.kind, 'union');
    return (s as { variants: Parameters<typeof variantIdentities>[0] }).variants;
  };
  const keys = (source: string) => variantIdentities(shape(source)).map((i) => i?.key);
  // `url` is declared by the first variant only (required first); `owned` is shared, `asset_upload` is the third's own.
  assert.deepEqual(
    keys(
      'export type T = { url: string; path: string; owned?: boolean } | { artifacts: string[] } | { owned?: boolean; written?: string; asset_upload: { id: string } };',
    ),
    ['+url', '+artifacts', '+asset_upload'],
  );
  // An optional own property when there is no required one.
  assert.deepEqual(keys('export type T = { a: string; b?: number } | { a: string; c?: number };'), ['+b', '+c']);
  // Not objects: the type text, when only one variant has it.
  assert.deepEqual(keys('export type T = string | { x: string }[] | { y: number };'), [
    '=string',
    '=object~5B~5D',
    '+y',
  ]);
  // Two objects that declare the same properties: nothing tells them apart but their position.
  assert.deepEqual(keys('export type T = { a: string } | { a: number };'), [undefined, undefined]);
});

test('field rows keep the positional anchor and carry the stable one; a discriminated union needs none', () => {
  const table = rows(
    'export type T = { read: { url: string } } | { watch: { url: string; items: ({ task_id: string } | { trigger_id: string })[] } };',
    'T',
  );
  assert.deepEqual(
    table.map((r) => [r.id, r.stableId]),
    [
      ['output:1', 'output:+read'],
      ['output:1.read', 'output:+read.read'],
      ['output:1.read.url', 'output:+read.read.url'],
      ['output:2', 'output:+watch'],
      ['output:2.watch', 'output:+watch.watch'],
      ['output:2.watch.url', 'output:+watch.watch.url'],
      ['output:2.watch.items', 'output:+watch.watch.items'],
      ['output:2.watch.items:1', 'output:+watch.watch.items:+task_id'],
      ['output:2.watch.items:1.task_id', 'output:+watch.watch.items:+task_id.task_id'],
      ['output:2.watch.items:2', 'output:+watch.watch.items:+trigger_id'],
      ['output:2.watch.items:2.trigger_id', 'output:+watch.watch.items:+trigger_id.trigger_id'],
    ],
  );
  // Stable anchors read back with the anchor scheme's own parser: `+name` is a variant key, not a separator.
  assert.deepEqual(parseAnchor('output:+watch.watch.items:+task_id', 'output'), [
    { kind: 'variant', key: '+watch' },
    { kind: 'property', name: 'watch' },
    { kind: 'property', name: 'items' },
    { kind: 'variant', key: '+task_id' },
  ]);
  // Shown by identity, not by position: a variant inserted before `watch` changes neither its label nor the paths under
  // it.
  assert.deepEqual(
    table.filter((r) => r.role === 'variant').map((r) => r.label),
    ['with read', 'with watch', 'with task_id', 'with trigger_id'],
  );
  const inserted = rows(
    'export type T = { read: { url: string } } | { list: string[] } | { watch: { url: string } };',
    'T',
  );
  assert.equal(table.find((r) => r.id === 'output:2.watch.url')!.path, '(with watch).watch.url');
  assert.equal(inserted.find((r) => r.id === 'output:3.watch.url')!.path, '(with watch).watch.url');
  // A variant known by its type text is called by it; one with no identity keeps its position.
  const mixed = rows('export type T = string | { a: string } | { a: number };', 'T');
  assert.deepEqual(
    mixed.filter((r) => r.role === 'variant').map((r) => r.label),
    ['string', 'variant 2 (object)', 'variant 3 (object)'],
  );
  const tagged = rows('export type T = { type: "a"; x: string } | { type: "b"; y: string };', 'T');
  for (const r of tagged) assert.equal(r.stableId, r.id);
  assert.deepEqual(
    tagged.map((r) => r.id),
    ['output:a', 'output:a.type', 'output:a.x', 'output:b', 'output:b.type', 'output:b.y'],
  );
});

// Releases of one tool `Art`, written by hand.
const NAMES: NameTable = { types: { Art: { name: 'Art', group: 'built-in', evidence: 'fixture' } }, aliases: {} };
const release = (version: string, output: string): ReleaseSnapshot =>
  releaseSnapshot(
    `export type ToolInputSchemas = ArtInput;\nexport type ToolOutputSchemas = ArtOutput;\nexport interface ArtInput { file_path: string }\nexport type ArtOutput = ${output};\n`,
    NAMES,
    { package: 'fixture', version, file: 'sdk-tools.d.ts' },
  );
// 1.0.0: one object. 1.0.1: it became a union (the object gained `updated`, a list result came).
// 1.0.2: a variant inserted at position 1, before both. 1.0.3: a field of the list result renamed.
const R0 = release('1.0.0', '{ url: string; path: string; title?: string }');
const R1 = release(
  '1.0.1',
  '{ url: string; path: string; title?: string; updated?: boolean } | { artifacts: { url: string }[] }',
);
const R2 = release(
  '1.0.2',
  '{ asset_upload: { id: string } } | { url: string; path: string; title?: string; updated?: boolean } | { artifacts: { url: string }[] }',
);
const R3 = release(
  '1.0.3',
  '{ asset_upload: { id: string } } | { url: string; path: string; title?: string; updated?: boolean } | { items: { url: string }[] }',
);

const short = (events: HistoryEvent[]) =>
  events.map(
    (e) =>
      `${e.release} ${e.kind}${e.side ? ` ${e.side}${e.field}` : ''}${e.formerField !== undefined ? ` (was ${e.side}${e.formerField})` : ''}`,
  );

test('a type that becomes a union: one now-variant event, the earlier fields not added again', () => {
  assert.deepEqual(unionized(R0.tools.Art!.output!, R1.tools.Art!.output!, 'output'), [
    { place: 'output', variant: 'output:+url' },
  ]);
  assert.deepEqual(short(diffReleases(R0, R1, '1.0.0', '1.0.1')), [
    '1.0.1 field-added output:+artifacts',
    '1.0.1 field-added output:+artifacts.artifacts',
    '1.0.1 field-added output:+artifacts.artifacts.url',
    '1.0.1 now-variant output:+url (was output)',
    '1.0.1 field-added output:+url.updated',
  ]);
});

test('a variant inserted at position 1 is one addition: the others keep their identity', () => {
  assert.deepEqual(short(diffReleases(R1, R2, '1.0.1', '1.0.2')), [
    '1.0.2 field-added output:+asset_upload',
    '1.0.2 field-added output:+asset_upload.asset_upload',
    '1.0.2 field-added output:+asset_upload.asset_upload.id',
  ]);
  // By position, the same change would have renumbered both earlier variants.
  const positions = (r: ReleaseSnapshot) =>
    fieldRowsOf(r)
      .filter((row) => /^output:\d+$/.test(row.id))
      .map((row) => `${row.id}=${row.stableId}`);
  assert.deepEqual(positions(R1), ['output:1=output:+url', 'output:2=output:+artifacts']);
  assert.deepEqual(positions(R2), [
    'output:1=output:+asset_upload',
    'output:2=output:+url',
    'output:3=output:+artifacts',
  ]);
});

/** The rows the page of `Art` shows in a release (its output table), with both anchors. */
function fieldRowsOf(r: ReleaseSnapshot): { id: string; stableId: string }[] {
  const text =
    r === R1
      ? '{ url: string; path: string; title?: string; updated?: boolean } | { artifacts: { url: string }[] }'
      : '{ asset_upload: { id: string } } | { url: string; path: string; title?: string; updated?: boolean } | { artifacts: { url: string }[] }';
  return rows(`export type O = ${text};`, 'O');
}

test('a field renamed (same parent, same rows apart from the name) is one renamed event; its variant changes identity with it', () => {
  // `artifacts` → `items` is also the variant's own property, so the variant is now known as `+items`:
  // a different identity, hence a removal and an addition of the variant (nothing links the two).
  const events = short(diffReleases(R2, R3, '1.0.2', '1.0.3'));
  assert.ok(events.includes('1.0.3 field-added output:+items'), events.join('\n'));
  assert.ok(events.includes('1.0.3 field-removed output:+artifacts'), events.join('\n'));
  // Inside one variant, a renamed field is one event.
  const A = release('2.0.0', '{ a: string; sandbox?: boolean } | { b: number }');
  const B = release('2.0.1', '{ a: string; dangerouslyDisableSandbox?: boolean } | { b: number }');
  assert.deepEqual(short(diffReleases(A, B, '2.0.0', '2.0.1')), [
    '2.0.1 renamed output:+a.dangerouslyDisableSandbox (was output:+a.sandbox)',
  ]);
  // A field whose description changed with its name is not a rename.
  const C = release(
    '2.0.2',
    '{ a: string;\n /**\n * Run without a sandbox\n */\n dangerouslyOverride?: boolean } | { b: number }',
  );
  assert.deepEqual(short(diffReleases(B, C, '2.0.1', '2.0.2')), [
    '2.0.2 field-removed output:+a.dangerouslyDisableSandbox',
    '2.0.2 field-added output:+a.dangerouslyOverride',
  ]);
});

test('a tool renamed: stated by the package, or the same rows under another name; an ambiguous pair is not a rename', () => {
  const named = (version: string, prefix: string, body: string) =>
    releaseSnapshot(
      `export type ToolInputSchemas = ArtInput | ${prefix}Input;\nexport type ToolOutputSchemas = ArtOutput;\nexport interface ArtInput { file_path: string }\nexport type ArtOutput = { url: string };\nexport interface ${prefix}Input { ${body} }`,
      { types: { Art: { name: 'Art', group: 'built-in', evidence: 'fixture' } }, aliases: {} },
      { package: 'fixture', version, file: 'sdk-tools.d.ts' },
    );
  const before = named('1.0.0', 'MultipleChoiceQuestion', 'questions: string[]');
  const same = named('1.0.1', 'AskUserQuestion', 'questions: string[]');
  const other = named('1.0.1', 'TaskStop', 'task_id?: string; shell_id?: string');
  assert.deepEqual(renamedTools(before, same), [{ from: 'MultipleChoiceQuestion', to: 'AskUserQuestion' }]);
  assert.deepEqual(diffReleases(before, same, '1.0.0', '1.0.1'), [
    {
      release: '1.0.1',
      previous: '1.0.0',
      tool: 'AskUserQuestion',
      kind: 'renamed',
      from: 'MultipleChoiceQuestion',
      to: 'AskUserQuestion',
    },
  ]);
  // Other rows: a removal and an addition, unless the package states the rename; then the rows are compared.
  assert.deepEqual(short(diffReleases(before, other, '1.0.0', '1.0.1')), ['1.0.1 tool-removed', '1.0.1 tool-added']);
  const stated = diffReleases(before, other, '1.0.0', '1.0.1', new Map([['MultipleChoiceQuestion', 'TaskStop']]));
  assert.deepEqual(
    stated.map((e) => `${e.tool} ${e.kind} ${e.field ?? ''}`.trim()),
    [
      'TaskStop renamed',
      'TaskStop field-removed .questions',
      'TaskStop field-added .shell_id',
      'TaskStop field-added .task_id',
    ],
  );
});

/** A tool model holding only what the history functions read: names, source, agent and field tables. */
function toolModel(output: FieldRow[], name = 'Art', aliases: ToolModel['generated']['aliases'] = []): ToolModel {
  const view = (rows: FieldRow[]) => ({ rows }) as unknown as ToolModel['input'];
  return {
    agent: 'claude-code',
    fullName: name,
    source: 'sdk',
    generated: { aliases },
    input: view(rows('export interface I { file_path: string }', 'I', 'input')),
    output: view(output),
  } as unknown as ToolModel;
}

function historyOf(events: HistoryEvent[], versions: string[]): HistoryFile {
  return {
    agent: 'claude-code',
    source: 'sdk',
    package: 'fixture',
    method: 'fixture',
    releases: versions.map((version) => ({ version })),
    events,
  } as HistoryFile;
}

test('since badges follow identity: a variant inserted first gets its own release, the earlier fields keep theirs', () => {
  // 0.9.0: the tool came with `url`; 1.0.0: `path` and `title` added; then the changes above.
  const start = release('0.9.0', '{ url: string }');
  const events = [
    { release: '0.9.0', previous: '0.8.0', tool: 'Art', kind: 'tool-added' } as HistoryEvent,
    ...diffReleases(start, R0, '0.9.0', '1.0.0'),
    ...diffReleases(R0, R1, '1.0.0', '1.0.1'),
    ...diffReleases(R1, R2, '1.0.1', '1.0.2'),
  ];
  const file = historyOf(events, ['0.8.0', '0.9.0', '1.0.0', '1.0.1', '1.0.2']);
  const page = rows(
    'export type O = { asset_upload: { id: string } } | { url: string; path: string; title?: string; updated?: boolean } | { artifacts: { url: string }[] };',
    'O',
  );
  const since = fieldSince(toolModel(page), [file]);
  const at = (id: string) =>
    since.get(id) &&
    `${since.get(id)!.kind} ${since.get(id)!.release}${since.get(id)!.note ? ` ${since.get(id)!.note}` : ''}`;
  // Position 1 is the inserted variant, with its own release and note.
  assert.equal(at('output:1'), 'field 1.0.2 since-output:+asset_upload');
  assert.equal(at('output:1.asset_upload.id'), 'field 1.0.2 since-output:+asset_upload');
  // Position 2 is the earlier object: its fields keep the release that added them, before the union.
  assert.equal(at('output:2'), 'tool 0.9.0 since-tool-sdk');
  assert.equal(at('output:2.url'), 'tool 0.9.0 since-tool-sdk');
  assert.equal(at('output:2.path'), 'field 1.0.0 since-output.path');
  assert.equal(at('output:2.title'), 'field 1.0.0 since-output.title');
  assert.equal(at('output:2.updated'), 'field 1.0.1 since-output:+url.updated');
  assert.equal(at('output:3'), 'field 1.0.1 since-output:+artifacts');
  // Every note a badge links to is on the page.
  const ids = new Set(
    versionNotes(toolModel(page), [file]).flatMap((g) => g.items.flatMap((n) => (n.id ? [n.id] : []))),
  );
  for (const s of since.values()) if (s.note) assert.ok(ids.has(s.note), s.note);
});

test('renames: a field keeps the release of its first name, its old anchor lands on the rename; a tool answers to its former name', () => {
  const A = release('1.0.0', '{ sandbox?: boolean }');
  const B = release('1.0.1', '{ sandbox?: boolean; dangerouslyOverrideSandbox?: boolean }');
  const C = release('1.0.2', '{ sandbox?: boolean; dangerouslyDisableSandbox?: boolean }');
  const events = [...diffReleases(A, B, '1.0.0', '1.0.1'), ...diffReleases(B, C, '1.0.1', '1.0.2')];
  const file = historyOf(events, ['1.0.0', '1.0.1', '1.0.2']);
  const tool = toolModel(rows('export type O = { sandbox?: boolean; dangerouslyDisableSandbox?: boolean };', 'O'));
  const since = fieldSince(tool, [file]);
  assert.deepEqual(since.get('output.dangerouslyDisableSandbox'), {
    kind: 'field',
    release: '1.0.1',
    note: 'since-output.dangerouslyOverrideSandbox',
  });
  assert.deepEqual(since.get('output.sandbox'), { kind: 'before', release: '1.0.0', first: true });
  const rename = versionNotes(tool, [file])
    .flatMap((g) => g.items)
    .find((n) => n.event.kind === 'renamed')!;
  assert.equal(rename.id, 'output.dangerouslyOverrideSandbox', 'the old anchor is the id of the note of the rename');
  assert.ok(linkableAnchors(tool, versionNotes(tool, [file])).has('output.dangerouslyOverrideSandbox'));
  assert.deepEqual(changeLine(rename.event), {
    kind: 'renamed',
    from: 'dangerouslyOverrideSandbox',
    to: 'dangerouslyDisableSandbox',
    folded: 0,
  });

  const renamed = historyOf(
    [
      {
        release: '1.0.1',
        previous: '1.0.0',
        tool: 'AskUserQuestion',
        kind: 'renamed',
        from: 'MultipleChoiceQuestion',
        to: 'AskUserQuestion',
      },
      { release: '1.0.0', previous: '0.9.0', tool: 'MultipleChoiceQuestion', kind: 'tool-added' },
      { release: '1.0.2', previous: '1.0.1', tool: 'Ask', kind: 'renamed', from: 'AskUserQuestion', to: 'Ask' },
    ],
    ['0.9.0', '1.0.0', '1.0.1', '1.0.2'],
  );
  const ask = toolModel(rows('export type O = { answers: string[] };', 'O'), 'Ask');
  assert.deepEqual([...historyNames(ask, [renamed])].sort(), ['Ask', 'AskUserQuestion', 'MultipleChoiceQuestion']);
  // Its fields came with the tool, added under its first name.
  assert.deepEqual(fieldSince(ask, [renamed]).get('output.answers'), {
    kind: 'tool',
    release: '1.0.0',
    note: 'since-tool-sdk',
  });
});

test('captures: a tool renamed with the same definition is one renamed event; another definition is a removal and an addition', async () => {
  const { historyEvents } = await import('../../scripts/lib/history/capture-diff.ts');
  type Tool = import('../../scripts/lib/history/capture-snapshot.ts').CaptureToolSnapshot;
  const rows = [{ id: 'input.pattern', path: 'pattern', type: 'string', required: true }];
  const tool = (description: string, r = rows): Tool => ({
    delivery: 'function',
    description,
    kind: 'json-schema',
    definition: JSON.stringify({ kind: 'json-schema', schema: { required: r.map((x) => x.path) } }),
    rows: r,
  });
  const config = (tools: Record<string, Tool>) => ({ tools, unresolvedNamespaces: [] });
  const at = (version: string, tools: Record<string, Tool>) => ({
    version,
    configs: new Map([['print', config(tools)]]),
  });
  const before = at('0.1.0', {
    search_file_content: tool('search_file_content: searches files'),
    read_file: tool('reads'),
  });
  const same = at('0.2.0', { grep_search: tool('grep_search: searches files'), read_file: tool('reads') });
  assert.deepEqual(
    historyEvents([before, same], ['print']).map((e) => `${e.kind} ${e.tool} ${e.from ?? ''}→${e.to ?? ''}`),
    ['renamed grep_search search_file_content→grep_search'],
  );
  const other = at('0.2.0', {
    grep_search: tool('grep_search: searches files', [
      { ...rows[0]!, id: 'input.include_pattern', path: 'include_pattern' },
    ]),
    read_file: tool('reads'),
  });
  assert.deepEqual(
    historyEvents([before, other], ['print'])
      .map((e) => `${e.kind} ${e.tool}`)
      .sort(),
    [
      'available grep_search',
      'tool-added grep_search',
      'tool-removed search_file_content',
      'unavailable search_file_content',
    ],
  );
  // A field renamed inside one tool: one event, by the SDK history's rule.
  const a = at('0.3.0', {
    grep_search: tool('greps', [{ id: 'input.include', path: 'include', type: 'string', required: false }]),
  });
  const b = at('0.4.0', {
    grep_search: tool('greps', [
      { id: 'input.include_pattern', path: 'include_pattern', type: 'string', required: false },
    ]),
  });
  assert.deepEqual(
    historyEvents([a, b], ['print']).map((e) => `${e.kind} ${e.field} (was ${e.formerField})`),
    ['renamed .include_pattern (was .include)'],
  );
});
