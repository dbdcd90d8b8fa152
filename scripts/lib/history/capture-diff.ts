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
import { diffRows as diffTableRows } from './field-diff.ts';
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
export function diffRows(
  before: readonly RowSnapshot[],
  after: readonly RowSnapshot[],
  base: Omit<HistoryEvent, 'kind'>,
): HistoryEvent[] {
  return diffTableRows(before, after, 'input', { release: base.release, previous: base.previous, tool: base.tool }).map(
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
  const rows = diffRows(x.rows, y.rows, at);
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

/** Events between the state before (last successful snapshot per configuration) and one release. */
function releaseEvents(
  last: ReadonlyMap<string, Last>,
  release: ReleaseSnapshots,
  order: readonly string[],
): ComputedEvent[] {
  const out: ComputedEvent[] = [];
  const compared = order.filter((c) => release.configs.get(c) && last.has(c));
  if (compared.length === 0) return out;
  const before = (c: string): Last => last.get(c)!;
  const after = (c: string): ConfigSnapshot => release.configs.get(c)!;

  for (const c of compared) {
    const b = before(c);
    const a = after(c);
    for (const tool of Object.keys(a.tools))
      if (!(tool in b.snapshot.tools))
        out.push({ release: release.version, previous: b.version, tool, kind: 'available', configuration: c });
    for (const tool of Object.keys(b.snapshot.tools))
      if (!(tool in a.tools))
        out.push({ release: release.version, previous: b.version, tool, kind: 'unavailable', configuration: c });
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
      out.push({
        release: release.version,
        previous: minVersion(is.map((c) => before(c).version)),
        tool,
        kind: 'tool-added',
        configuration: is[0]!,
      });
      continue;
    }
    if (is.length === 0) {
      out.push({
        release: release.version,
        previous: minVersion(was.map((c) => before(c).version)),
        tool,
        kind: 'tool-removed',
        configuration: was[0]!,
      });
      continue;
    }
    // Field changes: the first configuration with a definition of one kind in both releases.
    const both = compared.filter((c) => tool in before(c).snapshot.tools && tool in after(c).tools);
    const defined = both.find((c) => {
      const x = before(c).snapshot.tools[tool]!;
      const y = after(c).tools[tool]!;
      return x.kind !== 'unavailable' && x.kind === y.kind;
    });
    if (defined !== undefined) {
      out.push(
        ...definitionEvents(before(defined).snapshot.tools[tool]!, after(defined).tools[tool]!, {
          release: release.version,
          previous: before(defined).version,
          tool,
          configuration: defined,
        }),
      );
    }
    const described = both.find(
      (c) =>
        before(c).snapshot.tools[tool]!.description !== undefined && after(c).tools[tool]!.description !== undefined,
    );
    if (described !== undefined) {
      const [was, now] = [
        before(described).snapshot.tools[tool]!.description!,
        after(described).tools[tool]!.description!,
      ];
      if (was !== now)
        out.push({
          release: release.version,
          previous: before(described).version,
          tool,
          kind: 'description-changed',
          configuration: described,
          before: was,
          after: now,
        });
    }
  }
  return renameTools(out, compared, before, after);
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

/** Replaces each removal and addition that are one tool renamed by a `renamed` event (see above). */
function renameTools(
  events: ComputedEvent[],
  compared: readonly string[],
  before: (c: string) => Last,
  after: (c: string) => ConfigSnapshot,
): ComputedEvent[] {
  const removed = events.filter((e) => e.kind === 'tool-removed');
  const added = events.filter((e) => e.kind === 'tool-added');
  const where = (from: string, to: string): string | undefined =>
    compared.find((c) => {
      const x = before(c).snapshot.tools[from];
      const y = after(c).tools[to];
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
  if (pairs.length === 0) return events;
  const drop = new Set<ComputedEvent>();
  const out: ComputedEvent[] = [];
  for (const { from, to, configuration } of pairs) {
    drop.add(from).add(to);
    // Where the new name replaced the old one, it is the same tool still advertised.
    for (const e of events) {
      if (
        e.kind === 'unavailable' &&
        e.tool === from.tool &&
        events.some((x) => x.kind === 'available' && x.tool === to.tool && x.configuration === e.configuration)
      )
        drop.add(e);
      if (
        e.kind === 'available' &&
        e.tool === to.tool &&
        events.some((x) => x.kind === 'unavailable' && x.tool === from.tool && x.configuration === e.configuration)
      )
        drop.add(e);
    }
    out.push({
      release: to.release,
      previous: to.previous,
      tool: to.tool,
      kind: 'renamed',
      configuration,
      from: from.tool,
      to: to.tool,
    });
    const [was, now] = [before(configuration).snapshot.tools[from.tool]!, after(configuration).tools[to.tool]!];
    if (!sameDescriptionUnderNames(was, from.tool, now, to.tool)) {
      out.push({
        release: to.release,
        previous: before(configuration).version,
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
