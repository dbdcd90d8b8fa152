/**
 * The pure parts of the release history (scripts/lib/history/): release
 * ranges, the rows of one release, the events
 * between two releases, and the history file built whole or extended.
 *
 * The fixtures test/fixtures/history/unit/before.d.ts (release 1.0.1) and
 * after.d.ts (release 1.0.4) change one thing per field; every expected event
 * below is written from reading those two files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NameTable } from '../../scripts/lib/claude-sdk.ts';
import { releasesInRange } from '../../scripts/lib/history/releases.ts';
import { compareReleases, isRelease } from '../../src/lib/core/version-order.ts';
import {
  namesForRelease,
  releaseSnapshot,
  SnapshotError,
  type ReleaseSnapshot,
} from '../../scripts/lib/history/sdk-snapshot.ts';
import type { RowSnapshot } from '../../scripts/lib/history/rows.ts';
import { diffReleases } from '../../scripts/lib/history/sdk-diff.ts';
import { alignPositionalVariants, tableEvents } from '../../scripts/lib/history/field-diff.ts';
import { sortEvents, type HistoryEvent } from '../../scripts/lib/history/events.ts';
import { appendToHistory, historyDocument, lastReadRelease } from '../../scripts/lib/history/document.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/history/unit');
const BEFORE = readFileSync(join(FIXTURES, 'before.d.ts'), 'utf8');
const AFTER = readFileSync(join(FIXTURES, 'after.d.ts'), 'utf8');
const NAMES: NameTable = {
  types: {
    FileRead: { name: 'Read', group: 'built-in', evidence: 'fixture' },
    Bash: { name: 'Bash', group: 'built-in', evidence: 'fixture' },
    TaskStop: { name: 'TaskStop', group: 'built-in', evidence: 'fixture' },
    Ask: { name: 'AskUserQuestion', group: 'built-in', evidence: 'fixture' },
  },
  // Aliases play no part in the rows; a table whose aliases name tools a release lacks must still work.
  aliases: { TaskStop: [{ name: 'KillShell', kind: 'former-name', evidence: 'fixture' }], Gone: [] },
};
const origin = (version: string) => ({ package: 'fixture-sdk', version, file: 'sdk-tools.d.ts' });

const before = releaseSnapshot(BEFORE, NAMES, origin('1.0.1'));
const after = releaseSnapshot(AFTER, NAMES, origin('1.0.4'));

/** An event of 1.0.4 against 1.0.1, keys in the order the file writes them. */
function ev(
  tool: string,
  kind: HistoryEvent['kind'],
  rest: Omit<HistoryEvent, 'release' | 'previous' | 'tool' | 'kind'> = {},
): HistoryEvent {
  return { release: '1.0.4', previous: '1.0.1', tool, kind, ...rest };
}

test('release numbers: only x.y.z, in numeric order, within the range', () => {
  assert.equal(isRelease('0.3.150'), true);
  assert.equal(isRelease('0.3.150-beta.1'), false);
  assert.equal(isRelease('0.3.150+build'), false);
  assert.equal(isRelease('01.2.3'), false);
  assert.ok(compareReleases('0.3.9', '0.3.10') < 0);
  assert.ok(compareReleases('0.10.0', '0.9.99') > 0);
  assert.equal(compareReleases('1.2.3', '1.2.3'), 0);
  const listed = ['0.2.141', '0.3.142', '1.0.4', '1.0.3-beta.1', '1.0.1', '1.0.10', '1.0.2-rc.0', '1.0.9', '1.1.0'];
  assert.deepEqual(releasesInRange(listed, '1.0.1', '1.0.10'), ['1.0.1', '1.0.4', '1.0.9', '1.0.10']);
  assert.deepEqual(releasesInRange(listed, '0.2.0', '0.3.142'), ['0.2.141', '0.3.142']);
  assert.throws(() => releasesInRange(listed, '1.0.4', '1.0.1'), /empty/);
});

test('a release snapshot names tools through the table and after their type prefix when the table lacks it', () => {
  assert.deepEqual(Object.keys(before.tools), ['AskUserQuestion', 'Bash', 'KillShell', 'Read']);
  assert.deepEqual(before.derived, ['KillShell']);
  assert.deepEqual(Object.keys(after.tools), ['AskUserQuestion', 'Bash', 'Read', 'TaskStop']);
  assert.deepEqual(after.derived, []);
  const kill = before.tools.KillShell!;
  assert.equal(kill.typePrefix, 'KillShell');
  assert.equal(kill.output, null, 'no KillShellOutput type');
  assert.deepEqual(kill.input, [{ id: 'input.shell_id', path: 'shell_id', type: 'string', required: true }]);
});

test('a release snapshot holds the rows the page shows: anchors, paths, types, requiredness, descriptions, literals', () => {
  const read = before.tools.Read!;
  assert.deepEqual(read.input, [
    {
      id: 'input.file_path',
      path: 'file_path',
      type: 'string',
      required: true,
      description: 'The absolute path to the file',
    },
    { id: 'input.offset', path: 'offset', type: 'number', required: false, description: 'Line to start reading at' },
    { id: 'input.limit', path: 'limit', type: 'number', required: false },
  ]);
  assert.deepEqual(
    read.output!.map((r) => [r.id, r.path, r.type, r.required]),
    [
      ['output:text', '(type: "text")', 'object', null],
      ['output:text.type', '(type: "text").type', '"text"', true],
      ['output:text.file', '(type: "text").file', 'object', true],
      ['output:text.file.filePath', '(type: "text").file.filePath', 'string', true],
      ['output:text.file.content', '(type: "text").file.content', 'string', true],
      ['output:image', '(type: "image")', 'object', null],
      ['output:image.type', '(type: "image").type', '"image"', true],
      ['output:image.file', '(type: "image").file', 'object', true],
      ['output:image.file.base64', '(type: "image").file.base64', 'string', true],
    ],
  );
  const mode = before.tools.Bash!.input.find((r) => r.id === 'input.mode')!;
  assert.deepEqual(mode, {
    id: 'input.mode',
    path: 'mode',
    type: '"fast" | "safe"',
    required: false,
    literals: ['"fast"', '"safe"'],
  });
  const lines = before.tools.Bash!.output!.find((r) => r.id === 'output.patches.hunks.lines')!;
  assert.deepEqual(lines, {
    id: 'output.patches.hunks.lines',
    path: 'patches[].hunks[].lines',
    type: 'string[]',
    required: true,
  });
  const content = after.tools.Read!.output!.find((r) => r.id === 'output:text.file.content')!;
  assert.deepEqual(content, {
    id: 'output:text.file.content',
    path: '(type: "text").file.content',
    type: 'string | null',
    required: true,
    nullable: true,
  });
});

test('the events from 1.0.1 to 1.0.4, one per change, sorted by tool, side, field and kind', () => {
  const expected: HistoryEvent[] = [
    // Bash: requiredness, a type change, a literal value swapped, a field renamed inside nested arrays.
    ev('Bash', 'now-optional', { side: 'input', field: '.command', path: 'command', from: 'required', to: 'optional' }),
    ev('Bash', 'value-added', { side: 'input', field: '.mode', path: 'mode', to: '"sandboxed"' }),
    ev('Bash', 'value-removed', { side: 'input', field: '.mode', path: 'mode', from: '"safe"' }),
    ev('Bash', 'type-changed', { side: 'input', field: '.timeout', path: 'timeout', from: 'number', to: 'string' }),
    // `lines` and `newLines` have the same parent, type, requiredness and (no) description: one rename.
    ev('Bash', 'renamed', {
      side: 'output',
      field: '.patches.hunks.newLines',
      path: 'patches[].hunks[].newLines',
      formerField: '.patches.hunks.lines',
      from: 'patches[].hunks[].lines',
      to: 'patches[].hunks[].newLines',
    }),
    // KillShell (a name derived from its type prefix) went; TaskStop came with other rows, and no rename is stated
    // here:
    // a removal and an addition.
    ev('KillShell', 'tool-removed'),
    // Read: description, removal, requiredness and addition in the input; a new union variant and a nullable field in
    // the output.
    ev('Read', 'description-changed', {
      side: 'input',
      field: '.file_path',
      path: 'file_path',
      from: 'The absolute path to the file',
      to: 'The absolute path to the file to read',
    }),
    ev('Read', 'field-removed', { side: 'input', field: '.limit', path: 'limit', from: 'number' }),
    ev('Read', 'now-required', { side: 'input', field: '.offset', path: 'offset', from: 'optional', to: 'required' }),
    ev('Read', 'field-added', { side: 'input', field: '.pages', path: 'pages', to: 'string' }),
    ev('Read', 'field-added', { side: 'output', field: ':pdf', path: '(type: "pdf")', to: 'object' }),
    ev('Read', 'field-added', { side: 'output', field: ':pdf.file', path: '(type: "pdf").file', to: 'object' }),
    ev('Read', 'field-added', {
      side: 'output',
      field: ':pdf.file.pages',
      path: '(type: "pdf").file.pages',
      to: 'number',
    }),
    ev('Read', 'field-added', { side: 'output', field: ':pdf.type', path: '(type: "pdf").type', to: '"pdf"' }),
    ev('Read', 'type-changed', {
      side: 'output',
      field: ':text.file.content',
      path: '(type: "text").file.content',
      from: 'string',
      to: 'string | null',
    }),
    ev('TaskStop', 'tool-added'),
  ];
  assert.deepEqual(diffReleases(before, after, '1.0.1', '1.0.4'), expected);
  // AskUserQuestion did not change: no event names it.
  assert.deepEqual(diffReleases(after, after, '1.0.4', '1.0.4'), []);
});

test('the reverse comparison mirrors every event', () => {
  const back = diffReleases(after, before, '1.0.4', '1.0.1').map(
    (e) => `${e.tool} ${e.kind}${e.side ? ` ${e.side}${e.field}` : ''} ${e.from ?? ''}→${e.to ?? ''}`,
  );
  assert.deepEqual(back, [
    'Bash now-required input.command optional→required',
    'Bash value-added input.mode →"safe"',
    'Bash value-removed input.mode "sandboxed"→',
    'Bash type-changed input.timeout string→number',
    'Bash renamed output.patches.hunks.lines patches[].hunks[].newLines→patches[].hunks[].lines',
    'KillShell tool-added →',
    'Read description-changed input.file_path The absolute path to the file to read→The absolute path to the file',
    'Read field-added input.limit →number',
    'Read now-optional input.offset required→optional',
    'Read field-removed input.pages string→',
    'Read field-removed output:pdf object→',
    'Read field-removed output:pdf.file object→',
    'Read field-removed output:pdf.file.pages number→',
    'Read field-removed output:pdf.type "pdf"→',
    'Read type-changed output:text.file.content string | null→string',
    'TaskStop tool-removed →',
  ]);
});

test('enum values: several added and removed at once, a literal that becomes nullable, a literal union that becomes a string', () => {
  const row = (type: string, literals: string[] | undefined, nullable = false): RowSnapshot => ({
    id: 'input.status',
    path: 'status',
    type,
    required: true,
    ...(nullable ? { nullable: true as const } : {}),
    ...(literals ? { literals } : {}),
  });
  const at = { release: '2.0.0', previous: '1.9.0', tool: 'T' };
  const kinds = (a: RowSnapshot, b: RowSnapshot) =>
    tableEvents([a], [b], 'input', at).map((e) => `${e.kind} ${e.from ?? ''}→${e.to ?? ''}`);
  assert.deepEqual(
    kinds(row('"a" | "b" | "c"', ['"a"', '"b"', '"c"']), row('"a" | "d" | "e"', ['"a"', '"d"', '"e"'])),
    ['value-removed "b"→', 'value-removed "c"→', 'value-added →"d"', 'value-added →"e"'],
  );
  assert.deepEqual(kinds(row('"a"', ['"a"']), row('"a" | null', ['"a"'], true)), ['type-changed "a"→"a" | null']);
  assert.deepEqual(kinds(row('"a" | "b"', ['"a"', '"b"']), row('string', undefined)), [
    'type-changed "a" | "b"→string',
  ]);
  assert.deepEqual(kinds(row('1 | 2', ['1', '2']), row('1 | 2 | 3', ['1', '2', '3'])), ['value-added →3']);
  // Sorted, value-added comes before value-removed within a field.
  assert.deepEqual(
    sortEvents(tableEvents([row('"a" | "b"', ['"a"', '"b"'])], [row('"a" | "c"', ['"a"', '"c"'])], 'input', at)).map(
      (e) => e.kind,
    ),
    ['value-added', 'value-removed'],
  );
});

test('a result type that appears shows as its rows being added; a description that appears or goes has only one side', () => {
  const snap = (output: RowSnapshot[] | null, description?: string): ReleaseSnapshot => ({
    derived: [],
    tools: {
      T: {
        typePrefix: 'T',
        input: [{ id: 'input.x', path: 'x', type: 'string', required: true, ...(description ? { description } : {}) }],
        output,
      },
    },
  });
  const out: RowSnapshot[] = [{ id: 'output.ok', path: 'ok', type: 'boolean', required: true }];
  assert.deepEqual(diffReleases(snap(null), snap(out), '1.0.0', '1.0.1'), [
    {
      release: '1.0.1',
      previous: '1.0.0',
      tool: 'T',
      kind: 'field-added',
      side: 'output',
      field: '.ok',
      path: 'ok',
      to: 'boolean',
    },
  ]);
  assert.deepEqual(diffReleases(snap(null), snap(null, 'The x'), '1.0.0', '1.0.1'), [
    {
      release: '1.0.1',
      previous: '1.0.0',
      tool: 'T',
      kind: 'description-changed',
      side: 'input',
      field: '.x',
      path: 'x',
      to: 'The x',
    },
  ]);
  assert.deepEqual(diffReleases(snap(null, 'The x'), snap(null), '1.0.0', '1.0.1')[0]!.from, 'The x');
  // Whitespace around a description is not a change.
  assert.deepEqual(diffReleases(snap(null, 'The x'), snap(null, '  The x\n'), '1.0.0', '1.0.1'), []);
});

test('a derived name that collides with a name from the table is refused; a file that does not parse says so', () => {
  assert.throws(
    () =>
      namesForRelease({ types: { FileEdit: { name: 'Edit', group: 'built-in', evidence: 'x' } }, aliases: {} }, [
        'FileEdit',
        'Edit',
      ]),
    SnapshotError,
  );
  assert.throws(() => releaseSnapshot('export interface {', NAMES, origin('1.0.2')), /does not parse/);
  assert.throws(() => releaseSnapshot('export interface A { x: string }', NAMES, origin('1.0.2')), /ToolInputSchemas/);
});

test('the history file: built whole with the gaps, or extended with earlier events untouched', () => {
  const meta = { agent: 'claude-code' as const, package: 'fixture-sdk', method: 'compared', file: 'sdk-tools.d.ts' };
  const events = diffReleases(before, after, '1.0.1', '1.0.4');
  const whole = historyDocument(
    meta,
    [{ version: '1.0.4' }, { version: '1.0.1', cliVersion: '2.1.1' }],
    [...events].reverse(),
  );
  assert.deepEqual(Object.keys(whole), [
    '$schema',
    'agent',
    'source',
    'package',
    'method',
    'file',
    'releases',
    'unpublished',
    'events',
  ]);
  assert.equal(whole.$schema, '../../schemas/history.schema.json');
  assert.deepEqual(whole.releases, [{ version: '1.0.1', cliVersion: '2.1.1' }, { version: '1.0.4' }]);
  assert.deepEqual(whole.unpublished, ['1.0.2', '1.0.3']);
  assert.deepEqual(whole.events, events, 'events sorted whatever order they came in');

  const later = diffReleases(after, before, '1.0.4', '1.0.6').map((e) => ({
    ...e,
    release: '1.0.6',
    previous: '1.0.4',
  }));
  const extended = appendToHistory(whole, [{ version: '1.0.6', read: false }, { version: '1.0.5' }], later);
  assert.deepEqual(extended.events.slice(0, events.length), events, 'earlier events untouched');
  assert.deepEqual(extended.events.slice(events.length), sortEvents(later));
  assert.deepEqual(
    extended.releases.map((r) => r.version),
    ['1.0.1', '1.0.4', '1.0.5', '1.0.6'],
  );
  assert.deepEqual(extended.unpublished, ['1.0.2', '1.0.3']);
  assert.equal(lastReadRelease(extended), '1.0.5');
  assert.throws(() => appendToHistory(whole, [{ version: '1.0.4' }], []), /not newer/);
});

test('a union variant inserted before others is one addition, not a renumbering of every later variant', () => {
  const row = (id: string, type: string, required: boolean | null = true) => ({ id, path: id, type, required });
  const before = [
    row('output:1', 'object', null),
    row('output:1.a', 'string'),
    row('output:2', 'object', null),
    row('output:2.b', 'number'),
  ];
  const after = [
    row('output:1', 'object', null),
    row('output:1.a', 'string'),
    row('output:2', 'object', null),
    row('output:2.x', 'boolean'),
    row('output:3', 'object', null),
    row('output:3.b', 'number'),
  ];
  assert.deepEqual(
    alignPositionalVariants(before, after).map((r) => r.id),
    ['output:1', 'output:1.a', 'output:3', 'output:3.b'],
  );
  const events = tableEvents(before, after, 'output', { release: '1.0.1', previous: '1.0.0', tool: 'T' });
  assert.deepEqual(
    events.map((e) => `${e.kind} ${e.field}`),
    ['field-added :2', 'field-added :2.x'],
  );
  // A variant that changed where another one moved in keeps its place and is compared field by field.
  const changed = [
    row('output:1', 'object', null),
    row('output:1.a', 'string'),
    row('output:2', 'object', null),
    row('output:2.b', 'string'),
  ];
  const swapped = [
    row('output:1', 'object', null),
    row('output:1.b', 'string'),
    row('output:2', 'object', null),
    row('output:2.a', 'string'),
  ];
  const moved = alignPositionalVariants(changed, swapped).map((r) => r.id);
  assert.equal(new Set(moved).size, moved.length, 'no two rows share an id');
});
