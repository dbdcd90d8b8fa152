/**
 * A change of a long text (a tool's description, a field's description, a definition as
 * text) as a reader compares it: the words or lines removed and added, with long unchanged
 * stretches cut to their ends, and the sizes before and after. The `diff` package (jsdiff,
 * Myers' algorithm) finds the changes; text-diff-parts.ts says how they are shown.
 */
import { createHash } from 'node:crypto';
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

type DiffCache = Map<string, Map<string, Map<string, TextDiff>>>;
/** Two texts and how they are compared (a change's `texts`). */
export interface TextPair {
  before: string;
  after: string;
  by: 'words' | 'lines';
}
interface DiffState {
  computed: DiffCache;
  /** Diffs a store kept from earlier processes (text-diff-store.ts), by pairKey. */
  stored?: ReadonlyMap<string, TextDiff> | undefined;
  /** Diffs computed in this process (here or ahead), by pairKey: what a store may keep. */
  fresh: Map<string, TextDiff>;
  /** Diffs being computed ahead (text-diff-ahead.ts): waits for them and files them in `computed`. */
  awaitAhead?: (() => void) | undefined;
}
// Named after its shape: a process that evaluated an earlier version of this module (a dev server running across an
// update) kept a value of another shape under the earlier name.
const SLOT = Symbol.for('agent-tool-reference.text-diff-state');
/**
 * Diffs already computed in this process, by kind, text before and text after. It lives on globalThis because one
 * build evaluates this module more than once (the content check, then the pages through Vite) and each evaluation
 * builds its own change objects from the same texts: the changelog's cut and its pages would otherwise diff every
 * text again (a second or more of a build each time).
 */
const state: DiffState = ((globalThis as { [SLOT]?: DiffState })[SLOT] ??= { computed: new Map(), fresh: new Map() });

function known(texts: TextPair): TextDiff | undefined {
  return state.computed.get(texts.by)?.get(texts.before)?.get(texts.after);
}

/** A pair's key between processes: a digest of its kind and both texts. */
export function pairKey(texts: TextPair): string {
  return createHash('sha1').update(`${texts.by}\0${texts.before}\0${texts.after}`).digest('base64url');
}

function file(texts: TextPair, diff: TextDiff): void {
  const { computed } = state;
  const byKind = computed.get(texts.by) ?? computed.set(texts.by, new Map()).get(texts.by)!;
  const byBefore = byKind.get(texts.before) ?? byKind.set(texts.before, new Map()).get(texts.before)!;
  byBefore.set(texts.after, diff);
}

/** Files a diff of these texts computed in this process (here or ahead). */
export function rememberDiff(texts: TextPair, diff: TextDiff): void {
  file(texts, diff);
  state.fresh.set(pairKey(texts), diff);
}

/** Sets (or, with undefined, clears) how to wait for diffs computed ahead; the first diff not yet known calls it. */
export function setAwaitAhead(wait: (() => void) | undefined): void {
  state.awaitAhead = wait;
}

/** Diffs kept by earlier processes, consulted before any is computed (text-diff-store.ts). */
export function useStoredDiffs(stored: ReadonlyMap<string, TextDiff> | undefined): void {
  state.stored = stored;
}

/** Whether a diff of these texts is known without computing it: in this process or kept by an earlier one. */
export function diffKnown(texts: TextPair): boolean {
  return known(texts) !== undefined || state.stored?.has(pairKey(texts)) === true;
}

/** The diffs computed in this process, by pairKey. */
export function freshDiffs(): ReadonlyMap<string, TextDiff> {
  return state.fresh;
}

/** The diff of a change's two texts, computed once per process for the same texts. */
export function diffOfTexts(texts: TextPair): TextDiff {
  let diff = known(texts);
  if (diff) return diff;
  diff = state.stored?.get(pairKey(texts));
  if (diff) {
    file(texts, diff);
    return diff;
  }
  if (state.awaitAhead) {
    state.awaitAhead();
    diff = known(texts);
    if (diff) return diff;
  }
  diff = textDiff(texts.before, texts.after, texts.by);
  rememberDiff(texts, diff);
  return diff;
}
