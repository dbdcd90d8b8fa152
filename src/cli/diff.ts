/**
 * `agent-tools diff <agent> <tool> <from> <to>`: what changed in a tool's definition between two
 * releases the site read, as the tool page's "Compare two releases" shows it
 * (src/lib/history/release-compare.ts): each changed text word for word, every other change as
 * the changelog words it. The history used is the first of the tool's timeline that read both
 * releases (`--source` chooses). Pure over a Snapshot.
 */
import { compareReleases, comparisonSummary, lineText, type Timeline } from '../lib/history/release-compare.ts';
import type { TextDiff } from '../lib/history/text-diff-parts.ts';
import { textDiff } from '../lib/history/text-diff.ts';
import { findAgent, findTool, NotFound } from './lookup.ts';
import { pageUrl, timelineOf, type Snapshot } from './snapshot.ts';

export interface DiffItem {
  /** The change as the changelog words it. */
  words: string;
  /** The releases it happened in, as readers know them (one, or each change of a text). */
  releases: string[];
  breaking?: string;
  /** For a changed text: the whole text before and after, and its word-for-word diff. */
  before?: string;
  after?: string;
  diff?: TextDiff;
}

export interface DiffAnswer {
  agent: string;
  product: string;
  tool: string;
  /** Which history: `capture` (what the CLI tells its model) or `sdk` (published types), and its package. */
  source: string;
  package: string;
  from: string;
  to: string;
  summary: string;
  breaking: number;
  items: DiffItem[];
  page: string;
}

export function diff(
  snapshot: Snapshot,
  agentName: string,
  toolName: string,
  from: string,
  to: string,
  sourceName?: string,
): DiffAnswer {
  const catalog = snapshot.catalog();
  const agent = findAgent(catalog, agentName);
  const tool = findTool(catalog, agent, toolName);
  const timeline = timelineOf(snapshot, tool) as Timeline | undefined;
  if (!timeline)
    throw new NotFound(
      `No history of ${agent.product} records a change of ${tool.fullName}: there is nothing to compare. ` +
        'Its page says which releases were read.',
    );
  const known = (s: Timeline['sources'][number], v: string) => s.releases.some((r) => r.version === v || r.label === v);
  const candidates = timeline.sources.filter((s) => sourceName === undefined || s.source === sourceName);
  const source = candidates.find((s) => known(s, from) && known(s, to));
  if (!source) {
    const lists = candidates.map(
      (s) =>
        `${s.source} (${s.package}) read ${s.releases.length} releases: ${s.releases.map((r) => r.label).join(', ')}`,
    );
    throw new NotFound(
      `No history of ${tool.fullName} read both ${from} and ${to}` +
        `${sourceName === undefined ? '' : ` in source ${sourceName}`}. ${lists.join('. ') || 'No such source.'}`,
    );
  }
  const version = (v: string) => source.releases.find((r) => r.version === v || r.label === v)!.version;
  const label = (v: string) => source.releases.find((r) => r.version === v)?.label ?? v;
  const comparison = compareReleases(timeline, source, version(from), version(to));
  return {
    agent: agent.id,
    product: agent.product,
    tool: tool.fullName,
    source: source.source,
    package: source.package,
    from: label(comparison.older),
    to: label(comparison.newer),
    summary: comparisonSummary(timeline, source, comparison, label),
    breaking: comparison.breaking,
    items: comparison.items.map((item): DiffItem => {
      if (item.kind === 'line')
        return {
          words: lineText(item.change),
          releases: [label(item.change.release)],
          ...(item.change.breaking === undefined ? {} : { breaking: item.change.breaking }),
        };
      const breaking = item.changes.find((c) => c.breaking !== undefined)?.breaking;
      return {
        words: lineText(item.changes[0]!),
        releases: item.changes.map((c) => label(c.release)),
        ...(breaking === undefined ? {} : { breaking }),
        before: item.before,
        after: item.after,
        diff: textDiff(item.before, item.after, item.by),
      };
    }),
    page: pageUrl(snapshot.info, tool.links.page),
  };
}
