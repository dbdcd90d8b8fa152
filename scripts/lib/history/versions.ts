/**
 * Release numbers of a package as the history sees them: only plain `x.y.z`
 * releases (prereleases such as `1.2.3-beta.1` are left out), ordered
 * numerically, and the numbers a registry skipped between two published ones.
 *
 * Pure: takes the version list a registry reports, returns lists.
 */

const RELEASE = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/** Whether `version` is a plain `x.y.z` release (no prerelease or build suffix). */
export function isRelease(version: string): boolean {
  return RELEASE.test(version);
}

/** `[major, minor, patch]` of a plain release; throws for anything else. */
export function releaseParts(version: string): [number, number, number] {
  const m = RELEASE.exec(version);
  if (!m) throw new Error(`${JSON.stringify(version)} is not a plain x.y.z release number`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Numeric order of two plain releases (`0.3.9` before `0.3.10`). */
export function compareReleases(a: string, b: string): number {
  const pa = releaseParts(a);
  const pb = releaseParts(b);
  return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
}

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
