/**
 * Configurations that could not be captured in a release. Two things follow from them:
 *
 * - Bisection: where a configuration is captured in one of two releases read and not in
 *   the other, the releases between them are read too, so that the first (or last)
 *   release in which it runs is found exactly, as a change is. Without this, a release
 *   that cannot run looks identical to its neighbour, and the releases between them are
 *   never read.
 * - The history file names, for each release read, the configurations that failed in it
 *   and why (`failed`), so that pages can say which releases could not be compared.
 * Pure.
 */
import type { ReleaseSnapshots } from '../history/capture-diff.ts';

/** Is some configuration captured in one release and not in the other? */
export function capturedDiffer(a: ReleaseSnapshots, b: ReleaseSnapshots, order: readonly string[]): boolean {
  return order.some((c) => Boolean(a.configs.get(c)) !== Boolean(b.configs.get(c)));
}

/**
 * The reasons of one release's failed configurations, in matrix order, or undefined when
 * every configuration was captured. A reason is the first line of the cached error.
 */
export function failedConfigurations(
  errors: ReadonlyMap<string, string>,
  order: readonly string[],
): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const c of order) {
    const error = errors.get(c);
    if (error !== undefined) out[c] = error.split('\n')[0]!.trim();
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
