/**
 * Which releases a capture history covers: the stable versions the registry lists
 * (`npm view <pkg> versions --json`), in semver order, cut to a range, and the numbers
 * inside that range that were never published. Pure.
 */

import { compareReleases, isRelease, releaseParts } from '../../../src/lib/core/version-order.ts';

type Triple = [number, number, number];

export interface ReleaseRange {
  /** Oldest release to cover (inclusive); when absent, `last` decides. */
  from?: string;
  /** Newest release to cover (inclusive): the capture matrix's pin. */
  to: string;
  /** Cover the newest `last` published releases up to `to` (with `from`, the larger set wins). */
  last?: number;
}

/** The stable published versions inside the range, oldest first; prereleases are left out. */
export function selectReleases(published: readonly string[], range: ReleaseRange): string[] {
  const stable = [...new Set(published.filter(isRelease))].sort(compareReleases);
  if (!stable.includes(range.to)) throw new Error(`${range.to} is not a published stable release`);
  const upTo = stable.filter((v) => compareReleases(v, range.to) <= 0);
  let start = upTo.length - 1;
  if (range.from !== undefined) start = Math.min(start, upTo.findIndex((v) => compareReleases(v, range.from!) >= 0));
  if (range.last !== undefined) start = Math.min(start, Math.max(0, upTo.length - range.last));
  return upTo.slice(Math.max(0, start));
}

/**
 * Release numbers inside [first, last] of `releases` (oldest first) that the registry never
 * published: a missing patch below the highest published patch of a minor, and `x.y.0` of a
 * minor with no published release at all. Across a new major, the numbers from `x.0.0` up to
 * its first release count as inside the range; those after the last release of the major
 * before do not (no one can say where that major would have ended). Prereleases in
 * `published` do not count as published.
 */
export function unpublishedNumbers(releases: readonly string[]): string[] {
  const have = new Set(releases);
  const triples = releases.map(releaseParts);
  const out: string[] = [];
  const majors = [...new Set(triples.map((t) => t[0]))];
  for (const [index, major] of majors.entries()) {
    const ofMajor = triples.filter((t) => t[0] === major);
    const first: Triple = index === 0 ? ofMajor[0]! : [major, 0, 0];
    const last = ofMajor[ofMajor.length - 1]!;
    for (let minor = first[1]; minor <= last[1]; minor++) {
      const patches = ofMajor.filter((t) => t[1] === minor).map((t) => t[2]);
      const lowest = minor === first[1] ? first[2] : 0;
      const highest = minor === last[1] ? last[2] : patches.length > 0 ? Math.max(...patches) : 0;
      for (let patch = lowest; patch <= highest; patch++) {
        const v = `${major}.${minor}.${patch}`;
        if (!have.has(v)) out.push(v);
      }
    }
  }
  return out;
}
