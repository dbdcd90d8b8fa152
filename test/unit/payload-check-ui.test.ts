/**
 * "Check a payload": which schema a tool's checker uses, the error lines
 * (which row each links to is error-rows.test.ts), the verdict's words, how a pasted
 * text is read (hook payloads), and the precompiled standalone validators
 * (self-contained ES modules that agree with Ajv itself).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadContent } from '../../src/lib/content/load.ts';
import { toolSchema } from '../../src/lib/exports/tool-exports.ts';
import { minimalInstance } from '../../src/lib/minimal-instance.ts';
import { errorLines, errorText, pathText, payloadCheckTarget, readPayload, topLevelFields, verdict } from '../../src/lib/payload-check-ui.ts';
import type { ValidationError } from '../../src/lib/error-rows.ts';
import { validatorModule } from '../../src/lib/payload-validator.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;
const ROOT = join(import.meta.dirname, '../..');
const real = loadContent({ root: ROOT });

const err = (instancePath: string, keyword = 'type', params: Record<string, unknown> = {}, schemaPath = '#/'): ValidationError => ({ instancePath, schemaPath, keyword, params });

test('messages say where, what was wanted and what came', () => {
  assert.equal(pathText(['questions', '0', 'options', '1', 'label']), 'questions[0].options[1].label');
  assert.equal(pathText(['env', 'a.b', '-B', 'x_1']), 'env["a.b"]["-B"].x_1');
  const value = { command: 5, mode: 'x' };
  assert.equal(errorText(err('/command', 'type', { type: 'string' }), value), 'must be string, not integer (5)');
  assert.equal(errorText(err('/mode', 'type', { type: 'integer,null' }), value), 'must be integer or null, not string ("x")');
  assert.equal(errorText(err('/mode', 'enum', { allowedValues: ['a', 'b'] }), value), 'must be one of "a", "b"');
  assert.equal(errorText(err('', 'required', { missingProperty: 'command' }), value), 'is required');
  assert.equal(errorText(err('', 'additionalProperties', { additionalProperty: 'extra' }), value), 'is not a field the schema allows');
  assert.equal(errorText({ ...err('/command', 'minLength', { limit: 1 }), message: 'must NOT have fewer than 1 characters' }, value), 'must NOT have fewer than 1 characters');

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
    event: 'PreToolUse',
    toolName: 'Bash',
  });
  assert.deepEqual(readPayload('{"tool_input": 3}'), { kind: 'hook', value: 3 });
  // A tool whose own input has a tool_input field: the object is its input.
  assert.deepEqual(readPayload('{"tool_input": {}}', new Set(['tool_input'])), { kind: 'input', value: { tool_input: {} } });
  assert.deepEqual([...topLevelFields(['input.tool_input', 'input.tool_input.x', 'input:1.mode', 'model-input.other'], 'input')], ['tool_input', 'mode']);
});

test('the verdict names the schema, counts errors and says when only tool_input was checked', () => {
  const label = 'the model-facing schema of Bash (Claude Code 2.1.332)';
  assert.deepEqual(verdict({ kind: 'input', value: {} }, { valid: true, errorCount: 0 }, label, ['Bash']), {
    valid: true,
    headline: `Valid against ${label}.`,
    notes: [],
  });
  assert.equal(verdict({ kind: 'input', value: {} }, { valid: false, errorCount: 2 }, label, ['Bash']).headline, `Not valid against ${label}: 2 errors.`);
  assert.equal(verdict({ kind: 'not-json', message: 'Unexpected end' }, undefined, label, ['Bash']).headline, 'Not JSON: Unexpected end');
  const hook = verdict({ kind: 'hook', value: {}, event: 'PreToolUse', toolName: 'Read' }, { valid: false, errorCount: 1 }, label, ['Bash']);
  assert.deepEqual(hook.notes, [
    'This is a PreToolUse hook payload: only its tool_input was checked, the other fields were not.',
    "Its tool_name is Read, not Bash: checked against this page's schema anyway.",
  ]);
  assert.deepEqual(verdict({ kind: 'hook', value: {}, toolName: 'KillBash' }, { valid: true, errorCount: 0 }, label, ['TaskStop', 'KillBash']).notes, [
    'This is a hook payload: only its tool_input was checked, the other fields were not.',
  ]);
});

test('the checker uses the model-facing schema where there is one, else the input’s; grammars get none', () => {
  const tool = (agent: string, slug: string) => real.tools.find((t) => t.agent === agent && t.slug === slug)!;
  assert.deepEqual(payloadCheckTarget(tool('claude-code', 'bash')), { section: 'model-input', schemaFile: 'model-input.schema.json', validatorFile: 'validate-model-input.js' });
  assert.deepEqual(payloadCheckTarget(tool('codex', 'exec_command')), { section: 'input', schemaFile: 'input.schema.json', validatorFile: 'validate-input.js' });
  const freeform = real.tools.find((t) => t.input.definition.kind === 'grammar' && !t.modelInput)!;
  assert.equal(payloadCheckTarget(freeform), undefined);
});

test('every precompiled validator is a self-contained ES module that agrees with Ajv, with every error and stopping at the first', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const firstOnly = new Ajv2020({ strict: false, allErrors: false });
  addFormats(firstOnly);
  const sizes: number[] = [];
  for (const tool of real.tools) {
    const target = payloadCheckTarget(tool);
    if (!target) continue;
    const schema = toolSchema(tool, target.section, {})!;
    const code = validatorModule(schema, { banner: ['test'] });
    assert.doesNotMatch(code, /\brequire\(/, `${tool.agent}/${tool.slug} needs nothing else`);
    sizes.push(code.length);
    type Compiled = ((v: unknown) => boolean) & { errors?: unknown };
    const module = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { default: Compiled; validate: Compiled; validateFirst: Compiled };
    assert.equal(module.default, module.validate);
    const reference = ajv.compile(schema);
    const referenceFirst = firstOnly.compile(schema);
    for (const value of [minimalInstance(schema), {}, 42, null, { unknown: [1] }, { unknown: 1, other: 2, [Object.keys((schema.properties as object | undefined) ?? {})[0] ?? 'x']: { wrong: true } }]) {
      const { validate, validateFirst } = module;
      assert.equal(validate(value), reference(value), `${tool.agent}/${tool.slug} on ${JSON.stringify(value)}`);
      assert.deepEqual(validate.errors ?? null, reference.errors ?? null, `${tool.agent}/${tool.slug}: the same errors on ${JSON.stringify(value)}`);
      assert.equal(validateFirst(value), referenceFirst(value), `${tool.agent}/${tool.slug} (first error) on ${JSON.stringify(value)}`);
      assert.deepEqual(validateFirst.errors ?? null, referenceFirst.errors ?? null, `${tool.agent}/${tool.slug}: the same first error on ${JSON.stringify(value)}`);
    }
    ajv.removeSchema(schema.$id as string);
    firstOnly.removeSchema(schema.$id as string);
  }
  assert.ok(sizes.length > 200, `${sizes.length} validators`);
});

test('formats are checked as ajv-formats checks them (WebFetch’s url is a uri)', async () => {
  const tool = real.tools.find((t) => t.agent === 'claude-code' && t.slug === 'webfetch')!;
  const schema = toolSchema(tool, 'model-input', {})!;
  const code = validatorModule(schema);
  const { validate } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { validate: (v: unknown) => boolean };
  assert.equal(validate({ url: 'http://127.0.0.1/page', prompt: 'x' }), true);
  assert.equal(validate({ url: 'not a url', prompt: 'x' }), false);
  // A schema without formats does not carry ajv-formats.
  assert.doesNotMatch(validatorModule({ type: 'string', minLength: 1 }), /ajvFormats/);
  assert.match(validatorModule({ type: 'string', minLength: 1 }), /const ucs2length = /);
});
