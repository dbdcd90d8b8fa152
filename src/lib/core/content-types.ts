/**
 * Names for the content file types. The types themselves are generated from
 * schemas/ (src/lib/generated/content-files.ts, `npm run generate:types`), so
 * each content type is declared once, in its JSON Schema.
 */
import type { AgentFile, EditorialFile, ToolFile } from '../generated/content-files.ts';

export type {
  AliasRecord,
  ArchiveFile,
  ArchivedFile,
  Binding,
  CaptureFile,
  CaptureMatrixFile,
  CatalogModel,
  ComparedField,
  ComparisonConcept,
  ComparisonFile,
  Definition,
  DefinitionOrigin,
  Gate,
  ModelRule,
  GateCondition,
  GrammarDefinition,
  HistoryEvent,
  HistoryFile,
  HooksFile,
  HookAnswer,
  HookBehaviourHistoryFile,
  HookOutputsFile,
  SubagentsFile,
  PermissionCase,
  PermissionCasesFile,
  PermissionFile,
  McpNamingFile,
  McpNamingReading,
  NotDocumentedAgent,
  NotDocumentedFile,
  PermissionOutcome,
  CaseOutcome,
  OutcomeSpan,
  BehaviourChange,
  HookCase,
  HookCaseFile,
  HookCasesFile,
  HookEventsFile,
  Evidence,
  InventoryFile,
  Job,
  JobsFile,
  JsonSchemaDefinition,
  Outcome,
  PayloadCall,
  PayloadFile,
  ProvenanceRecord,
  Scenario,
  ScenarioAgent,
  ScenariosFile,
  TypeScriptDefinition,
  UnavailableDefinition,
  VersionNote,
} from '../generated/content-files.ts';

/** The rule a permission case runs under (schemas/permission-rule.schema.json, inlined where it is used). */
export type PermissionRule = import('../generated/content-files.ts').PermissionCase['rule'];

/** One AgentId: the registry's (src/lib/agents/index.ts), generated into src/lib/generated/agent-ids.ts. */
export type { AgentId } from '../generated/agent-ids.ts';
/** content/agents/<agent>.json — written by the ingest script. */
export type AgentRecord = Omit<AgentFile, 'sources'> & {
  /** Captures are a source too; they have no `integrity`. */
  sources: (Omit<AgentFile['sources'][number], 'integrity'> & { integrity?: string })[];
};
/** content/tools/<agent>/<slug>.json — written by scripts, never by hand. */
export type GeneratedTool = ToolFile;
/** content/editorial/<agent>/<slug>.json — hand-written, never touched by scripts. */
export type EditorialTool = EditorialFile;
export type ToolGroup = ToolFile['group'];
export type AliasKind = ToolFile['aliases'][number]['kind'];
export type GateKind = EditorialFile['availability']['gates'][number]['kind'];
export type DefinitionKind = ToolFile['input']['kind'];
