/**
 * All or nothing for refresh (scripts/lib/refresh/transaction.ts): whatever the steps
 * write, add or delete, a rollback gives back the tree byte for byte, a commit keeps it,
 * and a run stopped in the middle is restored by the next one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beginTransaction, restoreInterrupted, STAGING } from '../../scripts/lib/refresh/transaction.ts';

const PATHS = ['content', 'scripts/pins.json'];

/** Every file under `dir` (relative path → text). */
function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) Object.assign(out, tree(join(dir, e.name), `${prefix}${e.name}/`));
    else out[prefix + e.name] = readFileSync(join(dir, e.name), 'utf8');
  }
  return out;
}

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'refresh-txn-'));
  mkdirSync(join(root, 'content/tools/a'), { recursive: true });
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, 'content/tools/a/x.json'), '{"x":1}\n');
  writeFileSync(join(root, 'content/agents.json'), '{}\n');
  writeFileSync(join(root, 'scripts/pins.json'), '{"a":{"version":"1.0.0"}}\n');
  writeFileSync(join(root, 'scripts/other.ts'), 'untouched\n');
  return root;
}

/** What the steps of a run might do: rewrite, add, delete files and folders, move the pin. */
function scribble(root: string): void {
  writeFileSync(join(root, 'content/tools/a/x.json'), '{"x":2}\n');
  mkdirSync(join(root, 'content/archive/new'), { recursive: true });
  writeFileSync(join(root, 'content/archive/new/y.json'), '{}\n');
  rmSync(join(root, 'content/agents.json'));
  writeFileSync(join(root, 'scripts/pins.json'), '{"a":{"version":"2.0.0"}}\n');
}

test('a rollback gives back every saved path byte for byte and leaves no staging folder', () => {
  const root = project();
  try {
    const before = tree(root);
    const t = beginTransaction(root, PATHS);
    scribble(root);
    assert.notDeepEqual(tree(root), before);
    t.rollback();
    assert.deepEqual(tree(root), before);
    assert.ok(!existsSync(join(root, STAGING)));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a commit keeps what the steps wrote and drops the copy', () => {
  const root = project();
  try {
    const t = beginTransaction(root, PATHS);
    scribble(root);
    const written = Object.fromEntries(Object.entries(tree(root)).filter(([k]) => !k.startsWith(STAGING)));
    t.commit();
    assert.deepEqual(tree(root), written);
    assert.ok(!existsSync(join(root, STAGING)));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a run stopped half-way is restored by the next; a second run cannot start over a live one', () => {
  const root = project();
  try {
    const before = tree(root);
    beginTransaction(root, PATHS);
    scribble(root);
    assert.throws(() => beginTransaction(root, PATHS), /\.refresh-before\/ exists/);
    assert.equal(restoreInterrupted(root, PATHS), true);
    assert.deepEqual(tree(root), before);
    assert.equal(restoreInterrupted(root, PATHS), false, 'nothing left to restore');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a copy that was never completed is dropped, not restored', () => {
  const root = project();
  try {
    mkdirSync(join(root, STAGING, 'saved/content'), { recursive: true });
    const before = tree(root);
    delete before[`${STAGING}/saved/content`];
    assert.equal(restoreInterrupted(root, PATHS), false);
    assert.ok(!existsSync(join(root, STAGING)));
    assert.deepEqual(tree(root), Object.fromEntries(Object.entries(before).filter(([k]) => !k.startsWith(STAGING))));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
