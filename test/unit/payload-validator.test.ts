/**
 * standaloneSource (src/lib/check/payload-validator.ts) compiles every validator
 * module's schema with one Ajv instance restored to its state after the
 * meta-schema (src/lib/check/ajv-state.ts) instead of a fresh instance per schema.
 * The reference here is Ajv itself: a fresh instance with the options the
 * module states, compiling the schema and writing its standalone code. The
 * schemas the site publishes a validator for (a spread everyday, every one with
 * SWEEP), and schemas that reuse what the meta-schema compile registered (its
 * patterns, `equal`, the meta-schema itself), must give exactly that code, in
 * either order and after a failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { toolSchema } from '../../src/lib/site/tool-exports.ts';
import { payloadCheckTarget } from '../../src/lib/check/payload-check-ui.ts';
import { standaloneSource } from '../../src/lib/check/payload-validator.ts';
import { realContent } from '../helpers/real-content.ts';
import { atScale, spread } from '../helpers/sweep.ts';

const interop = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;
const addFormats = interop<(ajv: Ajv2020) => void>(addFormatsModule);
const standaloneCode = interop<(ajv: Ajv2020, validate: unknown) => string>(standaloneModule);
const META = 'https://json-schema.org/draft/2020-12/schema';

/** What a fresh instance writes: the documented use of Ajv standalone, one instance per schema. */
function reference(schema: Record<string, unknown>, allErrors = true): string {
  const ajv = new Ajv2020({ strict: false, allErrors, code: { source: true, esm: true, lines: true } });
  addFormats(ajv);
  return standaloneCode(ajv, ajv.compile(schema));
}

const id = (name: string) => `https://agent-tools.invalid/test/${name}.schema.json`;
const crafted: Record<string, unknown>[] = [
  // The two patterns the 2020-12 meta-schema registers ($id and $anchor), and others.
  {
    $schema: META,
    $id: id('patterns'),
    type: 'object',
    properties: { ref: { type: 'string', pattern: '^[^#]*#?$' }, word: { type: 'string', pattern: '^[a-z]+$' } },
    patternProperties: { '^[A-Za-z_][-A-Za-z0-9._]*$': { type: 'number' } },
  },
  // Two schemas sharing a pattern that the first registers second: each gets the name a fresh instance gives.
  {
    $schema: META,
    $id: id('two-patterns'),
    type: 'object',
    properties: { x: { type: 'string', pattern: '^x+$' }, y: { type: 'string', pattern: '^y+$' } },
  },
  { $schema: META, $id: id('one-pattern'), type: 'object', properties: { y: { type: 'string', pattern: '^y+$' } } },
  // `equal` (objects in uniqueItems, const, enum) and `ucs2length` (string lengths).
  {
    $schema: META,
    $id: id('equal'),
    type: 'object',
    properties: {
      list: { type: 'array', uniqueItems: true, items: { type: 'object' } },
      pinned: { const: { a: [1, 2] } },
      kind: { enum: [{ x: 1 }, 'y'] },
      name: { type: 'string', minLength: 2, maxLength: 9 },
    },
    required: ['list'],
  },
  // Formats from ajv-formats.
  {
    $schema: META,
    $id: id('formats'),
    type: 'object',
    properties: {
      at: { type: 'string', format: 'date-time' },
      url: { type: 'string', format: 'uri' },
      mail: { format: 'email' },
      re: { format: 'regex' },
    },
  },
  // The meta-schema itself, by reference: the fresh instance reuses its compiled function.
  { $schema: META, $id: id('meta-ref'), type: 'object', properties: { schema: { $ref: META } } },
  // Definitions, recursion, dynamic references, a nested $id.
  {
    $schema: META,
    $id: id('tree'),
    $defs: {
      node: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        unevaluatedProperties: false,
      },
    },
    $ref: '#/$defs/node',
  },
  {
    $schema: META,
    $id: id('dynamic'),
    $dynamicAnchor: 'item',
    type: 'object',
    properties: {
      next: { $dynamicRef: '#item' },
      inner: { $id: 'inner.json', type: 'object', properties: { n: { type: 'integer' } } },
      viaInner: { $ref: 'inner.json' },
    },
  },
  {
    $schema: META,
    $id: id('branches'),
    type: 'object',
    if: { properties: { kind: { const: 'a' } } },
    then: { required: ['a'] },
    else: { required: ['b'] },
    allOf: [{ properties: { a: { type: 'string' } } }],
    unevaluatedProperties: false,
  },
  // No $schema: the default meta-schema; no $id.
  { type: 'object', properties: { n: { type: 'number', minimum: 0, multipleOf: 0.5 } }, additionalProperties: false },
];

test('the code is what a fresh Ajv writes: schemas that reuse what the meta-schema registered, in either order', () => {
  const expected = crafted.map((schema) => reference(schema));
  assert.deepEqual(
    crafted.map((schema) => standaloneSource(schema)),
    expected,
  );
  assert.deepEqual(
    [...crafted].reverse().map((schema) => standaloneSource(schema)),
    [...expected].reverse(),
  );
  // The names continue where the meta-schema's end, as in a fresh instance.
  assert.match(expected[0]!, /function validate20\(/);
  // Stopping at the first error (validateFirst): the same, from an instance with allErrors: false.
  const first = crafted.map((schema) => reference(schema, false));
  assert.deepEqual(
    crafted.map((schema) => standaloneSource(schema, { allErrors: false })),
    first,
  );
  assert.notDeepEqual(first, expected, 'the two compiles differ');
  // Interleaved, each warm instance keeps to its own state.
  assert.deepEqual(
    crafted.flatMap((schema) => [standaloneSource(schema), standaloneSource(schema, { allErrors: false })]),
    crafted.flatMap((_, i) => [expected[i], first[i]]),
  );
});

test('after a schema that does not compile, the next ones are still what a fresh Ajv writes', () => {
  const broken = { $schema: META, $id: id('broken'), type: 'object', properties: { a: { $ref: '#/$defs/missing' } } };
  assert.throws(() => reference(broken));
  assert.throws(() => standaloneSource(broken));
  const invalid = { $schema: META, $id: id('invalid'), type: 'no-such-type' };
  assert.throws(() => standaloneSource(invalid), /schema is invalid/);
  assert.equal(standaloneSource(crafted[1]!), reference(crafted[1]!));
  // The same $id again: nothing of the failed compile is left registered.
  assert.equal(
    standaloneSource({ ...broken, properties: { a: { type: 'string' } } }),
    reference({ ...broken, properties: { a: { type: 'string' } } }),
  );
});

test('a schema of another draft is compiled by a fresh instance, as before', () => {
  const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' };
  assert.throws(() => reference(draft7), /no schema with key or ref/);
  assert.throws(() => standaloneSource(draft7), /no schema with key or ref/);
});

test('the validators the site publishes are what a fresh Ajv writes for their schemas (a spread; every one in the sweep)', () => {
  const site = realContent();
  const schemas = site.tools.flatMap((tool) => {
    const target = payloadCheckTarget(tool);
    const schema = target && toolSchema(tool, target.section, { site: 'https://agent-tools.invalid' });
    return schema ? [schema] : [];
  });
  assert.ok(schemas.length > 100, `${schemas.length} validators`);
  // A fresh instance per schema is the reference, and its meta-schema compile is most of the time: the schemas crafted
  // above hold the cases that differ, a spread of the real ones checks them at scale.
  for (const schema of atScale(schemas, spread(schemas, 6))) {
    assert.equal(standaloneSource(schema), reference(schema), String(schema.$id));
    assert.equal(
      standaloneSource(schema, { allErrors: false }),
      reference(schema, false),
      `${String(schema.$id)}, allErrors: false`,
    );
  }
});
