/**
 * `/<agent>/history.json`: an agent's release histories for programs, one per source (published
 * types, captures), as computed (schemas/history.schema.json): the releases compared, each change
 * with why it breaks callers when it does (breaking.ts) and the changelog section that shows it,
 * and the texts changes name, once each. Its shape is schemas/history-export.schema.json. Pure.
 */
import type { AgentId, HistoryEvent, HistoryFile } from '../core/content-types.ts';
import type { SiteModel } from '../model/model.ts';
import { agentBundle } from '../model/bundles.ts';
import { AGENT_LABELS, sitePath } from '../site/site.ts';
import { changelogFeedUrl, changelogUrl, releaseUrl } from '../history/changelog-addresses.ts';
import { breakingReason } from '../history/breaking.ts';

export interface HistoryExportChange {
  event: HistoryEvent;
  /** The release as readers know it: the agent's own (an SDK release names the CLI it bundles). */
  agentRelease: string;
  breaking?: string;
  page: string;
}

export interface HistoryExport {
  agent: AgentId;
  product: string;
  changelog: string;
  feed: string;
  histories: {
    source: HistoryFile['source'];
    package: string;
    method: string;
    configurations?: string[];
    releases: HistoryFile['releases'];
    changes: HistoryExportChange[];
    texts: NonNullable<HistoryFile['texts']>;
  }[];
}

/** Where an agent's history export is published. */
export function historyExportPath(agent: AgentId): string {
  return sitePath(`/${agent}/history.json`);
}

export function historyExport(site: SiteModel, agent: AgentId): HistoryExport {
  const files = agentBundle(site, agent).histories;
  return {
    agent,
    product: AGENT_LABELS[agent],
    changelog: changelogUrl(agent),
    feed: changelogFeedUrl(agent),
    histories: files.map((file) => {
      const label = new Map(file.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
      return {
        source: file.source,
        package: file.package,
        method: file.method,
        ...(file.configurations ? { configurations: file.configurations } : {}),
        releases: file.releases,
        changes: file.events.map((event) => {
          const agentRelease = label.get(event.release) ?? event.release;
          const breaking = breakingReason(event);
          return {
            event,
            agentRelease,
            ...(breaking ? { breaking } : {}),
            page: releaseUrl(agent, agentRelease, site.histories),
          };
        }),
        texts: file.texts ?? {},
      };
    }),
  };
}
