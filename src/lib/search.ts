/**
 * What search (Starlight's Pagefind) shows and filters by for a page of one
 * agent: the result's title, the agent filter's value and the names the page
 * answers to as spelled. The page writes them as Pagefind attributes.
 */
import type { AgentId } from './content-types.ts';
import { escapeHtmlText } from './html-text.ts';
import { AGENT_LABELS } from './site.ts';

export interface SearchFields {
  /** The result's title, `<name> — <release>`: the page's h1 stays the name. */
  title: string;
  /**
   * The `agent` filter's value: the agent's product name, as HTML, because
   * Pagefind's UI writes filter values with innerHTML (its filters.svelte).
   */
  agent: string;
  /** The names the page answers to, exactly as spelled, as a JSON array (`spelled` metadata, read by search-rank.ts). */
  spelled: string;
}

/** The agent filter's value for the pages of `agent` (tool, removed-tool, overview and changelog pages). */
export function agentFilter(agent: AgentId): string {
  return escapeHtmlText(AGENT_LABELS[agent]);
}

/**
 * Search fields of a tool's page: `names` are what it answers to (its name first),
 * `release` what its title names after the dash (`Claude Code 2.1.332`,
 * `Claude Code, removed in 2.1.300`).
 */
export function searchFields(agent: AgentId, names: readonly string[], release: string): SearchFields {
  const [name = ''] = names;
  return { title: `${name} — ${release}`, agent: agentFilter(agent), spelled: JSON.stringify(names) };
}
