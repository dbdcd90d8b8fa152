/**
 * The history file (schemas/history.schema.json) of one package: built whole,
 * or extended by newer releases with its earlier events left as they are.
 *
 * Pure. Keys are always written in the same order, so the same releases and
 * events give the same bytes.
 */
import type { HistoryEvent, HistoryFile } from '../../../src/lib/content-types.ts';
import { compareReleases, unpublishedBetween } from './versions.ts';
import { sortEvents } from './diff.ts';

export type ReleaseEntry = HistoryFile['releases'][number];

export interface HistoryMeta {
  agent: HistoryFile['agent'];
  package: string;
  method: string;
  file: string;
}

/** `$schema` as content files write it (relative to content/history/). */
export const HISTORY_SCHEMA_REF = '../../schemas/history.schema.json';

function release(entry: ReleaseEntry): ReleaseEntry {
  const out: ReleaseEntry = { version: entry.version };
  if (entry.cliVersion !== undefined) out.cliVersion = entry.cliVersion;
  if (entry.published !== undefined) out.published = entry.published;
  if (entry.read !== undefined) out.read = entry.read;
  return out;
}

/** The whole file: releases oldest first, the numbers skipped between them, events sorted. */
export function historyDocument(meta: HistoryMeta, releases: readonly ReleaseEntry[], events: readonly HistoryEvent[]): HistoryFile {
  const sorted = [...releases].sort((a, b) => compareReleases(a.version, b.version)).map(release);
  return {
    $schema: HISTORY_SCHEMA_REF,
    agent: meta.agent,
    source: 'sdk',
    package: meta.package,
    method: meta.method,
    file: meta.file,
    releases: sorted,
    unpublished: unpublishedBetween(sorted.map((r) => r.version)),
    events: sortEvents(events),
  };
}

/**
 * `committed` extended with releases newer than its last one and the events
 * found in them: the committed releases and events stay as they are, in their
 * order, and the new ones follow.
 */
export function appendToHistory(committed: HistoryFile, releases: readonly ReleaseEntry[], events: readonly HistoryEvent[]): HistoryFile {
  const last = committed.releases[committed.releases.length - 1]!.version;
  for (const r of releases) {
    if (compareReleases(r.version, last) <= 0) throw new Error(`release ${r.version} is not newer than the last committed release ${last}`);
  }
  for (const e of events) {
    if (compareReleases(e.release, last) <= 0) throw new Error(`an event of ${e.release} is not newer than the last committed release ${last}`);
  }
  const sorted = [...releases].sort((a, b) => compareReleases(a.version, b.version)).map(release);
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
    unpublished: unpublishedBetween(all.map((r) => r.version)),
    events: [...committed.events, ...sortEvents(events)],
  };
}

/** The newest release of a history that was read (its state is what the next release is compared with). */
export function lastReadRelease(file: HistoryFile): string | undefined {
  for (let i = file.releases.length - 1; i >= 0; i--) {
    if (file.releases[i]!.read !== false) return file.releases[i]!.version;
  }
  return undefined;
}
