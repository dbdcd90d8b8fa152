/**
 * The site model per agent. Loader stages and the content collection keep each agent's files apart; pages about one
 * agent (its page, its hooks, its permissions, its changelog, one of its tools) take that agent's bundle and look
 * nothing up by agent again. What spans agents (jobs, comparisons, every tool for the cross-agent names) stays in the
 * SiteModel they are given beside it.
 */
import { hookMechanismOf, hookShapeOf } from '../agents/hook-shape.ts';
import type { HookMechanism, HookShape } from '../agents/types.ts';
import type { AgentId, AgentRecord, HistoryFile } from '../core/content-types.ts';
import type { MatrixAgent } from './captures.ts';
import type {
  AgentInventory,
  AgentReleases,
  ArchivedExport,
  HookBehaviourHistory,
  HookBehaviourRecord,
  HookEventsList,
  HookOutputs,
  HooksEditorial,
  McpNamingHistory,
  PermissionRecord,
  RemovedTool,
  SiteModel,
  Subagents,
  ToolModel,
} from './model.ts';

/** Everything the site knows of one agent. Lists keep the site model's order (tools by full name, cases by file). */
export interface AgentBundle {
  record: AgentRecord;
  tools: ToolModel[];
  /** Its part of the capture matrix, when content/capture-matrix.json names it. */
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
  /** Its hook payloads' shape and its hook mechanism, from its registry module: undefined without hooks. */
  hookShape: HookShape | undefined;
  hookMechanism: HookMechanism | undefined;
}

/** Bundles computed once per model object: every page of a build asks with the same one. */
const memo = new WeakMap<SiteModel, ReadonlyMap<AgentId, AgentBundle>>();

/** The model's agents as bundles, in the model's (registry) order. Each list is split once, not filtered per page. */
export function agentBundles(site: SiteModel): ReadonlyMap<AgentId, AgentBundle> {
  const known = memo.get(site);
  if (known) return known;
  const bundles = new Map<AgentId, AgentBundle>();
  for (const record of site.agents) {
    bundles.set(record.id, {
      record,
      tools: [],
      matrix: site.matrix?.agents[record.id],
      histories: [],
      removedTools: [],
      inventory: undefined,
      releases: site.releases[record.id],
      archived: [],
      hooks: undefined,
      hookEvents: undefined,
      hookBehaviour: [],
      hookBehaviourHistory: undefined,
      hookOutputs: undefined,
      subagents: undefined,
      permissions: [],
      mcpNaming: undefined,
      hookShape: hookShapeOf(record.id),
      hookMechanism: hookMechanismOf(record.id),
    });
  }
  const into = <T extends { agent: AgentId }>(items: readonly T[], put: (bundle: AgentBundle, item: T) => void) => {
    for (const item of items) {
      const bundle = bundles.get(item.agent);
      if (bundle) put(bundle, item);
    }
  };
  into(site.tools, (b, t) => b.tools.push(t));
  into(site.histories, (b, h) => b.histories.push(h));
  into(site.removedTools, (b, t) => b.removedTools.push(t));
  into(site.archived, (b, f) => b.archived.push(f));
  into(site.hookBehaviour, (b, r) => b.hookBehaviour.push(r));
  into(site.permissions, (b, r) => b.permissions.push(r));
  // One file per agent: the first one found, as the lookups this replaces found it.
  into(site.inventory, (b, i) => (b.inventory ??= i));
  into(site.hooks, (b, h) => (b.hooks ??= h));
  into(site.hookEvents, (b, h) => (b.hookEvents ??= h));
  into(site.hookBehaviourHistories, (b, h) => (b.hookBehaviourHistory ??= h));
  into(site.hookOutputs, (b, o) => (b.hookOutputs ??= o));
  into(site.subagents, (b, s) => (b.subagents ??= s));
  into(site.mcpNaming, (b, m) => (b.mcpNaming ??= m));
  memo.set(site, bundles);
  return bundles;
}

/** One agent's bundle: the lookup a page makes at its entrance. Throws for an agent the model does not have. */
export function agentBundle(site: SiteModel, agent: AgentId): AgentBundle {
  const bundle = agentBundles(site).get(agent);
  if (!bundle) throw new Error(`no agent ${agent} in the site model`);
  return bundle;
}
