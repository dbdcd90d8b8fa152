/**
 * How an agent's changelog is cut into pages, decided from its releases and
 * their counts of changes only (pure; history-pages.ts builds the pages).
 *
 * The rule:
 * - A changelog of at most `CHANGES_PER_PAGE` change rows is one page,
 *   `/<agent>/changelog/`, as it always was: a short changelog (Codex, Gemini
 *   CLI today) reads best whole, and splitting it would only add clicks.
 * - A longer one becomes an index at `/<agent>/changelog/` and one part page
 *   per minor version line (`2.1`, `2.0`, `1.0`: the first two numbers of the
 *   release label), newest first, at `/<agent>/changelog/<major.minor>/`.
 * - A line that alone holds more than `CHANGES_PER_PAGE` rows is cut into
 *   blocks of a hundred patch numbers (`2.1.100-199`), and a block still over
 *   the budget into blocks of fifty, ten, five, then single releases. Blocks are fixed
 *   ranges of release numbers, not "the next N releases": a release stays on
 *   the same page when newer releases arrive in a block of their own. (When a
 *   line first passes the budget, its releases move from `2.1/` to blocks; the
 *   index at `/<agent>/changelog/` still has every release's anchor.)
 *
 * Why a budget in change rows rather than bytes: the rows are what makes a
 * page long, and the cut must be known before any page is rendered, since tool
 * pages and the feed link into the parts. Measured on the built changelogs: a
 * row is 250 to 300 bytes of HTML, the page's frame (Starlight's sidebar of
 * every tool, head, "On this page") about 31 KB; 500 rows make a page of about
 * 180 KB, room for longer rows under the 250 KB budget. The bytes themselves
 * are checked after the build (`PAGE_BUDGET_BYTES`, test/e2e/links.test.ts).
 */

/**
 * No built HTML page may be larger than this (checked over dist/ by test/e2e/links.test.ts):
 * 250 KiB, the budget the site has kept since its first size test. The largest tool page
 * (Claude Code's Artifact, a result union of many variants) is close to it.
 */
export const PAGE_BUDGET_BYTES = 250 * 1024;

/** The most change rows one changelog page lists (see the module comment). */
export const CHANGES_PER_PAGE = 500;

/** The widths of the blocks a line over the budget is cut into, in patch numbers, each dividing the one before. */
const BLOCK_WIDTHS = [100, 50, 10, 5, 1];

/** A release of a changelog with its number of change rows. */
export interface ReleaseCount {
  release: string;
  changes: number;
  /**
   * What its rows weigh against the budget, when some weigh more than one: a row that shows a
   * changed text word for word counts as many rows as its diff is long (`ROW_CHARS` a row).
   */
  weight?: number;
}

/**
 * The characters of HTML a plain change row takes (see the module comment): a diff counts one row per this many
 * characters shown.
 */
export const ROW_CHARS = 275;

/** One part page of a changelog. */
export interface ChangelogPart {
  /** Its path segment under `/<agent>/changelog/`: `2.1`, or `2.1.100-199` for a block of a line. */
  slug: string;
  /** What the index and the page's title call it: `2.1`, `2.1.100 – 2.1.199`. */
  label: string;
  /** Its releases, in the order given (newest first). */
  releases: ReleaseCount[];
  /** Its change rows, all releases together. */
  changes: number;
}

interface Parsed {
  line: string;
  patch: number;
}

/**
 * The minor line of a release label and its patch number: `2.1.17` → `2.1`,
 * 17. A label with fewer numbers is its own line with patch 0 (`3` → `3`);
 * anything after the third number (`-beta.1`) is ignored. A label that does
 * not start with a number goes to the line `other` (a label is never put in a
 * URL path as it is).
 */
export function releaseLine(release: string): Parsed {
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(release);
  if (!m) return { line: 'other', patch: 0 };
  return { line: m[2] === undefined ? m[1]! : `${m[1]}.${m[2]}`, patch: m[3] === undefined ? 0 : Number(m[3]) };
}

const total = (releases: readonly ReleaseCount[]) => releases.reduce((n, r) => n + r.changes, 0);
const weight = (releases: readonly ReleaseCount[]) => releases.reduce((n, r) => n + (r.weight ?? r.changes), 0);

/** A block of patch numbers `[start, start + width)` of a line. */
function block(line: string, start: number, width: number, releases: ReleaseCount[]): ChangelogPart {
  if (width === 1) return { slug: `${line}.${start}`, label: `${line}.${start}`, releases, changes: total(releases) };
  const end = start + width - 1;
  return {
    slug: `${line}.${start}-${end}`,
    label: `${line}.${start} – ${line}.${end}`,
    releases,
    changes: total(releases),
  };
}

/** Cut one line (or block) over the budget into blocks of `BLOCK_WIDTHS[level]` patch numbers, recursively. */
function cut(line: string, releases: ReleaseCount[], level: number, budget: number): ChangelogPart[] {
  const width = BLOCK_WIDTHS[level]!;
  const blocks = new Map<number, ReleaseCount[]>();
  for (const r of releases) {
    const start = Math.floor(releaseLine(r.release).patch / width) * width;
    blocks.set(start, [...(blocks.get(start) ?? []), r]);
  }
  return [...blocks].flatMap(([start, rs]) =>
    width > 1 && weight(rs) > budget ? cut(line, rs, level + 1, budget) : [block(line, start, width, rs)],
  );
}

/**
 * The part pages of a changelog whose releases are given newest first, in that
 * order; `undefined` when the whole changelog fits one page.
 */
export function changelogParts(
  releases: readonly ReleaseCount[],
  budget = CHANGES_PER_PAGE,
): ChangelogPart[] | undefined {
  if (weight(releases) <= budget) return undefined;
  const lines = new Map<string, ReleaseCount[]>();
  for (const r of releases) {
    const { line } = releaseLine(r.release);
    lines.set(line, [...(lines.get(line) ?? []), r]);
  }
  return [...lines].flatMap(([line, rs]) =>
    weight(rs) > budget ? cut(line, rs, 0, budget) : [{ slug: line, label: line, releases: rs, changes: total(rs) }],
  );
}
