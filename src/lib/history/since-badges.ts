/**
 * Which rows of a field table show their "since" badge. A field added with
 * fields below it is one addition (one note, history.ts `foldTarget`): its
 * topmost row shows the badge, and the rows below it, added with it, show none
 * (the badge above covers them; a table of a result with a dozen variants
 * would otherwise repeat one badge on every row). A row below it that was
 * added later (another note) shows its own.
 */
import type { Since } from './history.ts';

export interface BadgeRow {
  id: string;
  depth: number;
}

/** The ids of the rows that show a badge, given each row's since (rows in table order, depth from 0). */
export function badgedRows(rows: readonly BadgeRow[], since: ReadonlyMap<string, Since> | undefined): Set<string> {
  const out = new Set<string>();
  if (!since) return out;
  // The rows above the current one, one per depth: the path from the table's top.
  const above: (Since | undefined)[] = [];
  for (const row of rows) {
    above.length = row.depth;
    const s = since.get(row.id);
    const parent = row.depth > 0 ? above[row.depth - 1] : undefined;
    if (s?.kind === 'field' && !(parent?.kind === 'field' && parent.note === s.note)) out.add(row.id);
    above[row.depth] = s;
  }
  return out;
}
