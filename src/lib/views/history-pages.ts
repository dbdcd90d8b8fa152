/**
 * What the pages built from release histories show, decided from the site
 * model: an agent's changelog, the version history of a tool page, and the page
 * of a tool the history saw removed. The pages and components only render these;
 * headings and "On this page" come from one list of sections.
 */
import type { ChangelogPart } from '../history/changelog-parts.ts';
import type { AgentId, EditorialTool } from '../core/content-types.ts';
import { failedRuns, type FailedRun } from '../history/failed-releases.ts';
import {
  comparison,
  coverage,
  historyNames,
  linkableAnchors,
  spanHeading,
  spanKey,
  tableRoot,
  type Change,
  type ChangelogRelease,
  type HistorySource,
} from '../history/history.ts';
import { toolSlug } from '../content/url-names.ts';
import { pageAnchors, type RemovedTool, type SiteModel, type ToolModel } from '../model/model.ts';
import { type AgentBundle, agentBundle, agentBundles } from '../model/bundles.ts';
import type { PageSection } from '../core/page-sections.ts';
import { agentFilter, searchFields, type SearchFields } from './search.ts';
import { AGENT_LABELS, agentUrl, sitePath, toolUrl } from '../site/site.ts';
import { behaviourChangelog, type BehaviourChangelog } from '../behaviour/hook-behaviour.ts';
import { untrackedText } from './support.ts';
import { diffOfTexts, type TextDiff } from '../history/text-diff.ts';
import { breakingReason } from '../history/breaking.ts';
import { TIMELINE_FILE } from '../site/export-files.ts';
import {
  changelogFeedUrl,
  changelogPartUrl,
  changelogPlan,
  changelogUrl,
  releaseUrl,
} from '../history/changelog-addresses.ts';

/** One computed change of a changelog, with the release it belongs to. */
export type ChangelogChange = ChangelogRelease['changes'][number];

/** Which releases a history compared, named by what it compared. */
export interface CoverageLine {
  label: string;
  package: string;
  count: number;
  /** The agent releases covered, first to last. */
  first: string;
  last: string;
  /**
   * When older releases were read from another package: each package in
   * order, with its own release numbers and, when they are not the agent's,
   * the agent releases they go with (`agent`).
   */
  parts?: { package: string; count: number; first: string; last: string; agent?: { first: string; last: string } }[];
  /**
   * Releases read in which compared configurations could not be captured, with the reasons, as runs of releases failing
   * alike (failed-releases.ts).
   */
  failed?: FailedRun[];
}

function coverageLines(
  agent: AgentId,
  histories: SiteModel['histories'],
  labels: Record<HistorySource, string>,
): CoverageLine[] {
  // Callers with every agent's histories (a test, a cross-agent page) get this agent's, in coverage()'s order.
  const files = histories.filter((h) => h.agent === agent);
  return coverage(agent, histories).map((c, i) => {
    const line: CoverageLine = {
      label: labels[c.source],
      package: c.package,
      count: c.count,
      first: c.first,
      last: c.last,
    };
    const failed = failedRuns(files[i]!);
    if (failed.length > 0) line.failed = failed;
    if (c.lines.length > 1) {
      line.parts = c.lines.map((l) => {
        const part: NonNullable<CoverageLine['parts']>[number] = {
          package: l.package,
          count: l.count,
          first: l.first,
          last: l.last,
        };
        if (l.first !== l.firstLabel || l.last !== l.lastLabel) part.agent = { first: l.firstLabel, last: l.lastLabel };
        return part;
      });
    }
    return line;
  });
}

function feedLinks(url: string, title: string): ChangelogPage['feed'] {
  return {
    url,
    title,
    head: [{ tag: 'link', attrs: { rel: 'alternate', type: 'application/atom+xml', title, href: url } }],
  };
}

/** What every changelog page of an agent has: a one-page changelog, a cut one's index and its parts. */
interface ChangelogFrame {
  title: string;
  description: string;
  /** The agent's hook behaviour over releases, where it has that history. */
  behaviour?: BehaviourChangelog | undefined;
  /** The search dialog's `agent` filter value (search.ts). */
  searchAgent: string;
  /** The page's sections, newest first: its headings, and in "On this page" with their counts of changes. */
  sections: PageSection[];
  coverage: CoverageLine[];
  /** The Atom feed of the agent's releases: linked from the page, and from its head (a Starlight `head` entry). */
  feed: { url: string; title: string; head: { tag: 'link'; attrs: Record<string, string> }[] };
}

/** A changelog of releases: one section per release. */
export interface ChangelogPage extends ChangelogFrame {
  releases: {
    section: PageSection;
    /**
     * One block per source (the releases it compared, said once), one item per tool. `between`:
     * set when the history cannot tell that its changes came exactly in this release (event-span.ts):
     * the last release known without them, and why the releases after it cannot tell.
     */
    groups: {
      evidence: string;
      between?: { previous: string; why: string | undefined };
      tools: { name: string; url: string | undefined; changes: ChangeView[] }[];
    }[];
  }[];
}

/**
 * One change as a changelog lists it: its line's links, its text word for word, and why it breaks callers
 * (breaking.ts).
 */
export interface ChangeView {
  change: ChangelogChange;
  fieldHref: string | undefined;
  fromHref?: string;
  toHref?: string;
  diff?: TextDiff;
  breaking?: string;
}

/** The agent's hook behaviour over releases, for its changelog (hook-behaviour.ts). */
function behaviourOf(site: SiteModel, id: AgentId): BehaviourChangelog | undefined {
  return behaviourChangelog(site, id, sitePath(`/${id}/hooks/`));
}

/** The agents that have a changelog: those with a computed history. */
export function changelogAgents(site: SiteModel): SiteModel['agents'] {
  return [...agentBundles(site).values()].filter((b) => b.histories.length > 0).map((b) => b.record);
}

/** One release section of a changelog page. */
export type ReleaseView = ChangelogPage['releases'][number];

/** The word-for-word change of a changed description or definition (text-diff.ts). */
function diffOf(change: Change): { diff?: TextDiff } {
  return change.texts ? { diff: diffOfTexts(change.texts) } : {};
}

/** How a changelog links a change: to the tool by any name it had, to a field's anchor, to both names of a rename. */
function changeLinks(bundle: AgentBundle) {
  const { tools, histories } = bundle;
  // A tool by any name it has or had: events before a rename use its old name.
  const namesOf = new Map(tools.map((t) => [t, historyNames(t, histories)]));
  const toolNamed = (name: string) =>
    tools.find(
      (t) => t.fullName === name || t.generated.aliases.some((a) => a.kind !== 'sdk-type' && a.name === name),
    ) ?? tools.find((t) => namesOf.get(t)!.has(name));
  const anchors = new Map<ToolModel, Set<string>>();
  const linkable = (tool: ToolModel) => anchors.get(tool) ?? anchors.set(tool, linkableAnchors(tool)).get(tool)!;
  const fieldHref = (tool: ToolModel | undefined, c: ChangelogChange): string | undefined => {
    if (!tool || c.event.field === undefined) return undefined;
    const anchor = tableRoot(tool, c.source, c.event.side) + c.event.field;
    return linkable(tool).has(anchor) ? `${toolUrl(tool)}#${anchor}` : undefined;
  };
  /**
   * A rename links both names: the old one (a tool's redirect page, a field's old anchor on the note of its rename) and
   * the new one.
   */
  const renameHrefs = (tool: ToolModel | undefined, c: ChangelogChange): { fromHref?: string; toHref?: string } => {
    if (!tool || c.event.kind !== 'renamed') return {};
    const out: { fromHref?: string; toHref?: string } = {};
    if (c.event.field === undefined) {
      const slug = c.event.from !== undefined ? toolSlug(c.event.from) : undefined;
      if (slug !== undefined && (tool.redirectSlugs ?? []).includes(slug))
        out.fromHref = `${agentUrl(tool.agent)}${slug}/`;
      const to = c.event.to !== undefined ? toolNamed(c.event.to) : undefined;
      if (to) out.toHref = toolUrl(to);
      return out;
    }
    const href = fieldHref(tool, c);
    if (href) out.toHref = href;
    if (c.event.formerField !== undefined) {
      const former = tableRoot(tool, c.source, c.event.side) + c.event.formerField;
      if (linkable(tool).has(former)) out.fromHref = `${toolUrl(tool)}#${former}`;
    }
    return out;
  };
  return { toolNamed, fieldHref, renameHrefs };
}

/** One release's section: its changes grouped by the comparison that found them, then by tool. */
function releaseView(r: ChangelogRelease, links: ReturnType<typeof changeLinks>): ReleaseView {
  const { toolNamed, fieldHref, renameHrefs } = links;
  // Changes the history places exactly in this release first, then those it cannot tell apart from earlier releases.
  const ordered = [...r.changes].sort((a, b) => Number(!a.span.exact) - Number(!b.span.exact));
  const bySource = new Map<
    string,
    { evidence: string; first: ChangelogChange; byTool: Map<string, ChangelogChange[]> }
  >();
  for (const c of ordered) {
    const evidence = comparison(c);
    const key = `${evidence}\n${spanKey(c.span)}`;
    const group = bySource.get(key) ?? { evidence, first: c, byTool: new Map<string, ChangelogChange[]>() };
    group.byTool.set(c.tool, [...(group.byTool.get(c.tool) ?? []), c]);
    bySource.set(key, group);
  }
  return {
    section: { id: r.release, title: r.release, depth: 2 as const, tocTitle: `${r.release} (${r.changes.length})` },
    groups: [...bySource.values()].map(({ evidence, first, byTool }) => ({
      evidence,
      ...(first.span.exact ? {} : { between: { previous: first.span.previous, why: spanHeading(first.span).why } }),
      tools: [...byTool].map(([name, changes]) => {
        const tool = toolNamed(name);
        return {
          name,
          url: tool && toolUrl(tool),
          changes: changes.map((change): ChangeView => {
            const breaking = breakingReason(change.event);
            return {
              change,
              fieldHref: fieldHref(tool, change),
              ...renameHrefs(tool, change),
              ...diffOf(change),
              ...(breaking ? { breaking } : {}),
            };
          }),
        };
      }),
    })),
  };
}

/**
 * The sections of the given releases of an agent's changelog, as a changelog page (and the page of changes across
 * agents) lists them.
 */
export function releaseViews(bundle: AgentBundle, releases: readonly ChangelogRelease[]): ReleaseView[] {
  const links = changeLinks(bundle);
  return releases.map((r) => releaseView(r, links));
}

/**
 * Every release of an agent's changelog on one page: what `/<agent>/changelog/`
 * shows when the changelog is one page, and what its Atom feed lists in any case.
 */
export function changelogPage(site: SiteModel, id: AgentId): ChangelogPage {
  const bundle = agentBundle(site, id);
  const { record: agent, histories } = bundle;
  const releases = releaseViews(bundle, changelogPlan(id, histories).releases);
  return {
    title: `${AGENT_LABELS[id]} changelog`,
    description: `Every tool and field change of ${agent.product}, by release`,
    searchAgent: agentFilter(id),
    sections: releases.map((r) => r.section),
    coverage: coverageLines(id, histories, { sdk: 'SDK types', capture: 'Captures' }),
    feed: feedLinks(changelogFeedUrl(id), `${AGENT_LABELS[id]} changelog (Atom)`),
    releases,
    behaviour: behaviourOf(site, id),
  };
}

/** A part page of a cut changelog: the releases of one minor line (or block of it), with its neighbours. */
export interface ChangelogPartPage extends ChangelogPage {
  slug: string;
  label: string;
  /** The releases it holds, as its opening sentence names them: `2.0.x`, `2.1.100 – 2.1.199`. */
  scope: string;
  indexUrl: string;
  /** The parts before and after it in the index (newer first), when there are. */
  newer: { label: string; url: string } | undefined;
  older: { label: string; url: string } | undefined;
}

/**
 * The index `/<agent>/changelog/` of a cut changelog: one section per part, and an element per release for old links.
 */
export interface ChangelogIndex extends ChangelogFrame {
  parts: {
    section: PageSection;
    label: string;
    url: string;
    changes: number;
    /** Every release of the part with changes: its old anchor (`id`) and where it is now. */
    releases: { id: string; url: string; changes: number }[];
  }[];
}

/** What `/<agent>/changelog/` shows and the part pages under it: one page, or an index and its parts. */
export type ChangelogPages =
  | { kind: 'single'; page: ChangelogPage; parts: [] }
  | { kind: 'index'; page: ChangelogIndex; parts: ChangelogPartPage[] };

/** One part of a changelog's index: its heading, its link, and its releases with their change counts. */
function indexPart(id: AgentId, part: ChangelogPart): ChangelogIndex['parts'][number] {
  const url = changelogPartUrl(id, part.slug);
  const n = part.releases.length;
  return {
    section: {
      id: `line-${part.slug}`,
      title: part.label,
      depth: 2,
      tocTitle: `${part.label} (${n} release${n === 1 ? '' : 's'})`,
    },
    label: part.label,
    url,
    changes: part.changes,
    releases: part.releases.map((r) => ({ id: r.release, url: `${url}#${r.release}`, changes: r.changes })),
  };
}

/**
 * An agent's changelog pages, computed once per model: the index and the part pages' routes each ask for all of them.
 */
const computedPages = new WeakMap<SiteModel, Map<AgentId, ChangelogPages>>();

export function changelogPages(site: SiteModel, id: AgentId): ChangelogPages {
  const byAgent = computedPages.get(site) ?? computedPages.set(site, new Map()).get(site)!;
  const known = byAgent.get(id);
  if (known) return known;
  const pages = computeChangelogPages(site, id);
  byAgent.set(id, pages);
  return pages;
}

function computeChangelogPages(site: SiteModel, id: AgentId): ChangelogPages {
  const bundle = agentBundle(site, id);
  const { record: agent, histories } = bundle;
  const plan = changelogPlan(id, histories);
  if (!plan.parts) return { kind: 'single', page: changelogPage(site, id), parts: [] };
  const label = AGENT_LABELS[id];
  const feed = feedLinks(changelogFeedUrl(id), `${label} changelog (Atom)`);
  const coverage = coverageLines(id, histories, { sdk: 'SDK types', capture: 'Captures' });
  const byRelease = new Map(plan.releases.map((r) => [r.release, r]));
  const parts = plan.parts;
  const link = (part: ChangelogPart | undefined) => part && { label: part.label, url: changelogPartUrl(id, part.slug) };
  const index: ChangelogIndex = {
    behaviour: behaviourOf(site, id),
    title: `${label} changelog`,
    description: `Every tool and field change of ${agent.product}, by release, one page per minor version`,
    searchAgent: agentFilter(id),
    sections: [],
    coverage,
    feed,
    parts: parts.map((part) => indexPart(id, part)),
  };
  index.sections = index.parts.map((p) => p.section);
  return {
    kind: 'index',
    page: index,
    parts: parts.map((part, i) => {
      const releases = releaseViews(
        bundle,
        part.releases.map((r) => byRelease.get(r.release)!),
      );
      return {
        title: `${label} changelog: ${part.label}`,
        description: `Every tool and field change of ${agent.product} ${part.label}, by release`,
        searchAgent: agentFilter(id),
        sections: releases.map((r) => r.section),
        coverage,
        feed,
        releases,
        slug: part.slug,
        label: part.label,
        scope: /^\d+\.\d+$/.test(part.slug) ? `${part.label}.x` : part.label,
        indexUrl: changelogUrl(id),
        newer: link(parts[i - 1]),
        older: link(parts[i + 1]),
      };
    }),
  };
}

/** A tool's "Version history": computed notes by release, then the notes from documentation. */
export interface VersionHistoryView {
  coverage: CoverageLine[];
  changelogUrl: string;
  notes: {
    release: string;
    releaseUrl: string;
    /** Set when the history cannot tell that these changes came exactly in `release` (event-span.ts). */
    between?: { previous: string; why: string | undefined };
    evidence: string;
    /** `toHref`: a renamed field's new row. */
    items: { id: string | undefined; change: Change; fieldHref: string | undefined; toHref?: string; folded: number }[];
  }[];
  documented: NonNullable<EditorialTool['versionNotes']>;
  /**
   * Per capture history that follows no configuration advertising the tool: why it has no history there (support.ts
   * untrackedText).
   */
  untracked: string[];
  /**
   * The tool's timeline file (relative to its page), for "Compare two releases": set when a history records a change of
   * it.
   */
  compareTimeline?: string;
  /** How many of `notes` (the newest) are shown open; the older ones fold behind one line. */
  open: number;
}

/**
 * Release groups of a version history shown before the fold: the newest ones, which
 * most readers come for. Bash's 40 groups of Claude Code filled six screens; the
 * older ones stay one click away, and a link to one of their notes opens the fold.
 */
export const OPEN_RELEASE_GROUPS = 4;

/**
 * The section from the tool's version notes and untracked configurations (its history facts, computed when content is
 * loaded) and its agent's histories, which the coverage sentence names.
 */
export function versionHistory(tool: ToolModel, agent: Pick<AgentBundle, 'record' | 'histories'>): VersionHistoryView {
  const present = pageAnchors(tool);
  const { notes: groups, untracked } = tool.facts.history;
  return {
    coverage: coverageLines(agent.record.id, agent.histories, {
      sdk: 'published SDK types',
      capture: 'what the CLI tells its model',
    }),
    changelogUrl: changelogUrl(agent.record.id),
    ...(groups.length > 0 ? { compareTimeline: TIMELINE_FILE } : {}),
    notes: groups.map((group) => ({
      release: group.release,
      releaseUrl: group.releaseUrl,
      ...(group.span.exact ? {} : { between: { previous: group.span.previous, why: spanHeading(group.span).why } }),
      evidence: group.evidence,
      items: group.items.map((n) => {
        const fieldHref = n.anchor && present.has(n.anchor) ? `#${n.anchor}` : undefined;
        return {
          id: n.id,
          change: n,
          fieldHref,
          ...(n.event.kind === 'renamed' && fieldHref ? { toHref: fieldHref } : {}),
          folded: n.folded,
        };
      }),
    })),
    documented: tool.editorial?.versionNotes ?? [],
    untracked: untracked.map(untrackedText),
    open: Math.min(groups.length, OPEN_RELEASE_GROUPS),
  };
}

export type RemovedSectionId = 'version-notes' | 'provenance';

/** The page of a tool a computed history saw removed. */
export interface RemovedToolPage {
  title: string;
  description: string;
  sections: PageSection<RemovedSectionId>[];
  tool: RemovedTool;
  agent: string;
  /** Its search result's title (`<name> — <agent>, removed in <release>`), agent filter and name as spelled. */
  search: SearchFields;
  removedInUrl: string;
  /** What the history compared, as the sentence names it. */
  source: string;
  history: {
    section: PageSection<RemovedSectionId>;
    changes: { release: string; releaseUrl: string; change: ChangelogChange }[];
  };
  provenance: { section: PageSection<RemovedSectionId>; file: string };
}

/** When a removed tool went: `in 0.152.0`, or `between 0.150.0 and 0.152.0` when the history cannot tell exactly. */
export function removedWhen(tool: Pick<RemovedTool, 'removedExactly' | 'lastSeen' | 'removedIn'>): string {
  return tool.removedExactly ? `in ${tool.removedIn}` : `between ${tool.lastSeen} and ${tool.removedIn}`;
}

export function removedToolPage(tool: RemovedTool, histories: SiteModel['histories']): RemovedToolPage {
  const history: PageSection<RemovedSectionId> = { id: 'version-notes', title: 'Version history', depth: 2 };
  const provenance: PageSection<RemovedSectionId> = { id: 'provenance', title: 'Provenance', depth: 2 };
  const sources = { sdk: 'the published SDK types', capture: 'the tool lists the CLI sent its model' } as const;
  return {
    title: tool.name,
    description: `${AGENT_LABELS[tool.agent]} tool ${tool.name}, removed ${removedWhen(tool)}`,
    sections: [history, provenance],
    tool,
    agent: AGENT_LABELS[tool.agent],
    search: searchFields(tool.agent, [], `${AGENT_LABELS[tool.agent]}, removed ${removedWhen(tool)}`, [tool.name]),
    removedInUrl: releaseUrl(tool.agent, tool.removedIn, histories),
    source: sources[tool.source],
    history: {
      section: history,
      changes: changelogPlan(tool.agent, histories)
        .releases.flatMap((r) => r.changes.filter((c) => c.tool === tool.name))
        .map((change) => ({
          release: change.release,
          releaseUrl: releaseUrl(tool.agent, change.release, histories),
          change,
        })),
    },
    provenance: { section: provenance, file: tool.file },
  };
}
