/**
 * Every committed history file, whichever source it was read from (published types or
 * captures), follows the one history engine (scripts/lib/history/): its events are in the
 * engine's order and its numbers never published are the engine's rule applied to its own
 * releases, line by line. A file written by an older rule, or edited by hand, fails here
 * until it is regenerated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sortEvents } from '../../scripts/lib/history/events.ts';
import { unpublishedNumbers } from '../../scripts/lib/history/releases.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';

const DIR = join(import.meta.dirname, '../../content/history');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

test('there are histories from both sources', () => {
  const sources = new Set(files.map((f) => (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as HistoryFile).source));
  assert.deepEqual([...sources].sort(), ['capture', 'sdk']);
});

for (const name of files) {
  const file = JSON.parse(readFileSync(join(DIR, name), 'utf8')) as HistoryFile;

  test(`${name}: events are in the engine's order`, () => {
    const order =
      file.source === 'capture'
        ? { configurations: file.configurations ?? [] }
        : { releases: file.releases.map((r) => r.version) };
    const sorted = sortEvents(file.events, order);
    const first = sorted.findIndex((e, i) => e !== file.events[i]);
    assert.equal(first, -1, `event ${first} is out of place: ${JSON.stringify(file.events[first])}`);
  });

  test(`${name}: the numbers never published follow the engine's rule, each package line on its own`, () => {
    const lines = new Map<string, string[]>();
    for (const r of file.releases) {
      const pkg = r.package ?? file.package;
      lines.set(pkg, [...(lines.get(pkg) ?? []), r.version]);
    }
    assert.deepEqual(
      file.unpublished ?? [],
      [...lines.values()].flatMap((versions) => unpublishedNumbers(versions)),
    );
  });
}
