/**
 * The JSON Schemas published beside each tool page (src/lib/shapes/json-schema.ts):
 * draft conversion, TypeScript conversion, and a round trip over every
 * TypeScript definition of the content: the field rows computed from the
 * converted schema are the rows the page computes from the TypeScript.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fieldRows, type FieldRow } from '../../src/lib/shapes/field-rows.ts';
import { shapeFromJsonSchema } from '../../src/lib/shapes/json-schema-shape.ts';
import {
  capturedSchema2020,
  definitionSchema,
  JSON_SCHEMA_2020,
  lineCommentsAsJsDoc,
  publishedSchema,
  schemaFromTypeScript,
  SchemaConversionError,
  toDraft2020,
} from '../../src/lib/shapes/json-schema.ts';
import { minimalInstance } from '../../src/lib/shapes/minimal-instance.ts';
import { realContent } from '../helpers/real-content.ts';

const rowsOfSchema = (schema: Record<string, unknown>, root: 'input' | 'output' = 'input') =>
  fieldRows(shapeFromJsonSchema(schema), { root });

test('a draft-07 schema is rewritten in 2020-12 terms, data values untouched', () => {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      pair: { type: 'array', items: [{ type: 'string' }, { $ref: '#/definitions/n' }], additionalItems: false },
      list: { type: 'array', items: { $ref: '#/definitions/n' }, additionalItems: { type: 'string' } },
      // Data, not schemas: never rewritten.
      mode: { enum: [{ items: [1] }], default: { definitions: 1 } },
    },
    dependencies: { a: ['b'], c: { required: ['d'] } },
    definitions: { n: { type: 'number' } },
  };
  assert.deepEqual(toDraft2020(schema), {
    type: 'object',
    properties: {
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { $ref: '#/$defs/n' }], items: false },
      list: { type: 'array', items: { $ref: '#/$defs/n' } },
      mode: { enum: [{ items: [1] }], default: { definitions: 1 } },
    },
    dependentRequired: { a: ['b'] },
    dependentSchemas: { c: { required: ['d'] } },
    $defs: { n: { type: 'number' } },
  });
});

test('a captured 2020-12 schema, or one without $schema, is published as it is', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, definitions: { x: {} } };
  assert.deepEqual(capturedSchema2020(schema), schema);
  assert.deepEqual(capturedSchema2020({ $schema: JSON_SCHEMA_2020, ...schema }), schema);
  assert.deepEqual(capturedSchema2020({ $schema: 'http://json-schema.org/draft-07/schema#', ...schema }), {
    type: 'object',
    properties: { a: { type: 'string' } },
    $defs: { x: {} },
  });
});

test('a published schema starts with $schema, $id and title, and keeps a title of its own', () => {
  const published = publishedSchema(
    { type: 'object', properties: {} },
    { id: 'https://site.invalid/a/b/1.0.0/input.schema.json', title: 'b input (A 1.0.0)' },
  );
  assert.deepEqual(Object.keys(published), ['$schema', '$id', 'title', 'type', 'properties']);
  assert.equal(published.$schema, JSON_SCHEMA_2020);
  assert.equal(publishedSchema({ title: 'Own', type: 'string' }, { id: 'x', title: 'ours' }).title, 'Own');
  assert.throws(() => publishedSchema({ $id: 'other' }, { id: 'x', title: 't' }), SchemaConversionError);
});

test('// comments above members become documentation comments, JSDoc is left alone', () => {
  const source = `type R = {\n  // Exit code.\n  // Absent while running.\n  exit_code?: number;\n  /** Output. */\n  output: string;\n  // has */ inside\n  x: string;\n};\n`;
  const out = lineCommentsAsJsDoc(source);
  assert.match(out, /\/\*\*\n \* Exit code\.\n \* Absent while running\.\n \*\/\n  exit_code\?: number;/);
  assert.match(out, /\/\*\* Output\. \*\/\n  output: string;/);
  assert.match(out, /\* has \*\\\/ inside/);
  const schema = schemaFromTypeScript(source, 'R');
  assert.deepEqual(schema, {
    type: 'object',
    properties: {
      exit_code: { type: 'number', description: 'Exit code. Absent while running.' },
      output: { type: 'string', description: 'Output.' },
      x: { type: 'string', description: 'has *\\/ inside' },
    },
    required: ['output', 'x'],
  });
});

test('TypeScript → JSON Schema: JSDoc tags, unions, nullables, maps, array bounds, every type inlined', () => {
  const source = `
    /** A call. */
    interface Call extends Base {
      /**
       * How many.
       * @minimum 1
       * @default 5
       */
      count?: number;
      mode: "a" | "b";
      parent: string | null;
      env: { [k: string]: string };
      one_or_more: [Item, ...Item[]];
      /** @minItems 1 @maxItems 3 */
      up_to_three: [Item] | [Item, Item] | [Item, Item, Item];
    }
    interface Base { id: string }
    type Item = { name: string };
  `;
  const schema = schemaFromTypeScript(source, 'Call');
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  assert.equal(schema.description, 'A call.');
  assert.deepEqual([...(schema.required as string[])].sort(), [
    'env',
    'id',
    'mode',
    'one_or_more',
    'parent',
    'up_to_three',
  ]);
  assert.equal(schema.additionalProperties, undefined, 'an object type does not forbid other keys');
  assert.deepEqual(properties.count, { type: 'number', minimum: 1, default: 5, description: 'How many.' });
  assert.deepEqual(properties.mode, { type: 'string', enum: ['a', 'b'] });
  assert.deepEqual(properties.parent, { type: ['string', 'null'] });
  assert.deepEqual(properties.env, { type: 'object', additionalProperties: { type: 'string' } });
  assert.deepEqual(properties.one_or_more, {
    type: 'array',
    items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    minItems: 1,
  });
  assert.equal(properties.up_to_three!.type, 'array');
  assert.equal(properties.up_to_three!.minItems, 1);
  assert.equal(properties.up_to_three!.maxItems, 3);
  assert.ok(!JSON.stringify(schema).includes('$ref') && !('$defs' in schema), 'no references, no definitions');
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile(schema);
  assert.ok(validate(minimalInstance(schema)), JSON.stringify(validate.errors));
  assert.ok(!validate({}), 'required members are required');
});

test('a recursive type is referred to by its name in $defs (2020-12), never in definitions', () => {
  const schema = schemaFromTypeScript(
    'interface Tree { root: Node; label?: string }\ntype Node = { name: string; children: Node[] };',
    'Tree',
  );
  assert.deepEqual(schema.properties, { root: { $ref: '#/$defs/Node' }, label: { type: 'string' } });
  assert.deepEqual(schema.$defs, {
    Node: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['name', 'children'],
    },
  });
  assert.ok(!('definitions' in schema));
  const validate = new Ajv2020({ strict: false }).compile(schema);
  assert.ok(validate({ root: { name: 'a', children: [{ name: 'b', children: [] }] } }));
  assert.ok(!validate({ root: { name: 'a', children: [{ name: 'b' }] } }));
});

test('an undeclared root type or an unsupported declaration is a SchemaConversionError', () => {
  assert.throws(() => schemaFromTypeScript('interface A { a: string }', 'B'), /type B is not declared/);
  assert.throws(() => schemaFromTypeScript('interface A { f: () => void }', 'A'), SchemaConversionError);
});

test('converting a definition again gives an equal schema that is a copy of its own', () => {
  const source = 'interface Again {\n  /** Where. */\n  path: string;\n  tags?: string[];\n}\n';
  const first = schemaFromTypeScript(source, 'Again');
  const again = schemaFromTypeScript(source, 'Again');
  assert.deepEqual(again, first);
  // A caller that changes its copy changes nobody else's.
  (first.properties as Record<string, { description?: string }>).path!.description = 'changed by a caller';
  delete (first as { required?: unknown }).required;
  const third = schemaFromTypeScript(source, 'Again');
  assert.deepEqual(third, again);
  assert.equal((third.properties as Record<string, { description?: string }>).path!.description, 'Where.');
  // Another type of the same source is converted on its own.
  assert.throws(() => schemaFromTypeScript(source, 'Elsewhere'), /type Elsewhere is not declared/);
});

test('grammar and unavailable definitions have no schema', () => {
  assert.equal(definitionSchema({ kind: 'unavailable', reason: 'r' }), undefined);
  assert.equal(
    definitionSchema({
      kind: 'grammar',
      syntax: 'lark',
      definition: 'start: "a"',
      origin: { package: 'p', version: '1', file: 'f' },
    }),
    undefined,
  );
});

/**
 * Differences between the two tables that the conversion cannot avoid, each
 * with why. Anything else fails the round trip.
 */
function explainedDifference(key: keyof FieldRow, ts: FieldRow, js: FieldRow): string | undefined {
  switch (key) {
    case 'label':
    case 'name':
      // JSON Schema has no name for the key of a map: the table says `[key: string]`.
      if (String(ts[key]).replace(/\[\w+: string\]/g, '[key: string]') === js[key]) return 'index key name';
      return undefined;
    case 'deprecated':
      // The page reads a description starting "Deprecated" as deprecation; the conversion marks only @deprecated.
      if (ts.deprecated && !js.deprecated && /^deprecated\b/i.test(ts.description ?? '')) return 'deprecated in prose';
      return undefined;
    case 'description':
      // JSDoc lines within one paragraph are joined with a space by the generator.
      if ((ts.description ?? '').replace(/(?<!\n)\n(?!\n)/g, ' ') === js.description)
        return 'line breaks within a paragraph';
      return undefined;
    case 'type':
      // `"latest" | string`: string literals beside `string` add no constraint, and JSON Schema keeps only `string`.
      if (js.type === 'string' && ts.type.split(' | ').every((part) => part === 'string' || /^".*"$/.test(part)))
        return 'string literal absorbed by string';
      return undefined;
    default:
      return undefined;
  }
}

test('round trip: every TypeScript definition converts, and its schema gives the page its own rows', () => {
  const site = realContent();
  const ajv = new Ajv2020({ strict: false });
  const unexplained: string[] = [];
  const explained = new Map<string, string[]>();
  let definitions = 0;
  let rowCount = 0;
  for (const tool of site.tools) {
    for (const [root, view] of [
      ['input', tool.input],
      ['output', tool.output],
    ] as const) {
      if (view.definition.kind !== 'typescript') continue;
      definitions++;
      const where = `${tool.agent}/${tool.slug} ${root}`;
      const schema = definitionSchema(view.definition)!;
      ajv.compile(schema);
      const converted = rowsOfSchema(schema, root);
      // Paths, anchors and structure: identical, row for row.
      assert.deepEqual(
        converted.map((r) => r.id),
        view.rows.map((r) => r.id),
        `${where}: anchors`,
      );
      view.rows.forEach((ts, i) => {
        const js = converted[i]!;
        rowCount++;
        for (const key of [
          'fieldKey',
          'path',
          'depth',
          'role',
          'required',
          'nullable',
          'literals',
          'constraints',
        ] as const) {
          assert.deepEqual(js[key], ts[key], `${where} ${ts.id}: ${key}`);
        }
        for (const key of ['type', 'label', 'name', 'description', 'deprecated'] as const) {
          if (JSON.stringify(js[key]) === JSON.stringify(ts[key])) continue;
          const why = explainedDifference(key, ts, js);
          if (why) explained.set(why, [...(explained.get(why) ?? []), `${where} ${ts.id}`]);
          else
            unexplained.push(`${where} ${ts.id}: ${key} ${JSON.stringify(ts[key])} became ${JSON.stringify(js[key])}`);
        }
      });
    }
  }
  assert.ok(definitions >= 100, `only ${definitions} TypeScript definitions`);
  assert.deepEqual(unexplained, []);
  for (const [why, rows] of explained)
    console.log(
      `# round trip: ${rows.length} row(s) differ by ${why}: ${rows.slice(0, 3).join(', ')}${rows.length > 3 ? ', …' : ''}`,
    );
  console.log(`# round trip: ${definitions} definitions, ${rowCount} rows`);
});

test('exported schemas keep every field name exactly: __proto__, escapes and prototype names, read back from the file text', () => {
  // The names as JavaScript strings: the reference the exported file is read back against.
  const NAMES = [
    '__proto__',
    'evil\nname',
    'quote"d',
    'back\\slash',
    'tab\there',
    'constructor',
    'toString',
    'plain',
    'ünï',
  ];
  const source = `export interface Weird {\n${NAMES.map((n) => `  ${JSON.stringify(n)}: string;`).join('\n')}\n}\n`;
  const captured = JSON.parse(
    `{"type":"object","properties":{${NAMES.map((n) => `${JSON.stringify(n)}:{"type":"string"}`).join(',')}},"required":${JSON.stringify(NAMES)}}`,
  );
  const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...captured };
  // JSON.parse keeps "__proto__" as an own key; the object spread above does too.
  assert.ok(Object.hasOwn(draft07.properties, '__proto__'));
  const bodies = {
    typescript: definitionSchema({ kind: 'typescript', source, typeName: 'Weird' } as never)!,
    'json-schema 2020': definitionSchema({ kind: 'json-schema', schema: captured } as never)!,
    'json-schema draft-07': definitionSchema({ kind: 'json-schema', schema: draft07 } as never)!,
  };
  for (const [kind, body] of Object.entries(bodies)) {
    const text = JSON.stringify(
      publishedSchema(body, { id: 'https://site.invalid/x/weird/1.0.0/input.schema.json', title: 'weird' }),
      null,
      2,
    );
    const back = JSON.parse(text) as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(back.properties), NAMES, `${kind}: property names`);
    assert.deepEqual(back.required, NAMES, `${kind}: required names`);
    // And a validator built from the file holds an instance to them.
    const validate = new Ajv2020({ strict: false }).compile(back);
    const instance = JSON.parse(`{${NAMES.map((n) => `${JSON.stringify(n)}:"v"`).join(',')}}`);
    assert.ok(validate(instance), `${kind}: ${JSON.stringify(validate.errors)}`);
    const missing = JSON.parse(
      `{${NAMES.filter((n) => n !== 'evil\nname')
        .map((n) => `${JSON.stringify(n)}:"v"`)
        .join(',')}}`,
    );
    assert.ok(!validate(missing), `${kind}: "evil\\nname" is required`);
  }
});
