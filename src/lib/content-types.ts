/**
 * Types of the content files. schemas/*.schema.json are the source of truth
 * for validation; these mirror them for the compiler.
 */

export type AgentId = 'claude-code' | 'codex';

export const AGENT_PRODUCTS: Record<AgentId, string> = { 'claude-code': 'Claude Code', codex: 'Codex CLI' };
export type ToolGroup = 'built-in' | 'host-injected' | 'provider-hosted' | 'mcp';
export type AliasKind = 'accepted-alias' | 'former-name' | 'sdk-type';

export interface AliasRecord {
  name: string;
  kind: AliasKind;
  evidence: string;
}

export interface DefinitionOrigin {
  package: string;
  version: string;
  file: string;
}

export interface TypeScriptDefinition {
  kind: 'typescript';
  typeName: string;
  /** Declaration text: the type and every declaration it refers to, verbatim. */
  source: string;
  origin: DefinitionOrigin;
}

export interface JsonSchemaDefinition {
  kind: 'json-schema';
  schema: Record<string, unknown>;
  origin: DefinitionOrigin;
}

export interface GrammarDefinition {
  kind: 'grammar';
  syntax: string;
  definition: string;
  origin: DefinitionOrigin;
}

export interface UnavailableDefinition {
  kind: 'unavailable';
  reason: string;
}

export type Definition = TypeScriptDefinition | JsonSchemaDefinition | GrammarDefinition | UnavailableDefinition;
export type DefinitionKind = Definition['kind'];

export interface ProvenanceRecord {
  package: string;
  version: string;
  file: string;
  method: string;
  date: string;
}

/** content/tools/<agent>/<slug>.json — written by scripts, never by hand. */
export interface GeneratedTool {
  agent: AgentId;
  name: string;
  namespace?: string;
  group: ToolGroup;
  nameEvidence: string;
  aliases: AliasRecord[];
  input: Definition;
  output: Definition;
  provenance: ProvenanceRecord[];
}

export type GateKind = 'always' | 'env' | 'flag' | 'config' | 'model' | 'mode' | 'feature' | 'host' | 'setting';

export interface Gate {
  kind: GateKind;
  name: string;
  value?: string;
  effect: 'enables' | 'disables' | 'requires';
}

export interface VersionNote {
  version: string;
  change: string;
  evidence: string;
}

/** content/editorial/<agent>/<slug>.json — hand-written, never touched by scripts. */
export interface EditorialTool {
  agent: AgentId;
  name: string;
  summary: string;
  availability: { prose: string; gates: Gate[] };
  lifecycle: string;
  failures: string[];
  jobs: string[];
  versionNotes?: VersionNote[];
  /**
   * For a tool that public documentation names but no captured configuration
   * advertises: what evidence exists. Gives the tool a page that says so.
   */
  documentedOnly?: { evidence: string };
}

/** content/agents/<agent>.json — written by the ingest script. */
export interface AgentRecord {
  id: AgentId;
  product: string;
  version: string;
  sourceRevision?: string;
  buildDate?: string;
  checked: string;
  /** `integrity` is the registry's hash of a downloaded package; captures have none. */
  sources: { package: string; version: string; integrity?: string; files: string[]; role: string }[];
}

export interface Job {
  id: string;
  title: string;
  description: string;
}

export interface JobsFile {
  jobs: Job[];
}
