/**
 * The release driver (scripts/lib/releases/driver.ts): a release's own failure is returned in its words, a
 * failure of ours is run once more and then thrown as ours; each release is read once until forgotten; the plan
 * is located again while the doubt forgets readings.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  cannotRun,
  locateSettled,
  OurFailure,
  releaseReadings,
  runScript,
  runUnlessOurs,
  type RunOutcome,
} from '../../scripts/lib/releases/driver.ts';

function withScript(body: string, use: (script: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'release-driver-'));
  try {
    const script = join(dir, 'run.mjs');
    writeFileSync(script, body);
    use(script);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a run that exits with the release code failed for the release, in its last words', () => {
  withScript("console.error('runner: noise'); console.error('runner: unknown option --x'); process.exit(3);", (s) => {
    const outcome = runScript(s, [], { timeoutMs: 30_000, isolated: false, releaseExit: 3, prefix: /^runner: / });
    assert.deepEqual(outcome, { ok: false, release: true, said: 'unknown option --x' });
  });
});

test('any other failure is ours; a success is ok', () => {
  withScript("throw new Error('boom');", (s) => {
    const outcome = runScript(s, [], { timeoutMs: 30_000, isolated: false, releaseExit: 3 });
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.release, false);
  });
  withScript('process.exit(0);', (s) => {
    assert.deepEqual(runScript(s, [], { timeoutMs: 30_000, isolated: false }), { ok: true });
  });
});

test('a failure of ours runs once more, then stops as ours; the release’s own failure is returned', () => {
  const logs: string[] = [];
  const outcomes = (list: RunOutcome[]) => () => list.shift()!;
  assert.deepEqual(
    runUnlessOurs('a 1.0.0', outcomes([{ ok: false, release: false, said: 'ETIMEDOUT' }, { ok: true }]), (l) =>
      logs.push(l),
    ),
    { ok: true },
  );
  assert.match(logs[0]!, /failed for our reasons \(ETIMEDOUT\); running it again/);
  assert.throws(
    () =>
      runUnlessOurs(
        'a 1.0.0',
        outcomes([
          { ok: false, release: false, said: 'crash' },
          { ok: false, release: false, said: 'crash' },
        ]),
        () => {},
      ),
    (e: unknown) => e instanceof OurFailure && /failed twice for our reasons, not the release's: crash/.test(e.message),
  );
  assert.deepEqual(
    runUnlessOurs('a 1.0.0', outcomes([{ ok: false, release: true, said: 'no such flag' }]), () => {}),
    { ok: false, said: 'no such flag' },
  );
  assert.equal(cannotRun('no such flag'), 'cannot run: no such flag');
});

test('each release is read once until forgotten, and the plan is located again while the doubt forgets', async () => {
  const values = [0, 0, 0, 1, 1];
  const reads: number[] = [];
  const readings = releaseReadings((i) => {
    reads.push(i);
    return values[i]!;
  });
  let doubts = 0;
  const plan = await locateSettled(
    values.length,
    4,
    (a, b) => readings.read(a) !== readings.read(b),
    (p) => {
      if (doubts++ > 0) return false;
      readings.forget(p.read[0]!);
      return true;
    },
  );
  assert.deepEqual(plan.changes, [[2, 3]]);
  assert.equal(doubts, 2);
  assert.equal(reads.filter((i) => i === 0).length, 2, 'the forgotten release is read again');
  assert.equal(reads.filter((i) => i === 4).length, 1);
});
