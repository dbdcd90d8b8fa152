/**
 * From what a user types to an agent or a tool of the catalog: an agent by its id or product
 * name, a tool by its name, full name, URL name or an alias, letter case aside. A miss says what was meant, when
 * something is close. Pure.
 */
import type { Catalog, CatalogAgent, CatalogTool } from '../lib/exports/catalog.ts';

/** A lookup that found nothing: the message and the names that come closest. */
export class NotFound extends Error {
  readonly suggestions: string[];
  constructor(message: string, suggestions: string[] = []) {
    super(suggestions.length > 0 ? `${message} Did you mean: ${suggestions.join(', ')}?` : message);
    this.suggestions = suggestions;
  }
}

const fold = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

/** Names within a small edit distance of `wanted`, or containing it, nearest first (at most five). */
export function closest(wanted: string, names: readonly string[]): string[] {
  const w = fold(wanted);
  const scored = names.map((name) => {
    const n = fold(name);
    const score = n.includes(w) || w.includes(n) ? 0 : editDistance(w, n);
    return { name, score };
  });
  const limit = Math.max(2, Math.floor(w.length / 3));
  return [
    ...new Set(
      scored
        .filter((s) => s.score <= limit)
        .sort((a, b) => a.score - b.score)
        .map((s) => s.name),
    ),
  ].slice(0, 5);
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

export function findAgent(catalog: Catalog, wanted: string): CatalogAgent {
  const w = fold(wanted);
  const agent = catalog.agents.find((a) => fold(a.id) === w || fold(a.product) === w);
  if (agent) return agent;
  throw new NotFound(
    `No agent ${JSON.stringify(wanted)} in this snapshot; it documents ${catalog.agents.map((a) => a.id).join(', ')}.`,
    closest(
      wanted,
      catalog.agents.map((a) => a.id),
    ),
  );
}

/** Every name a tool answers to, its own first. */
export function toolNames(tool: CatalogTool): string[] {
  return [
    ...new Set([tool.fullName, tool.name, tool.slug, ...tool.aliases.map((a) => a.name), ...(tool.hookNames ?? [])]),
  ];
}

export function findTool(catalog: Catalog, agent: CatalogAgent, wanted: string): CatalogTool {
  const own = catalog.tools.filter((t) => t.agent === agent.id);
  // The tool's own names before its aliases: Claude Code's `Task` is a former name of `Agent`.
  const exact = own.find((t) => t.fullName === wanted || t.name === wanted || t.slug === wanted);
  if (exact) return exact;
  const w = fold(wanted);
  const folded =
    own.find((t) => [t.fullName, t.name, t.slug].some((n) => fold(n) === w)) ??
    own.find((t) => toolNames(t).some((n) => fold(n) === w));
  if (folded) return folded;
  throw new NotFound(
    `${agent.product} has no tool ${JSON.stringify(wanted)} in this snapshot (${agent.product} ${agent.version}).`,
    closest(
      wanted,
      own.map((t) => t.fullName),
    ),
  );
}
