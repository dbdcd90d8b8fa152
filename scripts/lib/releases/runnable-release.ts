/**
 * Which package runs a release of an agent, read from the registry's listings of every package
 * the agent module declares (its `npmPackage`, the wrapper, then its `standalonePackages`:
 * platform packages that hold the program on their own). A wrapper can stop while its platform
 * package goes on (Claude Code: `@anthropic-ai/claude-code` stopped at 2.1.332, its
 * `-linux-x64` package has 2.1.333 to 2.1.335): such a release is published, and runnable,
 * from the platform package. "Not published" means no declared package lists it. Pure.
 */
import { compareReleases, isRelease } from '../../../src/lib/core/version-order.ts';

/** What the registry lists for one package (`npm view <package> versions --json`). */
export interface PackageListing {
  package: string;
  versions: readonly string[];
}

/** The packages whose listing has `version`, in the order given (the wrapper first). */
export function listingPackages(listings: readonly PackageListing[], version: string): string[] {
  return listings.filter((l) => l.versions.includes(version)).map((l) => l.package);
}

/**
 * The package to install for `version`: the first that lists it (the wrapper before a platform package), or undefined
 * when none does.
 */
export function runnablePackage(listings: readonly PackageListing[], version: string): string | undefined {
  return listingPackages(listings, version)[0];
}

/** Every stable release some declared package lists, oldest first, once each. */
export function runnableVersions(listings: readonly PackageListing[]): string[] {
  return [...new Set(listings.flatMap((l) => l.versions).filter(isRelease))].sort(compareReleases);
}

/** The newest of the packages' newest releases (their `latest` tags): the newest runnable release. */
export function newestRelease(latest: readonly string[]): string {
  const stable = latest.filter(isRelease).sort(compareReleases);
  const newest = stable[stable.length - 1];
  if (newest === undefined) throw new Error(`no stable release among ${JSON.stringify(latest)}`);
  return newest;
}

/**
 * Whether a program's `--version` output names `version` as a whole release number
 * (`2.1.335 (Claude Code)` names 2.1.335, not 2.1.33 nor 2.1.3350).
 */
export function printsVersion(output: string, version: string): boolean {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^0-9.])v?${escaped}(?![0-9]|\\.[0-9])`).test(output);
}

/**
 * When each release was published (`npm view <package> time --json` of each package, the wrapper first): the first
 * package's time of a release wins.
 */
export function releaseTimes(times: readonly Readonly<Record<string, string>>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of times)
    for (const [version, time] of Object.entries(t)) if (isRelease(version) && !(version in out)) out[version] = time;
  return out;
}

/** Whether each package's listing has `version`: the evidence a "published" or "not published" claim rests on. */
export function releaseEvidence(
  listings: readonly PackageListing[],
  version: string,
): { package: string; lists: boolean }[] {
  return listings.map((l) => ({ package: l.package, lists: l.versions.includes(version) }));
}
