/**
 * Diffs computed ahead in a worker thread (src/lib/history/text-diff-ahead.ts): every pair the load asks for gets the
 * diff this thread computes of the same texts, whether the worker sent it, failed to start, or stopped after taking
 * pairs it never sent; each pair is taken by exactly one thread.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diffWordsWithSpace } from 'diff';
import { diffAhead, takePairs } from '../../src/lib/history/text-diff-ahead.ts';
import { diffOfTexts, textDiff, type TextPair } from '../../src/lib/history/text-diff.ts';
import { changeTexts } from '../../src/lib/history/history.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';

const HISTORY = new URL('../../content/history/', import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'diff-ahead-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const files = readdirSync(HISTORY).map((f) => JSON.parse(readFileSync(new URL(f, HISTORY), 'utf8')) as HistoryFile);
/** Every changed text of the real histories. */
const everyPair = files.flatMap((file) => file.events.flatMap((e) => changeTexts(file, e) ?? []));

/**
 * A sample of the real changed texts (every eighth, of the shorter ones: the longest take a second between them),
 * each made unique to the case, since diffs are kept for the process.
 */
function realPairs(tag: string): TextPair[] {
  return everyPair
    .filter((p, i) => i % 8 === 0 && p.before.length + p.after.length < 6000)
    .map((p) => ({ ...p, after: `${p.after} ${tag}` }));
}

/** What the load gets for each pair, against this thread's own diff of the same texts. */
function assertEveryDiffAsHere(pairs: readonly TextPair[]): void {
  for (const pair of pairs) assert.deepEqual(diffOfTexts(pair), textDiff(pair.before, pair.after, pair.by));
}

test('the sample holds real changed texts', () => {
  const pairs = realPairs('count');
  assert.ok(pairs.length >= 40, `${pairs.length} pairs`);
  // The independent reference: jsdiff itself finds changes in each.
  for (const p of pairs.slice(0, 10))
    assert.ok(diffWordsWithSpace(p.before, p.after).some((run) => run.added || run.removed));
});

test('with the worker, every diff the load asks for is the one computed here', () => {
  const pairs = realPairs('worker');
  assert.equal(diffAhead(pairs), true, 'a worker started');
  assertEveryDiffAsHere(pairs);
});

test('a worker that cannot load its module leaves every pair to the waiting thread', () => {
  const broken = join(scratch, 'broken.mjs');
  writeFileSync(broken, 'throw new Error("no module here");\n');
  const pairs = realPairs('broken').slice(0, 40);
  assert.equal(diffAhead(pairs, pathToFileURL(broken)), true);
  assertEveryDiffAsHere(pairs);
});

test('pairs a worker took and never sent are diffed by the waiting thread', () => {
  // A worker that takes the first three pairs nobody took, then stops without sending anything.
  const greedy = join(scratch, 'greedy.mjs');
  writeFileSync(
    greedy,
    'export function takePairs(pairs, shared) { for (let i = 0; i < 3; i++) Atomics.add(shared, 0, 1); throw new Error("stopped"); }\n',
  );
  const pairs = realPairs('greedy').slice(0, 40);
  assert.equal(diffAhead(pairs, pathToFileURL(greedy)), true);
  assertEveryDiffAsHere(pairs);
});

test('no worker starts for a module that is not a file, and the load diffs as before', () => {
  const pairs = realPairs('bundle').slice(0, 5);
  assert.equal(diffAhead(pairs, new URL('file:///nowhere/text-diff-ahead.js')), false, 'no file: no worker');
  assert.equal(diffAhead(pairs, new URL('data:text/javascript,export{}')), false, 'not a file URL: no worker');
  assert.equal(diffAhead([]), false, 'nothing to diff: no worker');
  assertEveryDiffAsHere(pairs);
});

test('two threads taking pairs take each exactly once', () => {
  const pairs = realPairs('split').slice(0, 60);
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const taken: number[] = [];
  // Two takers, interleaved one pair at a time (as two threads may be).
  const a = (i: { index: number }) => taken.push(i.index);
  let first = true;
  takePairs(pairs, shared, (answer) => {
    a(answer);
    if (first) {
      first = false;
      takePairs(pairs, shared, a);
    }
  });
  assert.deepEqual(
    [...taken].sort((x, y) => x - y),
    pairs.map((_, i) => i),
  );
});
