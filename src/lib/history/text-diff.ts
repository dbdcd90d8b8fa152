/**
 * A change of a long text (a tool's description, a field's description, a definition as
 * text) as a reader compares it: the words or lines removed and added, with long unchanged
 * stretches cut to their ends, and the sizes before and after. The `diff` package (jsdiff,
 * Myers' algorithm) finds the changes; text-diff-parts.ts says how they are shown.
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import { partsOf, type DiffRun, type TextDiff } from './text-diff-parts.ts';

export { CONTEXT_CHARS, FOLD_CHARS, charCount, type DiffPart, type TextDiff } from './text-diff-parts.ts';

/** Edits beyond which jsdiff gives up; the texts are then shown as one removal and one addition. */
const MAX_EDITS = 4000;

/**
 * The diff of two texts: by words (with the spaces between them), or by lines for text that
 * is read line by line (a definition as indented JSON, a grammar, a declaration).
 */
export function textDiff(before: string, after: string, by: 'words' | 'lines' = 'words'): TextDiff {
  const runs: DiffRun[] = (by === 'lines'
    ? diffLines(before, after, { maxEditLength: MAX_EDITS })
    : diffWordsWithSpace(before, after, { maxEditLength: MAX_EDITS })) ?? [
    { value: before, removed: true },
    { value: after, added: true },
  ];
  return partsOf(runs, before, after);
}

const computed = new WeakMap<object, TextDiff>();

/** The diff of a change's two texts, computed once per texts object (the changelog's cut and its pages both ask). */
export function diffOfTexts(texts: { before: string; after: string; by: 'words' | 'lines' }): TextDiff {
  return computed.get(texts) ?? computed.set(texts, textDiff(texts.before, texts.after, texts.by)).get(texts)!;
}
