/**
 * The one minimal-instance maker (src/lib/shapes/minimal-instance.ts), with its two sets of
 * options: the default (tests of the published schemas) and the Gemini stub's
 * (REPLY_INSTANCE). What the stub answered before the two were one is written down in
 * wire-gemini-api.test.ts; here, what each option changes, and the cases where the old
 * stub's reply broke its own schema. Validity is Ajv's verdict, not the module's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { minimalInstance } from '../../src/lib/shapes/minimal-instance.ts';
import { REPLY_INSTANCE } from '../../src/lib/wire/gemini-api.ts';

const ajv = new Ajv2020({ strict: false });
addFormats(ajv);
const valid = (schema: unknown, value: unknown): boolean => ajv.validate(schema as object, value);

test('the two option sets differ only where they say: strings, unbounded numbers, what says nothing', () => {
  const schema = {
    type: 'object',
    properties: {
      s: { type: 'string' },
      n: { type: 'number' },
      i: { type: 'integer', minimum: -3 },
      l: { type: 'string', minLength: 3, maxLength: 5 },
      any: {},
      when: { type: 'string', format: 'date-time' },
    },
    required: ['s', 'n', 'i', 'l', 'any', 'when'],
  };
  assert.deepEqual(minimalInstance(schema), { s: '', n: 0, i: -3, l: 'aaa', any: null, when: '2026-01-01T00:00:00Z' });
  assert.deepEqual(minimalInstance(schema, REPLY_INSTANCE), { s: 'ok', n: 1, i: -3, l: 'okok', any: 'ok', when: 'ok' });
  assert.ok(valid(schema, minimalInstance(schema)));
  // Each option alone.
  assert.deepEqual(minimalInstance({ type: 'string', minLength: 4 }, { text: 'xyz' }), 'xyzxyz');
  assert.deepEqual(minimalInstance({ type: 'string', minLength: 4, maxLength: 5 }, { text: 'xyz' }), 'xyzxy');
  assert.equal(minimalInstance({ type: 'number' }, { defaultNumber: 7 }), 7);
  assert.equal(minimalInstance({ type: 'number', minimum: 2 }, { defaultNumber: 7 }), 2);
  assert.deepEqual(
    minimalInstance({ type: 'array', items: { type: 'string', minLength: '2' }, minItems: '2' }),
    [],
    'strict: counts are numbers',
  );
  assert.deepEqual(
    minimalInstance({ type: 'array', items: { type: 'string', minLength: '2' }, minItems: '2' }, { lenient: true }),
    ['aa', 'aa'],
    'lenient: counts may be strings',
  );
});

test('a schema that cannot be satisfied or read throws, naming why; leniently it gives the text', () => {
  const cases: [unknown, RegExp][] = [
    [false, /the schema false accepts no value/],
    [{ type: 'object', properties: { a: false }, required: ['a'] }, /accepts no value/],
    [{ $ref: '#/$defs/none' }, /reference #\/\$defs\/none does not resolve/],
    [
      { $ref: 'https://elsewhere.invalid/s.json' },
      /only local references are followed, not https:\/\/elsewhere\.invalid\/s\.json/,
    ],
    [{ $defs: { no: false }, $ref: '#/$defs/no' }, /reference #\/\$defs\/no is the schema false/],
    [
      {
        $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } }, required: ['next'] } },
        $ref: '#/$defs/node',
      },
      /nests too deeply/,
    ],
  ];
  for (const [schema, message] of cases) {
    assert.throws(() => minimalInstance(schema), message, JSON.stringify(schema));
    assert.doesNotThrow(() => minimalInstance(schema, REPLY_INSTANCE), JSON.stringify(schema));
  }
  assert.deepEqual(minimalInstance({ type: 'object', properties: { a: false }, required: ['a'] }, REPLY_INSTANCE), {
    a: 'ok',
  });
  // A cycle without required members is no cycle of values.
  assert.deepEqual(
    minimalInstance({
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      $ref: '#/$defs/node',
    }),
    {},
  );
});

test('combinators and references are merged into the schema beside them, as 2020-12 applies both', () => {
  const cases: [string, unknown, unknown][] = [
    [
      'allOf with a reference',
      {
        $defs: { o: { type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'] } },
        allOf: [{ $ref: '#/$defs/o' }, { properties: { c: { type: 'boolean' } }, required: ['c'] }],
      },
      { a: 'a', c: false },
    ],
    [
      'a reference with required siblings',
      {
        $defs: { o: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } },
        $ref: '#/$defs/o',
        properties: { b: { enum: ['x'] } },
        required: ['b'],
      },
      { a: 0, b: 'x' },
    ],
    [
      'a reference with a description only',
      { $defs: { p: { type: 'string', minLength: 1 } }, $ref: '#/$defs/p', description: 'a path' },
      'a',
    ],
    [
      'anyOf beside required members',
      {
        type: 'object',
        properties: { a: { type: 'integer', minimum: 1 } },
        required: ['a'],
        anyOf: [{ properties: { b: { type: 'null' } }, required: ['b'] }, { required: ['c'] }],
      },
      { a: 1, b: null },
    ],
    ['allOf of string parts', { allOf: [{ type: 'string' }, { minLength: 2 }] }, 'aa'],
    ['nullable: the first type that is not null', { type: ['null', 'string'], minLength: 1 }, 'a'],
  ];
  for (const [label, schema, expected] of cases) {
    const value = minimalInstance(schema);
    assert.deepEqual(value, expected, label);
    assert.ok(valid(schema, value), `${label}: ${JSON.stringify(ajv.errors)}`);
  }
});

test('the stub replies that broke their schema before the two were one now keep it', () => {
  // [schema, the old stub's reply (Ajv rejects it), the reply now]
  const cases: [unknown, unknown, unknown][] = [
    // The first branch replaced the schema's own required names and properties.
    [
      {
        type: 'object',
        properties: { a: { type: 'integer' } },
        required: ['a'],
        anyOf: [{ properties: { b: { type: 'boolean' } }, required: ['b'] }],
      },
      { b: false },
      { a: 1, b: false },
    ],
    // Keywords beside a $ref were left out.
    [{ $defs: { s: { type: 'string' } }, $ref: '#/$defs/s', minLength: 5 }, 'ok', 'okokok'],
    [
      {
        $defs: { o: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
        allOf: [{ $ref: '#/$defs/o' }, { properties: { c: { type: 'boolean' } }, required: ['c'] }],
      },
      { a: 'ok' },
      { a: 'ok', c: false },
    ],
    // Bounds it did not read.
    [{ type: 'integer', exclusiveMaximum: 1 }, 1, 0],
    [{ type: 'number', multipleOf: 3 }, 1, 3],
    [{ type: 'integer', minimum: 2, exclusiveMinimum: 4 }, 2, 5],
    [{ type: 'integer', maximum: 0.5 }, 0.5, 0],
    // A required member it did not declare, of the type additionalProperties gives.
    [{ type: 'object', required: ['x'], additionalProperties: { type: 'integer' } }, { x: 'ok' }, { x: 1 }],
  ];
  for (const [schema, before, now] of cases) {
    assert.equal(
      valid(schema, before),
      false,
      `the old reply ${JSON.stringify(before)} broke ${JSON.stringify(schema)}`,
    );
    const value = minimalInstance(schema, REPLY_INSTANCE);
    assert.deepEqual(value, now, JSON.stringify(schema));
    assert.ok(
      valid(schema, value),
      `${JSON.stringify(value)} for ${JSON.stringify(schema)}: ${JSON.stringify(ajv.errors)}`,
    );
  }
});

test('a string with a pattern is one the pattern accepts, the same every time, within its length bounds', () => {
  // Factory Droid's Execute `summary`, and patterns of other shapes.
  const schemas = [
    { type: 'string', pattern: '^[A-Z]\\S*(?:\\s+\\S+){2,7}$' },
    { type: 'string', pattern: '^v\\d+\\.\\d+$' },
    { type: 'string', pattern: '[a-z]{3}', minLength: 3, maxLength: 3 },
  ];
  for (const schema of schemas) {
    const value = minimalInstance(schema);
    assert.ok(
      valid(schema, value),
      `${JSON.stringify(value)} for ${JSON.stringify(schema)}: ${JSON.stringify(ajv.errors)}`,
    );
    assert.deepEqual(minimalInstance(schema), value, 'deterministic');
  }
  // A pattern RandExp cannot read, or whose string breaks the bounds, leaves the shortest string.
  assert.equal(minimalInstance({ type: 'string', pattern: '^a{5}$', maxLength: 2 }), '');
});
