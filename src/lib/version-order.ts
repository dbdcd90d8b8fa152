/**
 * The order of `x.y.z` release numbers. A leaf module (it imports nothing), so
 * that agent modules, which the rest of the site imports, can compare releases.
 */

/** Numeric order of `x.y.z` release numbers: negative when `a` comes first. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
