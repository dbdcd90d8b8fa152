/**
 * Where a history event lies (src/lib/history/event-span.ts) and what "already there in" may name
 * (history.ts firstSeen, trackedAdvertisers), on hand-built history files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventSpan, spanText, unknownText } from '../../src/lib/history/event-span.ts';
import { firstSeen, trackedAdvertisers } from '../../src/lib/history/history.ts';
import type { HistoryEvent, HistoryFile } from '../../src/lib/core/content-types.ts';

/**
 * A capture history of configurations `a` and `b`: 1.0.0 … 1.0.6, with 1.0.2 not read, `a` failing in 1.0.4 and `b` in
 * 1.0.1.
 */
function file(events: HistoryEvent[] = []): HistoryFile {
  return {
    agent: 'codex',
    source: 'capture',
    package: 'pkg',
    method: 'm',
    configurations: ['a', 'b'],
    releases: [
      { version: '1.0.0', read: true },
      { version: '1.0.1', read: true, failed: { b: 'it crashed' } },
      { version: '1.0.2', read: false },
      { version: '1.0.3', read: true },
      { version: '1.0.4', read: true, failed: { a: 'it crashed' } },
      { version: '1.0.5', read: true },
      { version: '1.0.6', read: true },
    ],
    events,
  };
}
const ev = (
  previous: string,
  release: string,
  kind: HistoryEvent['kind'] = 'description-changed',
  configuration?: string,
  tool = 't',
): HistoryEvent => ({
  previous,
  release,
  tool,
  kind,
  ...(configuration ? { configuration } : {}),
});

test('an event whose previous release is the one published just before it is exact', () => {
  const span = eventSpan(file(), ev('1.0.5', '1.0.6', 'field-added', 'a'));
  assert.deepEqual(span, { exact: true, previous: '1.0.5', release: '1.0.6', unknown: [] });
  assert.equal(spanText('field-added', span), 'added in 1.0.6');
  assert.equal(unknownText(span), undefined);
});

test('a release between that was not read leaves the change between the two compared', () => {
  const span = eventSpan(file(), ev('1.0.1', '1.0.3', 'description-changed', 'a'));
  assert.equal(span.exact, false);
  assert.deepEqual(span.unknown, [{ release: '1.0.2', why: 'not-read' }]);
  assert.equal(spanText('description-changed', span), 'changed between 1.0.1 and 1.0.3');
  assert.equal(spanText('field-removed', span), 'removed between 1.0.1 and 1.0.3');
  assert.equal(spanText('available', span), 'added between 1.0.1 and 1.0.3');
});

test('a release between counts only when a configuration the event concerns failed there', () => {
  // `a` failed in 1.0.4: an event seen in `a` cannot tell 1.0.4 from 1.0.5.
  const inA = eventSpan(file(), ev('1.0.3', '1.0.5', 'type-changed', 'a'));
  assert.deepEqual([inA.exact, inA.unknown], [false, [{ release: '1.0.4', why: 'failed', configurations: ['a'] }]]);
  assert.equal(unknownText(inA), 'failed in a: 1.0.4');
  // The same releases for an event of `b`, which ran in 1.0.4: exact as far as the file can say.
  assert.equal(eventSpan(file(), ev('1.0.3', '1.0.5', 'type-changed', 'b')).exact, true);
});

test('a change of the tool as a whole concerns every configuration compared', () => {
  // tool-added names the first configuration that shows the tool; `a` failed in 1.0.4, so the tool may have come there.
  const span = eventSpan(file(), ev('1.0.3', '1.0.5', 'tool-added', 'b'));
  assert.deepEqual(span.unknown, [{ release: '1.0.4', why: 'failed', configurations: ['a'] }]);
  assert.equal(spanText('tool-added', span), 'added between 1.0.3 and 1.0.5');
  const renamed = eventSpan(file(), { ...ev('1.0.3', '1.0.5', 'renamed', 'b'), from: 'old', to: 't' });
  assert.equal(renamed.exact, false);
});

test('an event without a configuration (SDK types) counts any failure; labels are the agent releases', () => {
  const sdk: HistoryFile = {
    agent: 'claude-code',
    source: 'sdk',
    package: 'sdk',
    method: 'm',
    releases: [
      { version: '0.1.0', cliVersion: '2.0.0' },
      { version: '0.1.1', cliVersion: '2.0.1', read: false },
      { version: '0.1.2', cliVersion: '2.0.3' },
    ],
    events: [],
  };
  const span = eventSpan(sdk, ev('0.1.0', '0.1.2', 'field-added'));
  assert.deepEqual(span, {
    exact: false,
    previous: '2.0.0',
    release: '2.0.3',
    unknown: [{ release: '2.0.1', why: 'not-read' }],
  });
  assert.equal(eventSpan(sdk, ev('0.1.1', '0.1.2', 'field-added')).exact, true);
});

test('many unknown releases are summed up by their ends and count', () => {
  const many: HistoryFile = {
    ...file(),
    releases: ['1', '2', '3', '4', '5', '6'].map((n) => ({ version: `2.0.${n}`, read: n === '1' || n === '6' })),
  };
  const span = eventSpan(many, ev('2.0.1', '2.0.6', 'description-changed', 'a'));
  assert.equal(unknownText(span), 'not read: 2.0.2, …, 2.0.5 (4 releases)');
});

test('an event whose releases the file does not list, or in the wrong order, is refused with its place', () => {
  assert.throws(
    () => eventSpan(file(), ev('0.9.0', '1.0.3', 'field-added', 'a'), 'content/history/x.json#/events/4'),
    /content\/history\/x\.json#\/events\/4\/previous: release 0\.9\.0 is not in the history's releases/,
  );
  assert.throws(
    () => eventSpan(file(), ev('1.0.3', '1.0.9', 'field-added', 'a'), 'h#/events/0'),
    /h#\/events\/0\/release: release 1\.0\.9/,
  );
  assert.throws(
    () => eventSpan(file(), ev('1.0.5', '1.0.3', 'field-added', 'a'), 'h#/events/1'),
    /h#\/events\/1\/previous: 1\.0\.5 is not before 1\.0\.3/,
  );
});

test('"already there in" names the first release in which a configuration followed ran and advertised the tool', () => {
  const names = new Set(['t']);
  // `a` runs from 1.0.0, `b` from 1.0.0 too but fails in 1.0.1: both first ran in 1.0.0.
  assert.equal(firstSeen(file(), names, ['a']), '1.0.0');
  // Advertised at the end by no configuration followed, and no event: nothing to say.
  assert.equal(firstSeen(file(), names, []), undefined);
  // `a` first had it through an `available` event: not there when `a` first ran; `b` lost it, so had it first.
  const events = [ev('1.0.3', '1.0.5', 'available', 'a'), ev('1.0.5', '1.0.6', 'unavailable', 'b')];
  assert.equal(firstSeen(file(events), names, ['a']), '1.0.0');
  assert.equal(firstSeen(file([events[0]!]), names, ['a']), undefined);
  // A configuration that first ran later (failing before) names its own first run.
  const late: HistoryFile = {
    ...file(),
    releases: file().releases.map((r) => (r.version === '1.0.0' ? { ...r, failed: { a: 'x', b: 'x' } } : r)),
  };
  assert.equal(firstSeen(late, names, ['b']), '1.0.3', 'b failed in 1.0.0 and 1.0.1, and 1.0.2 was not read');
  assert.equal(firstSeen(late, names, ['a']), '1.0.1');
});

test("a configuration that names only the tool's namespace is followed only when another followed one shows the tool", () => {
  const real = { delivery: 'function' } as never;
  const standIn = { delivery: 'deferred' } as never;
  // Codex multi_agent_v1.*: shown by unknown-model (not followed), deferred as a namespace in gpt-5-5.
  const onlyElsewhere = {
    captured: {
      byConfig: new Map([
        ['unknown-model', real],
        ['gpt-5-5', standIn],
      ]),
      viaNamespace: new Set(['gpt-5-5']),
    },
  } as never;
  assert.deepEqual(trackedAdvertisers(onlyElsewhere, { configurations: ['gpt-5-5', 'default-model'] }), []);
  const shownToo = {
    captured: {
      byConfig: new Map([
        ['default-model', real],
        ['gpt-5-5', standIn],
      ]),
      viaNamespace: new Set(['gpt-5-5']),
    },
  } as never;
  assert.deepEqual(trackedAdvertisers(shownToo, { configurations: ['gpt-5-5', 'default-model'] }), [
    'gpt-5-5',
    'default-model',
  ]);
  assert.deepEqual(trackedAdvertisers({ captured: undefined } as never, { configurations: ['a'] }), []);
});

test('an event of a history file is named by its file and JSON pointer when its releases are not listed', async () => {
  const { spanOf } = await import('../../src/lib/history/history.ts');
  const bad = ev('0.9.0', '1.0.3', 'field-added', 'a');
  const f = file([ev('1.0.5', '1.0.6', 'field-added', 'a'), bad]);
  assert.throws(
    () => spanOf(f, bad),
    /^Error: content\/history\/codex\.capture\.json#\/events\/1\/previous: release 0\.9\.0 is not in the history's releases/,
  );
});
