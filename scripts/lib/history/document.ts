/**
 * The history file (schemas/history.schema.json, typed by its generated
 * `HistoryFile`), whichever source it is read from: of one agent's SDK types,
 * built whole or extended by newer releases with its earlier events left as
 * they are; of its captures, built whole (`captureHistoryDocument`).
 *
 * A history may follow more than one package line (Claude Code's types were
 * read from `@anthropic-ai/claude-code` itself before the agent SDK stated
 * which Claude Code release it bundles): a release read from another package
 * than the file's names it (`package`), releases are ordered line by line (the
 * lines in the order given, each by release number), and the numbers never
 * published are those of each line.
 *
 * Pure. Keys are always written in the same order, so the same releases and
 * events give the same bytes.
 */
import type { HistoryEvent, HistoryFile } from '../../../src/lib/core/content-types.ts';
import { unpublishedNumbers } from './releases.ts';
import { compareReleases } from '../../../src/lib/core/version-order.ts';
import { sortEvents } from './events.ts';
import { internTexts, type ComputedEvent } from './text-store.ts';

export type ReleaseEntry = HistoryFile['releases'][number];

export interface HistoryMeta {
  agent: HistoryFile['agent'];
  package: string;
  method: string;
  file: string;
}

/** `$schema` as content files write it (relative to content/history/). */
export const HISTORY_SCHEMA_REF = '../../schemas/history.schema.json';

function release(entry: ReleaseEntry, filePackage: string): ReleaseEntry {
  const out: ReleaseEntry = { version: entry.version };
  if (entry.package !== undefined && entry.package !== filePackage) out.package = entry.package;
  if (entry.cliVersion !== undefined) out.cliVersion = entry.cliVersion;
  if (entry.published !== undefined) out.published = entry.published;
  if (entry.read !== undefined) out.read = entry.read;
  return out;
}

/** The package a release was read from. */
export function packageOf(entry: ReleaseEntry, filePackage: string): string {
  return entry.package ?? filePackage;
}

/**
 * Releases in history order: line by line in the order of `lines` (packages,
 * oldest line first; the file's package when none is given), each line by
 * release number. A release of a package not in `lines`, or a release number
 * listed twice, is refused (events name releases by number alone).
 */
export function orderReleases(
  releases: readonly ReleaseEntry[],
  filePackage: string,
  lines: readonly string[] = [filePackage],
): ReleaseEntry[] {
  const rank = new Map(lines.map((p, i) => [p, i]));
  const seen = new Set<string>();
  for (const r of releases) {
    if (!rank.has(packageOf(r, filePackage)))
      throw new Error(
        `release ${r.version} is of ${packageOf(r, filePackage)}, which is not one of the lines ${lines.join(', ')}`,
      );
    if (seen.has(r.version)) throw new Error(`release number ${r.version} is listed twice`);
    seen.add(r.version);
  }
  return [...releases]
    .sort(
      (a, b) =>
        rank.get(packageOf(a, filePackage))! - rank.get(packageOf(b, filePackage))! ||
        compareReleases(a.version, b.version),
    )
    .map((r) => release(r, filePackage));
}

/** The numbers never published between releases of each line, in history order. */
export function unpublishedOfLines(ordered: readonly ReleaseEntry[], filePackage: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= ordered.length; i++) {
    if (i === ordered.length || packageOf(ordered[i]!, filePackage) !== packageOf(ordered[start]!, filePackage)) {
      out.push(...unpublishedNumbers(ordered.slice(start, i).map((r) => r.version)));
      start = i;
    }
  }
  return out;
}

/**
 * The whole file: releases oldest first (line by line, `lines` naming the
 * packages oldest line first), the numbers skipped between them, events sorted.
 */
export function historyDocument(
  meta: HistoryMeta,
  releases: readonly ReleaseEntry[],
  events: readonly HistoryEvent[],
  lines: readonly string[] = [meta.package],
): HistoryFile {
  const sorted = orderReleases(releases, meta.package, lines);
  return {
    $schema: HISTORY_SCHEMA_REF,
    agent: meta.agent,
    source: 'sdk',
    package: meta.package,
    method: meta.method,
    file: meta.file,
    releases: sorted,
    unpublished: unpublishedOfLines(sorted, meta.package),
    events: sortEvents(events, { releases: sorted.map((r) => r.version) }),
  };
}

/**
 * `committed` extended with releases newer than its last one (of the same
 * package line: extending follows the newest line) and the events found in
 * them: the committed releases and events stay as they are, in their order,
 * and the new ones follow.
 */
export function appendToHistory(
  committed: HistoryFile,
  releases: readonly ReleaseEntry[],
  events: readonly HistoryEvent[],
): HistoryFile {
  const lastEntry = committed.releases[committed.releases.length - 1]!;
  const last = lastEntry.version;
  const line = packageOf(lastEntry, committed.package);
  for (const r of releases) {
    if (packageOf(r, committed.package) !== line)
      throw new Error(
        `release ${r.version} is of ${packageOf(r, committed.package)}, but the history ends with ${line} ${last}`,
      );
    if (compareReleases(r.version, last) <= 0)
      throw new Error(`release ${r.version} is not newer than the last committed release ${last}`);
  }
  const newer = new Set(releases.map((r) => r.version));
  for (const e of events) {
    if (!newer.has(e.release))
      throw new Error(`an event of ${e.release} is not of a release newer than the last committed release ${last}`);
  }
  const sorted = orderReleases(releases, committed.package, [line]);
  const all = [...committed.releases, ...sorted];
  // Same key order as historyDocument, whatever order the committed file had.
  return {
    ...(committed.$schema !== undefined ? { $schema: committed.$schema } : {}),
    agent: committed.agent,
    source: committed.source,
    package: committed.package,
    method: committed.method,
    ...(committed.file !== undefined ? { file: committed.file } : {}),
    ...(committed.configurations !== undefined ? { configurations: committed.configurations } : {}),
    releases: all,
    unpublished: unpublishedOfLines(all, committed.package),
    events: [...committed.events, ...sortEvents(events, { releases: sorted.map((r) => r.version) })],
  };
}

/** The newest release of a history that was read (its state is what the next release is compared with). */
export function lastReadRelease(file: HistoryFile): string | undefined {
  for (let i = file.releases.length - 1; i >= 0; i--) {
    if (file.releases[i]!.read !== false) return file.releases[i]!.version;
  }
  return undefined;
}

function ordinal(n: number): string {
  if (n === 1) return 'single';
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/** How a capture history read its releases, in one sentence (`method`). */
export function methodSentence(releases: readonly string[], step: number, configurations: readonly string[]): string {
  const first = releases[0];
  const last = releases[releases.length - 1];
  return (
    `Every ${ordinal(step)} published release from ${first} to ${last} and both ends were installed and run ` +
    `against a recording stub of the model API in the capture-matrix configurations ` +
    `${configurations.join(', ')}, and wherever two releases read differed in the tools advertised or in a ` +
    `tool's model-facing input, the releases between them were bisected until each change lay between two ` +
    `adjacent published releases.`
  );
}

/** One release of a capture history: read or not, and the configurations that failed in it, with why. */
export type CaptureRelease = Pick<ReleaseEntry, 'version' | 'published' | 'failed'> & { read: boolean };

/** The history of one agent from captures (content/history/<agent>.capture.json): texts stored once, events sorted. */
export function captureHistoryDocument(input: {
  agent: HistoryFile['agent'];
  package: string;
  step: number;
  configurations: string[];
  releases: readonly CaptureRelease[];
  unpublished: string[];
  events: ComputedEvent[];
}): HistoryFile {
  const { events, texts } = internTexts(sortEvents(input.events, { configurations: input.configurations }));
  return {
    $schema: HISTORY_SCHEMA_REF,
    agent: input.agent,
    source: 'capture',
    package: input.package,
    method: methodSentence(
      input.releases.map((r) => r.version),
      input.step,
      input.configurations,
    ),
    configurations: input.configurations,
    releases: input.releases.map((r) => ({
      version: r.version,
      ...(r.published ? { published: r.published } : {}),
      read: r.read,
      ...(r.failed ? { failed: r.failed } : {}),
    })),
    unpublished: input.unpublished,
    events,
    texts,
  };
}

/** Events counted by kind, in a stable order. */
export function countByKind(events: readonly HistoryEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}
