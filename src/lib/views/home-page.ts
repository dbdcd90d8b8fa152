/** What the home page lists: each agent with its version, checked date and tool count, and the jobs. */
import { releaseVersions } from '../model/releases.ts';
import type { SiteModel } from '../model/model.ts';
import { AGENT_LABELS, agentUrl, jobUrl } from '../site/site.ts';

export interface HomePage {
  agents: { url: string; label: string; version: string; checked: string; tools: number }[];
  jobs: { url: string; title: string }[];
}

export function homePage(site: SiteModel): HomePage {
  return {
    agents: site.agents.map((a) => ({ url: agentUrl(a.id), label: AGENT_LABELS[a.id], version: releaseVersions(site.releases[a.id] ?? { examples: [] }) || a.version, checked: a.checked, tools: site.tools.filter((t) => t.agent === a.id).length })),
    jobs: site.jobs.map((j) => ({ url: jobUrl(j.id), title: j.title })),
  };
}
