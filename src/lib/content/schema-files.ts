/**
 * The JSON Schemas of content files (schemas/): which schema each kind of file
 * is read with, and the name of its generated TypeScript type
 * (scripts/generate-content-types.ts). The one list of content schemas.
 */
export const CONTENT_SCHEMAS = {
  agent: { file: 'agent.schema.json', type: 'AgentFile' },
  tool: { file: 'tool.schema.json', type: 'ToolFile' },
  editorial: { file: 'editorial-tool.schema.json', type: 'EditorialFile' },
  jobs: { file: 'jobs.schema.json', type: 'JobsFile' },
  matrix: { file: 'capture-matrix.schema.json', type: 'CaptureMatrixFile' },
  capture: { file: 'capture.schema.json', type: 'CaptureFile' },
  history: { file: 'history.schema.json', type: 'HistoryFile' },
  inventory: { file: 'inventory.schema.json', type: 'InventoryFile' },
  comparison: { file: 'comparison.schema.json', type: 'ComparisonFile' },
  scenarios: { file: 'scenarios.schema.json', type: 'ScenariosFile' },
  payload: { file: 'payload.schema.json', type: 'PayloadFile' },
  archive: { file: 'archive.schema.json', type: 'ArchiveFile' },
  hooks: { file: 'hooks.schema.json', type: 'HooksFile' },
  hookEvents: { file: 'hook-events.schema.json', type: 'HookEventsFile' },
  hookCases: { file: 'hook-cases.schema.json', type: 'HookCasesFile' },
  hookCase: { file: 'hook-case.schema.json', type: 'HookCaseFile' },
  hookOutputs: { file: 'hook-outputs.schema.json', type: 'HookOutputsFile' },
  subagents: { file: 'subagents.schema.json', type: 'SubagentsFile' },
  hookBehaviourHistory: { file: 'hook-behaviour-history.schema.json', type: 'HookBehaviourHistoryFile' },
  permissionCases: { file: 'permission-cases.schema.json', type: 'PermissionCasesFile' },
  permission: { file: 'permission-record.schema.json', type: 'PermissionFile' },
  mcpNaming: { file: 'mcp-naming.schema.json', type: 'McpNamingFile' },
  notDocumented: { file: 'not-documented.schema.json', type: 'NotDocumentedFile' },
} as const;

export type SchemaName = keyof typeof CONTENT_SCHEMAS;

/** Schemas the content schemas refer to by `$ref`, never read on their own: added to Ajv first. */
export const SHARED_SCHEMAS = [
  'agent-id.schema.json',
  'subagent-type.schema.json',
  'permission-rule.schema.json',
] as const;

/** The format of agent ids (schemas/agent-id.schema.json), checked against the registry. */
export const AGENT_ID_FORMAT = 'agent-id';
