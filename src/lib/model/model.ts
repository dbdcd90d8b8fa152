/**
 * The model the pages render: one ToolModel per tool page, the agents, the
 * jobs and the capture matrix. Built by src/lib/content/load.ts; components
 * only read it.
 */
import type { CaptureMatrix, CapturedEntry } from './captures.ts';
import type {
  AgentId,
  AgentRecord,
  CatalogModel,
  ComparisonFile,
  Definition,
  EditorialTool,
  GeneratedTool,
  HistoryFile,
  HookBehaviourHistoryFile,
  HookCaseFile,
  HookOutputsFile,
  PermissionFile,
  McpNamingFile,
  NotDocumentedAgent,
  SubagentsFile,
  HookEventsFile,
  HooksFile,
  Job,
  PayloadCall,
} from '../core/content-types.ts';
import type { FieldDifference, FieldRow } from '../shapes/field-rows.ts';
import type { ExportFileName } from '../core/export-file-names.ts';
import type { ToolFacts } from './tool-facts.ts';

/** A definition as a page shows it: its field rows and the text of the full definition. */
export interface DefinitionView {
  definition: Definition;
  rows: FieldRow[];
  /** The definition as text for the highlighted block, with its language. */
  code?: { lang: string; text: string };
  /** The rule the definition broke (reported already); nothing should compile or walk it again. */
  broken?: string;
}

export interface ToolModel {
  agent: AgentId;
  slug: string;
  /** Where the tool's page comes from: published SDK types, runtime captures only, or documentation only. */
  source: 'sdk' | 'capture' | 'documented';
  /** Callable name, with namespace: `multi_agent_v1.spawn_agent`. */
  fullName: string;
  generated: GeneratedTool;
  editorial?: EditorialTool;
  input: DefinitionView;
  output: DefinitionView;
  /** How each captured configuration advertises the tool (absent when never captured). */
  captured?: CapturedEntry;
  /**
   * For SDK-typed tools: the JSON Schema the model is sent. `differences` is
   * present only when the two definitions were compared field by field.
   */
  modelInput?: { view: DefinitionView; config: string; differences?: FieldDifference[] };
  files: { generated: string; editorial?: string };
  /**
   * URL names of the tool's accepted aliases and former names that differ from
   * its own: each gets a page that redirects here (`/claude-code/killshell/`).
   * Set by the pages stage, which validates them like any URL name.
   */
  redirectSlugs?: string[];
  /** Real calls recorded by `npm run payloads` that call this tool (set by the payloads stage). */
  examples?: ToolExample[];
  /** Why no scenario runs this tool here (content/scenarios.json `cannotRun`). */
  notRun?: string;
  /**
   * Other JSON Schemas some configurations send than the one the page shows first (descriptions
   * aside), each with its configurations: Copilot's interactive `ask_user` takes other fields.
   */
  otherInputs?: { configs: string[]; view: DefinitionView }[];
  /**
   * Why the captured definition is a stand-in our stub made up, not the CLI's (src/lib/content/tool-synthesis.ts
   * standInReason).
   */
  standIn?: string;
  /** The release each part of the page comes from (set by the loader once every source is read). */
  releases: ToolReleases;
  /** What the evidence says of it beyond its own files (set by the loader's last stage, content/tool-facts.ts). */
  facts: ToolFacts;
  /** How each editorial gate fares against the captures, in gate order (set by the gates stage). */
  gateStatuses?: GateStatus[];
}

/** One recorded scenario, as the page of a tool it calls shows it. */
export interface ToolExample {
  /** The payload file, relative to the project root. */
  file: string;
  scenario: string;
  description: string;
  expect: 'success' | 'failure';
  configuration: string;
  /** The CLI release that was run to record it. */
  cli: { package: string; version: string };
  /** The scenario's calls in order; `own` marks those of this page's tool (a follow-up may call another). */
  calls: (PayloadCall & { own: boolean })[];
  /** Where the payloads of this tool's calls differ from what its page declares. */
  findings: Finding[];
}

/**
 * A tool a computed history saw removed and that no current tool answers to
 * (by name or alias): it gets a page saying when it existed.
 */
export interface RemovedTool {
  agent: AgentId;
  name: string;
  slug: string;
  source: HistoryFile['source'];
  /** The last release that had it and the first that did not, as readers know them. */
  lastSeen: string;
  removedIn: string;
  /** Whether the removal came exactly in `removedIn` (else somewhere after `lastSeen`: event-span.ts). */
  removedExactly: boolean;
  /** The release that added it, when the history saw that; else it predates `firstCompared`. */
  addedIn?: string;
  /** The last release known without it, when the history cannot tell its addition exactly. */
  addedAfter?: string;
  /** The first release in which the history saw it (history.ts firstSeen), else the first release compared. */
  firstCompared: string;
  /** Where the removal is recorded, for error messages. */
  file: string;
}

export interface SiteModel {
  agents: AgentRecord[];
  tools: ToolModel[];
  jobs: Job[];
  /** Field comparisons of jobs (content/comparisons/), validated against the tools. */
  comparisons: ComparisonFile[];
  /** The declared capture matrix, when content/capture-matrix.json exists. */
  matrix?: CaptureMatrix;
  /** Computed release histories, one per agent and source (content/history/). */
  histories: HistoryFile[];
  /** Tools the histories saw removed, with a page each. */
  removedTools: RemovedTool[];
  /** What each pinned binary registers (content/inventory/), and how much of it has a page. */
  inventory: AgentInventory[];
  /** The release each source of each agent comes from. */
  releases: Partial<Record<AgentId, AgentReleases>>;
  /** Versioned export files published before and no longer produced by the content (content/archive/). */
  archived: ArchivedExport[];
  /** Editorial facts of the agents' hooks pages (content/hooks/<agent>.json), validated. */
  hooks: HooksEditorial[];
  /**
   * The hook events each agent's published code names (content/hook-events/<agent>.json), validated against its
   * registry module.
   */
  hookEvents: HookEventsList[];
  /** What happened when a hook answered (content/hook-behaviour/<agent>/<case>.json), in case-file order. */
  hookBehaviour: HookBehaviourRecord[];
  /** The agents' hook behaviour cases over their releases (content/hook-behaviour-history/<agent>.json), validated. */
  hookBehaviourHistories: HookBehaviourHistory[];
  /**
   * What each agent's hooks may return, per event, from its published code (content/hook-outputs/<agent>.json),
   * validated.
   */
  hookOutputs: HookOutputs[];
  /** The tools each built-in subagent type was offered (content/subagents/<agent>.json), validated. */
  subagents: Subagents[];
  /**
   * What a permission rule did to a real call (content/permissions/<agent>/<case>.json), validated, in the case file's
   * order.
   */
  permissions: PermissionRecord[];
  /** Each agent's name for an MCP server's tool over its releases (content/mcp-naming/<agent>.json), validated. */
  mcpNaming: McpNamingHistory[];
  /** Agents the site does not document, and why (content/not-documented.json, editorial), validated. */
  notDocumented: NotDocumentedAgent[];
}

/** content/subagents/<agent>.json, with where it is. */
export type Subagents = SubagentsFile & { file: string };

/** content/hook-outputs/<agent>.json, with where it is. */
export type HookOutputs = HookOutputsFile & { file: string };

/** content/hook-behaviour-history/<agent>.json, with where it is. */
export type HookBehaviourHistory = HookBehaviourHistoryFile & { file: string };

/** One recorded hook behaviour case, with where it is (`content/hook-behaviour/<agent>/<case>.json`). */
export type HookBehaviourRecord = HookCaseFile & { file: string };

/** content/permissions/<agent>/<case>.json, with where it is and the page of the tool it called. */
/** A permission record, with the note its case carries (content/permission-cases.json `note`), if any. */
export type PermissionRecord = PermissionFile & { file: string; toolSlug: string; note?: string };

/** content/mcp-naming/<agent>.json, with where it is. */
export type McpNamingHistory = McpNamingFile & { file: string };

/** content/hooks/<agent>.json, with where it is. */
export type HooksEditorial = HooksFile & { file: string };

/** content/hook-events/<agent>.json, with where it is (`file` is the package's file it was read from). */
export type HookEventsList = HookEventsFile & { contentFile: string };

/** One agent's tool inventory as the agent page shows it (built by the inventory stage). */
export interface AgentInventory {
  agent: AgentId;
  /** The inventory file, relative to the project root. */
  file: string;
  version: string;
  /** Every inventoried name: the registered list, then alias targets missing from it. */
  names: string[];
  /** Every alias table entry. */
  aliases: { alias: string; tool: string }[];
  /** Entries that became accepted aliases of a tool page. */
  structuredAliases: { alias: string; tool: string }[];
  /** Names with no page and no alias on one: registered but never advertised in any configuration we could build. */
  unadvertised: { name: string; aliases: string[]; gate?: { gate: string; source: string } }[];
  counts: { names: number; captured: number; sdk: number; onlyRegistered: number };
  /** Codex: feature flags reported (their count and names), and the tool handler source files named. */
  features?: number;
  /** The command that listed them (`codex features list`), as the inventory file records it. */
  featuresCommand?: string;
  featureNames?: string[];
  handlerModules?: string[];
  /** The model catalog the binary embeds (Codex), prose members left out (named in `omitted`). */
  modelCatalog?: {
    models: CatalogModel[];
    omitted: string[];
    /** The captured configurations that asked for each model (set by the loader from the captured requests). */
    askedBy: Map<string, string[]>;
  };
}

/** Every field table a tool page renders, in page order: what field anchors must be unique across. */
export function fieldTables(tool: ToolModel): { title: string; rows: FieldRow[] }[] {
  const tables = [
    { title: 'Input', rows: tool.input.rows },
    { title: 'Result', rows: tool.output.rows },
  ];
  if (tool.modelInput) tables.push({ title: 'Model-facing input', rows: tool.modelInput.view.rows });
  for (const other of tool.otherInputs ?? [])
    tables.push({ title: `Input in ${other.configs.join(', ')}`, rows: otherInputRows(other) });
  return tables;
}

/** Ids of every field row on the tool's page: each row's anchor and its stable anchor (anchors.ts). */
export function pageAnchors(tool: ToolModel): Set<string> {
  return new Set(fieldTables(tool).flatMap((t) => t.rows.flatMap((r) => [r.id, r.stableId])));
}

/**
 * The rows of another configuration's input, their ids prefixed with its first configuration
 * (`config-interactive.input.message`): unique beside the main tables.
 */
export function otherInputRows(other: { configs: string[]; view: DefinitionView }): FieldRow[] {
  const prefix = `config-${other.configs[0]}.`;
  return other.view.rows.map((r) => ({ ...r, id: prefix + r.id, stableId: prefix + r.stableId }));
}

// Records other modules compute and the model holds: the model declares them, so it imports none of those modules.

// Which release each fact comes from (src/lib/model/releases.ts).
/** One release of one source: a CLI package, or a package of published types. */
export interface Release {
  /** A release of the CLI itself, or of a package of its published types. */
  kind: 'cli' | 'types';
  /** The product the release belongs to (`Claude Code`). */
  product: string;
  /** The npm package read, and its release. */
  package: string;
  packageVersion: string;
  /** The CLI release it is or was built with, when known: the package's own release for a CLI. */
  cliVersion?: string;
  /** The CLI release named is not published on the registry (checked when the types were read). */
  cliUnpublished?: boolean;
}

export interface AgentReleases {
  /** Published types of the tools' inputs and results. */
  types?: Release;
  /** Runtime captures of what the CLI sends its model. */
  captures?: Release;
  /** Recorded hook payloads and tool results (the examples), newest release first. */
  examples: Release[];
  /** The tool names read from the binary. */
  inventory?: Release;
}

/** Which release each part of one tool page shows. */
export interface ToolReleases {
  input?: Release;
  result?: Release;
  modelInput?: Release;
}

// What a recorded payload shows against the declared rows (src/lib/check/payload-check.ts).
export type FindingKind =
  /** The model-facing JSON Schema rejects the input (Ajv). */
  | 'schema'
  /** A field in the payload that the declaration does not list. */
  | 'undeclared'
  /** A field the declaration marks required that the payload lacks. */
  | 'missing-required'
  /** A value of another JSON type than declared (a string where an object is declared). */
  | 'type'
  /** A value outside the declared literal values. */
  | 'not-listed'
  /** The hook names the call another tool, so its tool_input is not the tool's declared input. */
  | 'hook-tool-name'
  /** A rule the description sent to the model states, which a recorded call breaks (src/lib/check/findings.ts). */
  | 'rule-contradicted';

/** Which part of a payload a finding is about. */
export type PayloadPart = 'input' | 'hook tool_input' | 'tool_use_result' | 'hook tool_response';

export interface Finding {
  /** Index of the call in `calls`. */
  call: number;
  tool: string;
  /** The parts of the payload showing it (a result the hook and stream-json both carry is checked once). */
  parts: PayloadPart[];
  kind: FindingKind;
  /**
   * The field anchor on the tool page (`output.noOutputExpected`, `input.run_in_background`, `model-input.cmd`);
   * for an undeclared field found by the row walk, the anchor it would have; for a schema error, the nearest row
   * (the table's heading when none fits).
   */
  anchor: string;
  /** JSON pointer of the value inside the part (empty for the whole part). */
  pointer: string;
  message: string;
}

// An archived export (src/lib/content/stages/archive.ts).
/** One archived export file, as the build serves it. */
export interface ArchivedExport {
  agent: AgentId;
  /** URL names of `/<agent>/<tool>/<version>/<file>`. */
  tool: string;
  version: string;
  file: ExportFileName;
  path: string;
  /** The text as published, with the site address it was written with. */
  text: string;
  origin: string;
  archived: string;
}

// An editorial gate checked against the captures (src/lib/check/gate-check.ts).
/** How one gate fares against the captures, for the page. */
export type GateStatus =
  /** No `when`: the captures cannot check it. */
  | { kind: 'unchecked' }
  /** Checked; `satisfiedBy` lists the configurations that satisfy the condition (possibly none). */
  | { kind: 'checked'; satisfiedBy: string[]; total: number; modelsCompared?: string[] };
