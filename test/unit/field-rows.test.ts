import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shapeFromTypeScript, TypeScriptDefinitionError } from '../../src/lib/shapes/ts-shape.ts';
import { shapeFromJsonSchema } from '../../src/lib/shapes/json-schema-shape.ts';
import { diffRows, duplicateIds, fieldRows, type FieldRow } from '../../src/lib/shapes/field-rows.ts';

const rowsOf = (source: string, type: string, root: 'input' | 'output' = 'input'): FieldRow[] =>
  fieldRows(shapeFromTypeScript(source, type), { root });
const byId = (rows: FieldRow[]) => new Map(rows.map((r) => [r.id, r]));

test('properties keep requiredness, JSDoc meaning, literal unions and nullability', () => {
  const rows = byId(
    rowsOf(
      `export interface T {
        /** The path */
        file_path: string;
        /** How hard */
        effort?: "low" | "high";
        parent: string | null;
        /** Deprecated; ignored. */
        team_name?: string;
        /** @deprecated use other */
        old?: number;
      }`,
      'T',
    ),
  );
  assert.deepEqual(
    [...rows.keys()],
    ['input.file_path', 'input.effort', 'input.parent', 'input.team_name', 'input.old'],
  );
  assert.equal(rows.get('input.file_path')!.required, true);
  assert.equal(rows.get('input.file_path')!.description, 'The path');
  assert.equal(rows.get('input.effort')!.required, false);
  assert.deepEqual(rows.get('input.effort')!.literals, ['low', 'high']);
  assert.equal(rows.get('input.parent')!.type, 'string | null');
  assert.equal(rows.get('input.parent')!.nullable, true);
  assert.equal(rows.get('input.team_name')!.deprecated, true);
  assert.equal(rows.get('input.old')!.deprecated, true);
  assert.equal(rows.get('input.file_path')!.deprecated, false);
});

test('nested objects and arrays of objects list their fields by path', () => {
  const rows = rowsOf(
    `export interface Out {
      structuredPatch: { oldStart: number; lines: string[] }[];
      gitDiff?: { status: "modified" | "added"; repository?: string | null };
    }`,
    'Out',
    'output',
  );
  assert.deepEqual(
    rows.map((r) => [r.id, r.path, r.label, r.depth]),
    [
      ['output.structuredPatch', 'structuredPatch', 'structuredPatch', 0],
      ['output.structuredPatch.oldStart', 'structuredPatch[].oldStart', '[].oldStart', 1],
      ['output.structuredPatch.lines', 'structuredPatch[].lines', '[].lines', 1],
      ['output.gitDiff', 'gitDiff', 'gitDiff', 0],
      ['output.gitDiff.status', 'gitDiff.status', '.status', 1],
      ['output.gitDiff.repository', 'gitDiff.repository', '.repository', 1],
    ],
  );
  assert.equal(rows[0]!.type, 'object[]');
});

test('a union of objects is split into variants labelled by their discriminator', () => {
  const rows = rowsOf(
    `export type R =
      | { status: "completed"; agentId: string; content: { type: "text"; text: string }[] }
      | { status: "async_launched"; agentId: string; outputFile: string };`,
    'R',
    'output',
  );
  const ids = rows.map((r) => r.id);
  assert.deepEqual(ids, [
    'output:completed',
    'output:completed.status',
    'output:completed.agentId',
    'output:completed.content',
    'output:completed.content.type',
    'output:completed.content.text',
    'output:async_launched',
    'output:async_launched.status',
    'output:async_launched.agentId',
    'output:async_launched.outputFile',
  ]);
  assert.equal(rows[0]!.role, 'variant');
  assert.equal(rows[0]!.label, 'status: "completed"');
  assert.equal(rows[0]!.required, null);
  assert.deepEqual(duplicateIds(rows), []);
});

test('a union without a discriminator numbers its variants, and labels those it can tell apart by what only they have', () => {
  const rows = rowsOf(
    `export type M = string | { type: string; [k: string]: unknown }[] | { [k: string]: unknown };`,
    'M',
    'output',
  );
  assert.deepEqual(
    rows.map((r) => r.id),
    ['output:1', 'output:2', 'output:2.type', 'output:2.*', 'output:3', 'output:3.*'],
  );
  assert.deepEqual(
    rows.filter((r) => r.role === 'variant').map((r) => r.label),
    ['string', 'object[]', 'map of unknown'],
  );
});

test('index signatures become a map-value row; other keys are allowed', () => {
  const rows = byId(rowsOf(`export interface A { answers?: { [k: string]: string }; [k: string]: unknown }`, 'A'));
  assert.equal(rows.get('input.answers')!.type, 'map of string');
  assert.equal(rows.get('input.answers.*')!.type, 'string');
  assert.equal(rows.get('input.*')!.label, '[k: string]');
});

test('tuple expansions of minItems/maxItems fold back into one array with bounds', () => {
  const rows = byId(
    rowsOf(
      `export interface Q {
        /**
         * @minItems 1
         * @maxItems 3
         */
        questions: [{ q: string }] | [{ q: string }, { q: string }] | [{ q: string }, { q: string }, { q: string }];
        paths?: [string, ...string[]];
      }`,
      'Q',
    ),
  );
  assert.equal(rows.get('input.questions')!.type, 'object[]');
  assert.deepEqual(rows.get('input.questions')!.constraints, ['min items: 1', 'max items: 3']);
  assert.equal(rows.get('input.questions.q')!.path, 'questions[].q');
  assert.equal(rows.get('input.paths')!.type, 'string[]');
  assert.deepEqual(rows.get('input.paths')!.constraints, ['min items: 1']);
});

test('references to other declarations are expanded; recursion stops at a ref', () => {
  const rows = byId(
    rowsOf(
      `export interface Node { name: string; child?: Node; meta: Meta }
       export type Meta = { size: number };`,
      'Node',
    ),
  );
  assert.equal(rows.get('input.child')!.type, 'Node', 'the recursive reference is named, not expanded again');
  assert.equal(rows.has('input.child.name'), false);
  assert.equal(rows.get('input.meta.size')!.type, 'number');
});

test('field names that need escaping get distinct, URL-safe ids', () => {
  const rows = rowsOf(`export interface G { "-B"?: number; "a.b": string; a: { b: string } }`, 'G');
  assert.deepEqual(
    rows.map((r) => r.id),
    ['input.-B', 'input.a~2Eb', 'input.a', 'input.a.b'],
  );
  assert.deepEqual(duplicateIds(rows), []);
});

test('unreadable declarations fail with the place and the reason', () => {
  assert.throws(
    () => shapeFromTypeScript('export interface X { a: string', 'X', 'x.d.ts'),
    (e: Error) => e instanceof TypeScriptDefinitionError && /x\.d\.ts:1:\d+/.test(e.message),
  );
  assert.throws(
    () => shapeFromTypeScript('export interface X { a: Missing }', 'X'),
    /X\.a: type Missing is not declared/,
  );
  assert.throws(() => shapeFromTypeScript('export interface X { a: string }', 'Y'), /type Y is not declared/);
});

test('line comments above a member are its meaning when there is no JSDoc', () => {
  const rows = byId(
    rowsOf(
      `type A = {\n  // Shell command to execute.\n  cmd: string;\n  // Output budget.\n  // Defaults to 10000.\n  max?: number;\n  plain: boolean;\n};`,
      'A',
    ),
  );
  assert.equal(rows.get('input.cmd')!.description, 'Shell command to execute.');
  assert.equal(rows.get('input.max')!.description, 'Output budget.\nDefaults to 10000.');
  assert.equal(rows.get('input.plain')!.description, undefined);
});

test('diffRows lists fields present in only one definition, and requiredness and type changes', async () => {
  const { diffRows } = await import('../../src/lib/shapes/field-rows.ts');
  const sdk = rowsOf(
    `export interface A { description: string; prompt: string; name?: string; mode?: "a" | "b"; n: number }`,
    'A',
  );
  const model = fieldRows(
    shapeFromTypeScript(`export interface B { description: string; prompt?: string; n: string; extra?: boolean }`, 'B'),
    { root: 'model-input' },
  );
  assert.deepEqual(diffRows(sdk, model), [
    { path: 'extra', kind: 'only-in-second' },
    { path: 'mode', kind: 'only-in-first' },
    { path: 'n', kind: 'type', first: 'number', second: 'string' },
    { path: 'name', kind: 'only-in-first' },
    { path: 'prompt', kind: 'required', first: 'required', second: 'optional' },
  ]);
});

test('the field key drops variant and branch keys and keeps positions and patterns', async () => {
  const rows = fieldRows(
    shapeFromJsonSchema({
      type: 'object',
      properties: {
        env: {
          type: 'object',
          patternProperties: { '^x-': { type: 'string' } },
          additionalProperties: { type: 'number' },
        },
        range: { type: 'array', prefixItems: [{ type: 'object', properties: { lo: { type: 'number' } } }] },
        v: {
          oneOf: [
            { type: 'object', properties: { k: { const: 1 }, a: { type: 'string' } }, required: ['k'] },
            { type: 'object', properties: { k: { const: 'z' } }, required: ['k'] },
          ],
        },
      },
      if: { properties: { env: { type: 'object' } } },
      then: { properties: { extra: { type: 'string' } } },
    }),
    { root: 'model-input' },
  );
  assert.deepEqual(
    rows.map((r) => [r.id, r.fieldKey]),
    [
      ['model-input.env', 'env'],
      ['model-input.env.*~5Ex-', 'env./^x-/'],
      ['model-input.env.*', 'env.*'],
      ['model-input.range', 'range'],
      ['model-input.range@0', 'range[0]'],
      ['model-input.range@0.lo', 'range[0].lo'],
      ['model-input.v', 'v'],
      ['model-input.v:!1', 'v'],
      ['model-input.v:!1.k', 'v.k'],
      ['model-input.v:!1.a', 'v.a'],
      ['model-input.v:z', 'v'],
      ['model-input.v:z.k', 'v.k'],
      ['model-input:!then', ''],
      ['model-input:!then.extra', 'extra'],
    ],
  );
});

test('diffRows compares tuple positions too', () => {
  const a = rowsOf(`export interface A { range: [number, number] }`, 'A');
  const b = fieldRows(shapeFromTypeScript(`export interface B { range: [number, string] }`, 'B'), {
    root: 'model-input',
  });
  assert.deepEqual(diffRows(a, b), [
    { path: 'range', kind: 'type', first: '[number, number]', second: '[number, string]' },
    { path: 'range[1]', kind: 'type', first: 'number', second: 'string' },
  ]);
});

test('every committed tool definition still gives rows with unique ids', () => {
  const dir = join(import.meta.dirname, '../../content/tools');
  let checked = 0;
  for (const agent of readdirSync(dir)) {
    for (const file of readdirSync(join(dir, agent)).filter((f) => f.endsWith('.json'))) {
      const tool = JSON.parse(readFileSync(join(dir, agent, file), 'utf8'));
      for (const root of ['input', 'output'] as const) {
        const def = tool[root];
        const shape =
          def.kind === 'typescript'
            ? shapeFromTypeScript(def.source, def.typeName)
            : def.kind === 'json-schema'
              ? shapeFromJsonSchema(def.schema)
              : undefined;
        if (!shape) continue;
        assert.deepEqual(duplicateIds(fieldRows(shape, { root })), [], `${agent}/${file} ${root}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 0);
});
