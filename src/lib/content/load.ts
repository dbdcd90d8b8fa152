/**
 * Loads every content file, validates it, checks the rules that span files and
 * builds the model the pages render, in stages that share one problems
 * collector: read → jobs → agents → generated tools → captures → editorial →
 * availability gates → inventory → pages → payloads → findings → comparisons → hooks → history →
 * releases → archive → tool facts.
 * Any problem names the file, the JSON pointer and the rule; if there
 * is one, loadContent throws ContentErrors and the build stops before Astro
 * writes anything.
 */
import { join } from 'node:path';
import { AGENT_IDS, AGENT_PRODUCTS } from '../agents/index.ts';
import type { AgentInventory, SiteModel, ToolModel } from '../model/model.ts';
import type { HistoryFile } from '../core/content-types.ts';
import type { CaptureMatrix } from '../model/captures.ts';
import type { Stage } from './context.ts';
import { definitionAjv } from '../check/definition-ajv.ts';
import { Problems, type ContentWarning } from './problems.ts';
import { ContentReader, scanContent } from './read.ts';
import { type AgentsResult, addTypeSources, capturesSourcePackage, loadAgents } from './stages/agents.ts';
import { loadComparisons } from './stages/comparisons.ts';
import { attachCaptures, type CapturedRequests } from './stages/captures.ts';
import { attachPayloads } from './stages/payloads.ts';
import { addFindings } from './stages/findings.ts';
import { applyEditorial } from './stages/editorial.ts';
import { checkAvailabilityGates } from './stages/gates.ts';
import { loadGeneratedTools } from './stages/generated-tools.ts';
import { checkHistoryReferences, loadHistories, removedTools } from './stages/history.ts';
import { applyInventory } from './stages/inventory.ts';
import { loadJobs } from './stages/jobs.ts';
import { loadNotDocumented } from './stages/not-documented.ts';
import { checkPages } from './stages/pages.ts';
import { reservedNames } from './url-names.ts';
import { loadArchive } from './stages/archive.ts';
import { loadHookEvents, loadHooksEditorial } from './stages/hooks.ts';
import { loadHookBehaviour } from './stages/hook-behaviour.ts';
import { loadHookBehaviourHistories } from './stages/hook-behaviour-history.ts';
import { loadHookOutputs } from './stages/hook-outputs.ts';
import { loadSubagents } from './stages/subagents.ts';
import { loadPermissions } from './stages/permissions.ts';
import { loadMcpNaming } from './stages/mcp-naming.ts';
import { exportFileNames, versionedExportPath } from '../site/export-files.ts';
import { agentReleases, toolReleases } from '../model/releases.ts';
import { attachToolFacts } from './tool-facts.ts';
import { changeTexts } from '../history/history.ts';
import { diffAhead } from '../history/text-diff-ahead.ts';
import { openDiffStore, saveDiffStore } from '../history/text-diff-store.ts';
import { diffKnown } from '../history/text-diff.ts';

/** The histories' diffs, for a load that shares them (`sharedDiffs`): the kept ones taken, the others begun. */
function beginSharedDiffs(root: string, histories: readonly HistoryFile[]): void {
  openDiffStore(root);
  const pairs = histories.flatMap((file) => file.events.flatMap((e) => changeTexts(file, e) ?? []));
  diffAhead(pairs.filter((pair) => !diffKnown(pair)));
}

export interface LoadOptions {
  /** Folder holding content/, schemas/ and src/pages (the project root). */
  root: string;
  /** Override of the content folder (tests point this at fixtures). */
  contentDir?: string;
  /** Receives warnings (ignored files, a removed byte-order mark); they do not stop the build. */
  onWarning?: (warning: ContentWarning) => void;
  /**
   * For loads of the real content, which diff hundreds of changed texts: take the diffs earlier processes kept
   * (text-diff-store.ts), diff the others in a worker thread while the rest loads (text-diff-ahead.ts), and keep them
   * for the next process. A small load (a test's fixtures) would only pay for the thread and the file.
   */
  sharedDiffs?: boolean;
}

/** Which model each captured configuration asked for, for the catalog table of the agent page. */
function noteAskedModels(
  inventory: ReturnType<typeof applyInventory>,
  matrix: CaptureMatrix | undefined,
  requests: CapturedRequests,
): void {
  for (const i of inventory) {
    if (!i.modelCatalog) continue;
    for (const config of matrix?.agents[i.agent]?.configurations ?? []) {
      const model = requests.get(`${i.agent}/${config.id}`)?.model;
      if (model === undefined) continue;
      const list = i.modelCatalog.askedBy.get(model) ?? [];
      i.modelCatalog.askedBy.set(model, [...list, config.id]);
    }
  }
}

/** Versioned export paths the content publishes now; the archive serves the ones it no longer does. */
function publishedExportPaths(tools: readonly ToolModel[]): Set<string> {
  const current = new Set<string>();
  for (const tool of tools) for (const file of exportFileNames(tool)) current.add(versionedExportPath(tool, file));
  return current;
}

export function loadContent(options: LoadOptions): SiteModel {
  const stage = openStage(options);
  const { problems } = stage;
  const jobs = loadJobs(stage);
  const agents = loadAgents(stage);
  // Every later stage checks references against the job index, the agent records
  // and the capture matrix: when one of them cannot be read, stop here with its
  // own errors instead of reporting every reference to it as broken.
  const foundation = [stage.files.jobs, stage.files.matrix, ...stage.files.agents]
    .filter((f) => f !== undefined)
    .map((f) => stage.reader.relContent(f));
  // an unreadable file always has its error: this throws
  if (foundation.some((f) => problems.isUnreadable(f))) finish(problems, options);
  const pins = new Map(Object.entries(agents.matrix?.agents ?? {}).map(([id, m]) => [id, m!.version]));
  // Histories first: their diffs can then be computed meanwhile, in another thread.
  const histories = loadHistories(stage, new Set(agents.agents.map((a) => a.id)));
  if (options.sharedDiffs) beginSharedDiffs(options.root, histories);
  const { tools, inventory } = loadTools(stage, agents, jobs.ids, pins);
  const comparisons = loadComparisons(stage, tools, jobs.ids);
  const agentParts = loadAgentParts(stage, tools, pins);
  const removed = removedTools(stage, histories, tools);
  checkHistoryReferences(stage, histories, tools);
  // Every agent of the registry is documented: none may be listed as not documented, by product or by package.
  const notDocumented = loadNotDocumented(
    stage,
    AGENT_IDS.map((id) => {
      const pkg = agents.matrix?.agents[id]?.package;
      return pkg === undefined ? { product: AGENT_PRODUCTS[id] } : { product: AGENT_PRODUCTS[id], package: pkg };
    }),
  );

  finish(problems, options);
  const handed = problems.warnings.length;
  tools.sort((a, b) => (a.agent === b.agent ? a.fullName.localeCompare(b.fullName) : a.agent.localeCompare(b.agent)));
  // Agents in registry order, everywhere the site lists them.
  agents.agents.sort((a, b) => AGENT_IDS.indexOf(a.id) - AGENT_IDS.indexOf(b.id));
  const model: SiteModel = {
    agents: agents.agents,
    tools,
    jobs: jobs.jobs,
    comparisons,
    histories,
    removedTools: removed,
    inventory,
    releases: {},
    archived: [],
    notDocumented,
    ...agentParts,
  };
  if (agents.matrix) model.matrix = agents.matrix;
  // Every source is read: say which release each part of each page comes from.
  for (const agent of agents.agents) model.releases[agent.id] = agentReleases(model, agent.id);
  for (const tool of tools) tool.releases = toolReleases(tool, model.releases[tool.agent]!);
  model.archived = loadArchive(stage, publishedExportPaths(tools));
  // Last, from the complete model: what the evidence says of each tool, for the pages to word.
  attachToolFacts(model);
  if (options.sharedDiffs) saveDiffStore(options.root);
  finish(problems, options, handed);
  return model;
}

/** What every stage shares: the reader and problems collector, the scanned files and the names reserved for URLs. */
function openStage(options: LoadOptions): Stage {
  const contentDir = options.contentDir ?? join(options.root, 'content');
  const problems = new Problems();
  const reader = new ContentReader(options.root, contentDir, problems);
  return {
    reader,
    problems,
    files: scanContent(contentDir, problems, (p) => reader.rel(p)),
    definitionAjv: definitionAjv(),
    reserved: reservedNames(options.root),
    namePlace: new WeakMap<ToolModel, { file: string; pointer: string }>(),
    aliasPlace: new WeakMap(),
  };
}

/**
 * The tools and what their pages show, stage after stage: each stage reads what the ones before it attached
 * (captures the generated tools, the inventory the editorial aliases, gates the inventory's model catalog…).
 */
function loadTools(
  stage: Stage,
  agents: AgentsResult,
  jobIds: ReadonlySet<string> | undefined,
  pins: ReadonlyMap<string, string>,
): { tools: ToolModel[]; inventory: AgentInventory[] } {
  const tools = loadGeneratedTools(stage, agents.ids);
  addTypeSources(agents.agents, tools);
  const requests = attachCaptures(stage, tools, agents.matrix);
  capturesSourcePackage(agents.agents, requests);
  applyEditorial(stage, tools, jobIds);
  const inventory = applyInventory(stage, tools, pins);
  noteAskedModels(inventory, agents.matrix, requests);
  // After the inventory: a gate may state a condition on the binary's model catalog.
  checkAvailabilityGates(
    stage,
    tools,
    agents.matrix,
    requests,
    new Map(inventory.flatMap((i) => (i.modelCatalog ? [[i.agent, i.modelCatalog.models]] : []))),
  );
  checkPages(stage, tools);
  attachPayloads(stage, tools, agents.matrix);
  addFindings(stage, tools);
  return { tools, inventory };
}

/** The agent-level records: hooks and their recorded behaviour, subagents, permissions, MCP naming. */
function loadAgentParts(
  stage: Stage,
  tools: readonly ToolModel[],
  pins: ReadonlyMap<string, string>,
): Pick<
  SiteModel,
  | 'hooks'
  | 'hookEvents'
  | 'hookBehaviour'
  | 'hookBehaviourHistories'
  | 'hookOutputs'
  | 'subagents'
  | 'permissions'
  | 'mcpNaming'
> {
  return {
    hooks: loadHooksEditorial(stage, pins),
    hookEvents: loadHookEvents(stage, pins),
    hookBehaviour: loadHookBehaviour(stage, tools, pins),
    hookBehaviourHistories: loadHookBehaviourHistories(stage, pins),
    hookOutputs: loadHookOutputs(stage),
    subagents: loadSubagents(stage, tools, pins),
    permissions: loadPermissions(stage, tools, pins),
    mcpNaming: loadMcpNaming(stage, pins),
  };
}

/**
 * Hands over the warnings (from the `from`-th: earlier ones were handed over already), then throws ContentErrors if
 * anything was wrong.
 */
function finish(problems: Problems, options: LoadOptions, from = 0): void {
  for (const warning of problems.warnings.slice(from)) options.onWarning?.(warning);
  problems.throwIfAny();
}

export { ContentError, ContentErrors, type ContentWarning } from './problems.ts';
