/**
 * The releases a capture history read in which some compared configuration could not be
 * captured (`releases[].failed`), named with the reason, as pages list them. Pure.
 */
import type { HistoryFile } from './content-types.ts';

/** One release read whose captures failed in some configurations; `reasons` groups configurations failing for the same reason. */
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
    out.push({ release: r.cliVersion ?? r.version, all: compared.length > 0 && compared.every((c) => failed.some(([f]) => f === c)), reasons });
  }
  return out;
}
