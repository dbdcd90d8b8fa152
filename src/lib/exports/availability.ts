/**
 * A tool's availability in catalog.json, in a form that does not repeat itself: the outcome
 * of most of the agent's configurations once (`others`), and the configurations with any
 * other outcome grouped by it, each list in configuration order:
 *
 *   { "others": "function", "absent": ["simple"] }
 *
 * reads "absent in simple, a function tool in every other configuration". `absent` stands for
 * a configuration that does not advertise the tool (null in the expanded map). Exact: with the
 * agent's configurations (catalog `agents[].configurations`) it gives back every
 * configuration's outcome (expandAvailability). Pure.
 */
import type { Delivery } from '../wire/types.ts';

/** A configuration's outcome for a tool: how it advertises it, or `absent`. */
export type Outcome = Delivery | 'absent';

/** `others`, and the configurations of every other outcome; no list is empty or names the `others` outcome. */
export type CompactAvailability = { others: Outcome } & Partial<Record<Outcome, string[]>>;

/**
 * The compact form of `deliveryOf` over `configurations` (ids, in matrix order). `others` is the
 * outcome of the most configurations; on a tie, the one met first. With no configuration,
 * `others` is `absent` (no configuration advertises it).
 */
export function compactAvailability(
  configurations: readonly string[],
  deliveryOf: (id: string) => Delivery | null,
): CompactAvailability {
  const outcomes = configurations.map((id) => [id, deliveryOf(id) ?? 'absent'] as const);
  const counts = new Map<Outcome, number>();
  for (const [, outcome] of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  let others: Outcome = 'absent';
  let most = 0;
  for (const [outcome, count] of counts) if (count > most) [others, most] = [outcome, count];
  const compact: CompactAvailability = { others };
  for (const [id, outcome] of outcomes) if (outcome !== others) (compact[outcome] ??= []).push(id);
  return compact;
}

/** Every configuration's delivery (null: absent), back from the compact form. */
export function expandAvailability(
  compact: CompactAvailability,
  configurations: readonly string[],
): Record<string, Delivery | null> {
  const listed = new Map<string, Outcome>();
  for (const [key, ids] of Object.entries(compact))
    if (key !== 'others') for (const id of ids as string[]) listed.set(id, key as Outcome);
  return Object.fromEntries(
    configurations.map((id) => {
      const outcome = listed.get(id) ?? compact.others;
      return [id, outcome === 'absent' ? null : outcome];
    }),
  );
}
