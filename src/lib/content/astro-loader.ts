/**
 * Astro content-layer loaders: the validated model enters Astro's content
 * layer as four collections (tools, agents, jobs, the agents not documented), so pages read it with
 * getCollection and `astro dev` reloads it when a file under content/ changes.
 */
import type { Loader, LoaderContext } from 'astro/loaders';
import type { ComparisonFile, Job, NotDocumentedAgent } from '../core/content-types.ts';
import type { SiteModel, ToolModel } from '../model/model.ts';
import { type AgentBundle, agentBundles } from '../model/bundles.ts';
import { contentLocation, loadSiteContent } from './cached.ts';

/** The data of each collection's entries, as this loader stores them and src/lib/routes/site-data.ts reads them. */
export interface CollectionData {
  tools: ToolModel;
  /**
   * One agent's bundle as the model holds it; its tools are entries of their own collection, and what its registry
   * module says (its hook shape and mechanism) the model reads again from the registry.
   */
  agents: Omit<AgentBundle, 'tools' | 'hookShape' | 'hookMechanism'>;
  /** A job, its place in content order, and its field comparison. */
  jobs: Job & { order: number; comparison: ComparisonFile | undefined };
  /** An agent the site does not document, and its place in content order. */
  notDocumented: NotDocumentedAgent & { order: number };
}

type Kind = keyof CollectionData;

function entries<K extends Kind>(model: SiteModel, kind: K): { id: string; data: CollectionData[K] }[];
function entries(model: SiteModel, kind: Kind): { id: string; data: CollectionData[Kind] }[] {
  switch (kind) {
    case 'tools':
      return model.tools.map((tool) => ({ id: `${tool.agent}/${tool.slug}`, data: { ...tool } }));
    case 'agents':
      return [...agentBundles(model).values()].map(({ tools: _t, hookShape: _s, hookMechanism: _m, ...bundle }) => ({
        id: bundle.record.id,
        data: bundle,
      }));
    case 'jobs':
      return model.jobs.map((job, order) => ({
        id: job.id,
        data: { ...job, order, comparison: model.comparisons.find((c) => c.job === job.id) },
      }));
    case 'notDocumented':
      return model.notDocumented.map((entry, order) => ({ id: String(order), data: { ...entry, order } }));
  }
}

function fill(context: LoaderContext, kind: Kind): void {
  const { model } = loadSiteContent();
  context.store.clear();
  // The store takes untyped records; CollectionData is the shape they have.
  for (const { id, data } of entries(model, kind)) {
    const record: Record<string, unknown> = { ...data };
    context.store.set({ id, data: record, digest: context.generateDigest(record) });
  }
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
