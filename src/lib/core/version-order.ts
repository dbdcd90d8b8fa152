/**
 * The one order of release numbers, for the site and every script. A leaf
 * module (it imports nothing), so that agent modules, which the rest of the
 * site imports, can compare releases.
 *
 * Plain releases are `x.y.z` as semver writes them (no leading zeros). The
 * histories read plain releases only: a prerelease (`1.2.3-beta.1`) is left
 * out of every history. Where one is shown anyway (a pin, a recorded
 * example), compareVersions puts it before its release, as semver does.
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

/** Numeric order of two plain releases (`0.3.9` before `0.3.10`); throws when either is not one. */
export function compareReleases(a: string, b: string): number {
  const pa = releaseParts(a);
  const pb = releaseParts(b);
  return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
}

/** Dot-separated identifiers: numeric ones by value and before text ones, text ones by code point. */
function compareIdentifiers(a: readonly string[], b: readonly string[], missing: 'zero' | 'first'): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) {
      if (missing === 'first') return x === undefined ? -1 : 1;
    }
    const xs = x ?? '0';
    const ys = y ?? '0';
    const xn = /^[0-9]+$/.test(xs);
    const yn = /^[0-9]+$/.test(ys);
    const d = xn && yn ? Number(xs) - Number(ys) : xn !== yn ? (xn ? -1 : 1) : xs < ys ? -1 : xs > ys ? 1 : 0;
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Order of any two release numbers, negative when `a` comes first: by their
 * numeric parts (a missing part counts as 0), then a prerelease before its
 * release and prereleases by semver's identifier rules; build metadata
 * (`+…`) is ignored. Never throws: an odd number still gets a stable place.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const core = v.split('+')[0]!;
    const dash = core.indexOf('-');
    return dash < 0
      ? { main: core.split('.'), pre: undefined }
      : { main: core.slice(0, dash).split('.'), pre: core.slice(dash + 1).split('.') };
  };
  const x = split(a);
  const y = split(b);
  const main = compareIdentifiers(x.main, y.main, 'zero');
  if (main !== 0) return main;
  if (x.pre === undefined || y.pre === undefined) return x.pre === y.pre ? 0 : x.pre === undefined ? 1 : -1;
  return compareIdentifiers(x.pre, y.pre, 'first');
}
