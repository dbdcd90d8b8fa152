/**
 * Where an agent's changelog and each of its releases live: the changelog
 * page, its part pages (changelog-parts.ts) and the release anchors every
 * link to a release goes through. Below the page views (history-pages.ts)
 * and the support strip (support.ts), which both link releases.
 */
import { changelogParts, ROW_CHARS, type ChangelogPart } from './changelog-parts.ts';
import type { AgentId, HistoryFile } from '../core/content-types.ts';
import { changelog, type Change, type ChangelogRelease } from './history.ts';
import { diffOfTexts } from './text-diff.ts';
import { agentUrl } from '../site/site.ts';

/** The address of an agent's changelog page. */
export function changelogUrl(agent: AgentId): string {
  return `${agentUrl(agent)}changelog/`;
}

/** The address of a part page of an agent's changelog (changelog-parts.ts): `/<agent>/changelog/2.1/`. */
export function changelogPartUrl(agent: AgentId, slug: string): string {
  return `${changelogUrl(agent)}${slug}/`;
}

/**
 * What one change row weighs against a page's budget: one row, and one more per ROW_CHARS its word-for-word diff shows.
 */
function rowWeight(change: Change): number {
  if (!change.texts) return 1;
  const diff = diffOfTexts(change.texts);
  const shown = diff.parts.reduce((n, p) => n + (p.op === 'skip' ? 0 : p.text.length), 0);
  return 1 + Math.ceil(shown / ROW_CHARS);
}

/** An agent's changelog by release and how it is cut into pages, computed once per list of histories. */
export interface ChangelogPlan {
  releases: ChangelogRelease[];
  /** Undefined when the changelog is one page. */
  parts: ChangelogPart[] | undefined;
  partOf: Map<string, ChangelogPart>;
}
const plans = new WeakMap<readonly HistoryFile[], Map<AgentId, ChangelogPlan>>();

export function changelogPlan(agent: AgentId, histories: readonly HistoryFile[]): ChangelogPlan {
  const byAgent = plans.get(histories) ?? plans.set(histories, new Map()).get(histories)!;
  const known = byAgent.get(agent);
  if (known) return known;
  const releases = changelog(agent, histories);
  const parts = changelogParts(
    releases.map((r) => ({
      release: r.release,
      changes: r.changes.length,
      weight: r.changes.reduce((n, c) => n + rowWeight(c), 0),
    })),
  );
  const partOf = new Map((parts ?? []).flatMap((part) => part.releases.map((r) => [r.release, part] as const)));
  const plan = { releases, parts, partOf };
  byAgent.set(agent, plan);
  return plan;
}

/**
 * Where a release of an agent's changelog is shown: its section of the part
 * page that holds it (`/<agent>/changelog/2.1/#2.1.17`), or of the changelog
 * page when the changelog is one page (`/<agent>/changelog/#0.152.0`). Every
 * link to a release is built here. Links published before the changelog was cut
 * (`/<agent>/changelog/#2.1.17`) still land: the index keeps an element with
 * each release's id, a link to this address.
 */
export function releaseUrl(agent: AgentId, release: string, histories: readonly HistoryFile[]): string {
  const part = changelogPlan(agent, histories).partOf.get(release);
  return part ? `${changelogPartUrl(agent, part.slug)}#${release}` : `${changelogUrl(agent)}#${release}`;
}

/** The address of the Atom feed of an agent's changelog (src/lib/exports/changelog-feed.ts). */
export function changelogFeedUrl(agent: AgentId): string {
  return `${agentUrl(agent)}changelog.xml`;
}
