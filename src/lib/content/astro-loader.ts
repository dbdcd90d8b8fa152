/**
 * Astro content-layer loaders: the validated model enters Astro's content
 * layer as three collections (tools, agents, jobs), so pages read it with
 * getCollection and `astro dev` reloads it when a file under content/ changes.
 */
import type { Loader, LoaderContext } from 'astro/loaders';
import type { SiteModel } from '../model.ts';
import { contentLocation, loadSiteContent } from './cached.ts';

type Kind = 'tools' | 'agents' | 'jobs';

function entries(model: SiteModel, kind: Kind): { id: string; data: Record<string, unknown> }[] {
  switch (kind) {
    case 'tools':
      return model.tools.map((tool) => ({ id: `${tool.agent}/${tool.slug}`, data: { ...tool } }));
    case 'agents':
      return model.agents.map((agent) => ({
        id: agent.id,
        data: {
          record: agent,
          matrix: model.matrix?.agents[agent.id],
          histories: model.histories.filter((h) => h.agent === agent.id),
          removedTools: model.removedTools.filter((t) => t.agent === agent.id),
          inventory: model.inventory.find((i) => i.agent === agent.id),
          releases: model.releases[agent.id],
          archived: model.archived.filter((f) => f.agent === agent.id),
        },
      }));
    case 'jobs':
      return model.jobs.map((job, order) => ({ id: job.id, data: { ...job, order, comparison: model.comparisons.find((c) => c.job === job.id) } }));
  }
}

function fill(context: LoaderContext, kind: Kind): void {
  const { model } = loadSiteContent();
  context.store.clear();
  for (const entry of entries(model, kind)) context.store.set({ ...entry, digest: context.generateDigest(entry.data) });
}

export function referenceLoader(kind: Kind): Loader {
  return {
    name: `agent-tools-${kind}`,
    load: async (context) => {
      fill(context, kind);
      const { contentDir } = contentLocation();
      context.watcher?.add(contentDir);
      context.watcher?.on('all', (_event, path) => {
        if (!path.startsWith(contentDir)) return;
        try {
          fill(context, kind);
          context.logger.info(`reloaded after a change to ${path}`);
        } catch (error) {
          // In dev, keep the last good content and show why the edit was refused.
          context.logger.error((error as Error).message);
        }
      });
    },
  };
}
