/**
 * A capture that lost most of its tools for one release only. When a configuration's
 * capture in a release lacks most of the tools of the last release read before it in
 * which that configuration ran, and the next such release read after it has most of the
 * lost ones again, the capture is far likelier to be a side request or a broken run than
 * a release that dropped its tools for a day (Claude Code's interactive runs once kept a
 * session-title request, `tools: []`, and recorded every tool as removed and re-added).
 * Such a capture is re-run; if it persists it is recorded as a failed capture with this
 * reason, never as removals. Pure.
 */
import type { ReleaseSnapshots } from '../history/capture-diff.ts';

/** "Most": more than this share of the earlier release's tools is lost, and returns. */
export const VANISH_SHARE = 0.5;

export interface VanishSuspect {
  /** The release whose capture lost the tools. */
  version: string;
  configuration: string;
  /** Tools the suspect's capture advertises. */
  count: number;
  /** The last release read before it in which the configuration ran, and its tool count. */
  before: { version: string; count: number };
  /** The next such release read after it, and its tool count. */
  after: { version: string; count: number };
  /** Tools of `before` missing from the suspect and back in `after`. */
  returned: number;
}

/**
 * The suspects among `releases` (the releases read, oldest first), per configuration of
 * `order`. A release in which the configuration failed is skipped, as the history's
 * comparison skips it.
 */
export function vanishAndReturn(releases: readonly ReleaseSnapshots[], order: readonly string[]): VanishSuspect[] {
  const out: VanishSuspect[] = [];
  for (const configuration of order) {
    const ran = releases.flatMap((r) => {
      const snapshot = r.configs.get(configuration);
      return snapshot ? [{ version: r.version, names: new Set(Object.keys(snapshot.tools)) }] : [];
    });
    for (let i = 1; i + 1 < ran.length; i++) {
      const [before, here, after] = [ran[i - 1]!, ran[i]!, ran[i + 1]!];
      const lost = [...before.names].filter((n) => !here.names.has(n));
      const returned = lost.filter((n) => after.names.has(n)).length;
      if (before.names.size > 0 && returned > before.names.size * VANISH_SHARE) {
        out.push({
          version: here.version,
          configuration,
          count: here.names.size,
          before: { version: before.version, count: before.names.size },
          after: { version: after.version, count: after.names.size },
          returned,
        });
      }
    }
  }
  return out;
}

/** The reason recorded when a suspect persists after `runs` captures. */
export function vanishReason(s: VanishSuspect, runs: number): string {
  return (
    `capture refused: it advertised ${s.count} tool${s.count === 1 ? '' : 's'} where ${s.before.version} ` +
    `advertised ${s.before.count} and ${s.after.version} ${s.after.count} (${s.returned} of them back), in ` +
    `each of ${runs} runs; not recorded as removals`
  );
}
