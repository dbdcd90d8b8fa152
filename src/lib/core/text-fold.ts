/**
 * Where a long text folds: a field's description that holds a whole prompt (Claude
 * Code's `description` of Bash is 20 lines) is shown as its opening, with the rest
 * behind a one-line summary that gives its size, so that one cell does not
 * stretch a whole table. Pure.
 */

/** Texts longer than this many characters, or of more lines than FOLD_LINES, fold. */
export const FOLD_CHARACTERS = 400;
export const FOLD_LINES = 6;

export interface FoldedText {
  /** What stays open: the first paragraph, or the first sentence of a long one. */
  head: string;
  /** The rest, behind the fold. */
  rest: string;
}

/** An end of a sentence or paragraph at or after `from`, outside `code` spans: the index just after it. */
function breakAfter(text: string, from: number, limit: number): number | undefined {
  let inCode = false;
  for (let i = 0; i < text.length && i < limit; i++) {
    const c = text[i];
    if (c === '`') inCode = !inCode;
    if (inCode || i < from) continue;
    if (c === '\n') return i;
    if ((c === '.' || c === ':') && (text[i + 1] === ' ' || text[i + 1] === '\n')) return i + 1;
  }
  return undefined;
}

/**
 * The text cut in two when it is long, else undefined. The cut is the end of its
 * first sentence or line that comes after 40 characters, within the first 300;
 * `head + rest` is the text again (the white space between them is in `rest`).
 */
export function foldText(text: string): FoldedText | undefined {
  if (text.length <= FOLD_CHARACTERS && text.split('\n').length <= FOLD_LINES) return undefined;
  const cut = breakAfter(text, 40, 300);
  if (cut === undefined || text.slice(cut).trim() === '') return undefined;
  return { head: text.slice(0, cut), rest: text.slice(cut) };
}
