/**
 * The releases a capture history read in which some compared configuration could not be
 * captured (`releases[].failed`), named with the reason, as pages list them. Pure.
 */
import type { HistoryFile } from '../core/content-types.ts';

/**
 * One release read whose captures failed in some configurations; `reasons` groups configurations failing for the same
 * reason.
 */
export interface FailedRelease {
  release: string;
  /** Every compared configuration failed: the release was not compared at all. */
  all: boolean;
  reasons: { configurations: string[]; reason: string }[];
}

/** The releases of a history, oldest first, in which configurations failed. */
export function failedReleases(file: HistoryFile): FailedRelease[] {
  const compared = file.configurations ?? [];
  const out: FailedRelease[] = [];
  for (const r of file.releases) {
    const failed = Object.entries(r.failed ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
    if (failed.length === 0) continue;
    const reasons: FailedRelease['reasons'] = [];
    for (const [configuration, reason] of failed) {
      const same = reasons.find((x) => x.reason === reason);
      if (same) same.configurations.push(configuration);
      else reasons.push({ configurations: [configuration], reason });
    }
    out.push({
      release: r.cliVersion ?? r.version,
      all: compared.length > 0 && compared.every((c) => failed.some(([f]) => f === c)),
      reasons,
    });
  }
  return out;
}

/** Successive releases read that failed the same way, with no release read in between that did not. */
export interface FailedRun {
  first: string;
  last: string;
  /** How many releases read the run holds. */
  read: number;
  all: boolean;
  reasons: FailedRelease['reasons'];
}

/**
 * The failures of a history as runs: a configuration that cannot run in a stretch of releases
 * (a flag an older CLI does not know) is one line, not one per release read. A release read in
 * which the failures differ, or that failed nowhere, ends a run; releases not read do not.
 */
export function failedRuns(file: HistoryFile): FailedRun[] {
  const failed = new Map(failedReleases(file).map((f) => [f.release, f]));
  const signature = (f: FailedRelease) => JSON.stringify([f.all, f.reasons]);
  const runs: FailedRun[] = [];
  let open: FailedRun | undefined;
  let openSignature = '';
  for (const r of file.releases) {
    if (!r.read) continue;
    const f = failed.get(r.cliVersion ?? r.version);
    if (!f) {
      open = undefined;
      continue;
    }
    if (open && signature(f) === openSignature) {
      open.last = f.release;
      open.read++;
      continue;
    }
    open = { first: f.release, last: f.release, read: 1, all: f.all, reasons: f.reasons };
    openSignature = signature(f);
    runs.push(open);
  }
  return runs;
}
