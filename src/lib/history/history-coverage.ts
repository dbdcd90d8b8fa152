/**
 * Which tools with a page a capture history follows. A history (scripts/history-captures.ts)
 * compares, release after release, only the configurations its plan names
 * (`captureHistory.configurations` in src/lib/agents/<agent>.ts); a tool that only other
 * configurations advertise has no history, so its page cannot say when it came. This module
 * says, per tool page, which configurations of the pinned captures advertise it and whether
 * the plan follows one of them, and which configurations, added to the plan, would make every
 * untracked tool tracked. Pure: scripts/history-coverage.ts feeds it the committed captures
 * and the site's model.
 */

/** One tool page, with every name a capture may advertise it by. */
export interface CoveragePage {
  fullName: string;
  /** Its full name and the names it answers to (aliases, former names). */
  names: readonly string[];
  /** The page of a naming family (the MCP family page), whose captured instances are tools of our own stub server. */
  family: boolean;
}

export interface CoverageInput {
  pages: readonly CoveragePage[];
  /**
   * Configuration id → full names its pinned capture advertises (deferred namespaces whose tools it does not send
   * left out), in matrix order.
   */
  advertised: ReadonlyMap<string, readonly string[]>;
  /** The names of a family page's instances: a tool of the stub MCP server. */
  isFamilyInstance: (name: string) => boolean;
  /** The configurations the history follows. */
  followed: readonly string[];
  /** Configurations proposed for the plan that the history has not been run with yet. */
  proposed?: readonly string[];
  /** Declared reasons: full name → why the history cannot follow a configuration that advertises the tool. */
  declared?: Readonly<Record<string, string>>;
}

export type ToolCoverage = {
  tool: string;
  /** The configurations whose pinned capture advertises the tool, in matrix order. */
  by: string[];
} /** A configuration the history follows advertises it. */ & (
  | { status: 'tracked' }
  /** Only configurations proposed for the plan (not run yet) advertise it. */
  | { status: 'proposed' }
  /** The plan says why no configuration that advertises it is followed. */
  | { status: 'declared'; reason: string }
  /**
   * No configuration of the capture matrix advertises it (a page from published types or documentation only): no
   * capture history can follow it.
   */
  | { status: 'not-captured' }
  /**
   * A family page (MCP): its instances are our stub server's tools, not the CLI's, and a history follows the CLI's own
   * tools.
   */
  | { status: 'family' }
  /** Advertised, but by no configuration the history follows, and no reason is declared. */
  | { status: 'untracked' }
);

/** How each page fares, in page order. */
export function historyCoverage(input: CoverageInput): ToolCoverage[] {
  const followed = new Set(input.followed);
  const proposed = new Set(input.proposed ?? []);
  return input.pages.map((page): ToolCoverage => {
    const names = new Set(page.names);
    const advertises = (tools: readonly string[]): boolean =>
      tools.some((t) => (page.family ? input.isFamilyInstance(t) : names.has(t)));
    const by = [...input.advertised].filter(([, tools]) => advertises(tools)).map(([config]) => config);
    const tool = page.fullName;
    if (page.family) return { tool, by, status: 'family' };
    if (by.length === 0) return { tool, by, status: 'not-captured' };
    if (by.some((c) => followed.has(c))) return { tool, by, status: 'tracked' };
    const reason = input.declared?.[tool];
    if (reason !== undefined) return { tool, by, status: 'declared', reason };
    if (by.some((c) => proposed.has(c))) return { tool, by, status: 'proposed' };
    return { tool, by, status: 'untracked' };
  });
}

/**
 * The fewest configurations that together advertise every tool of `tools` (each with the
 * configurations that advertise it, none empty); among covers of that size, the first in
 * `order` (matrix order, compared configuration by configuration). Exact: a configuration
 * that alone advertises some tool is taken first, then covers of the rest are tried by size.
 * Returned in `order`.
 */
export function fewestConfigurations(
  tools: readonly { tool: string; by: readonly string[] }[],
  order: readonly string[],
): string[] {
  const rank = (c: string): number => (order.indexOf(c) === -1 ? order.length : order.indexOf(c));
  for (const t of tools) if (t.by.length === 0) throw new Error(`no configuration advertises ${t.tool}`);
  const forced = new Set(tools.filter((t) => t.by.length === 1).map((t) => t.by[0]!));
  const rest = tools.filter((t) => !t.by.some((c) => forced.has(c)));
  const candidates = [...new Set(rest.flatMap((t) => t.by))].sort((a, b) => rank(a) - rank(b));
  const covers = (chosen: readonly string[]): boolean => rest.every((t) => t.by.some((c) => chosen.includes(c)));
  let best: string[] = [];
  if (rest.length > 0) {
    search: for (let size = 1; size <= candidates.length; size++) {
      for (const combination of combinations(candidates, size)) {
        if (covers(combination)) {
          best = combination;
          break search;
        }
      }
    }
  }
  return [...forced, ...best].sort((a, b) => rank(a) - rank(b));
}

/** The `size`-element combinations of `items`, in lexicographic order of positions. */
function* combinations<T>(items: readonly T[], size: number): Generator<T[]> {
  const picked: number[] = [];
  function* from(start: number): Generator<T[]> {
    if (picked.length === size) {
      yield picked.map((i) => items[i]!);
      return;
    }
    for (let i = start; i <= items.length - (size - picked.length); i++) {
      picked.push(i);
      yield* from(i + 1);
      picked.pop();
    }
  }
  yield* from(0);
}
