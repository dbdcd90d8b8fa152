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
 * - `description-changed` without a field: the tool's own description changed; it carries
 *   the description before and after (`before`/`after`, kept once each in the file's
 *   `texts`: text-store.ts).
 * - `definition-changed`: the definition (a grammar, a TypeScript declaration, or a JSON
 *   Schema change that moves no row, such as a default or a bound) changed, and no field
 *   event of that tool says how; it carries the definition before and after as text.
 *
 * - `renamed`: a tool that leaves every compared configuration while another enters, when
 *   some configuration advertised the old one before and advertises the new one after with
 *   the same definition (kind, field rows and definition text) and either the same
 *   description once the old name in it reads as the new one, or at least
 *   RENAME_MIN_FIELDS fields (names, types and their descriptions all alike: Gemini CLI's
 *   search_file_content → grep_search in 0.28.1 was reworded as it was renamed), and
 *   neither tool matches another so: one `renamed` event (`from`/`to`: the names) instead
 *   of a removal and an addition, a `description-changed` of the new name when its
 *   description changed too, and no `available`/`unavailable` pair for the configurations
 *   where the one replaced the other.
 *   Fields follow the one field comparison (field-diff.ts), renames within a tool included.
 *
 * A configuration that failed in a release is not compared there: the next release in
 * which it succeeds is compared with the last one in which it did (`previous`).
 */
import { compareReleases } from '../../../src/lib/core/version-order.ts';
import { canonicalJson, sortEvents, type HistoryEvent } from './events.ts';
import { definitionAsText, type ComputedEvent } from './text-store.ts';
import { tableEvents } from './field-diff.ts';
import type { RowSnapshot } from './rows.ts';
import type { ConfigSnapshot, CaptureToolSnapshot } from './capture-snapshot.ts';

export interface ReleaseSnapshots {
  version: string;
  /** By configuration id; null where the configuration could not be captured in this release. */
  configs: ReadonlyMap<string, ConfigSnapshot | null>;
}

function definitionText(t: CaptureToolSnapshot): string {
  return t.definition === '' ? '' : canonicalJson(JSON.parse(t.definition));
}

/** Field events between two versions of one tool's input rows (field-diff.ts), with this history's `configuration`. */
function inputFieldEvents(
  before: readonly RowSnapshot[],
  after: readonly RowSnapshot[],
  base: Omit<HistoryEvent, 'kind'>,
): HistoryEvent[] {
  return tableEvents(before, after, 'input', { release: base.release, previous: base.previous, tool: base.tool }).map(
    (e) => ({
      ...base,
      kind: e.kind,
      side: 'input' as const,
      field: e.field!,
      path: e.path!,
      ...(e.formerField !== undefined ? { formerField: e.formerField } : {}),
      ...(e.from !== undefined ? { from: e.from } : {}),
      ...(e.to !== undefined ? { to: e.to } : {}),
    }),
  );
}

interface Last {
  version: string;
  snapshot: ConfigSnapshot;
}

function minVersion(versions: Iterable<string>): string {
  return [...versions].sort(compareReleases)[0]!;
}

/**
 * The changes of one tool's definition in one configuration: its field rows, or one definition change when rows cannot
 * tell it.
 */
function definitionEvents(
  x: CaptureToolSnapshot,
  y: CaptureToolSnapshot,
  at: { release: string; previous: string; tool: string; configuration: string },
): ComputedEvent[] {
  const texts = { before: definitionAsText(x.definition), after: definitionAsText(y.definition) };
  if (x.finding !== undefined || y.finding !== undefined) {
    // A definition Ajv cannot compile has no field rows to compare: one definition change,
    // naming the finding on the side (from, to) that has it.
    if (definitionText(x) === definitionText(y) && x.finding === y.finding) return [];
    return [
      {
        release: at.release,
        previous: at.previous,
        tool: at.tool,
        kind: 'definition-changed',
        side: 'input',
        configuration: at.configuration,
        ...(x.finding !== undefined ? { from: x.finding } : {}),
        ...(y.finding !== undefined ? { to: y.finding } : {}),
        ...texts,
      },
    ];
  }
  const rows = inputFieldEvents(x.rows, y.rows, at);
  if (rows.length === 0 && definitionText(x) !== definitionText(y))
    return [
      {
        release: at.release,
        previous: at.previous,
        tool: at.tool,
        kind: 'definition-changed',
        side: 'input',
        configuration: at.configuration,
        ...texts,
      },
    ];
  return rows;
}

/** One release compared with the state before it, in the configurations both have. */
interface Comparison {
  release: string;
  /** The configurations captured in the release and in some release before it, in matrix order. */
  compared: readonly string[];
  /** The last successful snapshot of a configuration before the release. */
  before(c: string): Last;
  after(c: string): ConfigSnapshot;
}

/** `available` / `unavailable`: the tools that entered or left each configuration's list. */
function availabilityEvents(at: Comparison): ComputedEvent[] {
  const out: ComputedEvent[] = [];
  for (const c of at.compared) {
    const b = at.before(c);
    const a = at.after(c);
    for (const tool of Object.keys(a.tools))
      if (!(tool in b.snapshot.tools))
        out.push({ release: at.release, previous: b.version, tool, kind: 'available', configuration: c });
    for (const tool of Object.keys(b.snapshot.tools))
      if (!(tool in a.tools))
        out.push({ release: at.release, previous: b.version, tool, kind: 'unavailable', configuration: c });
  }
  return out;
}

/** Every tool some compared configuration advertised before or advertises after. */
function toolsOf(at: Comparison): Set<string> {
  const all = new Set<string>();
  for (const c of at.compared) {
    for (const t of Object.keys(at.before(c).snapshot.tools)) all.add(t);
    for (const t of Object.keys(at.after(c).tools)) all.add(t);
  }
  return all;
}

/** A tool's field changes and the change of its own description, each read in the first configuration that can. */
function changesOfTool(at: Comparison, tool: string): ComputedEvent[] {
  const out: ComputedEvent[] = [];
  const both = at.compared.filter((c) => tool in at.before(c).snapshot.tools && tool in at.after(c).tools);
  const was = (c: string) => at.before(c).snapshot.tools[tool]!;
  const now = (c: string) => at.after(c).tools[tool]!;
  // Field changes: the first configuration with a definition of one kind in both releases.
  const defined = both.find((c) => was(c).kind !== 'unavailable' && was(c).kind === now(c).kind);
  if (defined !== undefined) {
    const where = { release: at.release, previous: at.before(defined).version, tool, configuration: defined };
    out.push(...definitionEvents(was(defined), now(defined), where));
  }
  const described = both.find((c) => was(c).description !== undefined && now(c).description !== undefined);
  if (described !== undefined && was(described).description !== now(described).description)
    out.push({
      release: at.release,
      previous: at.before(described).version,
      tool,
      kind: 'description-changed',
      configuration: described,
      before: was(described).description!,
      after: now(described).description!,
    });
  return out;
}

/** Events between the state before (last successful snapshot per configuration) and one release. */
function releaseEvents(
  last: ReadonlyMap<string, Last>,
  release: ReleaseSnapshots,
  order: readonly string[],
): ComputedEvent[] {
  const compared = order.filter((c) => release.configs.get(c) && last.has(c));
  if (compared.length === 0) return [];
  const at: Comparison = {
    release: release.version,
    compared,
    before: (c) => last.get(c)!,
    after: (c) => release.configs.get(c)!,
  };
  const out = availabilityEvents(at);
  for (const tool of toolsOf(at)) {
    const was = compared.filter((c) => tool in at.before(c).snapshot.tools);
    const is = compared.filter((c) => tool in at.after(c).tools);
    // A tool no compared configuration advertised before (or advertises after): added (or removed), nothing else.
    if (was.length === 0 || is.length === 0) {
      const [kind, where] = was.length === 0 ? (['tool-added', is] as const) : (['tool-removed', was] as const);
      const previous = minVersion(where.map((c) => at.before(c).version));
      out.push({ release: release.version, previous, tool, kind, configuration: where[0]! });
      continue;
    }
    out.push(...changesOfTool(at, tool));
  }
  return renameTools(out, at);
}

/**
 * Fields a definition must have for its identity alone to tell a renamed tool whose
 * description changed too: two unrelated tools rarely share two or more fields with the
 * same names, types and descriptions, while one or none (a lone `path`, no input) is common.
 */
export const RENAME_MIN_FIELDS = 2;

/** The same description once the old name in it reads as the new one. */
function sameDescriptionUnderNames(
  x: CaptureToolSnapshot,
  oldName: string,
  y: CaptureToolSnapshot,
  newName: string,
): boolean {
  return (x.description ?? '').replaceAll(oldName, newName) === (y.description ?? '');
}

/** The same tool under two names (see `renamed` above): definition alike, and the description or enough fields. */
function sameUnderNames(x: CaptureToolSnapshot, oldName: string, y: CaptureToolSnapshot, newName: string): boolean {
  if (x.kind !== y.kind || canonicalJson(x.rows) !== canonicalJson(y.rows) || definitionText(x) !== definitionText(y))
    return false;
  return sameDescriptionUnderNames(x, oldName, y, newName) || x.rows.length >= RENAME_MIN_FIELDS;
}

/** Each removal and addition that are one tool renamed: each side matching exactly one of the other (see above). */
function renamePairs(
  events: readonly ComputedEvent[],
  at: Comparison,
): { from: HistoryEvent; to: HistoryEvent; configuration: string }[] {
  const removed = events.filter((e) => e.kind === 'tool-removed');
  const added = events.filter((e) => e.kind === 'tool-added');
  const where = (from: string, to: string): string | undefined =>
    at.compared.find((c) => {
      const x = at.before(c).snapshot.tools[from];
      const y = at.after(c).tools[to];
      return x !== undefined && y !== undefined && sameUnderNames(x, from, y, to);
    });
  const pairs: { from: HistoryEvent; to: HistoryEvent; configuration: string }[] = [];
  for (const r of removed) {
    const matches = added.filter((a) => where(r.tool, a.tool) !== undefined);
    if (matches.length !== 1) continue;
    const a = matches[0]!;
    if (removed.filter((x) => where(x.tool, a.tool) !== undefined).length !== 1) continue;
    pairs.push({ from: r, to: a, configuration: where(r.tool, a.tool)! });
  }
  return pairs;
}

/** Where the new name replaced the old one in a configuration, it is the same tool still advertised: no pair. */
function replacedAvailability(events: readonly ComputedEvent[], from: string, to: string): ComputedEvent[] {
  const has = (kind: 'available' | 'unavailable', tool: string, configuration: string | undefined) =>
    events.some((x) => x.kind === kind && x.tool === tool && x.configuration === configuration);
  return events.filter(
    (e) =>
      (e.kind === 'unavailable' && e.tool === from && has('available', to, e.configuration)) ||
      (e.kind === 'available' && e.tool === to && has('unavailable', from, e.configuration)),
  );
}

/** Replaces each removal and addition that are one tool renamed by a `renamed` event (see above). */
function renameTools(events: ComputedEvent[], at: Comparison): ComputedEvent[] {
  const pairs = renamePairs(events, at);
  if (pairs.length === 0) return events;
  const drop = new Set<ComputedEvent>();
  const out: ComputedEvent[] = [];
  for (const { from, to, configuration } of pairs) {
    drop.add(from).add(to);
    for (const e of replacedAvailability(events, from.tool, to.tool)) drop.add(e);
    out.push({
      release: to.release,
      previous: to.previous,
      tool: to.tool,
      kind: 'renamed',
      configuration,
      from: from.tool,
      to: to.tool,
    });
    const [was, now] = [at.before(configuration).snapshot.tools[from.tool]!, at.after(configuration).tools[to.tool]!];
    if (!sameDescriptionUnderNames(was, from.tool, now, to.tool)) {
      out.push({
        release: to.release,
        previous: at.before(configuration).version,
        tool: to.tool,
        kind: 'description-changed',
        configuration,
        before: was.description ?? '',
        after: now.description ?? '',
      });
    }
  }
  return [...events.filter((e) => !drop.has(e)), ...out];
}

/**
 * Events over releases read in order (oldest first); the first release is the baseline.
 * `order` is the configurations' matrix order.
 */
export function historyEvents(releases: readonly ReleaseSnapshots[], order: readonly string[]): ComputedEvent[] {
  const last = new Map<string, Last>();
  const out: ComputedEvent[] = [];
  for (const release of releases) {
    out.push(...releaseEvents(last, release, order));
    for (const c of order) {
      const s = release.configs.get(c);
      if (s) last.set(c, { version: release.version, snapshot: s });
    }
  }
  return sortEvents(out, { configurations: order });
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
