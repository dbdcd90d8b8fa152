import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excerpt, plainOutcome, type OutcomeFacts } from '../../src/lib/behaviour/outcome-words.ts';

/** A shell case whose hook answered its event and whose tool ran, unless told otherwise. */
function facts(over: Partial<OutcomeFacts>): OutcomeFacts {
  return {
    kind: 'pre-deny',
    toolRole: 'shell',
    event: 'PreToolUse',
    answered: ['PreToolUse'],
    ran: true,
    modelSaw: { result: 'made marker.txt', isError: false, otherTexts: [] },
    killedAfterSeconds: null,
    hookWords: [],
    ...over,
  };
}

test("a refusal quotes what the model read, and says when the hook's reason was not in it", () => {
  const denied = plainOutcome(
    facts({
      ran: false,
      modelSaw: { result: 'Blocked: Policy: no new files', isError: true, otherTexts: [] },
      hookWords: ['Policy: no new files'],
    }),
  );
  assert.equal(denied.verdict, 'refused');
  assert.equal(denied.sentence, 'Refused; the model read “Blocked: Policy: no new files”.');
  assert.equal(denied.dropped, false);
  const bare = plainOutcome(
    facts({
      kind: 'pre-exit-2',
      ran: false,
      modelSaw: { result: 'hook exited with code 2', isError: true, otherTexts: [] },
      hookWords: ['no marker files please'],
    }),
  );
  assert.equal(bare.sentence, "Refused, without the hook's words; the model read “hook exited with code 2”.");
  assert.equal(bare.dropped, true);
});

test("a rewrite: the original input ran when the rewrite's effect is missing but a plain result came back", () => {
  const ignored = plainOutcome(
    facts({
      kind: 'pre-rewrite',
      ran: false,
      modelSaw: { result: 'original command\n', isError: false, otherTexts: [] },
    }),
  );
  assert.equal(ignored.verdict, 'ran-original');
  assert.match(ignored.sentence, /^Ran the original command; the rewrite was ignored/);
  assert.ok(ignored.surprise);
  assert.equal(
    plainOutcome(facts({ kind: 'pre-rewrite', toolRole: 'file-write', ran: true })).sentence,
    'Ran the rewritten input: the model read “made marker.txt”.',
  );
  // An error result is a refusal, not the original input running.
  assert.equal(
    plainOutcome(
      facts({ kind: 'pre-rewrite', ran: false, modelSaw: { result: 'rejected', isError: true, otherTexts: [] } }),
    ).verdict,
    'refused',
  );
});

test('answers before the call that the CLI did not obey are said to be ignored, with a warning', () => {
  const ask = plainOutcome(facts({ kind: 'pre-ask', hookWords: ['wants a person'] }));
  assert.match(ask.sentence, /^Ran anyway: the hook's ask was not obeyed/);
  assert.ok(ask.surprise?.includes('ask'));
  const crash = plainOutcome(
    facts({
      kind: 'pre-crash',
      ran: false,
      modelSaw: { result: 'Denied (hook errored)', isError: true, otherTexts: [] },
      hookWords: ['boom'],
    }),
  );
  assert.equal(crash.verdict, 'refused');
  assert.equal(crash.surprise, 'A hook that crashes refuses the call.');
  const trace = plainOutcome(
    facts({
      kind: 'pre-crash',
      modelSaw: { result: 'file:///hook.mjs:43\nError: boom', isError: false, otherTexts: [] },
      hookWords: ['Error: boom'],
    }),
  );
  assert.match(trace.surprise ?? '', /stack trace/);
  assert.equal(plainOutcome(facts({ kind: 'pre-crash', hookWords: ['boom'] })).surprise, undefined);
});

test('after the call: in place of the output, added to it, beside it, or dropped', () => {
  const instead = plainOutcome(
    facts({
      kind: 'post-block',
      event: 'PostToolUse',
      answered: ['PreToolUse', 'PostToolUse'],
      modelSaw: { result: 'The hook rejected this', isError: true, otherTexts: [] },
      hookWords: ['The hook rejected this'],
    }),
  );
  assert.equal(
    instead.sentence,
    "Ran; the model read the hook's reason instead of the output (marked as an error): “The hook rejected this”.",
  );
  const added = plainOutcome(
    facts({
      kind: 'post-context',
      event: 'PostToolUse',
      answered: ['PostToolUse'],
      modelSaw: { result: 'made marker.txt\nContext: temporary', isError: false, otherTexts: [] },
      hookWords: ['Context: temporary'],
    }),
  );
  assert.equal(added.sentence, "Ran; the model read the output with the hook's context added: “made marker.txt …”.");
  const beside = plainOutcome(
    facts({
      kind: 'post-exit-2',
      event: 'PostToolUse',
      answered: ['PostToolUse'],
      modelSaw: { result: 'made marker.txt', isError: false, otherTexts: ['exit 2: check it'] },
      hookWords: ['exit 2: check it'],
    }),
  );
  assert.equal(beside.sentence, "Ran; the model read the result and, beside it, the hook's standard error.");
  const dropped = plainOutcome(
    facts({
      kind: 'post-block',
      event: 'PostToolUse',
      answered: ['PostToolUse'],
      hookWords: ['The hook rejected this'],
    }),
  );
  assert.equal(dropped.sentence, "Ran; the hook's reason was dropped: the model read “made marker.txt”.");
  assert.equal(dropped.dropped, true);
  const replaced = plainOutcome(
    facts({
      kind: 'post-replace',
      event: 'PostToolUse',
      answered: ['PostToolUse'],
      hookWords: ['replaced by the hook'],
    }),
  );
  assert.equal(replaced.sentence, 'Ran; the replacement was ignored: the model read “made marker.txt”.');
});

test('a run that never ended, and a hook that was never asked', () => {
  const waited = plainOutcome(
    facts({
      kind: 'pre-ask',
      ran: false,
      modelSaw: { result: null, isError: false, otherTexts: [] },
      killedAfterSeconds: 30,
    }),
  );
  assert.equal(waited.verdict, 'waited');
  assert.equal(waited.sentence, 'Waited: no result reached the model, and the CLI was still waiting after 30 s.');
  assert.match(waited.surprise ?? '', /waits for ever/);
  const notAsked = plainOutcome(
    facts({
      kind: 'pre-allow',
      answered: [],
      ran: false,
      modelSaw: { result: 'needs permission', isError: true, otherTexts: [] },
    }),
  );
  assert.equal(notAsked.verdict, 'not-asked');
  assert.equal(notAsked.sentence, 'Refused before the hook was asked; the model read “needs permission”.');
});

test('an answer after which the CLI ended by itself without sending a result stopped the whole run', () => {
  const stopped = plainOutcome(
    facts({ ran: false, modelSaw: { result: null, isError: true, otherTexts: [] }, hookWords: ['Policy: no'] }),
  );
  assert.equal(stopped.verdict, 'stopped');
  assert.match(stopped.sentence, /^Stopped the run/);
  assert.match(stopped.surprise ?? '', /ended the whole run/);
  const after = plainOutcome(
    facts({
      kind: 'post-block',
      event: 'PostToolUse',
      answered: ['PostToolUse'],
      modelSaw: { result: null, isError: false, otherTexts: [] },
    }),
  );
  assert.deepEqual(
    [after.verdict, after.sentence],
    ['stopped', 'Ran; then the CLI ended the run without sending the model the result.'],
  );
  // In the CLI's own words, when it said something.
  assert.match(
    plainOutcome(
      facts({ ran: false, modelSaw: { result: null, isError: true, otherTexts: [] }, said: '[abort] aborted' }),
    ).sentence,
    /; it said “\[abort\] aborted”\.$/,
  );
});

test('excerpt: the first line, cut at a word boundary, with a mark where text was left out', () => {
  assert.equal(excerpt('one line'), '“one line”');
  assert.equal(excerpt('\nfirst\nsecond'), '“first …”');
  const long = excerpt(`${'word '.repeat(40)}end`);
  assert.ok(long.endsWith(' …”'), long);
  assert.ok(!/wor …”$/.test(long) && long.length < 100, long);
});
