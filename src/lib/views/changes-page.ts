/**
 * The page of changes across agents (`/changes/`), its Atom feed and the home page's latest
 * few: every agent's changelog releases published in the last WINDOW_DAYS days before the
 * newest publication the histories record (not before the build's day, so that a rebuild of
 * the same content is the same page), newest first, grouped by the day they were published,
 * each change flagged when it breaks callers (breaking.ts). Built from the same release views
 * as each agent's changelog (history-pages.ts). `/changes.json` lists every release, not the window.
 */
import type { AgentId } from '../core/content-types.ts';
import type { PageSection } from '../core/page-sections.ts';
import type { SiteModel } from '../model/model.ts';
import { agentBundles } from '../model/bundles.ts';
import { AGENT_LABELS, sitePath } from '../site/site.ts';
import { changelogPlan, changelogUrl, releaseUrl } from '../history/changelog-addresses.ts';
import { releaseTimes } from '../history/release-times.ts';
import { BREAKING_RULES } from '../history/breaking.ts';
import { changelogAgents, releaseViews, type ReleaseView } from './history-pages.ts';

/** How far back the page reaches from the newest publication recorded. */
export const WINDOW_DAYS = 30;

/** One release of one agent, with what it changed. */
export interface ChangesEntry {
  agent: AgentId;
  product: string;
  release: string;
  /** RFC 3339 UTC publication time. */
  published: string;
  url: string;
  /** Stable id on the page: `codex-0.171.0`. */
  id: string;
  groups: ReleaseView['groups'];
  changes: number;
  breaking: number;
}

export interface ChangesDay {
  /** `YYYY-MM-DD` (UTC): the heading and its anchor. */
  section: PageSection;
  entries: ChangesEntry[];
}

export interface ChangesPage {
  title: string;
  description: string;
  /** The first and last day covered. */
  from: string | undefined;
  to: string | undefined;
  days: ChangesDay[];
  /** The agents with changes on the page, for the filter, with their counts. */
  agents: { id: AgentId; product: string; changes: number; breaking: number; changelog: string }[];
  /**
   * Agents with a changelog whose releases in the window changed nothing, or whose releases have no publication time.
   */
  quiet: { id: AgentId; product: string; changelog: string }[];
  rules: typeof BREAKING_RULES;
  feedUrl: string;
}

export const CHANGES_URL = '/changes/';
export const CHANGES_FEED_URL = '/changes.xml';

const DAY_MS = 86_400_000;

/**
 * Every release with changes of every agent that has a publication time, newest first (ties: by agent, then release).
 */
function computeEntries(site: SiteModel): ChangesEntry[] {
  const out: ChangesEntry[] = [];
  const bundles = agentBundles(site);
  for (const agent of changelogAgents(site)) {
    const bundle = bundles.get(agent.id)!;
    const times = releaseTimes(site, agent.id);
    const plan = changelogPlan(agent.id, bundle.histories);
    const views = releaseViews(bundle, plan.releases);
    for (const view of views) {
      const published = times.get(view.section.id);
      if (published === undefined) continue;
      const items = view.groups.flatMap((g) => g.tools.flatMap((t) => t.changes));
      out.push({
        agent: agent.id,
        product: AGENT_LABELS[agent.id],
        release: view.section.id,
        published,
        url: releaseUrl(agent.id, view.section.id, site.histories),
        id: `${agent.id}-${view.section.id}`,
        groups: view.groups,
        changes: items.length,
        breaking: items.filter((c) => c.breaking !== undefined).length,
      });
    }
  }
  return out.sort(
    (a, b) =>
      Date.parse(b.published) - Date.parse(a.published) ||
      (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0) ||
      (a.release < b.release ? -1 : 1),
  );
}

const cache = new WeakMap<SiteModel, ChangesEntry[]>();

/**
 * Every release with changes of every agent that has a publication time, newest first: what `/changes.json` lists
 * whole, and the page a window of. Computed once per model; not to be changed by callers.
 */
export function allEntries(site: SiteModel): readonly ChangesEntry[] {
  return cache.get(site) ?? cache.set(site, computeEntries(site)).get(site)!;
}

/** The releases in the window (see the header), newest first. */
export function recentEntries(site: SiteModel, days = WINDOW_DAYS): ChangesEntry[] {
  const entries = allEntries(site);
  const newest = entries[0];
  if (!newest) return [];
  const since = Date.parse(newest.published) - days * DAY_MS;
  return entries.filter((e) => Date.parse(e.published) > since);
}

export function changesPage(site: SiteModel): ChangesPage {
  const entries = recentEntries(site);
  const days: ChangesDay[] = [];
  for (const entry of entries) {
    const day = entry.published.slice(0, 10);
    const last = days[days.length - 1];
    if (last && last.section.id === day) last.entries.push(entry);
    else days.push({ section: { id: day, title: day, depth: 2 }, entries: [entry] });
  }
  for (const d of days) d.section.tocTitle = `${d.section.title} (${d.entries.reduce((n, e) => n + e.changes, 0)})`;
  const agents = changelogAgents(site).map((a) => {
    const own = entries.filter((e) => e.agent === a.id);
    return {
      id: a.id,
      product: AGENT_LABELS[a.id],
      changes: own.reduce((n, e) => n + e.changes, 0),
      breaking: own.reduce((n, e) => n + e.breaking, 0),
      changelog: changelogUrl(a.id),
    };
  });
  return {
    title: 'What changed',
    description:
      `Every tool change of every agent in the ${WINDOW_DAYS} days up to the newest release read, ` +
      `newest first, word for word, with the changes that break callers flagged.`,
    from: days[days.length - 1]?.section.id,
    to: days[0]?.section.id,
    days,
    agents: agents.filter((a) => a.changes > 0),
    quiet: agents.filter((a) => a.changes === 0).map(({ id, product, changelog }) => ({ id, product, changelog })),
    rules: BREAKING_RULES,
    feedUrl: sitePath(CHANGES_FEED_URL),
  };
}
