/**
 * catalog.json's availability form (src/lib/exports/availability.ts): exact (it expands back to
 * every configuration's delivery), never longer than the map it replaces, and described by
 * schemas/catalog.schema.json with every delivery the wire formats know.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactAvailability, expandAvailability } from '../../src/lib/exports/availability.ts';
import { MATRIX_MARKS } from '../../src/lib/views/agent-page.ts';
import type { Delivery } from '../../src/lib/wire/types.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = realContent();
const of = (map: Record<string, Delivery | null>) => (id: string) => map[id] ?? null;

test('the outcome of most configurations is said once; the others are listed by outcome, in configuration order', () => {
  const map: Record<string, Delivery | null> = {
    a: 'function',
    b: null,
    c: 'function',
    d: 'deferred',
    e: null,
    f: 'function',
  };
  const ids = Object.keys(map);
  assert.deepEqual(compactAvailability(ids, of(map)), { others: 'function', absent: ['b', 'e'], deferred: ['d'] });
  assert.deepEqual(expandAvailability(compactAvailability(ids, of(map)), ids), map);
  // All the same: nothing listed. Absent everywhere: `absent` is the others outcome.
  assert.deepEqual(
    compactAvailability(['a', 'b'], () => 'hosted'),
    { others: 'hosted' },
  );
  assert.deepEqual(
    compactAvailability(['a', 'b'], () => null),
    { others: 'absent' },
  );
  // No configuration: absent, vacuously; it expands to nothing.
  assert.deepEqual(
    compactAvailability([], () => 'function'),
    { others: 'absent' },
  );
  assert.deepEqual(expandAvailability({ others: 'absent' }, []), {});
});

test('a tie goes to the outcome met first', () => {
  assert.deepEqual(
    compactAvailability(['a', 'b'], (id) => (id === 'a' ? 'function' : null)),
    { others: 'function', absent: ['b'] },
  );
  assert.deepEqual(
    compactAvailability(['a', 'b'], (id) => (id === 'a' ? null : 'function')),
    { others: 'absent', function: ['b'] },
  );
});

test('for every tool of the real content: exact, no configuration listed twice or under the others outcome; in all, under half the map', () => {
  let map = 0;
  let compact = 0;
  for (const tool of site.tools) {
    const ids = site.matrix?.agents[tool.agent]?.configurations.map((c) => c.id) ?? [];
    const expected = Object.fromEntries(ids.map((id) => [id, tool.captured?.byConfig.get(id)?.delivery ?? null]));
    const form = compactAvailability(ids, of(expected));
    assert.deepEqual(expandAvailability(form, ids), expected, `${tool.agent}/${tool.slug}`);
    const listed = Object.entries(form)
      .filter(([k]) => k !== 'others')
      .flatMap(([, v]) => v as string[]);
    assert.equal(new Set(listed).size, listed.length, `${tool.agent}/${tool.slug}: listed once`);
    assert.ok(!Object.hasOwn(form, form.others), `${tool.agent}/${tool.slug}: no list for the others outcome`);
    for (const [key, list] of Object.entries(form))
      if (key !== 'others')
        assert.deepEqual(
          list,
          ids.filter((id) => (list as string[]).includes(id)),
          `${tool.agent}/${tool.slug} ${key}: in configuration order`,
        );
    // Per tool it can be longer (an agent with one short configuration id: `{"others":…}` against `{"p":…}`); over the
    // catalog it is what saves.
    map += JSON.stringify(expected).length;
    compact += JSON.stringify(form).length;
  }
  assert.ok(compact < map / 2, `${compact} bytes against ${map}`);
});

test('the catalog schema names every delivery the wire formats know, and absent, as outcomes and as lists', () => {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/catalog.schema.json'), 'utf8'));
  const outcomes = [...Object.keys(MATRIX_MARKS), 'absent'].sort();
  assert.deepEqual([...schema.$defs.outcome.enum].sort(), outcomes);
  assert.deepEqual(
    Object.keys(schema.$defs.availability.properties)
      .filter((k) => k !== 'others')
      .sort(),
    outcomes,
  );
});
