/**
 * Which releases a history covers, whatever it reads them from: the plain `x.y.z` releases a
 * registry lists (prereleases such as `1.2.3-beta.1` are left out), in the one release order
 * (src/lib/core/version-order.ts), cut to a range, and the release numbers inside that range
 * that were never published. Pure: takes the version list a registry reports.
 */
import { compareReleases, isRelease, releaseParts } from '../../../src/lib/core/version-order.ts';

type Triple = [number, number, number];

/** The plain releases of `versions` from `from` through `to` (both included), oldest first, without repeats. */
export function releasesInRange(versions: readonly string[], from: string, to: string): string[] {
  releaseParts(from);
  releaseParts(to);
  if (compareReleases(from, to) > 0) throw new Error(`the range ${from} … ${to} is empty: ${from} comes after ${to}`);
  const kept = new Set(
    versions.filter((v) => isRelease(v) && compareReleases(v, from) >= 0 && compareReleases(v, to) <= 0),
  );
  return [...kept].sort(compareReleases);
}

export interface ReleaseRange {
  /** Oldest release to cover (inclusive); when absent, `last` decides. */
  from?: string;
  /** Newest release to cover (inclusive): the pin. */
  to: string;
  /** Cover the newest `last` published releases up to `to` (with `from`, the larger set wins). */
  last?: number;
}

/** The plain published releases inside the range, oldest first; `to` must be one of them. */
export function selectReleases(published: readonly string[], range: ReleaseRange): string[] {
  const stable = [...new Set(published.filter(isRelease))].sort(compareReleases);
  if (!stable.includes(range.to)) throw new Error(`${range.to} is not a published stable release`);
  const upTo = stable.filter((v) => compareReleases(v, range.to) <= 0);
  let start = upTo.length - 1;
  if (range.from !== undefined)
    start = Math.min(
      start,
      upTo.findIndex((v) => compareReleases(v, range.from!) >= 0),
    );
  if (range.last !== undefined) start = Math.min(start, Math.max(0, upTo.length - range.last));
  return upTo.slice(Math.max(0, start));
}

/**
 * Release numbers inside [first, last] of `releases` that the registry never published: a
 * missing patch below the highest published patch of a minor, and `x.y.0` … up to the first
 * published patch of a minor (`x.y.0` alone for a minor with no published release at all).
 * Across a new major, the numbers from `x.0.0` up to its first release count as inside the
 * range; those after the last release of the major before do not (no one can say where that
 * major would have ended). `releases` are plain releases, in any order.
 */
export function unpublishedNumbers(releases: readonly string[]): string[] {
  const sorted = [...new Set(releases)].sort(compareReleases);
  const have = new Set(sorted);
  const triples = sorted.map(releaseParts);
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

/**
 * Releases a registry now lists inside the span a history covers (its oldest through newest
 * release) that the history does not list: published, or listed, after the history was written.
 * The history must read them (or quote their failure); until then it may call them unpublished.
 */
export function newlyListed(listed: readonly string[], history: readonly string[]): string[] {
  const covered = [...new Set(history.filter(isRelease))].sort(compareReleases);
  if (covered.length === 0) return [];
  const have = new Set(covered);
  return releasesInRange(listed, covered[0]!, covered[covered.length - 1]!).filter((v) => !have.has(v));
}
