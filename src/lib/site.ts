/**
 * The one place pages and the Astro config get the validated content from.
 * Loaded once per process; an invalid content file throws ContentErrors here,
 * which stops `astro build` before any page is written.
 */
import { loadContent, type SiteModel, type ToolModel } from './content.ts';
import { AGENT_PRODUCTS, type AgentId, type AgentRecord, type DefinitionKind, type ToolGroup } from './content-types.ts';

// Astro bundles this module, so import.meta.url does not point into src/ at build
// time; every npm script runs from the project root.
const ROOT = process.cwd();

let cached: SiteModel | undefined;

export function site(): SiteModel {
  cached ??= loadContent({ root: process.env.CONTENT_ROOT ?? ROOT, ...(process.env.CONTENT_DIR ? { contentDir: process.env.CONTENT_DIR } : {}) });
  return cached;
}

export const AGENT_LABELS: Record<AgentId, string> = AGENT_PRODUCTS;

export const GROUP_LABELS: Record<ToolGroup, string> = {
  'built-in': 'Built in',
  'host-injected': 'Injected by a host',
  'provider-hosted': 'Hosted by the model provider',
  mcp: 'MCP and dynamic tools',
};

export const GROUP_ORDER: ToolGroup[] = ['built-in', 'host-injected', 'provider-hosted', 'mcp'];

export const KIND_LABELS: Record<DefinitionKind, string> = {
  typescript: 'TypeScript',
  'json-schema': 'JSON Schema',
  grammar: 'Freeform grammar',
  unavailable: 'Unavailable',
};

export function toolUrl(tool: Pick<ToolModel, 'agent' | 'slug'>): string {
  return `/${tool.agent}/${tool.slug}/`;
}

export function agentUrl(agent: AgentId): string {
  return `/${agent}/`;
}

export function toolsOf(agent: AgentId): ToolModel[] {
  return site().tools.filter((t) => t.agent === agent);
}

export function agentRecord(agent: AgentId): AgentRecord {
  const record = site().agents.find((a) => a.id === agent);
  if (!record) throw new Error(`no agent record for ${agent}`);
  return record;
}

/** Tools of an agent grouped in display order, empty groups left out. */
export function groupedTools(agent: AgentId): { group: ToolGroup; label: string; tools: ToolModel[] }[] {
  const tools = toolsOf(agent);
  return GROUP_ORDER.map((group) => ({ group, label: GROUP_LABELS[group], tools: tools.filter((t) => t.generated.group === group) })).filter(
    (g) => g.tools.length > 0,
  );
}
