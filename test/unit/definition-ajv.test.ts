/**
 * src/lib/check/definition-ajv.ts: compileDefinition gives, for a schema text an instance of definitionAjv compiled
 * before, that function again (a later load skips the compile); what it gives validates as Ajv itself does; an
 * instance made otherwise compiles every time; a failure is never kept, and no schema stays in its instance.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compileDefinition, definitionAjv } from '../../src/lib/check/definition-ajv.ts';

/** A schema with a fresh `$id`, so that no earlier test of this process compiled its text. */
let made = 0;
const schemaNamed = (extra: Record<string, unknown> = {}) => ({
  $id: `https://agent-tools.invalid/definition-ajv/${process.pid}/${++made}.json`,
  type: 'object',
  properties: { path: { type: 'string', minLength: 1 }, limit: { type: 'integer' } },
  required: ['path'],
  additionalProperties: false,
  ...extra,
});

const samples: unknown[] = [
  { path: 'a' },
  { path: '' },
  { path: 'a', limit: 2.5 },
  { path: 'a', other: 1 },
  {},
  'text',
  { path: 'b', limit: 3 },
];

test('the same text from another load: the function compiled before, which judges as a fresh Ajv does', () => {
  const schema = schemaNamed();
  const first = compileDefinition(definitionAjv(), schema);
  const again = compileDefinition(definitionAjv(), structuredClone(schema));
  assert.equal(again, first, 'a second instance of the same configuration reuses the compiled function');
  const reference = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(
    structuredClone(schema),
  );
  for (const value of samples) {
    assert.equal(again(value), reference(value), JSON.stringify(value));
    assert.deepEqual(again.errors ?? null, reference.errors ?? null, JSON.stringify(value));
  }
});

test('another text is compiled; an instance definitionAjv did not make compiles every time', () => {
  const schema = schemaNamed();
  const first = compileDefinition(definitionAjv(), schema);
  assert.notEqual(compileDefinition(definitionAjv(), { ...schema, required: [] }), first);
  const own = new Ajv2020({ strict: false });
  const a = compileDefinition(own, structuredClone(schema));
  const b = compileDefinition(own, structuredClone(schema));
  assert.notEqual(a, b);
  assert.notEqual(a, first);
});

test("a schema that does not compile fails in every instance, with Ajv's own error each time", () => {
  const broken = schemaNamed({ properties: { a: { $ref: '#/$defs/missing' } } });
  for (const ajv of [definitionAjv(), definitionAjv()]) {
    assert.throws(() => compileDefinition(ajv, structuredClone(broken)), /can't resolve reference #\/\$defs\/missing/);
    // A failed compile can leave its $id registered in that instance (the loader then forgets what it compiled).
    assert.throws(() => compileDefinition(ajv, structuredClone(broken)));
  }
});

test('the instance is left without the schema: the same $id compiles again in it, with other content', () => {
  const ajv = definitionAjv();
  const schema = schemaNamed();
  compileDefinition(ajv, schema);
  assert.equal(ajv.getSchema(schema.$id), undefined);
  const other = compileDefinition(ajv, { ...schema, required: [] });
  assert.equal(other({}), true);
});
