/**
 * Two releases' SDK snapshots → the changes between them (tools added, removed and renamed,
 * then each tool's input and output tables compared by field-diff.ts), sorted. Pure. The
 * rules are those of field-diff.ts, and for tools: a tool (callable name) only in the newer
 * release is one `tool-added`, only in the older one `tool-removed` (its fields are not listed
 * one by one); a tool removed and a tool added in the same comparison is a rename when the
 * package states it (a former name in scripts/claude-sdk-names.json) or when both have
 * identical rows on both sides and neither matches another tool so: one `renamed` event
 * (`tool` the new name, `from`/`to` the names), then the new tool's rows compared with the
 * old one's.
 */
import { historyEvent, sortEvents, type HistoryEvent } from './events.ts';
import { tableEvents } from './field-diff.ts';
import type { RowSnapshot } from './rows.ts';
import type { ReleaseSnapshot } from './sdk-snapshot.ts';

/** Two versions of a tool with identical rows on both sides (what a rename without a statement must keep). */
function sameRows(
  a: { input: readonly RowSnapshot[]; output: readonly RowSnapshot[] | null },
  b: { input: readonly RowSnapshot[]; output: readonly RowSnapshot[] | null },
): boolean {
  return JSON.stringify([a.input, a.output]) === JSON.stringify([b.input, b.output]);
}

/**
 * Tools renamed between two releases (the rule above): `stated` maps a former name to the
 * name the package gives it now (a rename the package states); other pairs of a removed and
 * an added tool are renames when their rows are identical and neither matches another tool.
 */
export function renamedTools(
  before: ReleaseSnapshot,
  after: ReleaseSnapshot,
  stated: ReadonlyMap<string, string> = new Map(),
): { from: string; to: string }[] {
  const removed = Object.keys(before.tools).filter((t) => !after.tools[t]);
  const added = Object.keys(after.tools).filter((t) => !before.tools[t]);
  const out: { from: string; to: string }[] = [];
  const taken = new Set<string>();
  for (const from of removed) {
    const to = stated.get(from);
    if (to !== undefined && added.includes(to)) {
      out.push({ from, to });
      taken.add(from).add(to);
    }
  }
  for (const from of removed) {
    if (taken.has(from)) continue;
    const matches = added.filter((to) => !taken.has(to) && sameRows(before.tools[from]!, after.tools[to]!));
    if (matches.length !== 1) continue;
    const to = matches[0]!;
    const back = removed.filter((x) => !taken.has(x) && sameRows(before.tools[x]!, after.tools[to]!));
    if (back.length === 1) out.push({ from, to });
  }
  return out;
}

/**
 * Every change from `before` (release `previous`) to `after` (release `release`), sorted.
 * `stated`: former tool names the package states, each with its current name.
 */
export function diffReleases(
  before: ReleaseSnapshot,
  after: ReleaseSnapshot,
  previous: string,
  release: string,
  stated?: ReadonlyMap<string, string>,
): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  const renames = renamedTools(before, after, stated);
  const formerOf = new Map(renames.map((r) => [r.to, r.from]));
  const renamedAway = new Set(renames.map((r) => r.from));
  for (const { from, to } of renames) out.push(historyEvent(release, previous, to, 'renamed', { from, to }));
  const names = [...new Set([...Object.keys(before.tools), ...Object.keys(after.tools)])].filter(
    (t) => !renamedAway.has(t),
  );
  for (const tool of names) {
    const was = before.tools[formerOf.get(tool) ?? tool];
    const now = after.tools[tool];
    if (!was) {
      out.push(historyEvent(release, previous, tool, 'tool-added'));
      continue;
    }
    if (!now) {
      out.push(historyEvent(release, previous, tool, 'tool-removed'));
      continue;
    }
    const at = { release, previous, tool };
    out.push(...tableEvents(was.input, now.input, 'input', at));
    // A result type that appears (or goes) shows as its rows being added (or removed).
    out.push(...tableEvents(was.output ?? [], now.output ?? [], 'output', at));
  }
  return sortEvents(out);
}
