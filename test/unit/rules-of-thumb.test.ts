import { test } from 'node:test';
import assert from 'node:assert/strict';
import { behaviourRows } from '../../src/lib/behaviour/hook-behaviour.ts';
import { rulesOfThumb } from '../../src/lib/behaviour/rules-of-thumb.ts';
import type { HookBehaviourRecord } from '../../src/lib/model/model.ts';

function record(id: string, over: Partial<HookBehaviourRecord>): HookBehaviourRecord {
  return {
    agent: 'opencode',
    cli: { package: 'pkg', version: '1.0.0' },
    case: id,
    kind: 'pre-deny',
    toolRole: 'shell',
    description: 'd',
    configuration: 'print',
    tool: 'bash',
    event: 'before',
    hookReturn: { stdout: '', stderr: '', exitCode: 0 },
    hookConfiguration: [],
    answered: ['before'],
    sideEffect: { path: 'marker.txt', happened: true },
    call: { tool: 'bash', input: {}, outcome: 'success', hooks: [] },
    modelSaw: { result: 'made', isError: false, otherTexts: [] },
    cliExit: { code: 0 },
    file: `content/hook-behaviour/opencode/${id}.json`,
    ...over,
  } as HookBehaviourRecord;
}

const rows = (records: HookBehaviourRecord[]) => behaviourRows({ tools: [], hookBehaviour: records }, 'opencode');

test('one rule per kind of answer, in page order, each clause naming its cases', () => {
  const rules = rulesOfThumb(
    rows([
      record('post-ctx', {
        kind: 'post-context',
        event: 'after',
        answered: ['after'],
        hookReturn: { stdout: '', stderr: '', exitCode: 0, script: "output.output += 'the hook adds this'" },
        modelSaw: { result: 'made\nthe hook adds this', isError: false, otherTexts: [] },
      }),
      record('deny', {
        sideEffect: { path: 'marker.txt', happened: false },
        hookReturn: { stdout: '', stderr: '', exitCode: 0, crash: 'Policy: no files' },
        modelSaw: { result: 'Policy: no files', isError: true, otherTexts: [] },
      }),
      record('rewrite-in-place', { kind: 'pre-rewrite', sideEffect: { path: 'rewritten.txt', happened: true } }),
      record('rewrite-replace', {
        kind: 'pre-rewrite',
        sideEffect: { path: 'rewritten.txt', happened: false },
        modelSaw: { result: 'original command', isError: false, otherTexts: [] },
      }),
    ]),
  );
  assert.deepEqual(
    rules.map((r) => r.topic),
    ['Refusing a call', 'Rewriting the input', 'Speaking after the call'],
  );
  const [refuse, rewrite, after] = rules;
  assert.deepEqual(
    refuse!.clauses.map((c) => [c.says, c.cases.map((x) => x.anchor)]),
    [["refused, and the model reads the hook's reason", ['case-deny']]],
  );
  assert.deepEqual(
    rewrite!.clauses.map((c) => [c.says, c.cases.map((x) => x.case)]),
    [
      ['the rewritten input runs', ['rewrite-in-place']],
      ['the original input runs: the rewrite is ignored', ['rewrite-replace']],
    ],
  );
  assert.equal(rewrite!.warnings.length, 1);
  assert.deepEqual(
    after!.clauses.map((c) => c.says),
    ["the model reads the hook's added context"],
  );
  assert.deepEqual(after!.warnings, []);
});

test('cases with the same outcome share a clause; a dropped reason after the call is a warning', () => {
  const rules = rulesOfThumb(
    rows([
      record('crash', { kind: 'pre-crash', hookReturn: { stdout: '', stderr: '', exitCode: 1, crash: 'boom' } }),
      record('slow', { kind: 'pre-timeout' }),
      record('block', {
        kind: 'post-block',
        event: 'after',
        answered: ['after'],
        hookReturn: { stdout: '{"reason":"rejected by the hook"}', stderr: '', exitCode: 0 },
      }),
    ]),
  );
  assert.deepEqual(
    rules.map((r) => r.topic),
    ['A hook that fails', 'Speaking after the call'],
  );
  assert.deepEqual(
    rules[0]!.clauses.map((c) => [c.says, c.cases.map((x) => x.case)]),
    [['the call runs anyway', ['crash', 'slow']]],
  );
  assert.deepEqual(
    rules[1]!.clauses.map((c) => c.says),
    ["the model never reads the hook's reason for blocking"],
  );
  assert.equal(rules[1]!.warnings.length, 1);
  assert.deepEqual(rulesOfThumb([]), []);
});
