import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FOLD_CHARACTERS, FOLD_LINES, foldText } from '../../src/lib/core/text-fold.ts';

const sentence = 'Clear, concise description of what this command does in active voice.';

test('a short text does not fold', () => {
  assert.equal(foldText(sentence), undefined);
  assert.equal(foldText('a\n'.repeat(FOLD_LINES - 1) + 'a'), undefined);
});

test('a long text folds after its first sentence, and the two parts give the text back', () => {
  const text = `${sentence} ${'Say what the command does in plain words. '.repeat(12)}`;
  assert.ok(text.length > FOLD_CHARACTERS);
  const folded = foldText(text);
  assert.ok(folded);
  assert.equal(folded.head, sentence);
  assert.equal(folded.head + folded.rest, text);
});

test('a text of many short lines folds at its first line break after the opening', () => {
  const text = [
    'Run the command described below, in its own shell.',
    ...Array.from({ length: FOLD_LINES + 2 }, (_, i) => `- step ${i}`),
  ].join('\n');
  const folded = foldText(text);
  assert.ok(folded);
  assert.equal(folded.head, 'Run the command described below, in its own shell.');
  assert.equal(folded.head + folded.rest, text);
});

test('a full stop inside a code span is not a sentence end', () => {
  const text = `Use \`find . -name "*.tmp"\` to look for files and then remove them carefully. ${'More words here. '.repeat(30)}`;
  const folded = foldText(text);
  assert.ok(folded);
  assert.equal(folded.head, 'Use `find . -name "*.tmp"` to look for files and then remove them carefully.');
});

test('a long text with no sentence end near its start stays whole rather than cut mid-sentence', () => {
  assert.equal(foldText('word '.repeat(200)), undefined);
});
