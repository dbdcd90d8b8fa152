/**
 * Two release snapshots → the changes between them, as events of
 * schemas/history.schema.json.
 *
 * Pure. Rules:
 * - a tool (callable name) only in the newer release: one `tool-added`; only in
 *   the older: one `tool-removed` (its fields are not listed one by one). A
 *   renamed type prefix whose callable name changes is a removal plus an addition;
 * - a field row (by anchor) only in one release: `field-added` (`to`: its type)
 *   or `field-removed` (`from`: its last type), for nested rows and variant
 *   headers too, so that every row of a table has the event that added it;
 * - a row in both: when both types are literal unions, one `value-added` or
 *   `value-removed` per literal (`to`/`from`: the literal as written), plus a
 *   `type-changed` only if the type became or stopped being nullable; otherwise
 *   `type-changed` when the type text differs; `now-required` / `now-optional`;
 *   `description-changed` when the trimmed JSDoc text differs (`from`/`to`: the
 *   texts, each absent when there is none);
 * - `field` is the row's anchor without its root (`.file_path`, `:completed.agentId`).
 */
import type { HistoryEvent } from '../../../src/lib/content-types.ts';
import { anchorFor, anchorRest, positionalVariantPlace, rebaseAnchor } from '../../../src/lib/anchors.ts';
import { compareReleases } from './versions.ts';
import type { ReleaseSnapshot, RowSnapshot, Side } from './snapshot.ts';

export type { HistoryEvent };
export type EventKind = HistoryEvent['kind'];

/** The order of kinds within one field: the order of schemas/history.schema.json. */
export const KIND_ORDER: readonly EventKind[] = [
  'tool-added',
  'tool-removed',
  'field-added',
  'field-removed',
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
function byText(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The order of two releases: their places in `order` (the history's releases,
 * oldest first, when it follows more than one package line) when both are in it,
 * else numeric.
 */
function releaseOrder(order: ReadonlyMap<string, number> | undefined): (a: string, b: string) => number {
  return (a, b) => {
    const x = order?.get(a);
    const y = order?.get(b);
    return x !== undefined && y !== undefined ? x - y : compareReleases(a, b);
  };
}

/**
 * Release (oldest first: numeric, or by place in `order`), tool, side, field,
 * kind, then the values: a total, deterministic order.
 */
export function compareEvents(a: HistoryEvent, b: HistoryEvent, order?: ReadonlyMap<string, number>): number {
  return (
    releaseOrder(order)(a.release, b.release) ||
    byText(a.tool, b.tool) ||
    byText(a.side, b.side) ||
    byText(a.field, b.field) ||
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    byText(a.from, b.from) ||
    byText(a.to, b.to) ||
    byText(a.previous, b.previous)
  );
}

/**
 * Events in their file order. `order` lists the history's releases oldest
 * first; it is needed when they come from more than one package line (a
 * Claude Code 1.0.x release is older than an agent SDK 0.2.x release).
 */
export function sortEvents(events: readonly HistoryEvent[], order?: readonly string[]): HistoryEvent[] {
  const place = order ? new Map(order.map((v, i) => [v, i])) : undefined;
  return [...events].sort((a, b) => compareEvents(a, b, place));
}

/** An event with its keys always in the same order (the JSON text depends on it). */
function event(
  release: string,
  previous: string,
  tool: string,
  kind: EventKind,
  rest: { side?: Side; field?: string; path?: string; from?: string | undefined; to?: string | undefined } = {},
): HistoryEvent {
  const e: HistoryEvent = { release, previous, tool, kind };
  if (rest.side !== undefined) e.side = rest.side;
  if (rest.field !== undefined) e.field = rest.field;
  if (rest.path !== undefined) e.path = rest.path;
  if (rest.from !== undefined) e.from = rest.from;
  if (rest.to !== undefined) e.to = rest.to;
  return e;
}

/** The headers of positional union variants (`output:3`, `input.x:2`), each with the place of its union (`output`, `input.x`). */
function positionalHeaders(rows: readonly RowSnapshot[]): { id: string; place: string }[] {
  return rows.flatMap((r) => {
    const place = positionalVariantPlace(r.id);
    return place === undefined ? [] : [{ id: r.id, place }];
  });
}

/** The rows of one variant: its header and every row below it. */
function variantRows(rows: readonly RowSnapshot[], header: string): RowSnapshot[] {
  return rows.filter((r) => anchorRest(r.id, header) !== undefined);
}

/** What a variant is, whatever its position: each row's path below the header and its type. */
function signature(rows: readonly RowSnapshot[], header: string): string {
  return variantRows(rows, header)
    .map((r) => `${anchorRest(r.id, header)} ${r.type} ${r.required}`)
    .sort()
    .join('\n');
}

/**
 * Union variants without a discriminator are anchored by position, so one
 * inserted variant renumbers the ones after it. Before comparing, an old
 * variant that reappears unchanged at another position is renamed to that
 * position: the history then records the one variant that was added, not
 * every later variant as removed and added again. Variants that changed keep
 * their position and are compared field by field.
 */
export function alignPositionalVariants(before: readonly RowSnapshot[], after: readonly RowSnapshot[]): RowSnapshot[] {
  const renames = new Map<string, string>();
  const newHeaders = positionalHeaders(after);
  for (const [place, olds] of groupBy(positionalHeaders(before), (h) => h.place)) {
    const news = newHeaders.filter((h) => h.place === place);
    const free = new Map(news.map((h) => [h.id, signature(after, h.id)]));
    // A variant that kept its position and content stays where it is.
    for (const h of olds) if (free.get(h.id) === signature(before, h.id)) free.delete(h.id);
    for (const h of olds) {
      const sig = signature(before, h.id);
      if (free.has(h.id) && free.get(h.id) === sig) continue;
      const target = [...free.entries()].find(([, s]) => s === sig)?.[0];
      if (target === undefined) continue;
      free.delete(target);
      renames.set(h.id, target);
    }
  }
  // A target still held by an old variant that is not moving would collide: keep both in place.
  const oldHeaders = new Set(positionalHeaders(before).map((h) => h.id));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [from, to] of renames) {
      if (oldHeaders.has(to) && !renames.has(to)) {
        renames.delete(from);
        changed = true;
      }
    }
  }
  if (renames.size === 0) return [...before];
  return before.map((row) => {
    for (const [from, to] of renames) {
      const id = rebaseAnchor(row.id, from, to);
      if (id !== undefined) return { ...row, id };
    }
    return row;
  });
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

/** The changes of one table (a tool's input or output) between two releases. */
export function diffRows(
  before: readonly RowSnapshot[],
  after: readonly RowSnapshot[],
  side: Side,
  at: { release: string; previous: string; tool: string },
): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  const field = (row: RowSnapshot): string => {
    const rest = anchorRest(row.id, anchorFor(side, []));
    if (rest === undefined) throw new Error(`row ${row.id} of the ${side} table does not start with ${side}`);
    return rest;
  };
  const emit = (kind: EventKind, row: RowSnapshot, values: { from?: string | undefined; to?: string | undefined } = {}) =>
    out.push(event(at.release, at.previous, at.tool, kind, { side, field: field(row), path: row.path, ...values }));
  const aligned = alignPositionalVariants(before, after);
  const old = new Map(aligned.map((r) => [r.id, r]));
  const now = new Map(after.map((r) => [r.id, r]));
  for (const row of aligned) if (!now.has(row.id)) emit('field-removed', row, { from: row.type });
  for (const row of after) {
    const was = old.get(row.id);
    if (!was) {
      emit('field-added', row, { to: row.type });
      continue;
    }
    if (was.literals && row.literals) {
      const oldValues = new Set(was.literals);
      const newValues = new Set(row.literals);
      for (const v of was.literals) if (!newValues.has(v)) emit('value-removed', row, { from: v });
      for (const v of row.literals) if (!oldValues.has(v)) emit('value-added', row, { to: v });
      if (Boolean(was.nullable) !== Boolean(row.nullable)) emit('type-changed', row, { from: was.type, to: row.type });
    } else if (was.type !== row.type) {
      emit('type-changed', row, { from: was.type, to: row.type });
    }
    if (was.required !== null && row.required !== null && was.required !== row.required) {
      emit(row.required ? 'now-required' : 'now-optional', row, { from: was.required ? 'required' : 'optional', to: row.required ? 'required' : 'optional' });
    }
    if ((was.description ?? '').trim() !== (row.description ?? '').trim()) {
      emit('description-changed', row, { from: was.description?.trim() || undefined, to: row.description?.trim() || undefined });
    }
  }
  return out;
}

/** Every change from `before` (release `previous`) to `after` (release `release`), sorted. */
export function diffReleases(before: ReleaseSnapshot, after: ReleaseSnapshot, previous: string, release: string): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  const names = [...new Set([...Object.keys(before.tools), ...Object.keys(after.tools)])];
  for (const tool of names) {
    const was = before.tools[tool];
    const now = after.tools[tool];
    if (!was) {
      out.push(event(release, previous, tool, 'tool-added'));
      continue;
    }
    if (!now) {
      out.push(event(release, previous, tool, 'tool-removed'));
      continue;
    }
    const at = { release, previous, tool };
    out.push(...diffRows(was.input, now.input, 'input', at));
    // A result type that appears (or goes) shows as its rows being added (or removed).
    out.push(...diffRows(was.output ?? [], now.output ?? [], 'output', at));
  }
  return sortEvents(out);
}
