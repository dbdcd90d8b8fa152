/**
 * The pure parts of the capture history (scripts/lib/capture-history): which releases
 * are read (sampling and bisection), which numbers were never published, and the events
 * two per-configuration tool snapshots give. Expected values are written by hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateChanges, sampleIndices } from '../../scripts/lib/capture-history/planner.ts';
import { selectReleases, unpublishedNumbers } from '../../scripts/lib/history/releases.ts';
import {
  historyEvents,
  releasesDiffer,
  RENAME_MIN_FIELDS,
  type ReleaseSnapshots,
} from '../../scripts/lib/history/capture-diff.ts';
import type { ConfigSnapshot, CaptureToolSnapshot } from '../../scripts/lib/history/capture-snapshot.ts';
import { sortEvents, type HistoryEvent } from '../../scripts/lib/history/events.ts';
import type { RowSnapshot } from '../../scripts/lib/history/rows.ts';
import { methodSentence } from '../../scripts/lib/history/document.ts';
import type { ComputedEvent } from '../../scripts/lib/history/text-store.ts';

/** A fake oracle over releases whose "content" changes at the given indices. */
function fakeOracle(changesAt: number[]) {
  const state = (i: number): number => changesAt.filter((c) => c <= i).length;
  const touched = new Set<number>();
  const differs = (a: number, b: number): boolean => {
    touched.add(a);
    touched.add(b);
    return state(a) !== state(b);
  };
  return { differs, touched };
}

describe('sampling and bisection', () => {
  it('samples every step-th release and both ends', () => {
    assert.deepEqual(sampleIndices(10, 4), [0, 4, 8, 9]);
    assert.deepEqual(sampleIndices(9, 4), [0, 4, 8]);
    assert.deepEqual(sampleIndices(1, 4), [0]);
    assert.deepEqual(sampleIndices(3, 1), [0, 1, 2]);
    assert.throws(() => sampleIndices(5, 0));
  });

  it('reads only the sample when nothing changes', async () => {
    const { differs, touched } = fakeOracle([]);
    const plan = await locateChanges(20, 8, differs);
    assert.deepEqual(plan.read, [0, 8, 16, 19]);
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(
      [...touched].sort((a, b) => a - b),
      [0, 8, 16, 19],
    );
  });

  it('bisects a change down to two adjacent releases', async () => {
    // 20 releases; the change first shows in index 11 (between samples 8 and 16).
    const { differs, touched } = fakeOracle([11]);
    const plan = await locateChanges(20, 8, differs);
    // 8..16 differ → read 12; 8..12 differ → read 10; 10..12 differ → read 11; 10..11 differ (adjacent); 11..12 same.
    assert.deepEqual(plan.changes, [[10, 11]]);
    assert.deepEqual(plan.read, [0, 8, 10, 11, 12, 16, 19]);
    assert.deepEqual(
      [...touched].sort((a, b) => a - b),
      plan.read,
    );
    for (const [a, b] of plan.changes) assert.equal(b - a, 1);
  });

  it('locates several changes, including one right after a sampled release and one at the last release', async () => {
    const { differs } = fakeOracle([1, 5, 9]);
    const plan = await locateChanges(10, 4, differs);
    assert.deepEqual(plan.changes, [
      [0, 1],
      [4, 5],
      [8, 9],
    ]);
    assert.deepEqual(plan.read, [0, 1, 2, 4, 5, 6, 8, 9]);
  });

  it('misses a change undone between two identical sampled releases (the price of sampling)', async () => {
    const state = (i: number): number => (i >= 2 && i < 4 ? 1 : 0);
    const plan = await locateChanges(9, 4, (a, b) => state(a) !== state(b));
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(plan.read, [0, 4, 8]);
  });
});

describe('release lists', () => {
  const published = ['0.9.0', '1.0.0', '1.0.1', '1.0.3', '1.1.0-alpha.1', '1.2.0', '1.2.1', '1.3.0', '2.0.0'];
  it('keeps stable releases in the range, oldest first', () => {
    assert.deepEqual(selectReleases(published, { from: '1.0.0', to: '1.3.0' }), [
      '1.0.0',
      '1.0.1',
      '1.0.3',
      '1.2.0',
      '1.2.1',
      '1.3.0',
    ]);
    assert.deepEqual(selectReleases(published, { last: 3, to: '1.3.0' }), ['1.2.0', '1.2.1', '1.3.0']);
    assert.throws(() => selectReleases(published, { to: '1.1.0' }));
  });
  it('names the numbers never published inside the range', () => {
    assert.deepEqual(unpublishedNumbers(['1.0.0', '1.0.1', '1.0.3', '1.2.0', '1.2.1', '1.3.0']), ['1.0.2', '1.1.0']);
    assert.deepEqual(unpublishedNumbers(['2.1.296', '2.1.299', '2.1.300']), ['2.1.297', '2.1.298']);
    assert.deepEqual(unpublishedNumbers(['0.166.0', '0.167.2', '0.168.0', '0.169.0', '0.171.0']), [
      '0.167.0',
      '0.167.1',
      '0.170.0',
    ]);
    // Across majors: nothing after 0.3.2 (where 0.x would have ended is unknown); 1.x counts from 1.0.0.
    assert.deepEqual(unpublishedNumbers(['0.2.5', '0.3.0', '0.3.2', '1.0.2', '1.2.0', '2.0.0']), [
      '0.3.1',
      '1.0.0',
      '1.0.1',
      '1.1.0',
    ]);
    assert.deepEqual(unpublishedNumbers(['0.9.9', '1.0.0']), []);
    // A new minor counts from x.y.0, even when the patch numbers ran on across minors (Claude Code's 0.2.141 →
    // 0.3.142).
    const runOn = unpublishedNumbers(['0.2.140', '0.2.141', '0.3.142', '0.3.144']);
    assert.equal(runOn.length, 143);
    assert.deepEqual([runOn[0], runOn[141], runOn[142]], ['0.3.0', '0.3.141', '0.3.143']);
    // Order and repeats of the input do not matter.
    assert.deepEqual(unpublishedNumbers(['1.0.4', '1.0.1', '1.0.4']), ['1.0.2', '1.0.3']);
    assert.deepEqual(unpublishedNumbers([]), []);
  });
});

// --- snapshots written by hand -------------------------------------------------------

const row = (field: string, type: string, required: boolean | null, extra: Partial<RowSnapshot> = {}): RowSnapshot => ({
  id: `input${field}`,
  path: field.slice(1),
  type,
  required,
  ...extra,
});

function tool(rows: RowSnapshot[], extra: Partial<CaptureToolSnapshot> = {}): CaptureToolSnapshot {
  return {
    delivery: 'function',
    description: 'does things',
    kind: 'json-schema',
    definition: JSON.stringify({ kind: 'json-schema', schema: { rows: rows.map((r) => r.id) } }),
    rows,
    ...extra,
  };
}

function snap(tools: Record<string, CaptureToolSnapshot>): ConfigSnapshot {
  return { tools, unresolvedNamespaces: [] };
}

function release(version: string, configs: Record<string, ConfigSnapshot | null>): ReleaseSnapshots {
  return { version, configs: new Map(Object.entries(configs)) };
}

const ORDER = ['print', 'no-search', 'interactive'];

describe('events between two releases', () => {
  const bashV1 = tool([
    row('.command', 'string', true),
    row('.timeout', 'number', false),
    row('.mode', '"a" | "b"', false, { literals: ['"a"', '"b"'] }),
  ]);
  const bashV2 = tool([
    row('.command', 'string', true, { description: 'The command' }),
    row('.timeout', 'integer', true),
    row('.mode', '"a" | "c"', false, { literals: ['"a"', '"c"'] }),
    row('.cwd', 'string', false),
  ]);
  const deferred: CaptureToolSnapshot = { delivery: 'deferred', kind: 'unavailable', definition: '', rows: [] };
  const grammar = (text: string): CaptureToolSnapshot => ({
    delivery: 'custom',
    description: 'patch',
    kind: 'grammar',
    definition: JSON.stringify({ kind: 'grammar', syntax: 'lark', definition: text }),
    rows: [],
  });

  const before = release('1.0.0', {
    print: snap({ Bash: deferred, Read: tool([row('.path', 'string', true)]), Old: tool([]) }),
    'no-search': snap({ Bash: bashV1, Read: tool([row('.path', 'string', true)]), apply_patch: grammar('start: a') }),
    interactive: snap({ Bash: bashV1, Read: tool([row('.path', 'string', true)]) }),
  });
  const after = release('1.0.1', {
    print: snap({
      Bash: deferred,
      Read: tool([row('.path', 'string', true)]),
      New: tool([row('.x', 'string', false)]),
    }),
    'no-search': snap({
      Bash: bashV2,
      Read: tool([row('.path', 'string', true)], { description: 'reads files' }),
      apply_patch: grammar('start: b'),
    }),
    interactive: snap({ Bash: bashV2, Read: tool([row('.path', 'string', true)]), New: tool([]) }),
  });

  // Read's description changes only in no-search; print, first in matrix order with Read in
  // both releases, is where a tool is compared, so no event.
  it('gives availability, tool, field and definition events, once per tool, in a fixed order', () => {
    const events = historyEvents([before, after], ORDER);
    const e = (kind: HistoryEvent['kind'], tool: string, rest: Partial<HistoryEvent> = {}): HistoryEvent => ({
      release: '1.0.1',
      previous: '1.0.0',
      tool,
      kind,
      ...rest,
    });
    const expected: ComputedEvent[] = [
      e('field-added', 'Bash', { side: 'input', field: '.cwd', path: 'cwd', configuration: 'no-search', to: 'string' }),
      e('description-changed', 'Bash', {
        side: 'input',
        field: '.command',
        path: 'command',
        configuration: 'no-search',
        to: 'The command',
      }),
      e('value-added', 'Bash', { side: 'input', field: '.mode', path: 'mode', configuration: 'no-search', to: '"c"' }),
      e('value-removed', 'Bash', {
        side: 'input',
        field: '.mode',
        path: 'mode',
        configuration: 'no-search',
        from: '"b"',
      }),
      e('type-changed', 'Bash', {
        side: 'input',
        field: '.timeout',
        path: 'timeout',
        configuration: 'no-search',
        from: 'number',
        to: 'integer',
      }),
      e('now-required', 'Bash', {
        side: 'input',
        field: '.timeout',
        path: 'timeout',
        configuration: 'no-search',
        from: 'optional',
        to: 'required',
      }),
      e('tool-added', 'New', { configuration: 'print' }),
      e('available', 'New', { configuration: 'print' }),
      e('available', 'New', { configuration: 'interactive' }),
      e('tool-removed', 'Old', { configuration: 'print' }),
      e('unavailable', 'Old', { configuration: 'print' }),
      // A definition change carries both definitions as text (a grammar as written).
      {
        ...e('definition-changed', 'apply_patch', { side: 'input', configuration: 'no-search' }),
        before: 'start: a',
        after: 'start: b',
      },
    ];
    assert.deepEqual(events, sortEvents(expected, { configurations: ORDER }));
    // Sorted by tool, configuration (matrix order), side, field, kind.
    assert.deepEqual(
      events.map((x) => `${x.tool} ${x.kind} ${x.field ?? ''}`),
      [
        'Bash description-changed .command',
        'Bash field-added .cwd',
        'Bash value-added .mode',
        'Bash value-removed .mode',
        'Bash type-changed .timeout',
        'Bash now-required .timeout',
        'New tool-added ',
        'New available ',
        'New available ',
        'Old tool-removed ',
        'Old unavailable ',
        'apply_patch definition-changed ',
      ],
    );
    assert.equal(releasesDiffer(before, after, ORDER), true);
    assert.equal(releasesDiffer(before, release('1.0.1', Object.fromEntries(before.configs)), ORDER), false);
  });

  it('a tool that leaves one configuration but stays in another is unavailable there, not removed', () => {
    const a = release('1.0.0', {
      print: snap({ T: tool([]) }),
      'no-search': snap({ T: tool([]) }),
      interactive: snap({}),
    });
    const b = release('1.0.1', { print: snap({}), 'no-search': snap({ T: tool([]) }), interactive: snap({}) });
    assert.deepEqual(historyEvents([a, b], ORDER), [
      { release: '1.0.1', previous: '1.0.0', tool: 'T', kind: 'unavailable', configuration: 'print' },
    ]);
  });

  it('a configuration that failed in a release is compared again with the last release where it worked, and invents nothing', () => {
    const a = release('1.0.0', { print: snap({ T: tool([]) }), 'no-search': null, interactive: snap({ T: tool([]) }) });
    const b = release('1.0.1', { print: null, 'no-search': null, interactive: snap({ T: tool([]) }) });
    const c = release('1.0.2', {
      print: snap({ T: tool([row('.a', 'string', false)]) }),
      'no-search': snap({ T: tool([]) }),
      interactive: snap({ T: tool([]) }),
    });
    assert.deepEqual(historyEvents([a, b, c], ORDER), [
      {
        release: '1.0.2',
        previous: '1.0.0',
        tool: 'T',
        kind: 'field-added',
        side: 'input',
        field: '.a',
        path: 'a',
        configuration: 'print',
        to: 'string',
      },
    ]);
  });

  it('reads field changes where the tool has a definition in both releases, not where it is deferred', () => {
    const a = release('1.0.0', {
      print: snap({ T: deferred }),
      'no-search': snap({ T: tool([row('.a', 'string', false)]) }),
    });
    const b = release('1.0.1', {
      print: snap({ T: deferred }),
      'no-search': snap({ T: tool([row('.a', 'string', true)]) }),
    });
    assert.deepEqual(historyEvents([a, b], ORDER), [
      {
        release: '1.0.1',
        previous: '1.0.0',
        tool: 'T',
        kind: 'now-required',
        side: 'input',
        field: '.a',
        path: 'a',
        configuration: 'no-search',
        from: 'optional',
        to: 'required',
      },
    ]);
  });

  it('a removed field carries its type; a listed field that becomes nullable is a type change beside its values', () => {
    const a = release('2.0.0', {
      print: snap({ T: tool([row('.a', 'string', true), row('.m', '"x" | "y"', true, { literals: ['"x"', '"y"'] })]) }),
    });
    const b = release('2.0.1', {
      print: snap({ T: tool([row('.m', '"x" | "y" | null', false, { literals: ['"x"', '"y"'], nullable: true })]) }),
    });
    assert.deepEqual(historyEvents([a, b], ORDER), [
      {
        release: '2.0.1',
        previous: '2.0.0',
        tool: 'T',
        kind: 'field-removed',
        side: 'input',
        field: '.a',
        path: 'a',
        configuration: 'print',
        from: 'string',
      },
      {
        release: '2.0.1',
        previous: '2.0.0',
        tool: 'T',
        kind: 'type-changed',
        side: 'input',
        field: '.m',
        path: 'm',
        configuration: 'print',
        from: '"x" | "y"',
        to: '"x" | "y" | null',
      },
      {
        release: '2.0.1',
        previous: '2.0.0',
        tool: 'T',
        kind: 'now-optional',
        side: 'input',
        field: '.m',
        path: 'm',
        configuration: 'print',
        from: 'required',
        to: 'optional',
      },
    ]);
  });

  it('sorts releases in semver order, not text order', () => {
    const x = (release: string): HistoryEvent => ({
      release,
      previous: '0',
      tool: 'T',
      kind: 'available',
      configuration: 'print',
    });
    assert.deepEqual(
      sortEvents([x('0.10.0'), x('0.9.1'), x('0.100.0')]).map((e) => e.release),
      ['0.9.1', '0.10.0', '0.100.0'],
    );
  });

  it('says in one sentence how releases were sampled', () => {
    assert.match(
      methodSentence(['1.0.0', '1.0.5'], 4, ['a', 'b']),
      /^Every 4th published release from 1\.0\.0 to 1\.0\.5 .* configurations a, b, .*adjacent published releases\.$/,
    );
  });
});

describe('tools renamed between two releases', () => {
  const fields = [
    row('.pattern', 'string', true, { description: 'The regex' }),
    row('.dir_path', 'string', false, { description: 'Where' }),
    row('.include', 'string', false, { description: 'A glob' }),
  ];
  const e = (kind: HistoryEvent['kind'], tool: string, rest: Partial<HistoryEvent> = {}): HistoryEvent => ({
    release: '1.0.1',
    previous: '1.0.0',
    tool,
    kind,
    configuration: 'print',
    ...rest,
  });
  const step = (
    old: CaptureToolSnapshot,
    renamed: CaptureToolSnapshot,
    others: Record<string, CaptureToolSnapshot> = {},
  ) =>
    historyEvents(
      [
        release('1.0.0', { print: snap({ search_file_content: old, ...others }) }),
        release('1.0.1', { print: snap({ grep_search: renamed, ...others }) }),
      ],
      ['print'],
    );

  it('the same fields and description under a new name: one renamed event', () => {
    assert.deepEqual(
      step(
        tool(fields, { description: 'Searches; see search_file_content' }),
        tool(fields, { description: 'Searches; see grep_search' }),
      ),
      [e('renamed', 'grep_search', { from: 'search_file_content', to: 'grep_search' })],
    );
  });

  it('reworded as it was renamed (Gemini CLI 0.28.1): renamed, and its description changed, when enough fields are alike', () => {
    const events = step(
      tool(fields, { description: 'Searches for a regular expression pattern within the content of files.' }),
      tool(fields, { description: 'Searches file contents. Max 100 matches.' }),
    );
    const described = {
      ...e('description-changed', 'grep_search'),
      before: 'Searches for a regular expression pattern within the content of files.',
      after: 'Searches file contents. Max 100 matches.',
    };
    assert.deepEqual(
      events,
      sortEvents([e('renamed', 'grep_search', { from: 'search_file_content', to: 'grep_search' }), described], {
        configurations: ['print'],
      }),
    );
  });

  it('reworded with too few fields, or with any field unlike: a removal and an addition, not a guess', () => {
    const one = [fields[0]!];
    assert.ok(RENAME_MIN_FIELDS > one.length);
    const kinds = (events: HistoryEvent[]) => events.map((x) => `${x.kind} ${x.tool}`).sort();
    const apart = [
      'available grep_search',
      'tool-added grep_search',
      'tool-removed search_file_content',
      'unavailable search_file_content',
    ];
    assert.deepEqual(kinds(step(tool(one, { description: 'a' }), tool(one, { description: 'b' }))), apart);
    const otherField = [fields[0]!, fields[1]!, row('.include', 'string', false, { description: 'Another glob' })];
    assert.deepEqual(kinds(step(tool(fields, { description: 'a' }), tool(otherField, { description: 'b' }))), apart);
  });

  it('two added tools that both match the removed one: no rename', () => {
    const events = historyEvents(
      [
        release('1.0.0', { print: snap({ search_file_content: tool(fields, { description: 'a' }) }) }),
        release('1.0.1', {
          print: snap({
            grep_search: tool(fields, { description: 'b' }),
            rg_search: tool(fields, { description: 'c' }),
          }),
        }),
      ],
      ['print'],
    );
    assert.ok(!events.some((x) => x.kind === 'renamed'));
  });
});
