/**
 * The site model as pages read it: from Astro's content collections (filled by
 * src/lib/content/astro-loader.ts). Only Astro pages and components import this.
 */
import { getCollection } from 'astro:content';
import { AGENT_IDS } from './agents/index.ts';
import type { CaptureMatrix, MatrixAgent } from './captures.ts';
import type { AgentRecord, ComparisonFile, HistoryFile, Job } from './content-types.ts';
import type { AgentInventory, RemovedTool, SiteModel, ToolModel } from './model.ts';
import type { AgentReleases } from './releases.ts';
import type { ArchivedExport } from './content/stages/archive.ts';

export async function getSite(): Promise<SiteModel> {
  const [tools, agents, jobs] = await Promise.all([getCollection('tools'), getCollection('agents'), getCollection('jobs')]);
  const agentData = agents.map((a) => a.data as unknown as { record: AgentRecord; matrix?: MatrixAgent; histories: HistoryFile[]; removedTools: RemovedTool[]; inventory?: AgentInventory; releases: AgentReleases; archived: ArchivedExport[] });
  const jobData = jobs.map((j) => j.data as unknown as Job & { order: number; comparison?: ComparisonFile }).sort((a, b) => a.order - b.order);
  const matrix: CaptureMatrix = { agents: {} };
  for (const a of agentData) if (a.matrix) matrix.agents[a.record.id] = a.matrix;
  const model: SiteModel = {
    // Collections come back sorted by id; the site lists agents in registry order.
    agents: agentData.map((a) => a.record).sort((a, b) => AGENT_IDS.indexOf(a.id) - AGENT_IDS.indexOf(b.id)),
    tools: tools.map((t) => t.data as unknown as ToolModel).sort((a, b) => (a.agent === b.agent ? a.fullName.localeCompare(b.fullName) : a.agent.localeCompare(b.agent))),
    jobs: jobData.map(({ order: _order, comparison: _comparison, ...job }) => job),
    comparisons: jobData.flatMap((j) => (j.comparison ? [j.comparison] : [])),
    histories: agentData.flatMap((a) => a.histories),
    removedTools: agentData.flatMap((a) => a.removedTools),
    inventory: agentData.flatMap((a) => (a.inventory ? [a.inventory] : [])),
    releases: Object.fromEntries(agentData.map((a) => [a.record.id, a.releases])),
    archived: agentData.flatMap((a) => a.archived),
  };
  if (Object.keys(matrix.agents).length > 0) model.matrix = matrix;
  return model;
}
