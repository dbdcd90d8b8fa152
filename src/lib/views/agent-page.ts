/**
 * What an agent's page shows, decided once from the site model: its facts,
 * its tools by group, the configuration matrix with a mark per tool and
 * configuration, what each configuration changes, the names its binary
 * registers but no configuration advertises, its sources and its definitions
 * by kind. The page (src/pages/[agent]/index.astro) only renders this; its
 * headings and "On this page" both come from `sections`.
 */
import { AGENTS } from '../agents/index.ts';
import { DELIVERY_LABELS, type MatrixAgent, type MatrixConfiguration } from '../model/captures.ts';
import { configurationEffects } from './configuration-effects.ts';
import { catalogTable, type CatalogTable } from './model-catalog.ts';
import type { AgentId, AgentRecord, DefinitionKind, ToolGroup } from '../core/content-types.ts';
import { failedReleases } from '../history/failed-releases.ts';
import { compareVersions } from '../core/version-order.ts';
import { coverage } from '../history/history.ts';
import { changelogUrl } from '../history/changelog-addresses.ts';
import type { AgentInventory, RemovedTool, SiteModel, ToolModel } from '../model/model.ts';
import { type AgentBundle, agentBundle } from '../model/bundles.ts';
import type { PageSection } from '../core/page-sections.ts';
import { agentFilter } from './search.ts';
import { releaseFacts, releaseVersions } from '../model/releases.ts';
import { AGENT_LABELS, groupedTools, KIND_LABELS, toolUrl } from '../site/site.ts';
import type { Delivery } from '../wire/index.ts';

export type AgentSectionId =
  | 'tools'
  | `group-${ToolGroup}`
  | 'matrix'
  | 'configurations'
  | 'model-catalog'
  | 'registered-not-advertised'
  | 'sources'
  | 'definition-kinds';
export type AgentSection = PageSection<AgentSectionId>;

/** The mark of a matrix cell: how a configuration advertised the tool. */
export const MATRIX_MARKS: Record<Delivery, string> = {
  function: '●',
  custom: '●',
  'client-builtin': '●',
  hosted: '●',
  'code-mode': '◆',
  deferred: '○',
  'defer-loading': '◐',
};
/** The mark of a cell whose configuration did not advertise the tool. */
export const NOT_ADVERTISED_MARK = '–';

/** A tool as a row of an index or of the matrix: its link and its name. */
export interface ToolLink {
  url: string;
  name: string;
}

export interface ToolIndexRow extends ToolLink {
  /** Its editorial one-line summary; undefined when none is written. */
  summary: string | undefined;
  input: string;
  result: string;
}

export interface MatrixRow extends ToolLink {
  /** No configuration advertises it (listed last, in italics). */
  nowhere: boolean;
  /** One cell per configuration, in matrix order. */
  /**
   * One mark per configuration. An advertised tool's mark has a title naming how it is sent; a
   * "not advertised" mark has none: the legend says what it means once, where a title on each of
   * Codex's 1,700 empty cells weighed over 60 KB of its page.
   */
  cells: { mark: string; title?: string }[];
}

export interface AgentPage {
  agent: AgentRecord;
  title: string;
  description: string;
  /** The search dialog's `agent` filter value (search.ts). */
  searchAgent: string;
  /** Every heading of the page in order: the page renders them and "On this page" lists them. */
  sections: AgentSection[];
  facts: {
    /** Each source with the release it comes from. */
    releases: { source: string; release: string }[];
    tools: { total: number; sdk: number; capture: number; documented: number };
    /** What the binary registers, when its inventory lists names. */
    registered?: AgentInventory['counts'];
    /**
     * The releases each computed history of the agent covers (the changelog's range), with
     * the releases read in which no compared configuration could be captured; undefined
     * when the agent has no history.
     */
    history?: {
      changelog: string;
      lines: {
        label: string;
        packages: string[];
        count: number;
        first: string;
        last: string;
        notRun: string[] /** Why a capture history starts at `first` (CaptureHistoryPlan.startsAt). */;
        startsAt?: string;
      }[];
    };
    /** Feature flags and handler files, when the binary's names cannot be listed. */
    features?: { count: number; command: string | undefined; handlerFiles: number; file: string };
    /**
     * Releases newer than the capture pin that the capture history read and that ran in none of
     * its configurations: why the captures stay where they are, in the release's own words.
     */
    newerCannotRun?: { release: string; pin: string; said: string }[];
  };
  tools: { section: AgentSection; groups: { section: AgentSection; tools: ToolIndexRow[] }[] };
  matrix?: {
    section: AgentSection;
    configurations: MatrixConfiguration[];
    /** Tools some configuration advertises, of all the agent's tools. */
    advertised: number;
    total: number;
    nowhere: number;
    /** Advertised tools first, then those no configuration advertises. */
    rows: MatrixRow[];
  };
  configurations?: {
    section: AgentSection;
    package: string;
    version: string;
    /** Where the captures are committed, under content/. */
    captureFolder: string;
    effects?: {
      baseline: { id: string; label: string };
      lines: { configurations: { id: string; label: string }[]; added: string[]; removed: string[] }[];
    };
    list: { id: string; label: string; description: string; command: string | undefined }[];
  };
  /** The model catalog the binary embeds, with the members gates read (Codex). */
  modelCatalog?: CatalogTable & {
    section: AgentSection;
    version: string;
    file: string;
    omitted: string[];
    /** Configuration labels by id, for the "asked by" cells. */
    labels: Record<string, string>;
  };
  registered?: {
    section: AgentSection;
    version: string;
    file: string;
    structuredAliases: { alias: string; tool: string }[];
    names: {
      id: string;
      name: string;
      aliases: string[];
      gate: { gate: string; source: string } | undefined;
      removedUrl: string | undefined;
    }[];
  };
  sources: { section: AgentSection; list: AgentRecord['sources'] };
  definitionKinds: { section: AgentSection; rows: { label: string; inputs: number; results: number }[] };
}

/** The environment and arguments a configuration adds, as one command line; undefined when it adds none. */
export function configurationCommand(configuration: Pick<MatrixConfiguration, 'args' | 'env'>): string | undefined {
  const words = [...Object.entries(configuration.env).map(([k, v]) => `${k}=${v}`), ...configuration.args];
  return words.length > 0 ? words.join(' ') : undefined;
}

/** Why the agent's capture history starts where it does, when its plan says. */
function startsAtOf(id: AgentId, source: 'sdk' | 'capture'): { startsAt?: string } {
  const plan = AGENTS[id].captureHistory;
  return source === 'capture' && 'configurations' in plan && plan.startsAt !== undefined
    ? { startsAt: plan.startsAt }
    : {};
}

/**
 * The agent's release histories as the facts list shows them: each source's coverage, and where a release could not be
 * read at all.
 */
function historyFacts(
  id: AgentId,
  histories: SiteModel['histories'],
): NonNullable<AgentPage['facts']['history']> | undefined {
  if (histories.length === 0) return undefined;
  const labels = { sdk: 'SDK types', capture: 'Captures' } as const;
  return {
    changelog: changelogUrl(id),
    lines: coverage(id, histories).map((c, i) => ({
      label: labels[c.source],
      // Every package read, in order (older releases of one history can come from another package).
      packages: c.lines.length > 0 ? c.lines.map((l) => l.package) : [c.package],
      count: c.count,
      first: c.first,
      last: c.last,
      notRun: failedReleases(histories[i]!)
        .filter((f) => f.all)
        .map((f) => f.release),
      ...startsAtOf(id, c.source),
    })),
  };
}

/**
 * Releases after the capture pin that the capture history records as running in no configuration, with the first
 * reason.
 */
export function newerCannotRun(
  histories: SiteModel['histories'],
  pin: string,
): { release: string; pin: string; said: string }[] {
  const capture = histories.find((h) => h.source === 'capture');
  if (!capture) return [];
  return failedReleases(capture)
    .filter((f) => f.all && compareVersions(f.release, pin) > 0)
    .map((f) => ({ release: f.release, pin, said: f.reasons[0]!.reason }));
}

/** Which tools each configuration advertises: a row per tool, the ones no configuration advertises last. */
function matrixView(
  tools: readonly ToolModel[],
  matrix: MatrixAgent,
  section: AgentSection,
): NonNullable<AgentPage['matrix']> {
  // Tools no configuration advertises still get a row, so the matrix lists every tool of the agent.
  const advertised = tools.filter((t) => t.captured);
  const nowhere = tools.filter((t) => !t.captured);
  return {
    section,
    configurations: matrix.configurations,
    advertised: advertised.length,
    total: tools.length,
    nowhere: nowhere.length,
    rows: [...advertised, ...nowhere].map((t) => ({
      url: toolUrl(t),
      name: t.fullName,
      nowhere: !t.captured,
      cells: matrix.configurations.map((c) => {
        const seen = t.captured?.byConfig.get(c.id);
        return seen
          ? { mark: MATRIX_MARKS[seen.delivery], title: DELIVERY_LABELS[seen.delivery] }
          : { mark: NOT_ADVERTISED_MARK };
      }),
    })),
  };
}

/** The captured configurations, how each is run, and what each changes against the first. */
function configurationsView(
  id: AgentId,
  tools: readonly ToolModel[],
  matrix: MatrixAgent,
  section: AgentSection,
): NonNullable<AgentPage['configurations']> {
  const effects = configurationEffects(tools, matrix);
  const link = (c: MatrixConfiguration) => ({ id: c.id, label: c.label });
  const view: NonNullable<AgentPage['configurations']> = {
    section,
    package: matrix.package,
    version: matrix.version,
    captureFolder: `content/captures/${id}/`,
    list: matrix.configurations.map((c) => ({
      id: c.id,
      label: c.label,
      description: c.description,
      command: configurationCommand(c),
    })),
  };
  if (effects) {
    view.effects = {
      baseline: link(effects.baseline),
      lines: effects.effects.map((e) => ({
        configurations: e.configurations.map(link),
        added: e.added,
        removed: e.removed,
      })),
    };
  }
  return view;
}

/** Tool names the binary registers that no configuration advertises, each linked to its page when it was removed. */
function registeredView(
  removedTools: readonly RemovedTool[],
  inventory: AgentInventory,
  section: AgentSection,
): NonNullable<AgentPage['registered']> {
  return {
    section,
    version: inventory.version,
    file: inventory.file,
    structuredAliases: inventory.structuredAliases,
    names: inventory.unadvertised.map((u) => {
      const removed = removedTools.find((t) => t.name === u.name);
      return {
        id: `registered-${u.name.toLowerCase()}`,
        name: u.name,
        aliases: u.aliases,
        gate: u.gate,
        removedUrl: removed && toolUrl(removed),
      };
    }),
  };
}

/** The models the binary embeds, a column per configuration that asked for one. */
function modelCatalogView(
  inventory: AgentInventory,
  catalog: NonNullable<AgentInventory['modelCatalog']>,
  matrix: MatrixAgent | undefined,
  tools: readonly ToolModel[],
  section: AgentSection,
): NonNullable<AgentPage['modelCatalog']> {
  const { models, omitted, askedBy } = catalog;
  return {
    section,
    version: inventory.version,
    file: inventory.file,
    omitted,
    labels: Object.fromEntries((matrix?.configurations ?? []).map((c) => [c.id, c.label])),
    ...catalogTable(models, askedBy, tools),
  };
}

/** The page's sections, in order: the tool groups under Tools, then what the agent's files hold. */
function agentSections(bundle: AgentBundle) {
  const { matrix, inventory } = bundle;
  const section = (sectionId: AgentSectionId, title: string, depth: 2 | 3 = 2): AgentSection => ({
    id: sectionId,
    title,
    depth,
  });
  const groups = groupedTools(bundle.tools, bundle.record.id).map((g) => ({
    section: section(`group-${g.group}`, `${g.label} (${g.tools.length})`, 3),
    tools: g.tools.map(indexRow),
  }));
  const parts = {
    tools: section('tools', 'Tools'),
    groups,
    matrix: matrix && section('matrix', 'Which tools each configuration advertises'),
    configurations: matrix && section('configurations', 'Captured configurations'),
    catalog: inventory?.modelCatalog ? section('model-catalog', 'Model catalog') : undefined,
    registered:
      inventory !== undefined && inventory.names.length > 0
        ? section('registered-not-advertised', 'Registered but never advertised')
        : undefined,
    sources: section('sources', 'Sources'),
    kinds: section('definition-kinds', 'Definitions by kind'),
  };
  const list = [
    parts.tools,
    ...groups.map((g) => g.section),
    parts.matrix,
    parts.configurations,
    parts.catalog,
    parts.registered,
    parts.sources,
    parts.kinds,
  ].filter((s) => s !== undefined);
  return { ...parts, list };
}

/** What the facts line adds beyond releases and tool counts: the history, releases that cannot run, features. */
function moreFacts(bundle: AgentBundle, facts: AgentPage['facts']): void {
  const { inventory, matrix, histories } = bundle;
  if (inventory !== undefined && inventory.names.length > 0) facts.registered = inventory.counts;
  const history = historyFacts(bundle.record.id, histories);
  if (history) facts.history = history;
  const blocked = matrix ? newerCannotRun(histories, matrix.version) : [];
  if (blocked.length > 0) facts.newerCannotRun = blocked;
  if (inventory?.features !== undefined)
    facts.features = {
      count: inventory.features,
      command: inventory.featuresCommand,
      handlerFiles: inventory.handlerModules?.length ?? 0,
      file: inventory.file,
    };
}

/** The agent's page, from its bundle alone (the one lookup by agent is here). */
export function agentPage(site: SiteModel, id: AgentId): AgentPage {
  const bundle = agentBundle(site, id);
  const { record: agent, tools, matrix, inventory } = bundle;
  const sections = agentSections(bundle);
  const count = (source: ToolModel['source']) => tools.filter((t) => t.source === source).length;
  const releases = bundle.releases ?? { examples: [] };
  const page: AgentPage = {
    agent,
    title: AGENT_LABELS[id],
    searchAgent: agentFilter(id),
    description: `${tools.length} tools of ${agent.product} ${releaseVersions(releases) || agent.version}`,
    sections: sections.list,
    facts: {
      releases: releaseFacts(releases),
      tools: { total: tools.length, sdk: count('sdk'), capture: count('capture'), documented: count('documented') },
    },
    tools: { section: sections.tools, groups: sections.groups },
    sources: { section: sections.sources, list: agent.sources },
    definitionKinds: {
      section: sections.kinds,
      rows: (Object.keys(KIND_LABELS) as DefinitionKind[]).map((kind) => ({
        label: KIND_LABELS[kind],
        inputs: tools.filter((t) => t.input.definition.kind === kind).length,
        results: tools.filter((t) => t.output.definition.kind === kind).length,
      })),
    },
  };
  moreFacts(bundle, page.facts);
  if (matrix && sections.matrix && sections.configurations) {
    page.matrix = matrixView(tools, matrix, sections.matrix);
    page.configurations = configurationsView(id, tools, matrix, sections.configurations);
  }
  if (sections.catalog && inventory?.modelCatalog)
    page.modelCatalog = modelCatalogView(inventory, inventory.modelCatalog, matrix, tools, sections.catalog);
  if (sections.registered && inventory)
    page.registered = registeredView(bundle.removedTools, inventory, sections.registered);
  return page;
}

function indexRow(tool: ToolModel): ToolIndexRow {
  return {
    url: toolUrl(tool),
    name: tool.fullName,
    summary: tool.editorial?.summary,
    input: KIND_LABELS[tool.input.definition.kind],
    result: KIND_LABELS[tool.output.definition.kind],
  };
}
