/** When each release of an agent was published, as its histories record it. */
import type { AgentId } from '../core/content-types.ts';
import type { SiteModel } from '../model/model.ts';

/**
 * When each release of an agent was published, by the release the changelog
 * names (an SDK release under the CLI release it bundles): the latest
 * publication time any of its histories records, as an RFC 3339 UTC time.
 */
export function releaseTimes(site: SiteModel, agent: AgentId): Map<string, string> {
  const times = new Map<string, number>();
  for (const file of site.histories) {
    if (file.agent !== agent) continue;
    for (const r of file.releases) {
      const time = r.published === undefined ? NaN : Date.parse(r.published);
      if (Number.isNaN(time)) continue;
      const label = r.cliVersion ?? r.version;
      times.set(label, Math.max(time, times.get(label) ?? -Infinity));
    }
  }
  return new Map([...times].map(([label, time]) => [label, new Date(time).toISOString()]));
}
