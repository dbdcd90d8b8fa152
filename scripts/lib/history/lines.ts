/**
 * Which package each Claude Code release's SDK types are read from.
 *
 * Two package lines: the agent SDK (the pinned package) from its first release
 * that states the Claude Code release it bundles (`claudeCodeVersion` in its
 * package.json), and before that Claude Code's own package
 * (`@anthropic-ai/claude-code`), from a given first release up to — not
 * including — the Claude Code release that first agent SDK release states.
 * One cut, so the history is ordered by Claude Code release line after line.
 *
 * Pure: takes the version lists and the stated Claude Code releases a
 * registry reports.
 */
import { releasesInRange } from './releases.ts';
import { compareReleases, isRelease } from '../../../src/lib/core/version-order.ts';

export interface LinePlan {
  /** Releases of the CLI's own package, oldest first. */
  cli: string[];
  /** Releases of the agent SDK, oldest first. */
  sdk: string[];
  /** The first agent SDK release read and the Claude Code release it states: where the lines meet. */
  switchAt: { release: string; cliVersion: string };
}

export interface LineInput {
  /** Every version the agent SDK's registry lists (prereleases and later releases are left out here). */
  sdkVersions: readonly string[];
  /** `claudeCodeVersion` per agent SDK release that states one. */
  stated: ReadonlyMap<string, string>;
  /** The last agent SDK release (the pin). */
  to: string;
  /** Every version the CLI package lists; none when that line is not followed. */
  cliVersions?: readonly string[] | undefined;
  /** The first CLI release to read (the first that ships the types file). */
  cliFrom: string;
}

/** The releases of both lines, split where the agent SDK starts stating its Claude Code release. */
export function planLines(input: LineInput): LinePlan {
  const sdkReleases = input.sdkVersions.filter(isRelease).filter((v) => compareReleases(v, input.to) <= 0);
  const ordered = [...new Set(sdkReleases)].sort(compareReleases);
  const first = ordered.find((v) => input.stated.has(v));
  if (first === undefined)
    throw new Error(`no release up to ${input.to} states the Claude Code release it bundles (claudeCodeVersion)`);
  const cliVersion = input.stated.get(first)!;
  const sdk = ordered.filter((v) => compareReleases(v, first) >= 0);
  let cli: string[] = [];
  if (input.cliVersions) {
    if (compareReleases(input.cliFrom, cliVersion) >= 0) {
      throw new Error(
        `the first CLI release ${input.cliFrom} is not older than Claude Code ${cliVersion}, which the agent SDK ` +
          `covers from ${first} on`,
      );
    }
    cli = releasesInRange(input.cliVersions, input.cliFrom, cliVersion).filter(
      (v) => compareReleases(v, cliVersion) < 0,
    );
  }
  return { cli, sdk, switchAt: { release: first, cliVersion } };
}

/**
 * `{version → stated release}` from what `npm view "<pkg>@<range>" version
 * name <field> --json` prints (`field`: claudeCodeVersion for Claude Code's
 * agent SDK): one object per release (a single object for a range of one).
 * Asked with three fields so that every release prints as an object: with two,
 * npm prints bare version strings for a range in which some releases lack the
 * field, dropping it from those that have it.
 */
export function statedFromView(raw: unknown, where: string, field = 'claudeCodeVersion'): Map<string, string> {
  const list = Array.isArray(raw) ? raw : [raw];
  const out = new Map<string, string>();
  for (const item of list) {
    const m = item as ({ version?: unknown } & Record<string, unknown>) | null;
    if (!m || typeof m !== 'object' || typeof m.version !== 'string')
      throw new Error(
        `${where}: expected one object with a version per release, got ${JSON.stringify(item)?.slice(0, 80)}`,
      );
    const stated = m[field];
    if (typeof stated === 'string' && isRelease(stated)) out.set(m.version, stated);
  }
  return out;
}
