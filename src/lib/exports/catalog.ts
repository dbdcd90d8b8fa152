/**
 * `/catalog.json`: every tool of every agent, for programs. Its shape is
 * declared by schemas/catalog.schema.json (a test validates the built file
 * against it). Pure: the model comes in as an argument.
 */
import { AGENT_IDS } from '../agents/index.ts';
import type { AgentId, AliasKind, DefinitionKind, ToolGroup } from '../core/content-types.ts';
import type { HookOutputs, SiteModel, ToolModel } from '../model/model.ts';
import { agentBundles } from '../model/bundles.ts';
import { jobUrl, sitePath, toolPath } from '../site/site.ts';
import { definitionFiles } from '../views/tool-page.ts';
import { compactAvailability, type CompactAvailability } from './availability.ts';
import {
  exportFileNames,
  exportPath,
  siteUrl,
  TIMELINE_FILE,
  versionedExportPath,
  type Section,
  type SiteOrigin,
} from '../site/export-files.ts';
import { releaseSegment, type AgentReleases } from '../model/releases.ts';
import { agentHooks, hookNames } from '../behaviour/hooks.ts';
import { behaviourEntries, type BehaviourEntry } from '../behaviour/hook-behaviour.ts';
import { permissionEntries, type PermissionEntry } from '../behaviour/permissions.ts';
import { eventSchemaFiles, toolHookSchemaPath } from '../behaviour/hook-schemas.ts';
import { outputSchemaPath, outputSource } from '../behaviour/hook-outputs.ts';
import { changelogFeedUrl, changelogUrl } from '../history/changelog-addresses.ts';
import { historyExportPath } from './history-export.ts';

/** An agent's hook output schemas for the catalog, or why there are none; nothing where no file says. */
function catalogOutputs(outputs: HookOutputs | undefined): Pick<CatalogAgent['hooks'], 'outputs'> {
  if (outputs === undefined) return {};
  if ('unavailable' in outputs) return { outputs: { unavailable: outputs.unavailable } };
  return {
    outputs: {
      from: outputSource(outputs),
      schemas: outputs.events.map((e) => ({
        event: e.event,
        schema: sitePath(outputSchemaPath(outputs.agent, e.event)),
      })),
    },
  };
}

export const CATALOG_PATH = '/catalog.json';
export const CATALOG_SCHEMA_PATH = '/catalog.schema.json';

/**
 * The schema published at CATALOG_SCHEMA_PATH: schemas/catalog.schema.json with
 * its `$id` at this site's address and `$defs.agentId` narrowed to the
 * registry's ids, in the registry's order.
 */
export function publishedCatalogSchema(schema: { $defs: { agentId: object } }, origin: SiteOrigin): object {
  return {
    ...schema,
    $id: siteUrl(CATALOG_SCHEMA_PATH, origin),
    $defs: { ...schema.$defs, agentId: { ...schema.$defs.agentId, enum: [...AGENT_IDS] } },
  };
}

/** A latest path and the path of the release it currently serves. */
export interface VersionedLink {
  latest: string;
  versioned: string;
}

type SectionKey = 'input' | 'result' | 'modelInput';

const SECTION_KEYS: Record<Section, SectionKey> = { input: 'input', result: 'result', 'model-input': 'modelInput' };

export interface CatalogTool {
  agent: AgentId;
  product: string;
  version: string;
  /** Callable name without its namespace. */
  name: string;
  namespace?: string;
  /** Callable name with its namespace (`collaboration.post`): what the tool page is titled. */
  fullName: string;
  /** The tool's URL name (`/<agent>/<slug>/`). */
  slug: string;
  aliases: { name: string; kind: AliasKind }[];
  group: ToolGroup;
  /** Where the page comes from: published SDK types, captures only, or documentation only. */
  source: ToolModel['source'];
  summary: string;
  /**
   * The kind of each definition the page shows; `modelInput` only for tools with a published type and a captured
   * schema.
   */
  definitions: { input: DefinitionKind; result: DefinitionKind; modelInput?: DefinitionKind };
  /** How each captured configuration of the agent advertises the tool, without repeating itself (availability.ts). */
  availability: CompactAvailability;
  jobs: string[];
  /**
   * The names the agent's recorded hook payloads gave the tool (Codex's `exec_command` is `Bash` to its hooks), in
   * order of first sight; empty when no hook payload of it is recorded.
   */
  hookNames: string[];
  links: {
    page: string;
    schemas: Partial<Record<SectionKey, VersionedLink>>;
    declarations: { input?: VersionedLink };
    definitionFiles: Partial<Record<SectionKey, string>>;
    /** The schema of what its hooks receive, when a hook payload of it is recorded. */
    hookSchema?: string;
    /** Its changes over the releases read, with their texts (tool-timeline.ts), when a history records one. */
    timeline?: string;
  };
}

export interface CatalogAgent {
  id: AgentId;
  product: string;
  version: string;
  /** The release each source comes from. */
  releases: AgentReleases;
  /** The day the content was last checked against the release. */
  checked: string;
  page: string;
  toolCount: number;
  configurations: { id: string; label: string }[];
  /** The hooks page, how many hook payloads are recorded, and the schema of each recorded event. */
  hooks: {
    page: string;
    recorded: number;
    schemas: { event: string; schema: string }[];
    outputs?: { from?: string; unavailable?: string; schemas?: { event: string; schema: string }[] };
  };
  /** What happened when a hook answered, per recorded case, with its row on the hooks page. */
  behaviour: (BehaviourEntry & { page: string })[];
  /** What a permission rule did to a real call, per recorded case, with its row on the permissions page. */
  permissions: PermissionEntry[];
  /** The agent's changelog, its feed and its history export (history-export.ts), when it has a history. */
  history?: { changelog: string; feed: string; export: string };
}

/** A job of content/jobs.json: what a tool is for, with the page comparing the tools that do it. */
export interface CatalogJob {
  id: string;
  title: string;
  description: string;
  page: string;
}

export interface Catalog {
  $schema: string;
  agents: CatalogAgent[];
  tools: CatalogTool[];
  /** Every job in content order: the ids `tools[].jobs` names. */
  jobs: CatalogJob[];
}

function catalogTool(
  tool: ToolModel,
  model: SiteModel,
  hooked: ReadonlyMap<ToolModel, readonly string[]>,
): CatalogTool {
  const agent = model.agents.find((a) => a.id === tool.agent)!;
  const configurations = model.matrix?.agents[tool.agent]?.configurations ?? [];
  const files = exportFileNames(tool);
  const link = (file: (typeof files)[number]): VersionedLink => ({
    latest: sitePath(exportPath(tool, file)),
    versioned: sitePath(versionedExportPath(tool, file)),
  });
  const schemas: CatalogTool['links']['schemas'] = {};
  for (const file of files)
    if (file.endsWith('.schema.json')) schemas[SECTION_KEYS[file.replace('.schema.json', '') as Section]] = link(file);
  const definitionLinks: CatalogTool['links']['definitionFiles'] = {};
  for (const file of definitionFiles(tool))
    definitionLinks[SECTION_KEYS[file.section]] = sitePath(`${toolPath(tool)}${file.fileName}`);
  const entry: CatalogTool = {
    agent: tool.agent,
    product: agent.product,
    version: tool.releases.input ? releaseSegment(tool.releases.input) : agent.version,
    name: tool.generated.name,
    fullName: tool.fullName,
    slug: tool.slug,
    aliases: tool.generated.aliases.map((a) => ({ name: a.name, kind: a.kind })),
    group: tool.generated.group,
    source: tool.source,
    summary: tool.editorial?.summary ?? '',
    definitions: {
      input: tool.input.definition.kind,
      result: tool.output.definition.kind,
      ...(tool.modelInput ? { modelInput: tool.modelInput.view.definition.kind } : {}),
    },
    availability: compactAvailability(
      configurations.map((c) => c.id),
      (id) => tool.captured?.byConfig.get(id)?.delivery ?? null,
    ),
    jobs: [...(tool.editorial?.jobs ?? [])],
    hookNames: [...(hooked.get(tool) ?? [])],
    links: {
      page: sitePath(toolPath(tool)),
      schemas,
      declarations: files.includes('input.d.ts') ? { input: link('input.d.ts') } : {},
      definitionFiles: definitionLinks,
    },
  };
  if (tool.generated.namespace !== undefined) entry.namespace = tool.generated.namespace;
  if (hooked.has(tool)) entry.links.hookSchema = sitePath(toolHookSchemaPath(tool));
  if (tool.facts.history.notes.length > 0) entry.links.timeline = sitePath(`${toolPath(tool)}${TIMELINE_FILE}`);
  return entry;
}

/** The catalog: agents in the site's order, then tools by agent (site order) and full name. */
export function buildCatalog(model: SiteModel, origin: SiteOrigin): Catalog {
  const order = model.agents.map((a) => a.id);
  const tools = [...model.tools].sort(
    (a, b) =>
      order.indexOf(a.agent) - order.indexOf(b.agent) ||
      (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0),
  );
  const bundles = [...agentBundles(model).values()];
  const recorded = new Map(bundles.map((b) => [b.record.id, agentHooks(b, b.record.id)]));
  // The names the hooks page lists: each payload read with the hook form its event belongs to (hooks.ts).
  const hooked = new Map([...recorded.values()].flatMap((r) => hookNames(r).map((n) => [n.tool, n.names] as const)));
  return {
    $schema: siteUrl(CATALOG_SCHEMA_PATH, origin),
    agents: bundles.map(({ record: agent, ...bundle }) => ({
      id: agent.id,
      product: agent.product,
      version: agent.version,
      releases: bundle.releases ?? { examples: [] },
      checked: agent.checked,
      page: sitePath(`/${agent.id}/`),
      ...(bundle.histories.length > 0
        ? {
            history: {
              changelog: changelogUrl(agent.id),
              feed: changelogFeedUrl(agent.id),
              export: historyExportPath(agent.id),
            },
          }
        : {}),
      toolCount: bundle.tools.length,
      configurations: (bundle.matrix?.configurations ?? []).map((c) => ({ id: c.id, label: c.label })),
      hooks: {
        page: sitePath(`/${agent.id}/hooks/`),
        recorded: recorded.get(agent.id)!.hooks.length,
        schemas: eventSchemaFiles(recorded.get(agent.id)!).map((f) => ({ event: f.event, schema: sitePath(f.path) })),
        ...catalogOutputs(bundle.hookOutputs),
      },
      behaviour: behaviourEntries(bundle.hookBehaviour, bundle.hookBehaviourHistory).map((e) => ({
        ...e,
        page: sitePath(`/${agent.id}/hooks/#case-${e.case}`),
      })),
      permissions: permissionEntries(bundle, agent.id),
    })),
    tools: tools.map((tool) => catalogTool(tool, model, hooked)),
    jobs: model.jobs.map((job) => ({
      id: job.id,
      title: job.title,
      description: job.description,
      page: jobUrl(job.id),
    })),
  };
}
