/**
 * Which releases to read. Binaries are hundreds of megabytes each, so not every release
 * is installed: every `step`-th release and both ends are read first; wherever two
 * consecutive releases read so far differ, the release halfway between them is read,
 * until every difference lies between two adjacent releases of the list. A change that
 * is undone between two sampled releases that are identical is not seen (the price of
 * sampling). Pure apart from the oracle it is given.
 */

export interface Plan {
  /** Indices of the releases read, ascending. */
  read: number[];
  /** Each located change: [index of the last release without it, index of the first with it]. */
  changes: Array<[number, number]>;
}

/** The sample: index 0, every `step`-th index, and the last index. */
export function sampleIndices(count: number, step: number): number[] {
  if (count <= 0) return [];
  if (!Number.isInteger(step) || step < 1) throw new Error(`step must be a positive integer, not ${step}`);
  const out = new Set<number>([0, count - 1]);
  for (let i = 0; i < count; i += step) out.add(i);
  return [...out].sort((a, b) => a - b);
}

/**
 * Reads the sample, then bisects every interval whose ends differ. `differs(a, b)` is
 * asked only about indices a < b that are both read (it reads them itself, e.g. installs
 * and captures, and should remember what it read). Intervals are handled oldest first,
 * so the order of reads is deterministic.
 */
export async function locateChanges(
  count: number,
  step: number,
  differs: (a: number, b: number) => boolean | Promise<boolean>,
): Promise<Plan> {
  const read = new Set<number>(sampleIndices(count, step));
  const changes: Array<[number, number]> = [];
  const sample = [...read];
  // A stack of intervals, oldest on top.
  const pending: Array<[number, number]> = [];
  for (let i = sample.length - 2; i >= 0; i--) pending.push([sample[i]!, sample[i + 1]!]);
  while (pending.length > 0) {
    const [a, b] = pending.pop()!;
    if (!(await differs(a, b))) continue;
    if (b - a === 1) {
      changes.push([a, b]);
      continue;
    }
    const mid = Math.floor((a + b) / 2);
    read.add(mid);
    pending.push([mid, b], [a, mid]);
  }
  return { read: [...read].sort((x, y) => x - y), changes };
}
