/**
 * What a changed text keeps and shows: the capture diff carries the description or
 * definition before and after, the history file stores each distinct text once under its
 * SHA-256 id, and the word-for-word diff of two texts gives back both texts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { historyEvents } from '../../scripts/lib/history/capture-diff.ts';
import type { CaptureToolSnapshot } from '../../scripts/lib/history/capture-snapshot.ts';
import { definitionAsText, internTexts } from '../../scripts/lib/history/text-store.ts';
import { CONTEXT_CHARS, FOLD_CHARS, textDiff, type DiffPart } from '../../src/lib/history/text-diff.ts';
import { changeTexts } from '../../src/lib/history/history.ts';

const tool = (
  description: string,
  schema: object = { type: 'object', properties: { p: { type: 'string' } } },
): CaptureToolSnapshot => ({
  delivery: 'function',
  description,
  kind: 'json-schema',
  definition: JSON.stringify({ kind: 'json-schema', schema }),
  rows: [{ id: 'input.p', path: 'p', type: 'string', required: false }],
});
const at = (version: string, tools: Record<string, CaptureToolSnapshot>) => ({
  version,
  configs: new Map([['print', { tools, unresolvedNamespaces: [] }]]),
});

test("a tool's description change carries both descriptions; a definition change both definitions as text", () => {
  const events = historyEvents(
    [
      at('1.0.0', {
        Bash: tool('Runs a command. Use cd sparingly.'),
        Grep: tool('Searches.', { type: 'object', properties: { p: { type: 'string' } }, additionalProperties: false }),
      }),
      at('1.0.1', {
        Bash: tool('Runs a command.'),
        Grep: tool('Searches.', { type: 'object', properties: { p: { type: 'string' } } }),
      }),
    ],
    ['print'],
  );
  const description = events.find((e) => e.kind === 'description-changed');
  assert.equal(description?.tool, 'Bash');
  assert.equal(description?.before, 'Runs a command. Use cd sparingly.');
  assert.equal(description?.after, 'Runs a command.');
  const definition = events.find((e) => e.kind === 'definition-changed');
  assert.equal(definition?.tool, 'Grep');
  // Indented JSON with sorted keys: the removed bound is a line of its own.
  assert.deepEqual(JSON.parse(definition!.before!), {
    additionalProperties: false,
    properties: { p: { type: 'string' } },
    type: 'object',
  });
  assert.ok(definition!.before!.split('\n').includes('  "additionalProperties": false,'), definition!.before);
  assert.ok(!definition!.after!.includes('additionalProperties'));
});

test('a grammar or a declaration is compared as written', () => {
  assert.equal(
    definitionAsText(JSON.stringify({ kind: 'grammar', syntax: 'lark', definition: 'start: "a"\n' })),
    'start: "a"\n',
  );
  assert.equal(
    definitionAsText(JSON.stringify({ kind: 'typescript', typeName: 'I', source: 'type I = { a: string };' })),
    'type I = { a: string };',
  );
  assert.equal(definitionAsText(''), '');
});

test('each distinct text is stored once, under the first 16 hex digits of its SHA-256', () => {
  const long = 'x'.repeat(10_000);
  const events = ['1.0.1', '1.0.2', '1.0.3'].map((release, i) => ({
    release,
    previous: `1.0.${i}`,
    tool: 'T',
    kind: 'description-changed' as const,
    configuration: 'print',
    before: i % 2 === 0 ? long : 'short',
    after: i % 2 === 0 ? 'short' : long,
  }));
  const { events: stored, texts } = internTexts(events);
  const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
  assert.deepEqual(Object.keys(texts).sort(), [sha(long), sha('short')].sort());
  assert.equal(texts[sha(long)], long);
  assert.deepEqual(
    stored.map((e) => [e.fromText, e.toText]),
    [
      [sha(long), sha('short')],
      [sha('short'), sha(long)],
      [sha(long), sha('short')],
    ],
  );
  assert.ok(stored.every((e) => !('before' in e) && !('after' in e)));
  // A page reads the texts back from the store.
  assert.deepEqual(changeTexts({ texts }, stored[1]!), { before: 'short', after: long, by: 'words' });
});

/** The text a diff's parts give for one side, when nothing was cut. */
function side(parts: readonly DiffPart[], which: 'before' | 'after'): string {
  return parts
    .map((p) =>
      p.op === 'skip'
        ? assert.fail('cut')
        : p.op === 'same' || p.op === (which === 'before' ? 'del' : 'ins')
          ? p.text
          : '',
    )
    .join('');
}

test('a word-for-word diff gives back both texts, and counts what it removed and added', () => {
  const before = 'Use this tool to run a command. Avoid cd; prefer absolute paths.\nNever commit.';
  const after = 'Use this tool to run one command. Prefer absolute paths.\nNever commit unless asked.';
  const d = textDiff(before, after);
  assert.equal(side(d.parts, 'before'), before);
  assert.equal(side(d.parts, 'after'), after);
  const count = (op: string) => d.parts.reduce((n, p) => n + (p.op === op && 'text' in p ? [...p.text].length : 0), 0);
  assert.equal(d.removed, count('del'));
  assert.equal(d.added, count('ins'));
  assert.deepEqual([d.before, d.after], [[...before].length, [...after].length]);
  assert.ok(d.parts.some((p) => p.op === 'ins' && p.text.includes('unless')));
  assert.equal(d.long, false);
});

test('long unchanged runs are cut to their ends, and a long change is folded', () => {
  const middle = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
  const d = textDiff(`Start. ${middle} End.`, `Begin. ${middle} Finish.`);
  const skip = d.parts.find((p) => p.op === 'skip');
  assert.ok(skip && skip.op === 'skip' && skip.chars > middle.length - 2 * CONTEXT_CHARS - 2, JSON.stringify(skip));
  const shown = d.parts.reduce((n, p) => n + (p.op === 'skip' ? p.chars : [...p.text].length), 0);
  // Shown and cut characters together are the union of both texts' characters.
  assert.equal(shown, d.after + d.removed);
  assert.equal(d.long, false);
  const rewritten = textDiff('a '.repeat(FOLD_CHARS), 'b '.repeat(FOLD_CHARS));
  assert.equal(rewritten.long, true);
});

test('a definition is compared line by line', () => {
  const d = textDiff('{\n  "a": 1,\n  "b": 2\n}', '{\n  "a": 1,\n  "b": 3\n}', 'lines');
  assert.deepEqual(
    d.parts.filter((p) => p.op === 'del' || p.op === 'ins').map((p) => [p.op, 'text' in p ? p.text : '']),
    [
      ['del', '  "b": 2\n'],
      ['ins', '  "b": 3\n'],
    ],
  );
});
