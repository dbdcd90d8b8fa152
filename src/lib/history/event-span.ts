/**
 * How exactly a history knows the release of one of its events. An event names the release
 * compared before it (`previous`, the last one known without the change) and the first one
 * that shows it (`release`). When every published release strictly between the two was read
 * and ran in the configurations the event concerns, there is none (they are adjacent, or the
 * history checked them all): the change came exactly in `release`. When one of them was not
 * read (`read: false`) or failed there in a configuration the event concerns, the change lies
 * somewhere after `previous` and up to `release`: "between previous and release".
 *
 * Which configurations an event concerns: its own `configuration`; for a change of the tool
 * as a whole (`tool-added`, `tool-removed`, a tool's `renamed`: "in no configuration
 * before / none after"), every configuration the history compares; for an event without a
 * configuration (SDK types), any failure of the release.
 *
 * Pure: computed from the history file alone.
 */
import type { HistoryEvent, HistoryFile } from '../core/content-types.ts';
import type { EventSpan, UnknownRelease } from '../model/history-facts.ts';

export type { EventSpan, UnknownRelease };

type Release = HistoryFile['releases'][number];

/** Kinds that speak of the tool as a whole, across every configuration compared. */
const TOOL_WIDE: ReadonlySet<HistoryEvent['kind']> = new Set(['tool-added', 'tool-removed']);

/** The configurations an event concerns (see above); undefined: any failure counts. */
export function concernedConfigurations(
  file: Pick<HistoryFile, 'configurations'>,
  event: HistoryEvent,
): string[] | undefined {
  const toolWide = TOOL_WIDE.has(event.kind) || (event.kind === 'renamed' && event.field === undefined);
  if (toolWide && file.configurations?.length) return [...file.configurations];
  if (event.configuration !== undefined) return [event.configuration];
  return undefined;
}

/** Position of each release of a history, computed once per list. */
const indexes = new WeakMap<readonly Release[], Map<string, number>>();

const label = (r: Release): string => r.cliVersion ?? r.version;

/**
 * The span of one event of `file`. `where` names the event for errors (`content/history/x.json#/events/3`):
 * an event whose releases the file does not list, or whose `previous` is not before its `release`, is refused.
 */
export function eventSpan(
  file: Pick<HistoryFile, 'releases' | 'configurations'>,
  event: HistoryEvent,
  where: string | (() => string) = 'history event',
): EventSpan {
  const at = (): string => (typeof where === 'string' ? where : where());
  const index =
    indexes.get(file.releases) ??
    indexes.set(file.releases, new Map(file.releases.map((r, i) => [r.version, i]))).get(file.releases)!;
  const from = index.get(event.previous);
  const to = index.get(event.release);
  if (from === undefined)
    throw new Error(
      `${at()}/previous: release ${event.previous} is not in the history's releases (an event's previous must be a ` +
        `release compared)`,
    );
  if (to === undefined)
    throw new Error(
      `${at()}/release: release ${event.release} is not in the history's releases (an event's release must be a ` +
        `release compared)`,
    );
  if (from >= to)
    throw new Error(
      `${at()}/previous: ${event.previous} is not before ${event.release} in the history's releases (previous must ` +
        `be compared before release)`,
    );
  const concerned = concernedConfigurations(file, event);
  const unknown: UnknownRelease[] = [];
  for (const r of file.releases.slice(from + 1, to)) {
    if (r.read === false) {
      unknown.push({ release: label(r), why: 'not-read' });
      continue;
    }
    const failed = Object.keys(r.failed ?? {});
    const hit = concerned === undefined ? failed : concerned.filter((c) => failed.includes(c));
    if (hit.length > 0) unknown.push({ release: label(r), why: 'failed', configurations: hit });
  }
  return {
    exact: unknown.length === 0,
    previous: label(file.releases[from]!),
    release: label(file.releases[to]!),
    unknown,
  };
}

/**
 * The verb a span names a change by: `added` (a tool, field or value came, or became advertised), `removed`, else
 * `changed`.
 */
export function spanVerb(kind: HistoryEvent['kind']): 'added' | 'removed' | 'changed' {
  if (kind === 'tool-added' || kind === 'field-added' || kind === 'value-added' || kind === 'available') return 'added';
  if (kind === 'tool-removed' || kind === 'field-removed' || kind === 'value-removed' || kind === 'unavailable')
    return 'removed';
  return 'changed';
}

/** Where a change lies, in words: `in 1.1.53`, or `between 1.1.16 and 1.1.53`. */
export function spanWhen(span: Pick<EventSpan, 'exact' | 'previous' | 'release'>): string {
  return span.exact ? `in ${span.release}` : `between ${span.previous} and ${span.release}`;
}

/** The change with its span, in words: `added in 1.1.53`, `changed between 1.1.16 and 1.1.53`. */
export function spanText(kind: HistoryEvent['kind'], span: Pick<EventSpan, 'exact' | 'previous' | 'release'>): string {
  return `${spanVerb(kind)} ${spanWhen(span)}`;
}

/**
 * Why a span is not exact, in a few words: `not read: 1.1.17, …, 1.1.52 (5 releases); failed in
 * print: 1.1.31, 1.1.34`; undefined when it is exact.
 */
export function unknownText(span: Pick<EventSpan, 'unknown'>): string | undefined {
  if (span.unknown.length === 0) return undefined;
  const list = (releases: string[]): string =>
    releases.length <= 3
      ? releases.join(', ')
      : `${releases[0]}, …, ${releases[releases.length - 1]} (${releases.length} releases)`;
  const parts: string[] = [];
  const notRead = span.unknown.filter((u) => u.why === 'not-read').map((u) => u.release);
  if (notRead.length > 0) parts.push(`not read: ${list(notRead)}`);
  const byConfig = new Map<string, string[]>();
  for (const u of span.unknown) {
    if (u.why !== 'failed') continue;
    const key = (u.configurations ?? []).join(', ');
    byConfig.set(key, [...(byConfig.get(key) ?? []), u.release]);
  }
  for (const [configs, releases] of byConfig) parts.push(`failed${configs ? ` in ${configs}` : ''}: ${list(releases)}`);
  return parts.join('; ');
}
