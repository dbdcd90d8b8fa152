/**
 * `agent-tools changes [--since DATE] [--agent A] [--breaking]`: what changed, release by release,
 * newest first, from the site's `/changes.json` (the data of its "What changed" page, over every
 * release with a publication time rather than the page's last 30 days). Pure over a Snapshot.
 */
import type { ChangesExport } from '../lib/exports/changes-export.ts';
import { findAgent, NotFound } from './lookup.ts';
import { pageUrl, type Snapshot } from './snapshot.ts';

export interface ChangesOptions {
  /** `YYYY-MM-DD` or an RFC 3339 time: releases published on or after it. */
  since?: string;
  agent?: string;
  /** Only changes that break callers (and the releases that have one). */
  breaking?: boolean;
}

type Release = ChangesExport['releases'][number];

export interface ChangesAnswer {
  since?: string;
  agent?: string;
  breakingOnly: boolean;
  /** The releases, newest first; their groups and counts hold only the changes kept. */
  releases: (Release & { page: string })[];
  changes: number;
  breaking: number;
  /** Texts of the changes kept, by id (a changed description's before and after). */
  texts: Record<string, string>;
  /** The rules a change is called breaking by. */
  rules: ChangesExport['rules'];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The time `since` stands for, or an error in a user's words. */
export function sinceTime(since: string): number {
  const time = Date.parse(DAY.test(since) ? `${since}T00:00:00Z` : since);
  if (Number.isNaN(time)) throw new RangeError(`--since takes a day (2026-11-01) or an RFC 3339 time, not ${since}`);
  return time;
}

export function changes(snapshot: Snapshot, options: ChangesOptions = {}): ChangesAnswer {
  const data = snapshot.changes();
  if (!data) throw new NotFound('This snapshot holds no changes.json: its build published no release history.');
  const agent = options.agent === undefined ? undefined : findAgent(snapshot.catalog(), options.agent).id;
  const since = options.since === undefined ? undefined : sinceTime(options.since);
  const texts: Record<string, string> = {};
  const releases: ChangesAnswer['releases'] = [];
  for (const release of data.releases) {
    if (agent !== undefined && release.agent !== agent) continue;
    if (since !== undefined && Date.parse(release.published) < since) continue;
    const groups = release.groups
      .map((g) => ({
        ...g,
        tools: g.tools
          .map((t) => ({ ...t, changes: t.changes.filter((c) => !options.breaking || c.breaking !== undefined) }))
          .filter((t) => t.changes.length > 0),
      }))
      .filter((g) => g.tools.length > 0);
    if (groups.length === 0) continue;
    for (const g of groups)
      for (const t of g.tools)
        for (const c of t.changes)
          for (const id of [c.before, c.after]) if (id !== undefined) texts[id] = data.texts[id]!;
    // The release's counts are of the changes kept (all of them, or the breaking ones).
    const kept = groups.flatMap((g) => g.tools.flatMap((t) => t.changes));
    releases.push({
      ...release,
      groups,
      changes: kept.length,
      breaking: kept.filter((c) => c.breaking !== undefined).length,
      page: pageUrl(snapshot.info, release.url),
    });
  }
  const kept = releases.flatMap((r) => r.groups.flatMap((g) => g.tools.flatMap((t) => t.changes)));
  return {
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(agent === undefined ? {} : { agent }),
    breakingOnly: options.breaking === true,
    releases,
    changes: kept.length,
    breaking: kept.filter((c) => c.breaking !== undefined).length,
    texts,
    rules: data.rules,
  };
}
