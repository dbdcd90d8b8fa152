/** Labels, URLs and groupings the pages share. Pure: the data comes in as arguments. */
import { AGENT_PRODUCTS } from '../agents/index.ts';
import type { AgentId, DefinitionKind, ToolGroup } from '../core/content-types.ts';
import type { ToolModel } from '../model/model.ts';

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

/** The site's base path (`/` unless astro.config sets `base`), always ending in `/`. */
function base(): string {
  const b = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';
  return b.endsWith('/') ? b : `${b}/`;
}

/** A path inside the site, with the configured base: `sitePath('jobs/')` → `/jobs/` (or `/docs/jobs/`). */
export function sitePath(path: string): string {
  return base() + path.replace(/^\//, '');
}

/** Site-relative tool path (no base): what the sidebar takes, Starlight adds the base. */
export function toolPath(tool: Pick<ToolModel, 'agent' | 'slug'>): string {
  return `/${tool.agent}/${tool.slug}/`;
}

export function toolUrl(tool: Pick<ToolModel, 'agent' | 'slug'>): string {
  return sitePath(toolPath(tool));
}

export function agentUrl(agent: AgentId): string {
  return sitePath(`/${agent}/`);
}

/** Tools of an agent grouped in display order, empty groups left out. */
export function groupedTools(
  tools: readonly ToolModel[],
  agent: AgentId,
): { group: ToolGroup; label: string; tools: ToolModel[] }[] {
  const own = tools.filter((t) => t.agent === agent);
  return GROUP_ORDER.map((group) => ({
    group,
    label: GROUP_LABELS[group],
    tools: own.filter((t) => t.generated.group === group),
  })).filter((g) => g.tools.length > 0);
}

/** The comparison page of a job: `/jobs/run-shell-command/`. */
export function jobUrl(jobId: string): string {
  return sitePath(`/jobs/${jobId}/`);
}
