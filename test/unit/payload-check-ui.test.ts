/**
 * "Check a payload": which schema a tool's checker uses, the error lines
 * (which row each links to is error-rows.test.ts), the verdict's words, how a pasted
 * text is read (hook payloads), and the precompiled standalone validators
 * (self-contained ES modules that agree with Ajv itself).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { toolSchema } from '../../src/lib/site/tool-exports.ts';
import { minimalInstance } from '../../src/lib/shapes/minimal-instance.ts';
import {
  DEFAULT_HOOK_FIELDS,
  answer,
  errorLines,
  errorText,
  formDifferences,
  formText,
  LIST_ALL_UP_TO,
  listErrors,
  MAX_LINES,
  nameMatches,
  pathText,
  payloadCheckTarget,
  preview,
  readPayload,
  topLevelFields,
  type CheckSettings,
  type HookForm,
  type Validator,
  type Validators,
} from '../../src/lib/check/payload-check-ui.ts';
import type { ValidationError } from '../../src/lib/check/error-rows.ts';
import type { PayloadCall } from '../../src/lib/core/content-types.ts';
import { formOf, hookRecord } from '../../src/lib/behaviour/hook-record.ts';
import { validatorModule } from '../../src/lib/check/payload-validator.ts';
import { callableNames } from '../../src/lib/model/tool-names.ts';
import { checkedHookRecord } from '../../src/lib/content/tool-facts.ts';
import { agentBundle } from '../../src/lib/model/bundles.ts';
import type { HookShape } from '../../src/lib/agents/hook-shape.ts';
import { realContent } from '../helpers/real-content.ts';
import { atScale, spread } from '../helpers/sweep.ts';

/** The hook shape of the calls this file makes up (not read from any agent's module). */
const SHAPE: HookShape = {
  eventField: 'hook_event_name',
  toolNameField: 'tool_name',
  inputField: 'tool_input',
  inputEncoding: 'object',
  responseField: 'tool_response',
  before: 'PreToolUse',
  after: 'PostToolUse',
};

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;
const real = realContent();

/** A small schema and its validators, with the settings of a page that checks against it (no hook payload recorded). */
const SMALL_SCHEMA = {
  type: 'object',
  properties: { command: { type: 'string' }, timeout: { type: 'number' } },
  required: ['command'],
  additionalProperties: false,
};
const VALIDATORS: Validators = {
  validate: new Ajv2020({ strict: false, allErrors: true }).compile(SMALL_SCHEMA) as Validator,
  validateFirst: new Ajv2020({ strict: false, allErrors: false }).compile(SMALL_SCHEMA) as Validator,
};
const SETTINGS: CheckSettings = {
  rowIds: ['input.command', 'input.timeout'],
  root: 'input',
  names: ['Bash', 'Shell'],
  schemaLabel: 'the input schema of Bash (Agent 1.0)',
  hook: { names: [], count: 0 },
};

const err = (
  instancePath: string,
  keyword = 'type',
  params: Record<string, unknown> = {},
  schemaPath = '#/',
): ValidationError => ({ instancePath, schemaPath, keyword, params });

test('messages say where, what was wanted and what came', () => {
  assert.equal(pathText(['questions', '0', 'options', '1', 'label']), 'questions[0].options[1].label');
  assert.equal(pathText(['env', 'a.b', '-B', 'x_1']), 'env["a.b"]["-B"].x_1');
  const value = { command: 5, mode: 'x' };
  assert.equal(errorText(err('/command', 'type', { type: 'string' }), value), 'must be string, not integer (5)');
  assert.equal(
    errorText(err('/mode', 'type', { type: 'integer,null' }), value),
    'must be integer or null, not string ("x")',
  );
  assert.equal(errorText(err('/mode', 'enum', { allowedValues: ['a', 'b'] }), value), 'must be one of "a", "b"');
  assert.equal(errorText(err('', 'required', { missingProperty: 'command' }), value), 'is required');
  assert.equal(
    errorText(err('', 'additionalProperties', { additionalProperty: 'extra' }), value),
    'is not a field the schema allows',
  );
  assert.equal(
    errorText(
      { ...err('/command', 'minLength', { limit: 1 }), message: 'must NOT have fewer than 1 characters' },
      value,
    ),
    'must NOT have fewer than 1 characters',
  );

  const lines = errorLines(
    [
      err('', 'required', { missingProperty: 'command' }),
      err('/command', 'type', { type: 'string' }),
      err('/command', 'type', { type: 'string' }),
      err('', 'additionalProperties', { additionalProperty: 'extra' }),
      err('', 'type', { type: 'object' }),
    ],
    value,
    ['input.command'],
    'input',
  );
  assert.deepEqual(lines, [
    { path: 'command', text: 'is required', anchor: 'input.command' },
    { path: 'command', text: 'must be string, not integer (5)', anchor: 'input.command' },
    { path: 'extra', text: 'is not a field the schema allows', anchor: 'input' },
    { path: '(the whole input)', text: 'must be object, not object ({"command":5,"mode":"x"})', anchor: 'input' },
  ]);
});

test('a pasted text is JSON, the input itself or a hook payload whose tool_input is checked', () => {
  assert.deepEqual(readPayload('  '), { kind: 'empty' });
  assert.equal(readPayload('{"command": ').kind, 'not-json');
  assert.deepEqual(readPayload('{"command": "ls"}'), { kind: 'input', value: { command: 'ls' } });
  assert.deepEqual(readPayload('[1]'), { kind: 'input', value: [1] });
  assert.deepEqual(readPayload('{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}'), {
    kind: 'hook',
    value: { command: 'ls' },
    envelope: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
    event: 'PreToolUse',
    toolName: 'Bash',
    fields: DEFAULT_HOOK_FIELDS,
  });
  assert.deepEqual(readPayload('{"tool_input": 3}'), {
    kind: 'hook',
    value: 3,
    envelope: { tool_input: 3 },
    fields: DEFAULT_HOOK_FIELDS,
  });
  // Another agent's members, with its input as a JSON text: read through the fields the page gives, and decoded.
  const fields = { event: 'kind', toolName: 'toolName', input: 'toolArgs', inputEncoding: 'json-string' as const };
  assert.deepEqual(readPayload('{"toolName":"view","toolArgs":"{\\"path\\":\\"/x\\"}"}', new Set(), fields), {
    kind: 'hook',
    value: { path: '/x' },
    envelope: { toolName: 'view', toolArgs: '{"path":"/x"}' },
    toolName: 'view',
    fields,
  });
  // An agent with several forms: the first whose input member is there, a nested one by its dotted path (OpenCode's
  // output.args, then input.args).
  const plugin = { toolName: 'input.tool', input: 'output.args', inputEncoding: 'object' as const };
  const after = { ...plugin, input: 'input.args' };
  assert.deepEqual(
    readPayload('{"input":{"tool":"bash","callID":"c"},"output":{"args":{"command":"ls"}}}', new Set(), [
      plugin,
      after,
    ]),
    {
      kind: 'hook',
      value: { command: 'ls' },
      envelope: { input: { tool: 'bash', callID: 'c' }, output: { args: { command: 'ls' } } },
      toolName: 'bash',
      fields: plugin,
    },
  );
  const read = readPayload('{"input":{"tool":"bash","args":{"command":"ls"}},"output":{"output":"x"}}', new Set(), [
    plugin,
    after,
  ]);
  assert.equal(read.kind === 'hook' && read.fields, after);
  // A number out of range inside a nested input is pointed at through its path.
  const far = readPayload('{"input":{"tool":"bash"},"output":{"args":{"n":1e400}}}', new Set(), [plugin, after]);
  assert.equal(far.kind === 'out-of-range' && far.checked, '/output/args');
  // With those fields, a Claude-style payload is an input, not a hook payload.
  assert.equal(readPayload('{"tool_input": 3}', new Set(), fields).kind, 'input');
  // A tool whose own input has a tool_input field: the object is its input.
  assert.deepEqual(readPayload('{"tool_input": {}}', new Set(['tool_input'])), {
    kind: 'input',
    value: { tool_input: {} },
  });
  assert.deepEqual(
    [...topLevelFields(['input.tool_input', 'input.tool_input.x', 'input:1.mode', 'model-input.other'], 'input')],
    ['tool_input', 'mode'],
  );
});

test('a byte-order mark before the JSON is skipped and said; anywhere else it is not JSON', () => {
  for (const text of ['{"command": "ls"}', '{"tool_name":"Bash","tool_input":{"command":"ls"}}', '[1, 2]']) {
    const plain = readPayload(text);
    assert.notEqual(plain.kind, 'not-json');
    assert.deepEqual(readPayload(`\uFEFF${text}`), { ...plain, byteOrderMark: true }, text);
  }
  assert.deepEqual(readPayload('\uFEFF  \n'), { kind: 'empty' });
  assert.equal(readPayload(' \uFEFF{}').kind, 'not-json', 'JSON.parse does not skip a mark after white space');
  assert.equal(readPayload('\uFEFF\uFEFF{}').kind, 'not-json', 'only one mark is skipped');
  const said = answer(readPayload('\uFEFF{"command":"ls"}'), SETTINGS, VALIDATORS, 20);
  assert.equal(said.valid, true);
  assert.ok(
    said.notes.some((n) => /byte-order mark/.test(n)),
    said.notes.join(' | '),
  );
});

test('numbers out of range of a 64-bit float are refused, naming where they are; every finite number passes', () => {
  // The reference: what Number() makes of the literal, independently of the scan.
  const literals = [
    '1e400',
    '-1e400',
    '1.7976931348623157e308',
    '1.8e308',
    '99e307',
    '0.0001e312',
    `1${'0'.repeat(308)}`,
    `1${'0'.repeat(309)}`,
    `1${'0'.repeat(250)}e60`,
    `0.${'0'.repeat(300)}1e400`,
    '1e-400',
    '123456789',
    '1E+0400',
  ];
  for (const literal of literals) {
    const finite = Number.isFinite(Number(literal));
    const read = readPayload(`{"a":{"n/~":${literal}},"b":"1e400"}`);
    if (finite) assert.equal(read.kind, 'input', literal);
    else
      assert.deepEqual(
        read,
        { kind: 'out-of-range', places: [{ pointer: '/a/n~1~0', value: Number(literal) }], total: 1, checked: '' },
        literal,
      );
  }
  // In a hook payload the line links to the row of the tool_input field; outside it, to the table.
  const hook = readPayload('{"tool_name":"Bash","timeout":2e400,"tool_input":{"command":"ls","timeout":1e999}}');
  assert.deepEqual(hook, {
    kind: 'out-of-range',
    places: [
      { pointer: '/timeout', value: Infinity },
      { pointer: '/tool_input/timeout', value: Infinity },
    ],
    total: 2,
    checked: '/tool_input',
  });
  const said = answer(hook, SETTINGS, undefined, 0);
  assert.equal(said.valid, false);
  assert.match(
    said.headline,
    /^Not valid: 2 numbers in it are too large for a 64-bit float \(JSON\.parse reads them as Infinity\), so it was not checked/,
  );
  assert.deepEqual(
    said.lines.map((l) => [l.path, l.anchor]),
    [
      ['timeout', 'input'],
      ['tool_input.timeout', 'input.timeout'],
    ],
  );
  assert.match(said.lines[1]!.text, /reads it as Infinity/);
  assert.match(answer(readPayload('[-1e400]'), SETTINGS, undefined, 0).lines[0]!.text, /reads it as -Infinity/);
  // Many: all counted, at most MAX_LINES listed.
  const many = readPayload(`[${Array.from({ length: MAX_LINES + 7 }, () => '1e999').join(',')}]`);
  assert.equal(many.kind === 'out-of-range' && many.places.length, MAX_LINES);
  assert.equal(many.kind === 'out-of-range' && many.total, MAX_LINES + 7);
});

test('a value is quoted in part, as JSON.stringify writes its start', () => {
  // The reference: JSON.stringify, cut after 39 characters.
  const reference = (v: unknown) => {
    const text = JSON.stringify(v);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  };
  const big = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
  for (const v of [
    5,
    'x',
    null,
    true,
    [],
    {},
    [1, [2, { a: 'b' }]],
    { a: 1, 'b"c': [null] },
    'é'.repeat(50),
    `"${'\\'.repeat(30)}"`,
    { [`${'k'.repeat(100)}`]: 1 },
    big,
    Array.from({ length: 100_000 }, () => 'x'),
  ]) {
    assert.equal(preview(v), reference(v), reference(v));
  }
});

test('a long error list is counted in full but only its first MAX_LINES lines are worded and mapped', () => {
  const schema = {
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
    additionalProperties: false,
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  const keys = Array.from({ length: 70_000 }, (_, i) => `field_${i}`);
  const value = { command: 'ls', ...Object.fromEntries(keys.map((k) => [k, 1])) };
  assert.equal(validate(value), false);
  const errors = validate.errors as ValidationError[];
  const { lines, total } = listErrors(errors, value, ['model-input.command'], 'model-input');
  assert.equal(total, keys.length);
  assert.equal(lines.length, MAX_LINES);
  assert.deepEqual(lines, errorLines(errors.slice(0, MAX_LINES), value, ['model-input.command'], 'model-input'));
  assert.deepEqual(lines[0], { path: 'field_0', text: 'is not a field the schema allows', anchor: 'model-input' });
  // A megabyte-long key is shown cut.
  const long = listErrors(
    [err('', 'additionalProperties', { additionalProperty: 'x'.repeat(1_000_000) })],
    {},
    [],
    'input',
  ).lines[0]!;
  assert.ok(long.path.length < 100, `${long.path.length} characters`);
});

test('past LIST_ALL_UP_TO characters the check stops at the first error (validateFirst), and says so', () => {
  const schema = {
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
    additionalProperties: false,
  };
  const every = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  const first = new Ajv2020({ strict: false, allErrors: false }).compile(schema);
  const calls = { every: 0, first: 0 };
  const counting = (fn: typeof every, key: keyof typeof calls): Validator => {
    const wrapped = ((v: unknown) => {
      calls[key]++;
      return fn(v);
    }) as Validator;
    Object.defineProperty(wrapped, 'errors', { get: () => fn.errors });
    return wrapped;
  };
  const counted: Validators = { validate: counting(every, 'every'), validateFirst: counting(first, 'first') };
  const text = JSON.stringify({
    command: 'ls',
    ...Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`unexpected_${i}`, i])),
  });
  assert.ok(text.length > LIST_ALL_UP_TO, `${text.length} characters`);
  const big = answer(readPayload(text), SETTINGS, counted, text.length);
  assert.deepEqual(calls, { every: 0, first: 1 });
  assert.equal(big.valid, false);
  assert.equal(big.total, undefined);
  assert.match(big.headline, /: stopped at the first error\.$/);
  assert.deepEqual(big.lines, [{ path: 'unexpected_0', text: 'is not a field the schema allows', anchor: 'input' }]);
  assert.ok(
    big.notes.some((n) => n.includes(`${(text.length / 1e6).toFixed(1)} MB`)),
    big.notes.join(' | '),
  );
  calls.every = calls.first = 0;
  const small = '{"command": 5, "x": 1}';
  const all = answer(readPayload(small), SETTINGS, counted, small.length);
  assert.deepEqual(calls, { every: 1, first: 0 });
  assert.equal(all.total, 2);
  assert.match(all.headline, /: 2 errors\.$/);
});

test('the verdict names the schema, counts errors and says when only tool_input was checked', () => {
  const label = SETTINGS.schemaLabel;
  assert.deepEqual(answer({ kind: 'input', value: { command: 'ls' } }, SETTINGS, VALIDATORS, 10), {
    valid: true,
    headline: `Valid against ${label}.`,
    notes: [],
    lines: [],
    total: 0,
  });
  assert.equal(
    answer({ kind: 'input', value: { command: 5, x: 1 } }, SETTINGS, VALIDATORS, 10).headline,
    `Not valid against ${label}: 2 errors.`,
  );
  assert.equal(
    answer({ kind: 'not-json', message: 'Unexpected end' }, SETTINGS, undefined, 10).headline,
    'Not JSON: Unexpected end',
  );
  const hook = answer(
    { kind: 'hook', envelope: {}, value: { command: 'ls' }, event: 'PreToolUse', toolName: 'Bash' },
    SETTINGS,
    VALIDATORS,
    10,
  );
  assert.equal(hook.valid, true);
  assert.equal(hook.headline, `Valid against ${label}.`);
  assert.ok(
    hook.notes[0]!.startsWith('This is a PreToolUse hook payload with tool_name Bash: only its tool_input was checked'),
    hook.notes[0],
  );
  assert.match(hook.notes[1]!, /no recorded hook payload of Bash/);
  // An alias is a name the tool answers to.
  assert.equal(
    answer({ kind: 'hook', envelope: {}, value: { command: 'ls' }, toolName: 'Shell' }, SETTINGS, VALIDATORS, 10).valid,
    true,
  );
});

test('a hook payload whose tool_name names another tool fails, naming both names', () => {
  const other = answer(
    { kind: 'hook', envelope: {}, value: { file_path: '/x' }, event: 'PreToolUse', toolName: 'Read' },
    SETTINGS,
    VALIDATORS,
    10,
  );
  assert.equal(other.valid, false);
  assert.equal(other.headline, 'Not a hook payload of Bash: its tool_name is Read, not Bash or Shell.');
  assert.ok(
    other.notes.some((n) =>
      n.startsWith(`Its tool_input was checked against ${SETTINGS.schemaLabel} anyway: 2 errors`),
    ),
    other.notes.join(' | '),
  );
  // Even when the tool_input itself would pass.
  assert.equal(
    answer({ kind: 'hook', envelope: {}, value: { command: 'ls' }, toolName: 'Read' }, SETTINGS, VALIDATORS, 10).valid,
    false,
  );
  // A family of tools (a name with placeholders) answers to every name of its pattern.
  const family = { ...SETTINGS, names: ['mcp__<server>__<tool>'] };
  assert.equal(nameMatches(family.names, 'mcp__github__create_issue'), true);
  assert.equal(nameMatches(family.names, 'mcp__github'), false);
  assert.equal(nameMatches(family.names, 'xmcp__a__b'), false);
  assert.equal(nameMatches(['a.b'], 'aXb'), false, 'a dot is a dot');
  assert.equal(
    answer({ kind: 'hook', envelope: {}, value: { command: 'ls' }, toolName: 'mcp__github__x' }, family, VALIDATORS, 10)
      .valid,
    true,
  );
  // Names recorded for the hooks count too, and are named when another one comes.
  const renamed = { ...SETTINGS, names: ['exec_command'], hook: { names: ['Bash'], count: 2, release: 'Agent 1.0' } };
  assert.equal(
    answer({ kind: 'hook', envelope: {}, value: { command: 'ls' }, toolName: 'Bash' }, renamed, VALIDATORS, 10).valid,
    true,
  );
  assert.equal(
    answer({ kind: 'hook', envelope: {}, value: { command: 'ls' }, toolName: 'Read' }, renamed, VALIDATORS, 10)
      .headline,
    'Not a hook payload of exec_command: its tool_name is Read, and the 2 hook payloads recorded for exec_command (Agent 1.0) name it Bash.',
  );
});

test('hook payloads: what was recorded decides whether the tool_input is the model’s input', () => {
  const schema = {
    type: 'object',
    properties: { cmd: { type: 'string' }, tty: { type: 'boolean' }, replace_all: { type: 'boolean' } },
    required: ['cmd'],
    additionalProperties: false,
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  const problems = (v: unknown) =>
    validate(v) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  const call = (input: Record<string, unknown>, ...toolInputs: unknown[]) =>
    ({
      tool: 't',
      input,
      outcome: 'success',
      hooks: toolInputs.map((tool_input, i) => ({
        hook_event_name: i === 0 ? 'PreToolUse' : 'PostToolUse',
        tool_name: 'T',
        tool_input,
      })),
    }) as PayloadCall;
  // The same input, in another key order, or with a default filled in: the model's input.
  assert.deepEqual(
    hookRecord(
      [call({ cmd: 'ls', tty: true }, { tty: true, cmd: 'ls' }, { cmd: 'ls', tty: true, replace_all: false })],
      SHAPE,
      problems,
      'A 1',
    ),
    { names: ['T'], count: 2, release: 'A 1' },
  );
  // A call whose own input fails the schema the same way: still the model's input.
  assert.equal(hookRecord([call({ cmd: 5 }, { cmd: 5, tty: false })], SHAPE, problems).form, undefined);
  // Fields of its own: the recorded form, with masked values left untyped.
  const own = hookRecord(
    [call({ cmd: 'ls', tty: true }, { command: 'ls' }), call({ cmd: 'pwd' }, { command: '$WORKDIR', cwd: '/x' })],
    SHAPE,
    problems,
  );
  assert.deepEqual(own.form, {
    types: ['object'],
    fields: [
      { name: 'command', types: ['string'], always: true },
      { name: 'cwd', types: ['string'], always: false },
    ],
  });
  assert.equal(formText(own.form!), 'an object with command (string) and cwd (string, not always)');
  assert.deepEqual(formOf([{ n: '$PID' }, 'text', { n: 1.5 }]), {
    types: ['object', 'string'],
    fields: [{ name: 'n', types: ['number'], always: true }],
  });
  assert.deepEqual(hookRecord([call({ cmd: 'ls' })], SHAPE, problems), { names: [], count: 0 });
  // An input that arrives as a JSON text (Copilot CLI's toolArgs) is decoded first: the model's input, not a string.
  const textShape = {
    ...SHAPE,
    toolNameField: 'toolName',
    inputField: 'toolArgs',
    inputEncoding: 'json-string' as const,
  };
  const texts = {
    tool: 't',
    input: { cmd: 'ls' },
    outcome: 'success',
    hooks: [{ hook_event_name: 'preToolUse', toolName: 't', toolArgs: '{"cmd":"ls"}' }],
  } as PayloadCall;
  assert.deepEqual(hookRecord([texts], textShape, problems), { names: ['t'], count: 1 });
});

test('a hook payload of a tool whose hooks get their own tool_input is compared with the recorded form, not the schema', () => {
  const form: HookForm = { types: ['object'], fields: [{ name: 'command', types: ['string'], always: true }] };
  const settings: CheckSettings = {
    ...SETTINGS,
    names: ['exec_command'],
    hook: { names: ['Bash'], count: 6, release: 'Agent 1.0', form },
    examples: 'examples',
  };
  const untouched: Validators = {
    validate: (() => assert.fail('the schema is not used')) as Validator,
    validateFirst: (() => assert.fail('the schema is not used')) as Validator,
  };
  const ok = answer(
    { kind: 'hook', envelope: {}, value: { command: 'ls' }, event: 'PreToolUse', toolName: 'Bash' },
    settings,
    untouched,
    10,
  );
  assert.equal(ok.valid, true);
  assert.equal(ok.headline, 'Matches the hook form recorded for exec_command (tool_name Bash).');
  assert.match(
    ok.notes[0]!,
    /exec_command's hooks do not receive the model's input: the 6 hook payloads recorded for exec_command \(Agent 1\.0\) carry tool_name Bash and a tool_input of their own, an object with command \(string\)\. Its tool_input was compared with those, field by field, not checked against/,
  );
  const model = answer({ kind: 'hook', envelope: {}, value: { cmd: 'ls' }, toolName: 'Bash' }, settings, untouched, 10);
  assert.equal(model.valid, false);
  assert.equal(model.headline, 'Does not match the hook form recorded for exec_command: 2 differences.');
  assert.deepEqual(model.lines, [
    { path: 'cmd', text: 'is a field no recorded hook input has', anchor: 'examples' },
    { path: 'command', text: 'is required: every recorded hook input has it', anchor: 'examples' },
  ]);
  assert.deepEqual(formDifferences({ command: 5 }, form, 'x').lines, [
    { path: 'command', text: 'must be string, as recorded, not integer (5)', anchor: 'x' },
  ]);
  assert.match(
    formDifferences('ls', form, 'x').lines[0]!.text,
    /^is a string \("ls"\); the recorded ones are an object with command/,
  );
  const wrongName = answer(
    { kind: 'hook', envelope: {}, value: { command: 'ls' }, toolName: 'Read' },
    settings,
    untouched,
    10,
  );
  assert.equal(wrongName.valid, false);
  assert.match(wrongName.headline, /^Not a hook payload of exec_command: its tool_name is Read/);
  assert.ok(wrongName.notes.includes('Compared with the recorded hook form anyway: it matches.'));
  const single = answer(
    { kind: 'hook', envelope: {}, value: { command: 'ls' } },
    { ...settings, hook: { ...settings.hook, count: 1 } },
    untouched,
    10,
  );
  assert.match(
    single.notes[0]!,
    /the 1 hook payload recorded for exec_command \(Agent 1\.0\) carries tool_name Bash and a tool_input of its own/,
  );
});

test('the real recorded hook payloads pass the checker of their tool’s page', () => {
  // Every recorded PreToolUse payload of a tool with a checker, against that page's own record and schema.
  let checked = 0;
  let ownForm = 0;
  for (const tool of real.tools) {
    const target = payloadCheckTarget(tool);
    if (!target || !(tool.examples ?? []).length) continue;
    const hook = checkedHookRecord(tool, target, agentBundle(real, tool.agent));
    const schema = toolSchema(tool, target.section, {})!;
    const every = new Ajv2020({ strict: false, allErrors: true });
    addFormats(every);
    const validate = every.compile(schema) as Validator;
    const rows = (target.section === 'model-input' ? tool.modelInput!.view.rows : tool.input.rows).map((r) => r.id);
    const settings: CheckSettings = {
      rowIds: rows,
      root: target.section,
      names: callableNames(tool),
      schemaLabel: 'its schema',
      hook,
    };
    for (const example of tool.examples ?? []) {
      for (const call of example.calls.filter((c) => c.own)) {
        const pre = call.hooks.find((h) => h.hook_event_name === 'PreToolUse');
        // Calls whose own input the schema rejects (scenarios of failures), or masks, say nothing here.
        if (!pre || !('tool_input' in pre) || !validate(call.input) || JSON.stringify(pre['tool_input']).includes('"$'))
          continue;
        const said = answer(readPayload(JSON.stringify(pre)), settings, { validate, validateFirst: validate }, 0);
        assert.equal(
          said.valid,
          true,
          `${tool.agent}/${tool.slug} ${example.scenario}: ${said.headline} ${said.lines.map((l) => `${l.path} ${l.text}`).join('; ')}`,
        );
        checked++;
        if (hook.form) ownForm++;
      }
    }
  }
  assert.ok(checked > 10, `${checked} payloads`);
  assert.ok(ownForm > 0, 'some tool’s hooks get a tool_input of their own');
});

test('the checker uses the model-facing schema where there is one, else the input’s; grammars get none', () => {
  const tool = (agent: string, slug: string) => real.tools.find((t) => t.agent === agent && t.slug === slug)!;
  assert.deepEqual(payloadCheckTarget(tool('claude-code', 'bash')), {
    section: 'model-input',
    schemaFile: 'model-input.schema.json',
    validatorFile: 'validate-model-input.js',
  });
  assert.deepEqual(payloadCheckTarget(tool('codex', 'exec_command')), {
    section: 'input',
    schemaFile: 'input.schema.json',
    validatorFile: 'validate-input.js',
  });
  const freeform = real.tools.find((t) => t.input.definition.kind === 'grammar' && !t.modelInput)!;
  assert.equal(payloadCheckTarget(freeform), undefined);
});

test('precompiled validators are self-contained ES modules that agree with Ajv, with every error and stopping at the first (a spread; every one in the sweep)', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const firstOnly = new Ajv2020({ strict: false, allErrors: false });
  addFormats(firstOnly);
  const sizes: number[] = [];
  const withChecker = real.tools.filter((tool) => payloadCheckTarget(tool));
  assert.ok(withChecker.length > 200, `${withChecker.length} validators`);
  for (const tool of atScale(withChecker, spread(withChecker, 4))) {
    const target = payloadCheckTarget(tool);
    if (!target) continue;
    const schema = toolSchema(tool, target.section, {})!;
    const code = validatorModule(schema, { banner: ['test'] });
    assert.doesNotMatch(code, /\brequire\(/, `${tool.agent}/${tool.slug} needs nothing else`);
    sizes.push(code.length);
    type Compiled = ((v: unknown) => boolean) & { errors?: unknown };
    const module = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      default: Compiled;
      validate: Compiled;
      validateFirst: Compiled;
    };
    assert.equal(module.default, module.validate);
    const reference = ajv.compile(schema);
    const referenceFirst = firstOnly.compile(schema);
    for (const value of [
      minimalInstance(schema),
      {},
      42,
      null,
      { unknown: [1] },
      {
        unknown: 1,
        other: 2,
        [Object.keys((schema.properties as object | undefined) ?? {})[0] ?? 'x']: { wrong: true },
      },
    ]) {
      const { validate, validateFirst } = module;
      assert.equal(validate(value), reference(value), `${tool.agent}/${tool.slug} on ${JSON.stringify(value)}`);
      assert.deepEqual(
        validate.errors ?? null,
        reference.errors ?? null,
        `${tool.agent}/${tool.slug}: the same errors on ${JSON.stringify(value)}`,
      );
      assert.equal(
        validateFirst(value),
        referenceFirst(value),
        `${tool.agent}/${tool.slug} (first error) on ${JSON.stringify(value)}`,
      );
      assert.deepEqual(
        validateFirst.errors ?? null,
        referenceFirst.errors ?? null,
        `${tool.agent}/${tool.slug}: the same first error on ${JSON.stringify(value)}`,
      );
    }
    ajv.removeSchema(schema.$id as string);
    firstOnly.removeSchema(schema.$id as string);
  }
  assert.ok(sizes.length >= withChecker.length / 4, `${sizes.length} validators checked`);
});

test('formats are checked as ajv-formats checks them (WebFetch’s url is a uri)', async () => {
  const tool = real.tools.find((t) => t.agent === 'claude-code' && t.slug === 'webfetch')!;
  const schema = toolSchema(tool, 'model-input', {})!;
  const code = validatorModule(schema);
  const { validate } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
    validate: (v: unknown) => boolean;
  };
  assert.equal(validate({ url: 'http://127.0.0.1/page', prompt: 'x' }), true);
  assert.equal(validate({ url: 'not a url', prompt: 'x' }), false);
  // A schema without formats does not carry ajv-formats.
  assert.doesNotMatch(validatorModule({ type: 'string', minLength: 1 }), /ajvFormats/);
  assert.match(validatorModule({ type: 'string', minLength: 1 }), /const ucs2length = /);
});
