/**
 * Comparing two releases of a tool from its timeline (`/<agent>/<tool>/timeline.json`,
 * src/lib/exports/tool-timeline.ts): the changes after the first release up to the second, a text
 * that changed several times as one change from its first text to its last, every other change
 * as the changelog words it. Shared by the tool page's comparison (src/scripts/compare-releases.ts,
 * served to the browser as is: no runtime import here) and `agent-tools diff` (src/cli/).
 */

export interface TimelineChange {
  release: string;
  previous: string;
  kind: string;
  field?: string;
  configuration?: string;
  line: { kind: string; path?: string; configuration?: string; from?: string; to?: string };
  fromText?: string;
  toText?: string;
  by?: 'words' | 'lines';
  breaking?: string;
}

export interface TimelineSource {
  source: string;
  package: string;
  releases: { version: string; label: string }[];
  changes: TimelineChange[];
}

export interface Timeline {
  tool: string;
  sources: TimelineSource[];
  texts: Record<string, string>;
}

export const SOURCE_LABELS: Record<string, string> = {
  sdk: 'published SDK types',
  capture: 'what the CLI tells its model',
};

/** The changes of one source after release `from` up to `to` (positions in its releases read), oldest first. */
export function changesBetween(source: TimelineSource, from: string, to: string): TimelineChange[] {
  const place = new Map(source.releases.map((r, i) => [r.version, i]));
  const [a, b] = [place.get(from)!, place.get(to)!].sort((x, y) => x - y) as [number, number];
  return source.changes
    .filter((c) => place.get(c.release)! > a && place.get(c.release)! <= b)
    .sort((x, y) => place.get(x.release)! - place.get(y.release)!);
}

/** A change as the changelog words it; a text change without its texts. */
export function lineText(c: TimelineChange): string {
  const l = c.line;
  let text = l.kind;
  if (l.path !== undefined) text += ` ${l.path}`;
  else if (l.configuration !== undefined) text += ` in ${l.configuration}`;
  if (c.by === undefined) {
    if (l.from !== undefined && l.to !== undefined) text += `: ${l.from} → ${l.to}`;
    else if (l.to !== undefined) text += `: ${l.to}`;
    else if (l.from !== undefined) text += ` (was ${l.from})`;
  }
  return text;
}

/** One item of a comparison: a change as its line, or a text with every change of it in the range. */
export type ComparedItem =
  | { kind: 'line'; change: TimelineChange }
  | { kind: 'text'; changes: TimelineChange[]; before: string; after: string; by: 'words' | 'lines' };

export interface Comparison {
  /** The two releases, oldest first, whichever order they were asked in. */
  older: string;
  newer: string;
  changes: TimelineChange[];
  breaking: number;
  /** In release order; a text at the place of its first change. */
  items: ComparedItem[];
}

/** Which text a text change is of: its kind and field. */
const textKey = (c: TimelineChange) => `${c.kind} ${c.field ?? ''}`;

export function compareReleases(timeline: Timeline, source: TimelineSource, from: string, to: string): Comparison {
  const place = (v: string) => source.releases.findIndex((r) => r.version === v);
  const [older, newer] = place(from) <= place(to) ? [from, to] : [to, from];
  const changes = changesBetween(source, from, to);
  const byText = new Map<string, TimelineChange[]>();
  for (const c of changes) if (c.by !== undefined) byText.set(textKey(c), [...(byText.get(textKey(c)) ?? []), c]);
  const items: ComparedItem[] = [];
  const shown = new Set<string>();
  for (const c of changes) {
    if (c.by === undefined) {
      items.push({ kind: 'line', change: c });
      continue;
    }
    const key = textKey(c);
    if (shown.has(key)) continue;
    shown.add(key);
    const all = byText.get(key)!;
    const first = all[0]!;
    const last = all[all.length - 1]!;
    items.push({
      kind: 'text',
      changes: all,
      before: first.fromText !== undefined ? (timeline.texts[first.fromText] ?? '') : (first.line.from ?? ''),
      after: last.toText !== undefined ? (timeline.texts[last.toText] ?? '') : (last.line.to ?? ''),
      by: c.by,
    });
  }
  return { older, newer, changes, breaking: changes.filter((c) => c.breaking !== undefined).length, items };
}

/** `3 changes of Bash after 2.0.5 up to 2.1.0 (what the CLI tells its model, @…), 1 breaking.` */
export function comparisonSummary(
  timeline: Timeline,
  source: TimelineSource,
  comparison: Comparison,
  label: (version: string) => string,
): string {
  const n = comparison.changes.length;
  return (
    `${n} change${n === 1 ? '' : 's'} of ${timeline.tool} after ${label(comparison.older)} up to ` +
    `${label(comparison.newer)} (${SOURCE_LABELS[source.source] ?? source.source}, ` +
    `${source.package})${comparison.breaking > 0 ? `, ${comparison.breaking} breaking` : ''}.`
  );
}
