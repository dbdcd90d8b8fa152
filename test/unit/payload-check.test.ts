import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldRows, type FieldRow } from '../../src/lib/shapes/field-rows.ts';
import { shapeFromJsonSchema } from '../../src/lib/shapes/json-schema-shape.ts';
import { shapeFromTypeScript } from '../../src/lib/shapes/ts-shape.ts';
import {
  checkAgainstRows,
  checkModelInput,
  checkPayload,
  declarationsOf,
  findingLine,
  isPlaceholder,
  kindsOfType,
  type Declarations,
} from '../../src/lib/check/payload-check.ts';
import type { PayloadFile } from '../../src/lib/core/content-types.ts';
import type { ToolModel } from '../../src/lib/model/model.ts';

const ts = (source: string, type: string, root: 'input' | 'output'): FieldRow[] =>
  fieldRows(shapeFromTypeScript(source, type), { root });

const OUTPUT = ts(
  `export interface Out {
    stdout: string;
    interrupted: boolean;
    backgroundTaskId?: string;
    durationMs?: number;
    mode?: "content" | "files";
    patch: { oldStart: number; lines: string[] }[];
    env?: { [name: string]: string };
  }`,
  'Out',
  'output',
);
const UNION = ts(
  `export type Res = { type: "text"; file: { filePath: string; numLines: number } } | { type: "image"; file: { base64: string } };`,
  'Res',
  'output',
);
const INPUT = ts(
  `export interface In { command: string; timeout?: number; run_in_background?: boolean }`,
  'In',
  'input',
);
const MODEL = {
  type: 'object',
  properties: { command: { type: 'string' }, timeout: { type: 'number' } },
  required: ['command'],
  additionalProperties: false,
};
const MODEL_ROWS = fieldRows(shapeFromJsonSchema(MODEL), { root: 'model-input' });

test('kindsOfType reads the JSON kinds of a row type, and says nothing about unknown or named types', () => {
  assert.deepEqual([...kindsOfType('string | null')!], ['string', 'null']);
  assert.deepEqual([...kindsOfType('"a" | "b"')!], ['string']);
  assert.deepEqual([...kindsOfType('(string | object)[]')!], ['array']);
  assert.deepEqual([...kindsOfType('map of string')!], ['object']);
  assert.deepEqual([...kindsOfType('true | 1')!], ['boolean', 'number']);
  assert.equal(kindsOfType('unknown'), undefined);
  assert.equal(kindsOfType('FileReadOutput'), undefined);
  assert.equal(isPlaceholder('$DURATION'), true);
  assert.equal(isPlaceholder('$ 5'), false);
});

test('a result with an extra field, a missing required field, a wrong type and a value outside the list', () => {
  const problems = checkAgainstRows(
    {
      stdout: 'hi',
      noOutputExpected: false,
      durationMs: '$DURATION',
      mode: 'count',
      patch: [{ oldStart: 1, lines: 'x' }, { lines: [] }],
      env: { A: 'b' },
    },
    OUTPUT,
    'output',
  );
  assert.deepEqual(
    problems.map((p) => [p.kind, p.anchor, p.pointer]),
    [
      ['undeclared', 'output.noOutputExpected', '/noOutputExpected'],
      ['not-listed', 'output.mode', '/mode'],
      ['type', 'output.patch.lines', '/patch/0/lines'],
      ['missing-required', 'output.patch.oldStart', '/patch/1/oldStart'],
      ['missing-required', 'output.interrupted', '/interrupted'],
    ],
  );
  assert.match(problems[0]!.message, /noOutputExpected is in the payload but not declared/);
  assert.match(problems[4]!.message, /interrupted is declared required but absent/);
});

test('a string where an object is declared is one type finding at the root', () => {
  assert.deepEqual(
    checkAgainstRows('Error: Exit code 3', OUTPUT, 'output').map((p) => [p.kind, p.anchor, p.message]),
    [['type', 'output', 'the output is a string in the payload; declared an object']],
  );
  assert.deepEqual(
    checkAgainstRows('Error', UNION, 'output').map((p) => [p.kind, p.anchor, p.message]),
    [['type', 'output', 'the output is a string in the payload; declared an object (one of 2 variants)']],
  );
  assert.deepEqual(checkAgainstRows({ anything: 1 }, [], 'output'), []);
});

test('union variants: the value is checked against the variant it fits best, with that variant in the anchor', () => {
  assert.deepEqual(checkAgainstRows({ type: 'text', file: { filePath: '/a', numLines: 3 } }, UNION, 'output'), []);
  assert.deepEqual(
    checkAgainstRows({ type: 'image', file: { base64: 'AA', dimensions: {} } }, UNION, 'output').map((p) => [
      p.kind,
      p.anchor,
    ]),
    [['undeclared', 'output:image.file.dimensions']],
  );
  assert.deepEqual(
    checkAgainstRows({ type: 'text', file: { filePath: '/a' } }, UNION, 'output').map((p) => [p.kind, p.anchor]),
    [['missing-required', 'output:text.file.numLines']],
  );
});

test('JSON Schema rows: maps by pattern and additionalProperties, arrays of arrays', () => {
  const rows = fieldRows(
    shapeFromJsonSchema({
      type: 'object',
      properties: {
        grid: {
          type: 'array',
          items: { type: 'array', items: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] } },
        },
      },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: false,
    }),
    { root: 'output' },
  );
  assert.deepEqual(
    checkAgainstRows({ grid: [[{ v: 1 }, {}]], 'x-a': 'ok', other: 1 }, rows, 'output').map((p) => [p.kind, p.anchor]),
    [
      ['missing-required', 'output.grid.~5B~5D.v'],
      ['undeclared', 'output.other'],
    ],
  );
});

test('checkModelInput reports Ajv errors by the row of the checked table they are about, and leaves masked values alone', () => {
  const table = { root: 'model-input', rows: MODEL_ROWS };
  assert.deepEqual(checkModelInput({ command: 'ls' }, MODEL, table), []);
  // A missing field has its own row; a field the schema does not allow has none: the table's heading.
  assert.deepEqual(
    checkModelInput({ timeout: 5, extra: true }, MODEL, table)
      .map((e) => e.anchor)
      .sort(),
    ['model-input', 'model-input.command'],
  );
  assert.deepEqual(checkModelInput({ command: 'ls', timeout: '$SESSION_ID' }, MODEL, table), []);
  assert.match(checkModelInput({ command: 1 }, MODEL, table)[0]!.message, /\/command must be string/);
  // The same schema shown as the input table (a captured tool whose input is what the model is sent).
  assert.deepEqual(
    checkModelInput({ command: 1 }, MODEL, { root: 'input', rows: INPUT }).map((e) => e.anchor),
    ['input.command'],
  );
});

const payload = (calls: PayloadFile['calls']): PayloadFile => ({
  agent: 'claude-code',
  cli: { package: 'p', version: '1' },
  tool: 'Bash',
  scenario: 's',
  description: 'd',
  configuration: 'print',
  args: [],
  expect: 'success',
  calls,
});
const DECLARED: Declarations = {
  modelInput: { schema: MODEL, config: 'print', table: { root: 'model-input', rows: MODEL_ROWS } },
  inputRows: INPUT,
  resultRows: OUTPUT,
  resultDeclared: true,
};

test('checkPayload checks the sent input, the hook tool_input and each distinct structured result once', () => {
  const result = { stdout: '', interrupted: false, patch: [], noOutputExpected: false };
  const findings = checkPayload(
    payload([
      {
        tool: 'Bash',
        input: { command: 'sleep 1', run_in_background: true },
        outcome: 'success',
        result: {},
        hooks: [
          {
            hook_event_name: 'PreToolUse',
            tool_name: 'Bash',
            tool_input: { command: 'sleep 1', run_in_background: true, sandbox: false },
          },
          { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: result },
        ],
        toolUseResult: result,
      },
    ]),
    (name) => (name === 'Bash' ? DECLARED : undefined),
  );
  assert.deepEqual(
    findings.map((f) => [f.parts.join('+'), f.kind, f.anchor]),
    [
      ['input', 'schema', 'model-input'],
      ['hook tool_input', 'undeclared', 'input.sandbox'],
      ['tool_use_result+hook tool_response', 'undeclared', 'output.noOutputExpected'],
    ],
  );
  assert.equal(
    findingLine(findings[2]!),
    'call 1 Bash [tool_use_result, hook tool_response] undeclared output.noOutputExpected: noOutputExpected is in the payload but not declared',
  );
});

test('checkPayload: hooks that name the call another tool, tools without declarations, results not declared', () => {
  const call = {
    tool: 'exec_command',
    input: { command: 'ls' },
    outcome: 'success' as const,
    result: {},
    hooks: [
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
      { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: 'x' },
    ],
  };
  const findings = checkPayload(payload([call]), () => DECLARED);
  assert.deepEqual(
    findings.map((f) => f.kind),
    ['hook-tool-name'],
  );
  assert.deepEqual(
    checkPayload(payload([call]), () => undefined),
    [],
  );
  assert.deepEqual(
    checkPayload(payload([{ ...call, tool: 'Bash', toolUseResult: 'Error' }]), () => ({
      ...DECLARED,
      resultDeclared: false,
      resultRows: [],
    })),
    [],
  );
  // A freeform input (a patch) is not validated against a JSON Schema.
  assert.deepEqual(
    checkPayload(payload([{ ...call, tool: 'Bash', input: '*** Begin Patch', hooks: [] }]), () => DECLARED),
    [],
  );
});

test('declarationsOf reads a tool page: SDK rows with the captured schema and the table that shows it', () => {
  const rowsView = (rows: FieldRow[]) => ({
    definition: { kind: 'typescript' as const, typeName: 'T', source: '' },
    rows,
  });
  const bash = {
    agent: 'claude-code',
    fullName: 'Bash',
    input: rowsView(INPUT),
    output: rowsView(OUTPUT),
    modelInput: {
      view: {
        definition: { kind: 'json-schema', schema: MODEL, origin: { package: 'p', version: '1', file: 'f' } },
        rows: MODEL_ROWS,
      },
      config: 'print',
    },
    generated: { aliases: [] },
  } as unknown as ToolModel;
  const d = declarationsOf(bash);
  // The model-facing schema, and the table that shows it: errors name its rows.
  assert.deepEqual(d.modelInput, { schema: MODEL, config: 'print', table: { root: 'model-input', rows: MODEL_ROWS } });
  assert.equal(d.resultDeclared, true);
  assert.equal(d.inputRows, INPUT);
});
