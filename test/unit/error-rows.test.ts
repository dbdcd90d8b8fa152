/**
 * From a validation error to the row of a field table it is about
 * (src/lib/check/error-rows.ts): the one mapping that the build's payload findings
 * (checkModelInput) and the browser's "Check a payload" form (errorLines over
 * a precompiled standalone validator) share. Expected anchors are written out
 * by hand from the anchor scheme (docs/pages.md "URLs and field anchors").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorSegments, nearestAnchor, pointerSegments, type ValidationError } from '../../src/lib/check/error-rows.ts';
import { parseAnchor } from '../../src/lib/shapes/anchors.ts';
import { fieldRows } from '../../src/lib/shapes/field-rows.ts';
import { shapeFromJsonSchema } from '../../src/lib/shapes/json-schema-shape.ts';
import { checkModelInput } from '../../src/lib/check/payload-check.ts';
import { errorLines, payloadCheckTarget } from '../../src/lib/check/payload-check-ui.ts';
import { validatorModule } from '../../src/lib/check/payload-validator.ts';
import { realContent } from '../helpers/real-content.ts';

const real = realContent();

const err = (
  instancePath: string,
  keyword = 'type',
  params: Record<string, unknown> = {},
  schemaPath = '#/',
): ValidationError => ({ instancePath, schemaPath, keyword, params });

test('a JSON Pointer splits into unescaped segments', () => {
  assert.deepEqual(pointerSegments(''), []);
  assert.deepEqual(pointerSegments('/questions/0/options/1/label'), ['questions', '0', 'options', '1', 'label']);
  assert.deepEqual(pointerSegments('/a~1b/c~0d/'), ['a/b', 'c~d', '']);
});

test('an error finds the row of its field: array items are skipped, a missing property is its own row, an unknown one its object', () => {
  const rows = [
    'input.command',
    'input.questions',
    'input.questions.question',
    'input.questions.options',
    'input.questions.options.label',
    'model-input.command',
  ];
  const at = (e: ValidationError) => nearestAnchor(rows, 'input', e);
  assert.equal(at(err('/command')), 'input.command');
  assert.equal(at(err('/questions/0/options/1/label')), 'input.questions.options.label');
  assert.equal(at(err('/questions/0/options/1')), 'input.questions.options', 'an item is its array’s row');
  assert.equal(
    at(err('/questions/0/options/1', 'required', { missingProperty: 'label' })),
    'input.questions.options.label',
  );
  assert.equal(
    at(err('/questions/0', 'required', { missingProperty: 'header' })),
    'input.questions',
    'no row for header: the nearest is its object',
  );
  assert.equal(
    at(err('/questions/0/options/1', 'additionalProperties', { additionalProperty: 'x' })),
    'input.questions.options',
  );
  assert.equal(
    at(err('', 'additionalProperties', { additionalProperty: 'x' })),
    'input',
    'at the root: the table’s heading',
  );
  assert.equal(at(err('', 'type')), 'input');
  assert.equal(at(err('/nothing/here')), 'input');
  assert.equal(
    nearestAnchor(rows, 'model-input', err('/command')),
    'model-input.command',
    'only the rows of the table checked',
  );
  assert.equal(
    nearestAnchor(['inputs.command'], 'input', err('/command')),
    'input',
    'a row of another root is not this table’s',
  );
});

test('maps, patterns, tuples, nested arrays and escaped names follow the anchor scheme', () => {
  const rows = [
    'input.env',
    'input.env.*~5Ex-',
    'input.env.*',
    'input.answers.*.note',
    'input.range@0',
    'input.range@0.lo',
    'input.grid.~5B~5D.cell',
    'input.a~2Eb',
    'input.-B',
    'input.0',
  ];
  const at = (pointer: string, keyword = 'type', params: Record<string, unknown> = {}) =>
    nearestAnchor(rows, 'input', err(pointer, keyword, params));
  assert.equal(at('/env/x-trace'), 'input.env.*~5Ex-', 'a key matching the pattern');
  assert.equal(at('/env/HOME'), 'input.env.*', 'any other key');
  assert.equal(at('/answers/q1/note'), 'input.answers.*.note');
  assert.equal(at('/range/0/lo'), 'input.range@0.lo');
  assert.equal(at('/range/1'), 'input', 'no row for position 1 and none for range itself');
  assert.equal(at('/grid/0/1/cell'), 'input.grid.~5B~5D.cell');
  assert.equal(at('/a.b'), 'input.a~2Eb');
  assert.equal(at('', 'required', { missingProperty: '-B' }), 'input.-B');
  assert.equal(at('/0'), 'input.0', 'a property named 0 is a property');
});

test('among union variants, the one in the position of the member Ajv reported from wins, else the first', () => {
  const rows = [
    'input.source',
    'input.source:cloud',
    'input.source:cloud.kind',
    'input.source:executor',
    'input.source:executor.environment_id',
    'input.source:executor.kind',
  ];
  const at = (pointer: string, schemaPath: string) =>
    nearestAnchor(rows, 'input', err(pointer, 'enum', {}, schemaPath));
  assert.equal(at('/source/kind', '#/properties/source/oneOf/1/properties/kind/enum'), 'input.source:executor.kind');
  assert.equal(at('/source/kind', '#/properties/source/oneOf/0/properties/kind/enum'), 'input.source:cloud.kind');
  assert.equal(at('/source/kind', '#/properties/source/oneOf/7/properties/kind/enum'), 'input.source:cloud.kind');
  assert.equal(
    at('/source/environment_id', '#/properties/source/oneOf/1/properties/environment_id/type'),
    'input.source:executor.environment_id',
  );
  assert.equal(at('/source', '#/properties/source/oneOf'), 'input.source');
  const numbered = ['input:1', 'input:1.path', 'input:2', 'input:2.path'];
  assert.equal(
    nearestAnchor(numbered, 'input', err('/path', 'type', {}, '#/anyOf/1/properties/path/type')),
    'input:2.path',
  );
});

test('on every real table, an error naming a field (as a missing required property) finds that field’s row', () => {
  let checked = 0;
  for (const tool of real.tools) {
    const target = payloadCheckTarget(tool);
    if (!target) continue;
    const rows = (target.section === 'model-input' ? tool.modelInput!.view.rows : tool.input.rows).map((r) => r.id);
    for (const id of rows) {
      const steps = parseAnchor(id, target.section);
      if (steps.length === 0 || !steps.every((s) => s.kind === 'property')) continue;
      const names = steps.map((s) => (s.kind === 'property' ? s.name : ''));
      const parent = names
        .slice(0, -1)
        .map((n) => `/${n.replaceAll('~', '~0').replaceAll('/', '~1')}`)
        .join('');
      assert.equal(
        nearestAnchor(rows, target.section, err(parent, 'required', { missingProperty: names.at(-1) })),
        id,
        `${tool.agent}/${tool.slug}`,
      );
      checked++;
    }
  }
  assert.ok(checked > 500, `only ${checked} rows`);
});

test('the property an error names (missing, not allowed, not evaluated) extends its path; other params do not', () => {
  assert.deepEqual(errorSegments(err('/a', 'required', { missingProperty: 'b' })), ['a', 'b']);
  assert.deepEqual(errorSegments(err('/a', 'dependentRequired', { missingProperty: 'b' })), ['a', 'b']);
  assert.deepEqual(errorSegments(err('/a', 'additionalProperties', { additionalProperty: 'b' })), ['a', 'b']);
  assert.deepEqual(errorSegments(err('/a', 'unevaluatedProperties', { unevaluatedProperty: 'b' })), ['a', 'b']);
  assert.deepEqual(errorSegments(err('/a', 'propertyNames', { propertyName: 'b' })), ['a']);
});

/** A union without a discriminator: its variants are anchored by position (`:1`, `:2`), and both declare `depth`. */
const UNION_SCHEMA = {
  type: 'object',
  properties: {
    source: {
      anyOf: [
        {
          type: 'object',
          properties: { path: { type: 'string' }, depth: { type: 'integer', maximum: 3 } },
          required: ['path'],
        },
        {
          type: 'object',
          properties: { url: { type: 'string' }, depth: { type: 'integer', maximum: 10 } },
          required: ['url'],
        },
      ],
    },
  },
};
/** An input that fits neither variant: `depth` is too deep for both, `path` is missing from the first. */
const UNION_INPUT = { source: { url: 'https://example.com/', depth: 50 } };
/** What each error is about and the row it belongs to, written from the schema and the anchor scheme. */
const UNION_EXPECTED = [
  { path: 'source.path', anchor: 'input.source:1.path' },
  { path: 'source.depth', anchor: 'input.source:1.depth' },
  // The error of the second member: the second variant's row, not the first one that has a `depth` too.
  { path: 'source.depth', anchor: 'input.source:2.depth' },
  { path: 'source', anchor: 'input.source' },
];

test('an error inside the second variant of a union maps to that variant’s row, at build time and in the browser alike', async () => {
  const rows = fieldRows(shapeFromJsonSchema(UNION_SCHEMA), { root: 'input' });
  const ids = rows.map((r) => r.id);
  for (const { anchor } of UNION_EXPECTED)
    assert.ok(ids.includes(anchor), `the table has a row ${anchor} (${ids.join(' ')})`);

  // The build: a recorded payload's input against the model-facing schema, with Ajv.
  const build = checkModelInput(UNION_INPUT, UNION_SCHEMA, { root: 'input', rows });
  assert.deepEqual(
    build.map((f) => ({ path: f.pointer, anchor: f.anchor })),
    [
      { path: '/source', anchor: 'input.source:1.path' },
      { path: '/source/depth', anchor: 'input.source:1.depth' },
      { path: '/source/depth', anchor: 'input.source:2.depth' },
      { path: '/source', anchor: 'input.source' },
    ],
  );
  assert.match(build[2]!.message, /must be <= 10/, 'the error of the second member');

  // The browser: the precompiled validator the page loads, and the form's error lines over the page's row ids.
  const code = validatorModule(UNION_SCHEMA);
  const { default: validate } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
    default: ((v: unknown) => boolean) & { errors?: ValidationError[] };
  };
  assert.equal(validate(UNION_INPUT), false);
  const lines = errorLines(validate.errors ?? [], UNION_INPUT, ids, 'input');
  assert.deepEqual(
    lines.map((l) => ({ path: l.path, anchor: l.anchor })),
    UNION_EXPECTED,
  );
  assert.match(lines[2]!.text, /must be <= 10/);
});

test('a discriminated union: the member Ajv reported from picks the variant named by its discriminator value', () => {
  const schema = {
    type: 'object',
    properties: {
      source: {
        oneOf: [
          { type: 'object', properties: { kind: { const: 'cloud' }, limit: { type: 'integer' } }, required: ['kind'] },
          {
            type: 'object',
            properties: { kind: { const: 'local' }, limit: { type: 'integer', minimum: 1 } },
            required: ['kind'],
          },
        ],
      },
    },
  };
  const rows = fieldRows(shapeFromJsonSchema(schema), { root: 'model-input' });
  const anchors = checkModelInput({ source: { kind: 'local', limit: 0 } }, schema, { root: 'model-input', rows }).map(
    (f) => f.anchor,
  );
  assert.deepEqual(anchors, ['model-input.source:cloud.kind', 'model-input.source:local.limit', 'model-input.source']);
});

test('every schema finding of the recorded payloads names a row of the table its input was checked against, or that table', () => {
  let checked = 0;
  for (const tool of real.tools) {
    for (const example of tool.examples ?? []) {
      for (const finding of example.findings) {
        if (finding.kind !== 'schema') continue;
        const callee = real.tools.find((t) => t.agent === tool.agent && t.fullName === finding.tool) ?? tool;
        const target = payloadCheckTarget(callee)!;
        const table = target.section === 'model-input' ? callee.modelInput!.view.rows : callee.input.rows;
        assert.ok(
          finding.anchor === target.section || table.some((r) => r.id === finding.anchor),
          `${tool.agent}/${tool.slug} ${example.scenario}: ${finding.anchor} is not a row of #${target.section}`,
        );
        checked++;
      }
    }
  }
  assert.ok(checked > 0, 'the recorded payloads have schema findings');
});
