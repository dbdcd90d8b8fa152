/**
 * From per-configuration tool snapshots of successive releases to history events
 * (schemas/history.schema.json, `$defs/event`). Pure.
 *
 * - `available` / `unavailable`: a tool appears in / leaves one configuration's list.
 * - `tool-added` / `tool-removed`: a tool that none of the compared configurations
 *   advertised before / advertises after.
 * - field changes of the model-facing input (`side: "input"`), once per tool: read in
 *   the first configuration, in matrix order, that has the tool with a definition of the
 *   same kind in both releases.
 * - `description-changed` without a field: the tool's own description changed.
 * - `definition-changed`: the definition (a grammar, a TypeScript declaration, or a JSON
 *   Schema change that moves no row, such as a default or a bound) changed, and no field
 *   event of that tool says how.
 *
 * A configuration that failed in a release is not compared there: the next release in
 * which it succeeds is compared with the last one in which it did (`previous`).
 */
import { compareVersions } from './releases.ts';
import type { ConfigSnapshot, RowSnapshot, ToolSnapshot } from './snapshot.ts';

export type EventKind =
  | 'tool-added' | 'tool-removed' | 'field-added' | 'field-removed' | 'type-changed' | 'now-required' | 'now-optional'
  | 'value-added' | 'value-removed' | 'description-changed' | 'definition-changed' | 'available' | 'unavailable';

export interface HistoryEvent {
  release: string;
  previous: string;
  tool: string;
  kind: EventKind;
  side?: 'input' | 'output';
  field?: string;
  path?: string;
  configuration?: string;
  from?: string;
  to?: string;
}

export interface ReleaseSnapshots {
  version: string;
  /** By configuration id; null where the configuration could not be captured in this release. */
  configs: ReadonlyMap<string, ConfigSnapshot | null>;
}

/** JSON text with object keys sorted, so that a reordering of keys is not a change. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function definitionText(t: ToolSnapshot): string {
  return t.definition === '' ? '' : canonicalJson(JSON.parse(t.definition));
}

/**
 * Field events between two versions of one tool's input rows (rows matched by anchor). The
 * same conventions as the SDK history (scripts/lib/history/diff.ts): an added or removed
 * field carries its type; a field whose allowed values are listed in both releases gets
 * value events (and a type change only when it became or stopped being nullable), any
 * other field a type change; descriptions are compared trimmed.
 */
export function diffRows(before: readonly RowSnapshot[], after: readonly RowSnapshot[], base: Omit<HistoryEvent, 'kind'>): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  const old = new Map(before.map((r) => [r.field, r]));
  const now = new Map(after.map((r) => [r.field, r]));
  const ev = (kind: EventKind, r: RowSnapshot, extra: { from?: string | undefined; to?: string | undefined } = {}): void => {
    out.push({
      ...base, kind, side: 'input', field: r.field, path: r.path,
      ...(extra.from !== undefined ? { from: extra.from } : {}),
      ...(extra.to !== undefined ? { to: extra.to } : {}),
    });
  };
  for (const r of before) if (!now.has(r.field)) ev('field-removed', r, { from: r.type });
  for (const a of after) {
    const b = old.get(a.field);
    if (!b) {
      ev('field-added', a, { to: a.type });
      continue;
    }
    if (b.literals && a.literals) {
      for (const v of b.literals) if (!a.literals.includes(v)) ev('value-removed', a, { from: v });
      for (const v of a.literals) if (!b.literals.includes(v)) ev('value-added', a, { to: v });
      if (b.nullable !== a.nullable) ev('type-changed', a, { from: b.type, to: a.type });
    } else if (a.type !== b.type) ev('type-changed', a, { from: b.type, to: a.type });
    if (b.required !== null && a.required !== null && b.required !== a.required) {
      ev(a.required ? 'now-required' : 'now-optional', a, { from: b.required ? 'required' : 'optional', to: a.required ? 'required' : 'optional' });
    }
    if ((a.description ?? '').trim() !== (b.description ?? '').trim()) {
      ev('description-changed', a, { from: b.description?.trim() || undefined, to: a.description?.trim() || undefined });
    }
  }
  return out;
}

interface Last {
  version: string;
  snapshot: ConfigSnapshot;
}

function minVersion(versions: Iterable<string>): string {
  return [...versions].sort(compareVersions)[0]!;
}

/** Events between the state before (last successful snapshot per configuration) and one release. */
function releaseEvents(last: ReadonlyMap<string, Last>, release: ReleaseSnapshots, order: readonly string[]): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  const compared = order.filter((c) => release.configs.get(c) && last.has(c));
  if (compared.length === 0) return out;
  const before = (c: string): Last => last.get(c)!;
  const after = (c: string): ConfigSnapshot => release.configs.get(c)!;

  for (const c of compared) {
    const b = before(c);
    const a = after(c);
    for (const tool of Object.keys(a.tools)) if (!(tool in b.snapshot.tools)) out.push({ release: release.version, previous: b.version, tool, kind: 'available', configuration: c });
    for (const tool of Object.keys(b.snapshot.tools)) if (!(tool in a.tools)) out.push({ release: release.version, previous: b.version, tool, kind: 'unavailable', configuration: c });
  }

  const inBefore = (tool: string): string[] => compared.filter((c) => tool in before(c).snapshot.tools);
  const inAfter = (tool: string): string[] => compared.filter((c) => tool in after(c).tools);
  const allTools = new Set<string>();
  for (const c of compared) {
    for (const t of Object.keys(before(c).snapshot.tools)) allTools.add(t);
    for (const t of Object.keys(after(c).tools)) allTools.add(t);
  }
  for (const tool of allTools) {
    const was = inBefore(tool);
    const is = inAfter(tool);
    if (was.length === 0) {
      out.push({ release: release.version, previous: minVersion(is.map((c) => before(c).version)), tool, kind: 'tool-added', configuration: is[0]! });
      continue;
    }
    if (is.length === 0) {
      out.push({ release: release.version, previous: minVersion(was.map((c) => before(c).version)), tool, kind: 'tool-removed', configuration: was[0]! });
      continue;
    }
    // Field changes: the first configuration with a definition of one kind in both releases.
    const both = compared.filter((c) => tool in before(c).snapshot.tools && tool in after(c).tools);
    const defined = both.find((c) => {
      const x = before(c).snapshot.tools[tool]!;
      const y = after(c).tools[tool]!;
      return x.kind !== 'unavailable' && x.kind === y.kind;
    });
    let fieldEvents = 0;
    if (defined !== undefined) {
      const x = before(defined).snapshot.tools[tool]!;
      const y = after(defined).tools[tool]!;
      const rows = diffRows(x.rows, y.rows, { release: release.version, previous: before(defined).version, tool, configuration: defined });
      out.push(...rows);
      fieldEvents = rows.length;
      if (fieldEvents === 0 && definitionText(x) !== definitionText(y)) {
        out.push({ release: release.version, previous: before(defined).version, tool, kind: 'definition-changed', side: 'input', configuration: defined });
      }
    }
    const described = both.find((c) => before(c).snapshot.tools[tool]!.description !== undefined && after(c).tools[tool]!.description !== undefined);
    if (described !== undefined && before(described).snapshot.tools[tool]!.description !== after(described).tools[tool]!.description) {
      out.push({ release: release.version, previous: before(described).version, tool, kind: 'description-changed', configuration: described });
    }
  }
  return out;
}

const KIND_ORDER: readonly EventKind[] = [
  'tool-added', 'tool-removed', 'available', 'unavailable', 'field-added', 'field-removed', 'type-changed',
  'now-required', 'now-optional', 'value-added', 'value-removed', 'description-changed', 'definition-changed',
];

function cmp(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Deterministic order: release (semver), tool, configuration, side, field, kind, then values. */
export function sortEvents(events: HistoryEvent[], order: readonly string[] = []): HistoryEvent[] {
  const rank = (c: string | undefined): number => (c === undefined ? -1 : order.includes(c) ? order.indexOf(c) : order.length);
  return [...events].sort((a, b) =>
    compareVersions(a.release, b.release)
    || cmp(a.tool, b.tool)
    || rank(a.configuration) - rank(b.configuration)
    || cmp(a.configuration, b.configuration)
    || cmp(a.side, b.side)
    || cmp(a.field, b.field)
    || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)
    || cmp(a.from, b.from)
    || cmp(a.to, b.to));
}

/**
 * Events over releases read in order (oldest first); the first release is the baseline.
 * `order` is the configurations' matrix order.
 */
export function historyEvents(releases: readonly ReleaseSnapshots[], order: readonly string[]): HistoryEvent[] {
  const last = new Map<string, Last>();
  const out: HistoryEvent[] = [];
  for (const release of releases) {
    out.push(...releaseEvents(last, release, order));
    for (const c of order) {
      const s = release.configs.get(c);
      if (s) last.set(c, { version: release.version, snapshot: s });
    }
  }
  return sortEvents(out, order);
}

/** Do two releases differ in what the history records (events, or namespaces named without tools)? */
export function releasesDiffer(a: ReleaseSnapshots, b: ReleaseSnapshots, order: readonly string[]): boolean {
  if (historyEvents([a, b], order).length > 0) return true;
  return order.some((c) => {
    const x = a.configs.get(c);
    const y = b.configs.get(c);
    return x && y && x.unresolvedNamespaces.join() !== y.unresolvedNamespaces.join();
  });
}
