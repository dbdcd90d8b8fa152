/** What the home page lists: each agent with its version, checked date and tool count, and the jobs. */
import { releaseVersions } from '../model/releases.ts';
import type { SiteModel } from '../model/model.ts';
import { AGENT_LABELS, agentUrl, jobUrl, sitePath } from '../site/site.ts';
import { CHANGES_URL, recentEntries } from './changes-page.ts';

/** How many of the latest releases with changes the home page lists. */
export const HOME_LATEST = 6;

export interface HomePage {
  agents: { url: string; label: string; version: string; checked: string; tools: number }[];
  jobs: { url: string; title: string }[];
  /** The newest releases with changes, across agents (changes-page.ts), each linking to its entry on `/changes/`. */
  latest: { url: string; label: string; published: string; changes: number; breaking: number }[];
  changesUrl: string;
}

export function homePage(site: SiteModel): HomePage {
  return {
    agents: site.agents.map((a) => ({ url: agentUrl(a.id), label: AGENT_LABELS[a.id], version: releaseVersions(site.releases[a.id] ?? { examples: [] }) || a.version, checked: a.checked, tools: site.tools.filter((t) => t.agent === a.id).length })),
    jobs: site.jobs.map((j) => ({ url: jobUrl(j.id), title: j.title })),
    latest: recentEntries(site)
      .slice(0, HOME_LATEST)
      .map((e) => ({ url: `${sitePath(CHANGES_URL)}#${e.id}`, label: `${e.product} ${e.release}`, published: e.published.slice(0, 10), changes: e.changes, breaking: e.breaking })),
    changesUrl: sitePath(CHANGES_URL),
  };
}
