/**
 * The model catalog an agent's binary embeds, as the agent page shows it: one
 * row per model, one column per catalog member that some availability gate of
 * the agent reads, and which captured configurations asked for each model.
 * Pure: the inventory stage reads the catalog, the loader adds who asked.
 */
import type { CatalogModel, GateCondition } from '../core/content-types.ts';
import { atPath } from '../check/gate-check.ts';
import type { ToolModel } from '../model/model.ts';

export interface CatalogTable {
  /** Member paths some gate of the agent reads, sorted. */
  members: string[];
  rows: { slug: string; askedBy: string[]; values: string[] }[];
  /** Models the captures asked for that have no entry (they run with fallback settings). */
  unlisted: { model: string; askedBy: string[] }[];
}

/** The catalog member paths a condition reads, alternatives included. */
export function catalogPaths(when: GateCondition): string[] {
  return [
    ...Object.keys(when.catalog ?? {}),
    ...Object.keys(when.catalogLists ?? {}),
    ...(when.anyOf ?? []).flatMap(catalogPaths),
  ];
}

/** A member's value as the table shows it: JSON, lists as comma-separated items, absent as a dash. */
export function memberText(value: unknown): string {
  if (value === undefined) return '–';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value.length === 0 ? '[]' : value.join(', ');
  return JSON.stringify(value);
}

export function catalogTable(
  models: readonly CatalogModel[],
  askedBy: ReadonlyMap<string, readonly string[]>,
  tools: readonly Pick<ToolModel, 'editorial'>[],
): CatalogTable {
  const members = [
    ...new Set(
      tools.flatMap((t) =>
        (t.editorial?.availability.gates ?? []).flatMap((g) => (g.when ? catalogPaths(g.when) : [])),
      ),
    ),
  ].sort();
  const listed = new Set(models.map((m) => m.slug));
  return {
    members,
    rows: models.map((m) => ({
      slug: m.slug,
      askedBy: [...(askedBy.get(m.slug) ?? [])],
      values: members.map((p) => memberText(atPath(m, p))),
    })),
    unlisted: [...askedBy].filter(([model]) => !listed.has(model)).map(([model, by]) => ({ model, askedBy: [...by] })),
  };
}
