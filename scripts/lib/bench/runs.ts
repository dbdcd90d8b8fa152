/**
 * Repeated builds: the order in which the two sites are built (interleaved, so
 * that a change in the machine's load falls on both alike), the median, and
 * the build-time rows of the table. Pure: numbers in, numbers and rows out.
 */
import type { Row } from './report.ts';

/** This checkout, the plain Starlight baseline, and this project at an earlier revision (`--before`). */
export type SiteKey = 'site' | 'baseline' | 'before';

export interface BuildStep {
  /** 1-based. */
  run: number;
  key: SiteKey;
}

/** site, baseline[, before], site, baseline[, before], …: `runs` rounds, each this site first. */
export function buildOrder(runs: number, withBefore = false): BuildStep[] {
  if (!Number.isSafeInteger(runs) || runs < 1)
    throw new RangeError(`runs must be a whole number of at least 1, not ${runs}`);
  const steps: BuildStep[] = [];
  for (let run = 1; run <= runs; run++) {
    steps.push({ run, key: 'site' }, { run, key: 'baseline' });
    if (withBefore) steps.push({ run, key: 'before' });
  }
  return steps;
}

/** The middle value; for an even count, the mean of the two middle values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('the median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface BuildTimes {
  /** Milliseconds per run, in run order. */
  site: number[];
  baseline: number[];
  /** site / baseline of each run (the two builds of one pair). */
  ratios: number[];
  medianSite: number;
  medianBaseline: number;
  /** The median of `ratios`: not the same as medianSite / medianBaseline. */
  medianRatio: number;
}

export function summarizeBuildTimes(site: readonly number[], baseline: readonly number[]): BuildTimes {
  if (site.length !== baseline.length)
    throw new RangeError(`${site.length} builds of this site but ${baseline.length} of the baseline`);
  if (baseline.some((ms) => !(ms > 0))) throw new RangeError('a baseline build time is not a positive number');
  const ratios = site.map((ms, i) => ms / baseline[i]!);
  return {
    site: [...site],
    baseline: [...baseline],
    ratios,
    medianSite: median(site),
    medianBaseline: median(baseline),
    medianRatio: median(ratios),
  };
}

/**
 * The table's build-time rows. One run: the single row the table has always
 * had. More: one row per run (its ratio is that pair's), the medians, and the
 * median of the per-run ratios (a ratio of its own, with no site or baseline figure).
 */
export function buildTimeRows(times: BuildTimes): Row[] {
  const runs = times.site.length;
  if (runs === 1)
    return [
      { metric: 'build time (wall clock, one run)', unit: 'ms', site: times.site[0]!, baseline: times.baseline[0]! },
    ];
  return [
    ...times.site.map(
      (ms, i): Row => ({
        metric: `build time, run ${i + 1} of ${runs}`,
        unit: 'ms',
        site: ms,
        baseline: times.baseline[i]!,
      }),
    ),
    {
      metric: `build time (wall clock, median of ${runs} runs)`,
      unit: 'ms',
      site: times.medianSite,
      baseline: times.medianBaseline,
    },
    {
      metric: `build time: median of the ${runs} per-run ratios`,
      unit: 'ms',
      site: null,
      baseline: null,
      ratio: times.medianRatio,
    },
  ];
}
