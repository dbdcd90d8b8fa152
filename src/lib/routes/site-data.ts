/**
 * The site model as pages read it: from Astro's content collections (filled by
 * src/lib/content/astro-loader.ts, whose CollectionData is the shape of their
 * entries). Only Astro pages and endpoints import this; components receive
 * what they show as props.
 */
import { getCollection } from 'astro:content';
import { AGENT_IDS } from '../agents/index.ts';
import type { CaptureMatrix } from '../model/captures.ts';
import type { CollectionData } from '../content/astro-loader.ts';
import type { SiteModel } from '../model/model.ts';

/**
 * The entries of a reference collection, typed as the loader stored them (Astro types a loader's data without a schema
 * as `any`).
 */
async function entries<K extends keyof CollectionData>(name: K): Promise<CollectionData[K][]> {
  const collection: { data: CollectionData[K] }[] = await getCollection(name);
  return collection.map((entry) => entry.data);
}

/** The last model built, with the entries it was built from. */
let last: { from: readonly object[]; model: SiteModel } | undefined;

/**
 * The site model. Every page asks for it; while the collections hold the same entries, each
 * gets the same model, so that what views memoize per model (changelog plans, histories) is
 * computed once per build rather than once per page. After an edit under `astro dev` the
 * entries are new objects, and so is the model.
 */
export async function getSite(): Promise<SiteModel> {
  const [tools, agentData, jobs, notDocumented] = await Promise.all([
    entries('tools'),
    entries('agents'),
    entries('jobs'),
    entries('notDocumented'),
  ]);
  const from = [...tools, ...agentData, ...jobs, ...notDocumented];
  if (last && last.from.length === from.length && last.from.every((entry, i) => entry === from[i])) {
    return last.model;
  }
  const jobData = jobs.sort((a, b) => a.order - b.order);
  const matrix: CaptureMatrix = { agents: {} };
  for (const a of agentData) if (a.matrix) matrix.agents[a.record.id] = a.matrix;
  const model: SiteModel = {
    // Collections come back sorted by id; the site lists agents in registry order.
    agents: agentData.map((a) => a.record).sort((a, b) => AGENT_IDS.indexOf(a.id) - AGENT_IDS.indexOf(b.id)),
    tools: tools.sort((a, b) =>
      a.agent === b.agent ? a.fullName.localeCompare(b.fullName) : a.agent.localeCompare(b.agent),
    ),
    jobs: jobData.map(({ order: _order, comparison: _comparison, ...job }) => job),
    comparisons: jobData.flatMap((j) => (j.comparison ? [j.comparison] : [])),
    histories: agentData.flatMap((a) => a.histories),
    removedTools: agentData.flatMap((a) => a.removedTools),
    inventory: agentData.flatMap((a) => (a.inventory ? [a.inventory] : [])),
    releases: Object.fromEntries(agentData.flatMap((a) => (a.releases ? [[a.record.id, a.releases]] : []))),
    archived: agentData.flatMap((a) => a.archived),
    hooks: agentData.flatMap((a) => (a.hooks ? [a.hooks] : [])),
    hookEvents: agentData.flatMap((a) => (a.hookEvents ? [a.hookEvents] : [])),
    hookBehaviour: agentData.flatMap((a) => a.hookBehaviour),
    hookBehaviourHistories: agentData.flatMap((a) => (a.hookBehaviourHistory ? [a.hookBehaviourHistory] : [])),
    hookOutputs: agentData.flatMap((a) => (a.hookOutputs ? [a.hookOutputs] : [])),
    subagents: agentData.flatMap((a) => (a.subagents ? [a.subagents] : [])),
    permissions: agentData.flatMap((a) => a.permissions),
    mcpNaming: agentData.flatMap((a) => (a.mcpNaming ? [a.mcpNaming] : [])),
    notDocumented: notDocumented.sort((a, b) => a.order - b.order).map(({ order: _order, ...entry }) => entry),
  };
  if (Object.keys(matrix.agents).length > 0) model.matrix = matrix;
  last = { from, model };
  return model;
}

/**
 * The address the site is built for (`site` of the Astro config), as an endpoint's `context.site` gives it; for a
 * route's getStaticPaths, which has no context.
 */
export function siteAddress(): URL | undefined {
  return import.meta.env.SITE ? new URL(import.meta.env.SITE) : undefined;
}
