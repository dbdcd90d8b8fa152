/**
 * The sweep (`npm run test:sweep`): SWEEP in the environment makes a check that the everyday run narrows take more.
 * The layout and accessibility tests check more pages than one per template, the tool-page tests more tool pages than
 * their sample, and the checks over every item of the content (every name in search, every recorded payload over MCP,
 * every published validator, every changed text) more than the sample that covers each of their cases.
 * SWEEP=all takes every item (over half an hour here); SWEEP=K/N the K-th of N shares, every N-th item from the K-th,
 * as well as the everyday ones, so that each share still covers every case (CI runs one share per commit).
 * scripts/test.ts names the tests the sweep runs (SWEEPS).
 */
export interface SweepShare {
  share: number;
  of: number;
}

/** SWEEP's value read: undefined when unset; a value that is neither `all` nor K/N (1 ≤ K ≤ N) throws. */
export function readSweep(value: string | undefined): SweepShare | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'all') return { share: 1, of: 1 };
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const [share, of] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (share < 1 || share > of)
    throw new Error(`SWEEP must be "all" or K/N with 1 ≤ K ≤ N, not ${JSON.stringify(value)}`);
  return { share, of };
}

export const SWEEP = readSweep(process.env.SWEEP);

/** The items of the sweep's share, in their order: every `of`-th from the `share`-th. */
export function sweepShare<T>(items: readonly T[], sweep: SweepShare): T[] {
  return items.filter((_, index) => index % sweep.of === sweep.share - 1);
}

/** Every `step`-th item from the first, in their order: a spread of a sorted list for an everyday sample. */
export function spread<T>(items: readonly T[], step: number): T[] {
  return items.filter((_, index) => index % step === 0);
}

/**
 * The items a check over all of them takes: `everyday` (the sample that covers each case the check knows), and with
 * SWEEP the items of its share too (all of them with SWEEP=all); in the order of `items`.
 */
export function atScale<T>(items: readonly T[], everyday: readonly T[], sweep = SWEEP): T[] {
  const chosen = new Set([...everyday, ...(sweep ? sweepShare(items, sweep) : [])]);
  return items.filter((item) => chosen.has(item));
}
