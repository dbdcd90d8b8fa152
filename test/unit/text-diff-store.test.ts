/**
 * Diffs kept between processes (src/lib/history/text-diff-store.ts): a diff one process computed is read back by the
 * next without diffing, and is the diff that process would compute; a store of other diff code, an unreadable one, or
 * one switched off is not read, and every diff is computed as before. Each case runs its processes apart, on a store
 * of its own (a temporary project root).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { serialize } from 'node:v8';
import { diffStorePath, STORE_SWITCH } from '../../src/lib/history/text-diff-store.ts';
import { pairKey, textDiff } from '../../src/lib/history/text-diff.ts';

const scratch = mkdtempSync(join(tmpdir(), 'diff-store-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const PAIRS = [
  {
    before: 'Reads a file from the local filesystem.',
    after: 'Reads a file, or a notebook, from the filesystem.',
    by: 'words',
  },
  { before: '{\n  "a": 1\n}\n', after: '{\n  "a": 2,\n  "b": 3\n}\n', by: 'lines' },
] as const;

const module = (file: string) => new URL(`../../src/lib/history/${file}`, import.meta.url).href;

/**
 * A process of its own: opens the store of `root`, says which pairs it knew without diffing, takes their diffs (by
 * diffOfTexts) and saves the store.
 */
function aProcess(root: string, env: Record<string, string> = {}): { knew: boolean[]; diffs: unknown[] } {
  const script = `
    import { openDiffStore, saveDiffStore } from ${JSON.stringify(module('text-diff-store.ts'))};
    import { diffKnown, diffOfTexts } from ${JSON.stringify(module('text-diff.ts'))};
    const pairs = ${JSON.stringify(PAIRS)};
    openDiffStore(${JSON.stringify(root)});
    const knew = pairs.map(diffKnown);
    const diffs = pairs.map(diffOfTexts);
    saveDiffStore(${JSON.stringify(root)});
    console.log(JSON.stringify({ knew, diffs }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return JSON.parse(out) as { knew: boolean[]; diffs: unknown[] };
}

const computedHere = () => JSON.parse(JSON.stringify(PAIRS.map((p) => textDiff(p.before, p.after, p.by)))) as unknown[];

test('a diff one process computed is known to the next, and is the diff computed here', () => {
  const root = join(scratch, 'kept');
  const first = aProcess(root);
  assert.deepEqual(first.knew, [false, false], 'nothing kept before the first process');
  assert.ok(existsSync(diffStorePath(root)), 'the first process kept its diffs');
  const second = aProcess(root);
  assert.deepEqual(second.knew, [true, true], 'the second knew both without diffing');
  assert.deepEqual(second.diffs, computedHere());
  assert.deepEqual(first.diffs, computedHere());
});

test('a store written by other diff code, or unreadable, is not read: every diff is computed as before', () => {
  for (const [name, bytes] of [
    // Other code's diffs of these very pairs (made up here): read, they would be taken as they are.
    [
      'other code',
      serialize({
        code: 'another version of the diff code',
        diffs: PAIRS.map((p) => [pairKey(p), { parts: [], before: 0, after: 0 }]),
      }),
    ],
    ['unreadable', Buffer.from('not a serialization at all')],
  ] as const) {
    const root = join(scratch, name.replace(' ', '-'));
    mkdirSync(dirname(diffStorePath(root)), { recursive: true });
    writeFileSync(diffStorePath(root), bytes);
    const run = aProcess(root);
    assert.deepEqual(run.knew, [false, false], name);
    assert.deepEqual(run.diffs, computedHere(), name);
    // Written anew, by this code: the next process knows them.
    assert.deepEqual(aProcess(root).knew, [true, true], `${name}: written anew`);
  }
});

test('switched off, no store is read or written', () => {
  const root = join(scratch, 'off');
  const run = aProcess(root, { [STORE_SWITCH]: 'off' });
  assert.deepEqual(run.diffs, computedHere());
  assert.ok(!existsSync(diffStorePath(root)), 'nothing written');
  aProcess(root);
  assert.deepEqual(aProcess(root, { [STORE_SWITCH]: 'off' }).knew, [false, false], 'a kept store is not read');
});
