/**
 * Astro content-layer loaders: the validated model enters Astro's content
 * layer as three collections (tools, agents, jobs), so pages read it with
 * getCollection and `astro dev` reloads it when a file under content/ changes.
 */
import type { Loader, LoaderContext } from 'astro/loaders';
import type { MatrixAgent } from '../model/captures.ts';
import type { AgentRecord, ComparisonFile, HistoryFile, Job } from '../core/content-types.ts';
import type {
  AgentInventory,
  HookBehaviourHistory,
  HookOutputs,
  Subagents,
  HookBehaviourRecord,
  PermissionRecord,
  McpNamingHistory,
  HookEventsList,
  HooksEditorial,
  RemovedTool,
  SiteModel,
  ToolModel,
} from '../model/model.ts';
import type { AgentReleases } from '../model/releases.ts';
import type { ArchivedExport } from './stages/archive.ts';
import { contentLocation, loadSiteContent } from './cached.ts';

/** The data of each collection's entries, as this loader stores them and src/lib/routes/site-data.ts reads them. */
export interface CollectionData {
  tools: ToolModel;
  /** One agent with everything of the site model that belongs to it. */
  agents: {
    record: AgentRecord;
    matrix: MatrixAgent | undefined;
    histories: HistoryFile[];
    removedTools: RemovedTool[];
    inventory: AgentInventory | undefined;
    releases: AgentReleases | undefined;
    archived: ArchivedExport[];
    hooks: HooksEditorial | undefined;
    hookEvents: HookEventsList | undefined;
    hookBehaviour: HookBehaviourRecord[];
    hookBehaviourHistory: HookBehaviourHistory | undefined;
    hookOutputs: HookOutputs | undefined;
    subagents: Subagents | undefined;
    permissions: PermissionRecord[];
    mcpNaming: McpNamingHistory | undefined;
  };
  /** A job, its place in content order, and its field comparison. */
  jobs: Job & { order: number; comparison: ComparisonFile | undefined };
}

type Kind = keyof CollectionData;

function entries<K extends Kind>(model: SiteModel, kind: K): { id: string; data: CollectionData[K] }[];
function entries(model: SiteModel, kind: Kind): { id: string; data: CollectionData[Kind] }[] {
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
          hooks: model.hooks.find((h) => h.agent === agent.id),
          hookEvents: model.hookEvents.find((h) => h.agent === agent.id),
          hookBehaviour: model.hookBehaviour.filter((h) => h.agent === agent.id),
          hookBehaviourHistory: model.hookBehaviourHistories.find((h) => h.agent === agent.id),
          hookOutputs: model.hookOutputs.find((h) => h.agent === agent.id),
          subagents: model.subagents.find((s) => s.agent === agent.id),
          permissions: model.permissions.filter((p) => p.agent === agent.id),
          mcpNaming: model.mcpNaming.find((m) => m.agent === agent.id),
        },
      }));
    case 'jobs':
      return model.jobs.map((job, order) => ({
        id: job.id,
        data: { ...job, order, comparison: model.comparisons.find((c) => c.job === job.id) },
      }));
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
