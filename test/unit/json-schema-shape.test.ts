import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shapeFromJsonSchema } from '../../src/lib/shapes/json-schema-shape.ts';
import { duplicateIds, fieldRows, type FieldRow } from '../../src/lib/shapes/field-rows.ts';
import { DefinitionShapeError } from '../../src/lib/shapes/shape.ts';

const rowsOf = (schema: Record<string, unknown> | boolean): FieldRow[] =>
  fieldRows(shapeFromJsonSchema(schema), { root: 'input' });
/** id, label, type, required: the columns most cases are about. */
const brief = (rows: FieldRow[]) => rows.map((r) => [r.id, r.label, r.type, r.required]);

/** Asserts that converting `schema` fails at exactly `pointer` for `rule`, with a message matching `message`. */
function assertShapeError(schema: Record<string, unknown>, pointer: string, rule: string, message: RegExp): void {
  assert.throws(
    () => shapeFromJsonSchema(schema),
    (e: unknown) => {
      assert.ok(e instanceof DefinitionShapeError, `expected a DefinitionShapeError, got ${String(e)}`);
      assert.equal(e.pointer, pointer);
      assert.equal(e.rule, rule);
      assert.match(e.message, message);
      return true;
    },
  );
}

test('JSON Schema objects, enums, bounds, defaults, nullable types and $refs become rows', () => {
  const schema = {
    type: 'object',
    properties: {
      cmd: { type: 'string', description: 'Shell command' },
      sandbox_permissions: { type: 'string', enum: ['use_default', 'require_escalated'] },
      yield_time_ms: { type: 'number', minimum: 250, maximum: 30000, default: 10000 },
      workdir: { type: ['string', 'null'] },
      additional_permissions: { $ref: '#/$defs/perm' },
      prefix_rule: { type: 'array', items: { type: 'string' } },
      old: { type: 'string', deprecated: true },
    },
    required: ['cmd'],
    additionalProperties: false,
    $defs: {
      perm: {
        type: 'object',
        properties: {
          file_system: { type: 'object', properties: { read: { type: 'array', items: { type: 'string' } } } },
        },
      },
    },
  };
  const rows = new Map(fieldRows(shapeFromJsonSchema(schema), { root: 'input' }).map((r) => [r.id, r]));
  assert.deepEqual(
    [...rows.keys()],
    [
      'input.cmd',
      'input.sandbox_permissions',
      'input.yield_time_ms',
      'input.workdir',
      'input.additional_permissions',
      'input.additional_permissions.file_system',
      'input.additional_permissions.file_system.read',
      'input.prefix_rule',
      'input.old',
    ],
  );
  assert.equal(rows.get('input.cmd')!.required, true);
  assert.equal(rows.get('input.cmd')!.description, 'Shell command');
  assert.deepEqual(rows.get('input.sandbox_permissions')!.literals, ['use_default', 'require_escalated']);
  assert.deepEqual(rows.get('input.yield_time_ms')!.constraints, ['default: 10000', 'minimum: 250', 'maximum: 30000']);
  assert.equal(rows.get('input.workdir')!.type, 'string | null');
  assert.equal(rows.get('input.additional_permissions.file_system.read')!.type, 'string[]');
  assert.equal(rows.get('input.prefix_rule')!.type, 'string[]');
  assert.equal(rows.get('input.old')!.deprecated, true);
});

test('recursive $refs stop instead of looping; references to other documents are refused', () => {
  const schema = { $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' };
  const rows = fieldRows(shapeFromJsonSchema(schema), { root: 'input' });
  assert.deepEqual(
    rows.map((r) => [r.id, r.type]),
    [['input.next', 'n']],
  );
  assertShapeError(
    { $ref: 'https://example.invalid/x.json' },
    '/$ref',
    'json-schema-ref-resolves',
    /"https:\/\/example\.invalid\/x\.json" does not resolve/,
  );
  assertShapeError(
    { type: 'object', properties: { a: { $ref: '#/$defs/missing' } }, $defs: {} },
    '/properties/a/$ref',
    'json-schema-ref-resolves',
    /"#\/\$defs\/missing" does not resolve/,
  );
  // The error names the broken reference even when another one is resolved first.
  assertShapeError(
    {
      type: 'object',
      properties: { a: { $ref: '#/$defs/ok' }, b: { type: 'array', items: { $ref: '#/$defs/gone' } } },
      $defs: { ok: { type: 'string' } },
    },
    '/properties/b/items/$ref',
    'json-schema-ref-resolves',
    /"#\/\$defs\/gone" does not resolve/,
  );
});

test('a $ref to the root is recursion: the root itself is not expanded again', () => {
  assert.deepEqual(rowsOf({ $ref: '#' }), []);
  assert.deepEqual(
    brief(
      rowsOf({ type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#' } }, required: ['name'] }),
    ),
    [
      ['input.name', 'name', 'string', true],
      ['input.child', 'child', 'root', false],
    ],
  );
});

test('$ref resolves percent-encoded pointers, $anchor names and $id-relative references (Ajv resolves them)', () => {
  const encoded = {
    type: 'object',
    properties: { a: { $ref: '#/$defs/a%20b' }, s: { $ref: '#/$defs/x~1y' } },
    $defs: { 'a b': { type: 'object', properties: { x: { type: 'string' } } }, 'x/y': { type: 'number' } },
  };
  assert.deepEqual(brief(rowsOf(encoded)), [
    ['input.a', 'a', 'object', false],
    ['input.a.x', '.x', 'string', false],
    ['input.s', 's', 'number', false],
  ]);
  const anchored = {
    type: 'object',
    properties: { a: { $ref: '#foo' } },
    $defs: { x: { $anchor: 'foo', type: 'integer', minimum: 1 } },
  };
  assert.deepEqual(
    rowsOf(anchored).map((r) => [r.id, r.type, r.constraints]),
    [['input.a', 'integer', ['minimum: 1']]],
  );
  const relative = {
    $id: 'https://example.com/schemas/root.json',
    type: 'object',
    properties: { item: { $ref: 'item.json' }, flag: { $ref: 'item.json#/$defs/inner' } },
    $defs: {
      it: {
        $id: 'item.json',
        type: 'object',
        properties: { n: { $ref: '#/$defs/inner' } },
        $defs: { inner: { type: 'boolean' } },
      },
    },
  };
  assert.deepEqual(brief(rowsOf(relative)), [
    ['input.item', 'item', 'object', false],
    ['input.item.n', '.n', 'boolean', false],
    ['input.flag', 'flag', 'boolean', false],
  ]);
});

test('a $ref that lands on an inherited JavaScript property is an error, not an unknown field', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    assertShapeError(
      { type: 'object', properties: { a: { $ref: `#/$defs/${name}` } }, $defs: {} },
      '/properties/a/$ref',
      'json-schema-ref-resolves',
      /does not resolve/,
    );
  }
  // A property really named __proto__ (as JSON.parse makes it) is an ordinary field.
  const parsed = JSON.parse(
    '{"type":"object","properties":{"a":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"string"}}}',
  );
  assert.deepEqual(brief(rowsOf(parsed)), [['input.a', 'a', 'string', false]]);
});

test('a $ref that only refers to itself fails instead of overflowing', () => {
  assertShapeError(
    { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/a' } } },
    '/properties/a/$ref',
    'json-schema-ref-resolves',
    /cannot be resolved/,
  );
});

test('exponential $ref expansion is bounded', () => {
  const defs: Record<string, unknown> = { d30: { type: 'string' } };
  for (let i = 0; i < 30; i++)
    defs[`d${i}`] = {
      type: 'object',
      properties: { x: { $ref: `#/$defs/d${i + 1}` }, y: { $ref: `#/$defs/d${i + 1}` } },
    };
  assert.throws(
    () => shapeFromJsonSchema({ $defs: defs, $ref: '#/$defs/d0' }),
    (e: unknown) => e instanceof DefinitionShapeError && e.rule === 'json-schema-expansion-bounded',
  );
});

test('allOf merges object members: properties by name, required if any member requires them, bounds tightened', () => {
  const schema = {
    type: 'object',
    description: 'own',
    allOf: [
      { type: 'object', properties: { a: { type: 'string', maxLength: 10, description: 'first' } }, required: ['a'] },
      { properties: { b: { type: 'number' }, a: { maxLength: 3, description: 'second' } }, required: ['b'] },
    ],
  };
  const rows = rowsOf(schema);
  assert.deepEqual(
    rows.map((r) => [r.id, r.type, r.required, r.description, r.constraints]),
    [
      ['input.a', 'string', true, 'first', ['max length: 3']],
      ['input.b', 'number', true, undefined, []],
    ],
  );
  assert.equal(shapeFromJsonSchema(schema).description, 'own');
});

test('allOf of patterns on one string keeps every pattern (as the captured SendMessage `to` states them)', () => {
  const schema = {
    type: 'object',
    properties: {
      to: {
        description: 'Recipient',
        type: 'string',
        allOf: [{ pattern: '^[^\\n\\r]*$' }, { pattern: '^[\\s\\S]{0,300}$' }],
      },
    },
    required: ['to'],
  };
  assert.deepEqual(
    rowsOf(schema).map((r) => [r.id, r.type, r.description, r.constraints]),
    [['input.to', 'string', 'Recipient', ['pattern: ^[^\\n\\r]*$', 'pattern: ^[\\s\\S]{0,300}$']]],
  );
});

test('allOf members that cannot be merged fail at the member that conflicts', () => {
  assertShapeError(
    { type: 'object', properties: { x: { allOf: [{ type: 'string' }, { type: 'number' }] } } },
    '/properties/x/allOf/1',
    'json-schema-allof-mergeable',
    /allOf member 1 .*cannot be both string and number/,
  );
  assertShapeError(
    {
      allOf: [
        { type: 'object', properties: { k: { const: 'a' } } },
        { type: 'object', properties: { k: { const: 'b' } } },
      ],
    },
    '/allOf/1',
    'json-schema-allof-mergeable',
    /k cannot be both "a" and "b"/,
  );
  assertShapeError(
    { allOf: [{ type: 'string', default: 'a' }, { default: 'b' }] },
    '/allOf/1',
    'json-schema-allof-mergeable',
    /different default values, "a" and "b"/,
  );
  assertShapeError(
    { type: 'string', $ref: '#/$defs/n', $defs: { n: { type: 'number' } } },
    '/$ref',
    'json-schema-allof-mergeable',
    /\$ref target cannot be merged/,
  );
});

test('an allOf member narrows a union: variants that cannot match drop out', () => {
  const schema = {
    type: 'object',
    properties: { v: { anyOf: [{ type: 'string' }, { type: 'null' }], allOf: [{ type: 'string', minLength: 1 }] } },
  };
  assert.deepEqual(
    rowsOf(schema).map((r) => [r.id, r.type, r.nullable, r.constraints]),
    [['input.v', 'string', false, ['min length: 1']]],
  );
});

test('properties beside oneOf are part of every variant; a variant naming only `required` takes the property types', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'number' } },
    oneOf: [{ required: ['a'] }, { required: ['b'] }],
  };
  assert.deepEqual(brief(rowsOf(schema)), [
    ['input:1', 'variant 1 (object)', 'object', null],
    ['input:1.a', 'a', 'string', true],
    ['input:1.b', 'b', 'number', false],
    ['input:2', 'variant 2 (object)', 'object', null],
    ['input:2.a', 'a', 'string', false],
    ['input:2.b', 'b', 'number', true],
  ]);
});

test('anyOf of an enum and a const is one list of values', () => {
  const schema = {
    type: 'object',
    properties: {
      status: {
        description: 'New status',
        anyOf: [
          { type: 'string', enum: ['pending', 'completed'] },
          { type: 'string', const: 'deleted' },
        ],
      },
    },
  };
  assert.deepEqual(
    rowsOf(schema).map((r) => [r.id, r.type, r.literals, r.description]),
    [['input.status', '"pending" | "completed" | "deleted"', ['pending', 'completed', 'deleted'], 'New status']],
  );
});

test('oneOf variants whose discriminators are "1" and 1 get different ids', () => {
  const schema = {
    oneOf: [
      { type: 'object', properties: { k: { const: '1' }, a: { type: 'string' } }, required: ['k'] },
      { type: 'object', properties: { k: { const: 1 }, b: { type: 'string' } }, required: ['k'] },
    ],
  };
  const rows = rowsOf(schema);
  assert.deepEqual(brief(rows), [
    ['input:1', 'k: "1"', 'object', null],
    ['input:1.k', 'k', '"1"', true],
    ['input:1.a', 'a', 'string', false],
    ['input:!1', 'k: 1', 'object', null],
    ['input:!1.k', 'k', '1', true],
    ['input:!1.b', 'b', 'string', false],
  ]);
  assert.deepEqual(duplicateIds(rows), []);
});

test('patternProperties give a row per pattern, distinct from the row for any other key', () => {
  const schema = {
    type: 'object',
    properties: {
      env: {
        type: 'object',
        patternProperties: {
          '^x-': { type: 'string' },
          '^y/': { type: 'object', properties: { z: { type: 'number' } } },
        },
        additionalProperties: { type: 'boolean' },
      },
    },
  };
  const rows = rowsOf(schema);
  assert.deepEqual(
    rows.map((r) => [r.id, r.path, r.label, r.type, r.role]),
    [
      ['input.env', 'env', 'env', 'object', 'property'],
      ['input.env.*~5Ex-', 'env.[key matching /^x-/]', '[key matching /^x-/]', 'string', 'map-value'],
      ['input.env.*~5Ey~2F', 'env.[key matching /^y//]', '[key matching /^y//]', 'object', 'map-value'],
      ['input.env.*~5Ey~2F.z', 'env.[key matching /^y//].z', '.z', 'number', 'property'],
      ['input.env.*', 'env.[key]', '[key: string]', 'boolean', 'map-value'],
    ],
  );
  assert.equal(rows[1]!.description, 'Any key matching this pattern; its value has this type.');
  assert.deepEqual(duplicateIds(rows), []);
});

test('additionalProperties true, a schema, and const become rows', () => {
  const schema = {
    type: 'object',
    properties: {
      c: { const: 'x' },
      m: { type: 'object', additionalProperties: true },
      n: { type: 'object', additionalProperties: { type: 'integer' } },
    },
  };
  assert.deepEqual(
    rowsOf(schema).map((r) => [r.id, r.type, r.literals]),
    [
      ['input.c', '"x"', ['x']],
      ['input.m', 'map of unknown', undefined],
      ['input.m.*', 'unknown', undefined],
      ['input.n', 'map of integer', undefined],
      ['input.n.*', 'integer', undefined],
    ],
  );
});

test('if/then/else become branch rows below the fields; a branch that only names a field takes its type', () => {
  const schema = {
    type: 'object',
    properties: { mode: { enum: ['a', 'b'] }, x: { type: 'string', description: 'The x' }, y: { type: 'number' } },
    if: { properties: { mode: { const: 'a' } } },
    then: { required: ['x'] },
    else: { required: ['y'], properties: { y: { minimum: 3 } } },
  };
  const rows = rowsOf(schema);
  assert.deepEqual(
    rows.map((r) => [r.id, r.path, r.label, r.role, r.type, r.required, r.constraints]),
    [
      ['input.mode', 'mode', 'mode', 'property', '"a" | "b"', false, []],
      ['input.x', 'x', 'x', 'property', 'string', false, []],
      ['input.y', 'y', 'y', 'property', 'number', false, []],
      ['input:!then', '(if mode: "a")', 'if mode: "a"', 'variant', 'object', null, []],
      ['input:!then.x', '(if mode: "a").x', 'x', 'property', 'string', true, []],
      ['input:!else', '(else)', 'else', 'variant', 'object', null, []],
      ['input:!else.y', '(else).y', 'y', 'property', 'number', true, ['minimum: 3']],
    ],
  );
  assert.equal(rows[4]!.description, 'The x');
});

test('several if/then in an allOf are numbered; a branch of a string shows its constraints', () => {
  const schema = {
    type: 'object',
    properties: {
      k: { enum: ['a', 'b'] },
      x: { type: 'string' },
      y: { type: 'string' },
      s: { type: 'string', if: { maxLength: 3 }, then: { pattern: '^a' } },
    },
    allOf: [
      { if: { properties: { k: { const: 'a' } } }, then: { required: ['x'] } },
      { if: { properties: { k: { const: 'b' } } }, else: { required: ['y'] } },
    ],
  };
  assert.deepEqual(
    rowsOf(schema).map((r) => [r.id, r.label, r.type, r.required, r.constraints]),
    [
      ['input.k', 'k', '"a" | "b"', false, []],
      ['input.x', 'x', 'string', false, []],
      ['input.y', 'y', 'string', false, []],
      ['input.s', 's', 'string', false, []],
      ['input.s:!then', 'if the "if" schema matches', 'string', null, ['pattern: ^a']],
      ['input:!then', 'if k: "a"', 'object', null, []],
      ['input:!then.x', 'x', 'string', true, []],
      ['input:!else2', 'unless k: "b"', 'object', null, []],
      ['input:!else2.y', 'y', 'string', true, []],
    ],
  );
});

test('tuples (prefixItems, draft-07 items arrays) list their positions; only the first minItems are required', () => {
  const schema = {
    type: 'object',
    properties: {
      t: {
        type: 'array',
        prefixItems: [{ type: 'string' }, { type: 'object', properties: { q: { type: 'number' } } }],
        minItems: 1,
      },
      old: { type: 'array', items: [{ type: 'boolean' }], additionalItems: false },
    },
  };
  assert.deepEqual(
    rowsOf(schema).map((r) => [r.id, r.path, r.label, r.type, r.required, r.role]),
    [
      ['input.t', 't', 't', '[string, object]', false, 'property'],
      ['input.t@0', 't[0]', '[0]', 'string', true, 'position'],
      ['input.t@1', 't[1]', '[1]', 'object', false, 'position'],
      ['input.t@1.q', 't[1].q', '.q', 'number', false, 'property'],
      ['input.old', 'old', 'old', '[boolean]', false, 'property'],
      ['input.old@0', 'old[0]', '[0]', 'boolean', false, 'position'],
    ],
  );
  assertShapeError(
    { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } },
    '/items',
    'json-schema-keyword-supported',
    /items beside prefixItems/,
  );
});

test('keywords the table cannot show fail at their own JSON pointer', () => {
  assertShapeError(
    { type: 'object', properties: { x: { not: { type: 'string' } } } },
    '/properties/x/not',
    'json-schema-keyword-supported',
    /keyword "not"/,
  );
  assertShapeError(
    { type: 'object', properties: { 'a/b~c': { type: 'string', contains: {} } } },
    '/properties/a~1b~0c/contains',
    'json-schema-keyword-supported',
    /keyword "contains"/,
  );
  assertShapeError(
    { type: 'object', dependentRequired: { a: ['b'] } },
    '/dependentRequired',
    'json-schema-keyword-supported',
    /"dependentRequired"/,
  );
  assertShapeError(
    { type: 'object', properties: { x: { $dynamicRef: '#meta' } } },
    '/properties/x/$dynamicRef',
    'json-schema-keyword-supported',
    /"\$dynamicRef"/,
  );
  assertShapeError(
    { anyOf: [{ type: 'string' }, { type: 'object', properties: { y: { typo: 1 } } }] },
    '/anyOf/1/properties/y/typo',
    'json-schema-keyword-supported',
    /"typo"/,
  );
  assertShapeError(
    { allOf: [{ $ref: '#/$defs/d' }], $defs: { d: { type: 'object', unevaluatedProperties: { type: 'string' } } } },
    '/$defs/d/unevaluatedProperties',
    'json-schema-keyword-supported',
    /true or false only/,
  );
  assertShapeError(
    { type: 'object', propertyNames: { enum: ['a'] } },
    '/propertyNames/enum',
    'json-schema-keyword-supported',
    /propertyNames/,
  );
  assertShapeError({ enum: ['a', { b: 1 }] }, '/enum/1', 'json-schema-keyword-supported', /object value of enum/);
  assertShapeError(
    { type: 'number', exclusiveMinimum: true },
    '/exclusiveMinimum',
    'json-schema-keyword-value',
    /must be a number/,
  );
  assertShapeError({ type: 'strin' }, '/type', 'json-schema-keyword-value', /unknown JSON Schema type "strin"/);
  assertShapeError({ oneOf: [] }, '/oneOf', 'json-schema-keyword-value', /non-empty array/);
});

test('annotation keywords and x- extensions do not fail and add nothing', () => {
  const annotated = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://example.com/t.json',
    $comment: 'c',
    title: 'T',
    examples: [{}],
    'x-vendor': { anything: [1] },
    type: 'object',
    properties: {
      a: {
        type: 'string',
        readOnly: true,
        writeOnly: false,
        deprecated: false,
        contentMediaType: 'text/plain',
        contentEncoding: 'base64',
        format: 'email',
        encrypted: true,
        default: 'z',
      },
      m: {
        type: 'object',
        propertyNames: { type: 'string' },
        additionalProperties: { type: 'string' },
        unevaluatedProperties: false,
      },
    },
    $defs: { unused: { type: 'string' } },
    definitions: { alsoUnused: { type: 'number' } },
  };
  assert.deepEqual(
    rowsOf(annotated).map((r) => [r.id, r.type, r.constraints, r.deprecated]),
    [
      ['input.a', 'string', ['default: "z"', 'format: email'], false],
      ['input.m', 'map of string', [], false],
      ['input.m.*', 'string', [], false],
    ],
  );
  // OpenCode 1.1.x: zod's `.meta({ ref })` names the item type; the rows are those of the same schema without it.
  const question = (meta: Record<string, unknown>) => ({
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        items: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], ...meta },
      },
    },
    required: ['questions'],
  });
  assert.deepEqual(rowsOf(question({ ref: 'QuestionInfo' })), rowsOf(question({})));
});

test('propertyNames, multipleOf, uniqueItems and property counts are shown as constraints', () => {
  const schema = {
    type: 'object',
    properties: {
      m: {
        type: 'object',
        propertyNames: { pattern: '^[a-z]+$', maxLength: 5 },
        minProperties: 1,
        maxProperties: 4,
        additionalProperties: { type: 'string' },
      },
      n: { type: 'number', multipleOf: 0.5 },
      l: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    },
  };
  assert.deepEqual(
    rowsOf(schema).map((r) => [r.id, r.constraints]),
    [
      ['input.m', ['min properties: 1', 'max properties: 4', 'key max length: 5', 'key pattern: ^[a-z]+$']],
      ['input.m.*', []],
      ['input.n', ['multiple of: 0.5']],
      ['input.l', ['unique items']],
    ],
  );
});

test('a required name without a property schema still gets a row', () => {
  assert.deepEqual(brief(rowsOf({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] })), [
    ['input.a', 'a', 'string', true],
    ['input.b', 'b', 'unknown', true],
  ]);
});

test('an if/then inside a branch gets its own branch rows', () => {
  const schema = {
    type: 'object',
    properties: { a: { enum: ['x', 'y'] }, b: { enum: [1, 2] } },
    if: { properties: { a: { const: 'x' } } },
    then: {
      properties: { b: { enum: [1, 2] } },
      if: { properties: { b: { const: 1 } } },
      then: { properties: { c: { type: 'string' } }, required: ['c'] },
    },
  };
  assert.deepEqual(brief(rowsOf(schema)), [
    ['input.a', 'a', '"x" | "y"', false],
    ['input.b', 'b', '1 | 2', false],
    ['input:!then', 'if a: "x"', 'object', null],
    ['input:!then.b', 'b', '1 | 2', false],
    ['input:!then:!then', 'if b: 1', 'object', null],
    ['input:!then:!then.c', 'c', 'string', true],
  ]);
});
