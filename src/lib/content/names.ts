/**
 * Names that come from outside the project — tool names in captures, history
 * events and inventories, aliases, job titles — are checked once, where they
 * enter, so that every later use (page titles, ids, generated code and
 * comments, search metadata) can rely on plain printable text of bounded
 * length. Escaping still happens wherever text lands; this check keeps
 * invisible or line-breaking characters from ever reaching a page as a name.
 */
import type { Problems } from './problems.ts';

/** Upper bounds in characters (code points). Today's longest tool name has 39, the longest job title 42. */
export const NAME_LENGTH = {
  /** Tool names, aliases, namespaces, inventory names, field names in history events. */
  name: 128,
  /** Titles written by the project (jobs). */
  title: 160,
} as const;

/**
 * Characters a name may not hold: controls (Cc: newline, tab, NUL, escape…),
 * format characters (Cf: zero-width joiners, bidirectional overrides that
 * reorder what a reader sees), line and paragraph separators (Zl, Zp: line
 * breaks in JavaScript), surrogates, private use and unassigned code points.
 */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/u;

/** Why `name` cannot be used as a name, or undefined when it can. */
export function nameProblem(name: string, maxLength: number = NAME_LENGTH.name): string | undefined {
  if (name.length === 0) return 'is empty';
  const bad = NOT_PRINTABLE.exec(name);
  if (bad)
    return (
      `holds the unprintable character ` +
      `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at position ` +
      `${[...name.slice(0, bad.index)].length}`
    );
  if (/^\s|\s$/u.test(name)) return 'starts or ends with white space';
  const length = [...name].length;
  if (length > maxLength) return `has ${length} characters; at most ${maxLength} are allowed`;
  return undefined;
}

/** `nameProblem` as text for an error message: the name quoted (shortened if long) and the reason. */
export function describeNameProblem(what: string, name: string, problem: string): string {
  const shown = [...name].length > 60 ? `${[...name].slice(0, 60).join('')}…` : name;
  return `${what} ${JSON.stringify(shown)} ${problem}`;
}

/** Reports a name that fails `nameProblem` as one `name-printable` error; true when the name is fine. */
export function checkName(
  problems: Problems,
  place: { file: string; pointer: string },
  what: string,
  name: string,
  maxLength: number = NAME_LENGTH.name,
): boolean {
  const problem = nameProblem(name, maxLength);
  if (problem) problems.error(place.file, place.pointer, 'name-printable', describeNameProblem(what, name, problem));
  return problem === undefined;
}
