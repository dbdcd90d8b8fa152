/**
 * The pure half of a word-for-word diff (text-diff.ts): from the runs a diff algorithm found
 * (jsdiff's change objects) to what a reader sees, with long unchanged runs cut to their ends,
 * and the sizes. No runtime import, so that the browser's release comparison
 * (src/scripts/compare-releases.ts) uses the very same rules as the build.
 */

/** A run as jsdiff gives it: kept, or removed, or added. */
export interface DiffRun {
  value: string;
  added?: boolean;
  removed?: boolean;
}

/** One run of the diff: kept, removed, added, or kept but cut (`skipped` characters not shown). */
export type DiffPart = { op: 'same' | 'del' | 'ins'; text: string } | { op: 'skip'; chars: number };

export interface TextDiff {
  parts: DiffPart[];
  /** Characters (code points) before and after, and of the removed and added runs. */
  before: number;
  after: number;
  removed: number;
  added: number;
  /** Whether a reader should see it folded: more than FOLD_CHARS characters are shown. */
  long: boolean;
}

/** Unchanged characters kept on each side of a change; longer unchanged runs are cut between. */
export const CONTEXT_CHARS = 160;
/** A diff that shows more characters than this is folded behind its sizes. */
export const FOLD_CHARS = 600;

export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * An unchanged run cut to its ends: its first `head` and last `tail` characters, cut at a space where there is one
 * nearby.
 */
function cutSame(text: string, keepHead: boolean, keepTail: boolean): DiffPart[] {
  const chars = Array.from(text);
  const head = keepHead ? CONTEXT_CHARS : 0;
  const tail = keepTail ? CONTEXT_CHARS : 0;
  if (chars.length <= head + tail + 40) return [{ op: 'same', text }];
  let headEnd = head;
  if (head > 0) {
    const space = chars.slice(0, head).lastIndexOf(' ');
    if (space > head / 2) headEnd = space + 1;
  }
  let tailStart = chars.length - tail;
  if (tail > 0) {
    const space = chars.slice(tailStart).indexOf(' ');
    if (space >= 0 && space < tail / 2) tailStart += space + 1;
  }
  const out: DiffPart[] = [];
  if (headEnd > 0) out.push({ op: 'same', text: chars.slice(0, headEnd).join('') });
  out.push({ op: 'skip', chars: tailStart - headEnd });
  if (tailStart < chars.length) out.push({ op: 'same', text: chars.slice(tailStart).join('') });
  return out;
}

/** The parts and sizes of a diff from its runs (see TextDiff). */
export function partsOf(runs: readonly DiffRun[], before: string, after: string): TextDiff {
  const parts: DiffPart[] = [];
  let removed = 0;
  let added = 0;
  runs.forEach((run, i) => {
    if (run.value === '') return;
    if (run.removed) {
      removed += charCount(run.value);
      parts.push({ op: 'del', text: run.value });
    } else if (run.added) {
      added += charCount(run.value);
      parts.push({ op: 'ins', text: run.value });
    } else parts.push(...cutSame(run.value, i > 0, i < runs.length - 1));
  });
  const shown = parts.reduce((n, p) => n + (p.op === 'skip' ? 0 : charCount(p.text)), 0);
  return { parts, before: charCount(before), after: charCount(after), removed, added, long: shown > FOLD_CHARS };
}
