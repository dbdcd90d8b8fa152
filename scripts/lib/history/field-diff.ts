/**
 * The changes of one field table (a tool's input or output) between two releases, as events
 * of schemas/history.schema.json: the one field comparison of every history, whichever
 * source its rows were read from.
 *
 * Pure. Rules:
 * - a field row (by anchor) only in one release: `field-added` (`to`: its type)
 *   or `field-removed` (`from`: its last type), for nested rows and variant
 *   headers too, so that every row of a table has the event that added it;
 * - a row in both: when both types are literal unions, one `value-added` or
 *   `value-removed` per literal (`to`/`from`: the literal as written), plus a
 *   `type-changed` only if the type became or stopped being nullable; otherwise
 *   `type-changed` when the type text differs; `now-required` / `now-optional`;
 *   `description-changed` when the trimmed description differs (`from`/`to`: the
 *   texts, each absent when there is none);
 * - `field` is the row's stable anchor without its root (`.file_path`, `:completed.agentId`,
 *   `:+asset_upload.id`): a union variant without a discriminator is named by its identity
 *   (src/lib/shapes/variant-identity.ts), so a variant inserted before it changes nothing of it;
 *   only variants with no identity are matched by position (`alignPositionalVariants`);
 * - a type that became a union (`now-variant`): when a place (the table's root or a field)
 *   had no union variants and now has, the variant that holds most of the earlier fields (the
 *   only one with the most; none when no earlier field is in any) continues the earlier type:
 *   its rows are compared with the earlier rows, and one `now-variant` event (`field`: the
 *   variant, `formerField`: the place) says so instead of an addition of each of its fields;
 * - renames (`renamed`), the rule: a field removed and a field added in the same comparison,
 *   both properties of the same parent (same tool, same table, same place), with identical
 *   rows apart from the name (type, requiredness, description, listed values, and every row
 *   below them), and neither matching another field so: one `renamed` event (`field` the new
 *   anchor, `formerField` the old one, `from`/`to` the display paths) instead of a removal and
 *   an addition.
 */
import { anchorFor, anchorRest, positionalVariantPlace, rebaseAnchor } from '../../../src/lib/shapes/anchors.ts';
import { historyEvent, type EventKind, type HistoryEvent } from './events.ts';
import type { RowSnapshot, Side } from './rows.ts';

/**
 * The headers of positional union variants (`output:3`, `input.x:2`), each with the place of its union (`output`,
 * `input.x`).
 */
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

/**
 * The place of a union variant's header (`output`, `input.x`) and its key, when `id` is one; if/then/else branches are
 * not variants.
 */
export function variantHeader(id: string): { place: string; key: string } | undefined {
  const m = /^(.*):([^.:@]+)$/.exec(id);
  if (!m || /^!(then|else)\d*$/.test(m[2]!)) return undefined;
  return { place: m[1]!, key: m[2]! };
}

/** Rows `id` and below it moved from below `from` to below `to`. */
function rebaseRows(rows: readonly RowSnapshot[], from: string, to: string): RowSnapshot[] {
  return rows.map((row) => {
    const id = rebaseAnchor(row.id, from, to);
    return id === undefined ? row : { ...row, id };
  });
}

/**
 * Places whose type became a union between `before` and `after` (see the rules above): each
 * with the variant that continues the earlier type.
 */
export function unionized(
  before: readonly RowSnapshot[],
  after: readonly RowSnapshot[],
  root: string,
): { place: string; variant: string }[] {
  const headersBefore = new Set(before.flatMap((r) => variantHeader(r.id)?.place ?? []));
  const byPlace = groupBy(
    after.flatMap((r) => {
      const h = variantHeader(r.id);
      return h ? [{ id: r.id, place: h.place }] : [];
    }),
    (h) => h.place,
  );
  const afterIds = new Set(after.map((r) => r.id));
  const out: { place: string; variant: string }[] = [];
  for (const [place, headers] of byPlace) {
    if (headersBefore.has(place)) continue;
    // The earlier type must have been there, with fields: the place itself (or the root) and rows below it.
    if (place !== root && !before.some((r) => r.id === place)) continue;
    const rests = before.flatMap((r) => {
      const rest = anchorRest(r.id, place);
      return rest?.startsWith('.') ? [rest] : [];
    });
    if (rests.length === 0) continue;
    const scores = headers.map((h) => ({ id: h.id, score: rests.filter((rest) => afterIds.has(h.id + rest)).length }));
    const best = Math.max(...scores.map((s) => s.score));
    const winners = scores.filter((s) => s.score === best);
    if (best > 0 && winners.length === 1) out.push({ place, variant: winners[0]!.id });
  }
  return out;
}

/** The anchor of the row that holds `id` (`input.a` for `input.a.b` and `input.a:2`), or undefined for a top row. */
function parentOf(id: string, root: string): string | undefined {
  const m = /^(.*)[.:@][^.:@]*$/.exec(id);
  return !m || m[1]!.length < root.length ? undefined : m[1]!;
}

/** A row and every row below it, without the row's own name: what two names of one field are compared on. */
function subtree(rows: readonly RowSnapshot[], id: string): string {
  return rows
    .filter((r) => anchorRest(r.id, id) !== undefined)
    .map((r) =>
      JSON.stringify([
        anchorRest(r.id, id),
        r.type,
        r.required,
        r.nullable ?? false,
        r.description ?? '',
        r.literals ?? [],
      ]),
    )
    .sort()
    .join('\n');
}

/**
 * Fields renamed between `before` and `after` (the rule above): pairs of a removed and an
 * added property of one parent with identical rows apart from the name, each unambiguous.
 */
export function renamedFields(
  before: readonly RowSnapshot[],
  after: readonly RowSnapshot[],
  root: string,
): { from: string; to: string }[] {
  const oldIds = new Set(before.map((r) => r.id));
  const newIds = new Set(after.map((r) => r.id));
  const isProperty = (id: string) => /\.[^.:@]+$/.test(id) && !/\.\*[^.:@]*$/.test(id) && !id.endsWith('.~5B~5D');
  // Topmost removed (added) properties: their parent is in both releases (or is the root).
  const top = (rows: readonly RowSnapshot[], gone: (id: string) => boolean) =>
    rows
      .filter((r) => gone(r.id) && isProperty(r.id))
      .filter((r) => {
        const p = parentOf(r.id, root);
        return p === root || (p !== undefined && oldIds.has(p) && newIds.has(p));
      });
  const removed = top(before, (id) => !newIds.has(id));
  const added = top(after, (id) => !oldIds.has(id));
  const sig = new Map<string, string>();
  for (const r of removed) sig.set(`-${r.id}`, subtree(before, r.id));
  for (const a of added) sig.set(`+${a.id}`, subtree(after, a.id));
  const out: { from: string; to: string }[] = [];
  for (const r of removed) {
    const matches = added.filter(
      (a) => parentOf(a.id, root) === parentOf(r.id, root) && sig.get(`+${a.id}`) === sig.get(`-${r.id}`),
    );
    if (matches.length !== 1) continue;
    const a = matches[0]!;
    const back = removed.filter(
      (x) => parentOf(x.id, root) === parentOf(a.id, root) && sig.get(`-${x.id}`) === sig.get(`+${a.id}`),
    );
    if (back.length === 1) out.push({ from: r.id, to: a.id });
  }
  return out;
}

/** What changed in one row that both releases have: its values or type, its requiredness, its description. */
function rowChanges(
  was: RowSnapshot,
  row: RowSnapshot,
  emit: (kind: EventKind, row: RowSnapshot, values: { from?: string | undefined; to?: string | undefined }) => void,
): void {
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
    emit(row.required ? 'now-required' : 'now-optional', row, {
      from: was.required ? 'required' : 'optional',
      to: row.required ? 'required' : 'optional',
    });
  }
  if ((was.description ?? '').trim() !== (row.description ?? '').trim()) {
    emit('description-changed', row, {
      from: was.description?.trim() || undefined,
      to: row.description?.trim() || undefined,
    });
  }
}

/** The changes of one table (a tool's input or output) between two releases, as history events. */
export function tableEvents(
  before: readonly RowSnapshot[],
  after: readonly RowSnapshot[],
  side: Side,
  at: { release: string; previous: string; tool: string },
): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  const root = anchorFor(side, []);
  const relative = (id: string): string => {
    const rest = anchorRest(id, root);
    if (rest === undefined) throw new Error(`row ${id} of the ${side} table does not start with ${side}`);
    return rest;
  };
  const field = (row: RowSnapshot): string => relative(row.id);
  const emit = (
    kind: EventKind,
    row: RowSnapshot,
    values: { from?: string | undefined; to?: string | undefined; formerField?: string } = {},
  ) =>
    out.push(
      historyEvent(at.release, at.previous, at.tool, kind, { side, field: field(row), path: row.path, ...values }),
    );
  const now = new Map(after.map((r) => [r.id, r]));
  // A type that became a union: its earlier rows continue as one variant.
  let moved: RowSnapshot[] = [...before];
  const continued = new Set<string>();
  for (const { place, variant } of unionized(before, after, root)) {
    moved = moved.map((row) => {
      const rest = anchorRest(row.id, place);
      return rest?.startsWith('.') ? { ...row, id: variant + rest } : row;
    });
    continued.add(variant);
    emit('now-variant', now.get(variant)!, { formerField: relative(place) });
  }
  let aligned = alignPositionalVariants(moved, after);
  // Renamed fields: compared under their new name (so nothing else is reported for them).
  for (const { from, to } of renamedFields(aligned, after, root)) {
    const was = aligned.find((r) => r.id === from)!;
    emit('renamed', now.get(to)!, { formerField: relative(from), from: was.path, to: now.get(to)!.path });
    aligned = rebaseRows(aligned, from, to);
  }
  const old = new Map(aligned.map((r) => [r.id, r]));
  for (const row of aligned) if (!now.has(row.id)) emit('field-removed', row, { from: row.type });
  for (const row of after) {
    const was = old.get(row.id);
    if (!was) {
      if (!continued.has(row.id)) emit('field-added', row, { to: row.type });
      continue;
    }
    rowChanges(was, row, emit);
  }
  return out;
}
