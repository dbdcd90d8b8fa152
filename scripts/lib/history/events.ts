/**
 * History events (schemas/history.schema.json, `$defs/event`), whichever source they were
 * read from (published types or captures): their kinds, one builder that writes their keys
 * in one order, and one total order of events in a file. Pure.
 */
import type { HistoryEvent } from '../../../src/lib/core/content-types.ts';
import { compareReleases } from '../../../src/lib/core/version-order.ts';
import type { Side } from './rows.ts';

export type { HistoryEvent };
/** The kind of a history event. */
export type EventKind = HistoryEvent['kind'];

/** The order of kinds at one place (tool, configuration, side, field): the order of schemas/history.schema.json. */
export const KIND_ORDER: readonly EventKind[] = [
  'tool-added',
  'tool-removed',
  'field-added',
  'field-removed',
  'renamed',
  'now-variant',
  'type-changed',
  'now-required',
  'now-optional',
  'value-added',
  'value-removed',
  'description-changed',
  'definition-changed',
  'available',
  'unavailable',
];

/** Plain code-unit order (locale-independent, so the output never depends on the machine). */
export function byText(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** What orders the events of one file besides their own keys. */
export interface EventOrder {
  /**
   * The history's releases, oldest first. Needed when they come from more than one package
   * line (a Claude Code 1.0.x release is older than an agent SDK 0.2.x release); releases not
   * in it are ordered by number.
   */
  releases?: readonly string[];
  /** The configurations in matrix order (a capture history): an event of an earlier one comes first. */
  configurations?: readonly string[];
}

/**
 * Release, tool, configuration (matrix order, then name; none first), side, field, kind, then
 * the values: a total, deterministic order.
 */
export function eventComparator(order: EventOrder = {}): (a: HistoryEvent, b: HistoryEvent) => number {
  const place = new Map((order.releases ?? []).map((v, i) => [v, i]));
  const configurations = order.configurations ?? [];
  const releaseOrder = (a: string, b: string): number => {
    const x = place.get(a);
    const y = place.get(b);
    return x !== undefined && y !== undefined ? x - y : compareReleases(a, b);
  };
  const rank = (c: string | undefined): number =>
    c === undefined ? -1 : configurations.includes(c) ? configurations.indexOf(c) : configurations.length;
  return (a, b) =>
    releaseOrder(a.release, b.release) ||
    byText(a.tool, b.tool) ||
    rank(a.configuration) - rank(b.configuration) ||
    byText(a.configuration, b.configuration) ||
    byText(a.side, b.side) ||
    byText(a.field, b.field) ||
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    byText(a.formerField, b.formerField) ||
    byText(a.from, b.from) ||
    byText(a.to, b.to) ||
    byText(a.previous, b.previous);
}

/** Events in their file order (see `eventComparator`). */
export function sortEvents<E extends HistoryEvent>(events: readonly E[], order: EventOrder = {}): E[] {
  return [...events].sort(eventComparator(order));
}

/** An event with its keys always in the same order (the JSON text depends on it). */
export function historyEvent(
  release: string,
  previous: string,
  tool: string,
  kind: EventKind,
  rest: {
    side?: Side;
    field?: string;
    path?: string;
    formerField?: string;
    from?: string | undefined;
    to?: string | undefined;
  } = {},
): HistoryEvent {
  const e: HistoryEvent = { release, previous, tool, kind };
  if (rest.side !== undefined) e.side = rest.side;
  if (rest.field !== undefined) e.field = rest.field;
  if (rest.path !== undefined) e.path = rest.path;
  if (rest.formerField !== undefined) e.formerField = rest.formerField;
  if (rest.from !== undefined) e.from = rest.from;
  if (rest.to !== undefined) e.to = rest.to;
  return e;
}

/** JSON text with object keys sorted, so that a reordering of keys is not a change. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
