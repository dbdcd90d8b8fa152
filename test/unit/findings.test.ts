/**
 * The findings checkPayload leaves out (src/lib/check/findings.ts): hook results under
 * another tool name, and quoted model-facing rules a recorded call breaks.
 * Calls are written here; each expectation is worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hookResponseFindings, quotes, ruleFindings, type RecordedCall } from '../../src/lib/check/findings.ts';
import { fieldRows } from '../../src/lib/shapes/field-rows.ts';
import { shapeFromTypeScript } from '../../src/lib/shapes/ts-shape.ts';
import type { Declarations } from '../../src/lib/check/payload-check.ts';
import type { ModelRule } from '../../src/lib/core/content-types.ts';

const call = (tool: string, input: Record<string, unknown>, extra: Partial<RecordedCall> = {}): RecordedCall =>
  ({ tool, kind: 'function', input, outcome: 'success', result: '', hooks: [], own: true, ...extra }) as RecordedCall;

const RESULT_ROWS = fieldRows(shapeFromTypeScript('type Result = { output: string; exit_code: number };', 'Result'), {
  root: 'output',
});
const declared: Declarations = { inputRows: [], resultRows: RESULT_ROWS, resultDeclared: true };
const post = (name: string, response: unknown) => ({
  hook_event_name: 'PostToolUse',
  tool_name: name,
  tool_input: {},
  tool_response: response,
});

test('a hook result under another tool name is checked against the declared result', () => {
  const calls = [call('exec', { cmd: 'echo' }, { hooks: [post('Bash', 'hello\n')] as RecordedCall['hooks'] })];
  const findings = hookResponseFindings(calls, 'exec', declared, 'Result');
  assert.deepEqual(
    findings.map((f) => [f.call, f.kind, f.anchor, f.parts]),
    [[0, 'type', 'output', ['hook tool_response']]],
  );
  assert.match(findings[0]!.message, /"Bash"/);
  assert.match(findings[0]!.message, /\(Result\)/);
  assert.match(findings[0]!.message, /a string in the payload; declared an object/);
  // A result of the declared shape gives nothing; neither does a hook naming the call as the tool (checkPayload's
  // case).
  assert.deepEqual(
    hookResponseFindings(
      [call('exec', {}, { hooks: [post('Bash', { output: '', exit_code: 0 })] as RecordedCall['hooks'] })],
      'exec',
      declared,
    ),
    [],
  );
  assert.deepEqual(
    hookResponseFindings(
      [call('exec', {}, { hooks: [post('exec', 'text')] as RecordedCall['hooks'] })],
      'exec',
      declared,
    ),
    [],
  );
  // A follow-up of another tool, or an undeclared result, is not this check's.
  assert.deepEqual(
    hookResponseFindings(
      [call('exec', {}, { own: false, hooks: [post('Bash', 'x')] as RecordedCall['hooks'] })],
      'exec',
      declared,
    ),
    [],
  );
  assert.deepEqual(hookResponseFindings(calls, 'exec', { ...declared, resultDeclared: false }), []);
});

const READ_FIRST: ModelRule = {
  quote: 'You must Read the file first, or the call will fail.',
  rule: { kind: 'fails-without-earlier-call', tool: 'Read', field: 'file_path' },
};

test('a call that succeeds without the earlier call its rule demands contradicts the rule', () => {
  const unread = [call('Edit', { file_path: '/w/a.txt' })];
  const findings = ruleFindings(unread, 'Edit', [READ_FIRST]);
  assert.deepEqual(
    findings.map((f) => [f.call, f.kind, f.anchor, f.pointer]),
    [[0, 'rule-contradicted', 'model-description', '/file_path']],
  );
  assert.match(findings[0]!.message, /You must Read the file first/);
  assert.match(findings[0]!.message, /"\/w\/a\.txt"/);
});

test('a call that follows the rule, or fails, does not contradict it', () => {
  const readFirst = [call('Read', { file_path: '/w/a.txt' }, { own: false }), call('Edit', { file_path: '/w/a.txt' })];
  assert.deepEqual(ruleFindings(readFirst, 'Edit', [READ_FIRST]), []);
  const refused = [call('Edit', { file_path: '/w/a.txt' }, { outcome: 'failure' })];
  assert.deepEqual(ruleFindings(refused, 'Edit', [READ_FIRST]), []);
  // Reading another file first does not count.
  const other = [call('Read', { file_path: '/w/b.txt' }, { own: false }), call('Edit', { file_path: '/w/a.txt' })];
  assert.equal(ruleFindings(other, 'Edit', [READ_FIRST]).length, 1);
});

test('a rule limited to some results, or naming the file by another field, is read as such', () => {
  const overwrite: ModelRule = {
    quote: 'q',
    rule: {
      kind: 'fails-without-earlier-call',
      tool: 'Read',
      field: 'file_path',
      onlyWhere: { pointer: '/type', value: 'update' },
    },
  };
  assert.deepEqual(
    ruleFindings([call('Write', { file_path: '/w/new' }, { toolUseResult: { type: 'create' } })], 'Write', [overwrite]),
    [],
  );
  assert.equal(
    ruleFindings([call('Write', { file_path: '/w/old' }, { toolUseResult: { type: 'update' } })], 'Write', [overwrite])
      .length,
    1,
  );
  const notebook: ModelRule = {
    quote: 'q',
    rule: { kind: 'fails-without-earlier-call', tool: 'Read', field: 'notebook_path', earlierField: 'file_path' },
  };
  assert.deepEqual(
    ruleFindings(
      [
        call('Read', { file_path: '/w/n.ipynb' }, { own: false }),
        call('NotebookEdit', { notebook_path: '/w/n.ipynb' }),
      ],
      'NotebookEdit',
      [notebook],
    ),
    [],
  );
  assert.equal(
    ruleFindings([call('NotebookEdit', { notebook_path: '/w/n.ipynb' })], 'NotebookEdit', [notebook]).length,
    1,
  );
});

test('a quote is found in the description whatever its line breaks', () => {
  assert.equal(quotes('- You must Read the file\n  first, or the call will fail.\n- other', READ_FIRST.quote), true);
  assert.equal(quotes('You must read the file first', READ_FIRST.quote), false);
});
