/**
 * Release numbers of a package as the history sees them: only plain `x.y.z`
 * releases (prereleases such as `1.2.3-beta.1` are left out), in the one
 * release order (src/lib/core/version-order.ts), and the numbers a registry skipped
 * between two published ones.
 *
 * Pure: takes the version list a registry reports, returns lists.
 */

import { compareReleases, isRelease, releaseParts } from '../../../src/lib/core/version-order.ts';

/** The plain releases of `versions` from `from` through `to` (both included), oldest first, without repeats. */
export function releasesInRange(versions: readonly string[], from: string, to: string): string[] {
  releaseParts(from);
  releaseParts(to);
  if (compareReleases(from, to) > 0) throw new Error(`the range ${from} … ${to} is empty: ${from} comes after ${to}`);
  const kept = new Set(versions.filter((v) => isRelease(v) && compareReleases(v, from) >= 0 && compareReleases(v, to) <= 0));
  return [...kept].sort(compareReleases);
}

/**
 * Release numbers that were never published between consecutive published
 * releases of the same `major.minor` line, oldest first: for `0.3.150`,
 * `0.3.152`, `0.3.156` that is `0.3.151`, `0.3.153`, `0.3.154`, `0.3.155`.
 * Across a new minor or major line nothing is assumed missing.
 */
export function unpublishedBetween(releases: readonly string[]): string[] {
  const sorted = [...new Set(releases)].sort(compareReleases);
  const out: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [aMajor, aMinor, aPatch] = releaseParts(sorted[i - 1]!);
    const [bMajor, bMinor, bPatch] = releaseParts(sorted[i]!);
    if (aMajor !== bMajor || aMinor !== bMinor) continue;
    for (let patch = aPatch + 1; patch < bPatch; patch++) out.push(`${aMajor}.${aMinor}.${patch}`);
  }
  return out;
}
