/**
 * No committed capture history shows a mass vanish-and-return: many tools of one
 * configuration made unavailable in one release and most of them made available again
 * within the next few releases read. That pattern is what a kept side request (a session title sent with
 * `tools: []`) or a broken run leaves behind, not what a release does.
 *
 * Read from the committed events alone, not through the runner's own check
 * (scripts/lib/capture-history/vanish.ts), so that the two can disagree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, '../../content/history');
/** A release may legitimately drop a handful of tools for a while; a run that lost its turn drops them all. */
const MASS = 5;
/** How many releases read after the loss a return still counts as "came back". */
const WITHIN = 3;

interface Event {
  release: string;
  previous?: string;
  tool: string;
  kind: string;
  configuration?: string;
}

const histories = readdirSync(DIR)
  .filter((f) => f.endsWith('.capture.json'))
  .map((f) => {
    const history = JSON.parse(readFileSync(join(DIR, f), 'utf8')) as {
      events: Event[];
      releases: { version: string; read?: boolean }[];
    };
    // `releases` is listed oldest first; only the releases read can carry an event.
    const read = history.releases.filter((r) => r.read).map((r) => r.version);
    return { file: f, events: history.events, read };
  });

test('there are capture histories to check', () => {
  assert.ok(histories.length > 0);
  // A history without events says "no change" only where it compared at least two releases it read.
  for (const h of histories)
    assert.ok(h.events.length > 0 || h.read.length >= 2, `${h.file}: no event, and fewer than two releases read`);
});

for (const { file, events, read } of histories) {
  test(`${file}: no configuration loses ${MASS} or more tools in one release and gets most of them back within ${WITHIN} releases read`, () => {
    const gone = (e: Event): boolean => e.kind === 'unavailable';
    const back = (e: Event): boolean => e.kind === 'available';
    // key: release|configuration → tools that became unavailable there
    const lost = new Map<string, Set<string>>();
    for (const e of events.filter(gone)) {
      const key = `${e.release}|${e.configuration}`;
      lost.set(key, (lost.get(key) ?? new Set()).add(e.tool));
    }
    const offenders: string[] = [];
    for (const [key, tools] of lost) {
      if (tools.size < MASS) continue;
      const [release, configuration] = key.split('|') as [string, string];
      const at = read.indexOf(release);
      assert.ok(at >= 0, `${release} carries events but is not listed as read`);
      const soon = new Set(read.slice(at + 1, at + 1 + WITHIN));
      const returned = events.filter(
        (e) => back(e) && soon.has(e.release) && e.configuration === configuration && tools.has(e.tool),
      );
      if (returned.length >= MASS && returned.length * 2 > tools.size) {
        offenders.push(
          `${configuration} in ${release}: ${tools.size} unavailable, ${returned.length} available again by ${returned[returned.length - 1]!.release}`,
        );
      }
    }
    assert.deepEqual(offenders, []);
  });
}
