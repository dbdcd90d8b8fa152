/**
 * What search (Starlight's Pagefind) shows and filters by for a page of one
 * agent: the result's title, the agent filter's value and the names the page
 * answers to as spelled. The page writes them as Pagefind attributes; the
 * search dialog reads them (search-rank.ts puts the typed spelling first).
 */
import type { AgentId } from '../core/content-types.ts';
import { escapeHtmlText } from '../core/html-text.ts';
import { AGENT_IDS } from '../agents/index.ts';
import { typedName } from '../model/tool-names.ts';
import { AGENT_LABELS, sitePath } from '../site/site.ts';

export interface SearchFields {
  /** The result's title, `<name> — <release>`: the page's h1 stays the name. */
  title: string;
  /**
   * The `agent` filter's value: the agent's product name, as HTML, because
   * Pagefind's UI writes filter values with innerHTML (its filters.svelte),
   * with no-break spaces between its words, so a label never wraps inside the
   * product name. They were meant to keep spaces out of the checkbox ids the UI
   * makes from the value as well, but Pagefind turns them back into spaces there
   * (`agent-Claude Code`, seen on the built site): that blemish is still open.
   */
  agent: string;
  /**
   * The names the page answers to, exactly as spelled, as a JSON array (`spelled` metadata, read
   * by search-rank.ts): a name as a string, a past one as `{ "was": name }`.
   */
  spelled: string;
}

/**
 * The agent filter's value for the pages of `agent` (tool, removed-tool, overview and changelog pages): its name,
 * spaces made no-break.
 */
export function agentFilter(agent: AgentId): string {
  return escapeHtmlText(AGENT_LABELS[agent].replace(/[\t\n\f\r ]+/g, '\u00a0'));
}

/**
 * Search fields of a tool's page: `names` are what it answers to (its name first), `past` what it
 * answers to only as past names (a name its tool had before a rename; a removed tool's name), which
 * rank after the names other tools have now (search-rank.ts); `release` is what its title names
 * after the dash (`Claude Code 2.1.332`, `Claude Code, removed in 2.1.300`).
 */
export function searchFields(
  agent: AgentId,
  names: readonly string[],
  release: string,
  past: readonly string[] = [],
): SearchFields {
  const [name = ''] = [...names, ...past];
  const was = past.filter((p) => !names.includes(p)).map((p) => ({ was: p }));
  return { title: `${name} — ${release}`, agent: agentFilter(agent), spelled: JSON.stringify([...names, ...was]) };
}

/** What search shows and filters by for an agent's hooks page. */
export interface HooksSearchFields {
  /** The `agent` filter's value, as for the agent's other pages. */
  agent: string;
  /**
   * The events' names lowercased, space-separated (`names` metadata, ranked as a tool page's names: astro.config.mjs).
   */
  names: string;
  /**
   * The events' names as spelled, a JSON array (`spelled` metadata, read by search-rank.ts): the page answers to them
   * as a tool page to its names.
   */
  spelled: string;
}

/** Search fields of `agent`'s hooks page, which documents `events` (a name given twice counts once). */
export function hooksSearchFields(agent: AgentId, events: readonly string[]): HooksSearchFields {
  const spelled = [...new Set(events)];
  return {
    agent: agentFilter(agent),
    names: [...new Set(spelled.map(typedName))].join(' '),
    spelled: JSON.stringify(spelled),
  };
}

/** Where Starlight's search dialog imports Pagefind from (its `bundlePath` + `pagefind.js`). */
export function pagefindModule(): string {
  return sitePath('pagefind/pagefind.js');
}

/**
 * The module the dialog gets instead: Pagefind's, with `search` reordering results by the typed spelling
 * (search-rank.ts).
 */
export function rankedPagefindModule(): string {
  return sitePath('search/pagefind.js');
}

/**
 * The import map every page carries (Head.astro): Pagefind's module is the
 * ranked one, except for the ranked module itself, which imports the real one.
 * JSON for a <script> element, with `<` escaped so that no path can close it.
 */
export function searchImportMap(): string {
  const real = pagefindModule();
  const ranked = rankedPagefindModule();
  const scope = ranked.slice(0, ranked.lastIndexOf('/') + 1);
  return JSON.stringify({ imports: { [real]: ranked }, scopes: { [scope]: { [real]: real } } }).replace(
    /</g,
    '\\u003c',
  );
}

/**
 * The agent filter values in registry order: the tie rule of search-rank.ts orders pages that answer to a name alike by
 * them.
 */
export function agentOrder(): string[] {
  return AGENT_IDS.map(agentFilter);
}

/**
 * The ranked module's text, from search-rank.ts compiled to JavaScript:
 * everything Pagefind's module exports, with `search` wrapped, ties broken by
 * `order` (agentOrder()).
 */
export function rankedPagefindSource(searchRankJs: string, order: readonly string[] = agentOrder()): string {
  const real = JSON.stringify(pagefindModule());
  return [
    `import * as pagefind from ${real};`,
    `export * from ${real};`,
    searchRankJs.trim(),
    `const AGENT_ORDER = ${JSON.stringify(order)};`,
    'export function search(term, options) { return rankedSearch(pagefind.search, term, options, AGENT_ORDER); }',
    '',
  ].join('\n');
}
