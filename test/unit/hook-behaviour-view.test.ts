import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerSentences,
  behaviourComparison,
  behaviourEntries,
  behaviourOutcome,
  kindPhase,
  sharedHookConfiguration,
} from '../../src/lib/behaviour/hook-behaviour.ts';
import type { HookBehaviourRecord } from '../../src/lib/model/model.ts';

function record(over: Partial<HookBehaviourRecord>): HookBehaviourRecord {
  return {
    agent: 'claude-code',
    cli: { package: 'pkg', version: '1.0.0' },
    case: 'c',
    kind: 'pre-deny',
    toolRole: 'shell',
    description: 'd',
    configuration: 'print',
    tool: 'Bash',
    event: 'PreToolUse',
    hookReturn: { stdout: '', stderr: '', exitCode: 0 },
    hookConfiguration: [],
    answered: ['PreToolUse'],
    call: { tool: 'Bash', input: {}, outcome: 'success', hooks: [] },
    modelSaw: { result: 'ok', isError: false, otherTexts: [] },
    cliExit: { code: 0 },
    file: 'content/hook-behaviour/claude-code/c.json',
    ...over,
  } as HookBehaviourRecord;
}

test('answerSentences takes the sentences of a JSON answer, not its keys or one-word values, and plain text whole', () => {
  const words = answerSentences(
    record({
      hookReturn: {
        stdout: JSON.stringify({
          hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'No new files here' },
        }),
        stderr: ' from stderr ',
        exitCode: 0,
      },
    }),
  );
  assert.deepEqual(words, ['No new files here', 'from stderr']);
  assert.deepEqual(
    answerSentences(record({ hookReturn: { stdout: '{not json', stderr: '', exitCode: 0, crash: 'broke' } })),
    ['{not json', 'broke'],
  );
  assert.deepEqual(
    answerSentences(
      record({
        hookReturn: {
          stdout: '',
          stderr: '',
          exitCode: 0,
          script: `output.args.command = 'touch x'; throw new Error("Policy: no files")`,
        },
      }),
    ),
    ['touch x', 'Policy: no files'],
  );
  // A string with escapes (a plugin appending a line): each line apart, the escapes read as JavaScript reads them.
  assert.deepEqual(
    answerSentences(
      record({
        hookReturn: {
          stdout: '',
          stderr: '',
          exitCode: 0,
          script: "output.output += '\\nContext from the hook: it\\'s temporary';",
        },
      }),
    ),
    ["Context from the hook: it's temporary"],
  );
});

test('behaviourOutcome: a denied call that did not run and whose reason reached the model', () => {
  const o = behaviourOutcome(
    record({
      hookReturn: { stdout: '{"reason":"No new files here"}', stderr: '', exitCode: 0 },
      sideEffect: { path: 'm', happened: false },
      modelSaw: { result: 'hook error: No new files here', isError: true, otherTexts: [] },
    }),
  );
  const { plain, ...facts } = o;
  assert.deepEqual(facts, {
    hookRan: true,
    ran: false,
    isError: true,
    noResult: false,
    killedAfterSeconds: null,
    hookWordsReached: true,
    summary: "did not run; error result; hook's words reached the model",
  });
  assert.equal(plain.sentence, 'Refused; the model read “hook error: No new files here”.');
  assert.equal(
    behaviourOutcome(record({ answered: [], modelSaw: { result: 'refused', isError: true, otherTexts: [] } })).summary,
    'hook never asked; error result',
  );
});

test('behaviourOutcome: words that reached only beside the result count; a replacement dropped silently does not', () => {
  const beside = behaviourOutcome(
    record({
      hookReturn: { stdout: '{"ctx":"remember this"}', stderr: '', exitCode: 0 },
      modelSaw: { result: 'made', isError: false, otherTexts: ['hook context: remember this'] },
    }),
  );
  assert.equal(beside.hookWordsReached, true);
  assert.equal(beside.ran, null);
  const dropped = behaviourOutcome(
    record({
      hookReturn: { stdout: '{"updatedToolOutput":"replaced by the hook"}', stderr: '', exitCode: 0 },
      sideEffect: { path: 'm', happened: true },
      modelSaw: { result: 'made', isError: false, otherTexts: [] },
    }),
  );
  assert.deepEqual([dropped.hookWordsReached, dropped.summary], [false, 'ran; result']);
  assert.equal(
    behaviourOutcome(record({ modelSaw: { result: null, isError: false, otherTexts: [] } })).summary,
    'no result sent',
  );
  assert.equal(
    behaviourOutcome(
      record({
        modelSaw: { result: null, isError: false, otherTexts: [] },
        cliExit: { code: null, killedAfterSeconds: 30 },
      }),
    ).summary,
    'no result sent; the CLI was still waiting after 30 s',
  );
});

test('kindPhase reads the phase from the kind', () => {
  assert.deepEqual(['pre-deny', 'post-block', 'failure-context'].map(kindPhase), ['before', 'after', 'after failure']);
});

test('behaviourComparison lines up one kind and tool role across agents, in kind order, with a cell per agent', () => {
  const records = [
    record({ case: 'b', kind: 'post-context' }),
    record({ case: 'a', kind: 'pre-deny' }),
    record({ case: 'x', kind: 'pre-deny', agent: 'codex', tool: 'exec_command' }),
    record({ case: 'w', kind: 'pre-deny', toolRole: 'file-write', tool: 'Write' }),
  ];
  const rows = behaviourComparison({ hookBehaviour: records }, ['claude-code', 'codex'], (agent) => `/${agent}/hooks/`);
  assert.deepEqual(
    rows.map((r) => `${r.kind}/${r.role}`),
    ['pre-deny/the shell tool', 'pre-deny/a file-writing tool', 'post-context/the shell tool'],
  );
  assert.deepEqual(
    rows[0]!.cells.map((c) => c.cases.map((x) => x.url)),
    [['/claude-code/hooks/#case-a'], ['/codex/hooks/#case-x']],
  );
  assert.deepEqual(rows[1]!.cells[1]!.cases, []);
});

test('behaviourEntries names the release and the record; sharedHookConfiguration is undefined when the cases differ', () => {
  const [e] = behaviourEntries([record({})]);
  assert.equal(e!.release, 'pkg@1.0.0');
  assert.equal(e!.evidence, 'content/hook-behaviour/claude-code/c.json');
  assert.ok(!('summary' in e!.outcome));
  assert.equal(
    sharedHookConfiguration([
      record({ hookConfiguration: [{ where: 'a', content: 1 }] }),
      record({ hookConfiguration: [{ where: 'a', content: 2 }] }),
    ]),
    undefined,
  );
  assert.match(
    sharedHookConfiguration([
      record({ hookConfiguration: [{ where: 'a', content: 1 }] }),
      record({ hookConfiguration: [{ where: 'a', content: 1 }] }),
    ])!,
    /"where": "a"/,
  );
});
