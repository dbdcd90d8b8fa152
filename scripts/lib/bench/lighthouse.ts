/**
 * Lighthouse category scores (0–100) for a list of URLs, with Lighthouse's
 * default configuration: mobile emulation and simulated slow-4G throttling,
 * the figures PageSpeed Insights shows first. One Chromium (Debian's) for all
 * runs; each run clears storage, so every page loads cold. With several runs
 * the URLs are scored round after round (a change in the machine's load falls
 * on every page alike) and each figure is the median of its runs.
 */
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM, CHROMIUM_FLAGS } from '../system/chromium.ts';
import { median } from './runs.ts';
import { withTimeout } from './timeout.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];
/**
 * Two of the metrics behind the performance score, in milliseconds: scores of
 * small static pages saturate at 100, these still show a difference.
 */
export const TIMINGS = { lcp: 'largest-contentful-paint', tbt: 'total-blocking-time' } as const;
export type Scores = Record<Category | keyof typeof TIMINGS, number | null>;
const NONE: Scores = {
  performance: null,
  accessibility: null,
  'best-practices': null,
  seo: null,
  lcp: null,
  tbt: null,
};

const RUN_MS = 120_000;

/**
 * Each figure's median over the runs that produced it (a failed run gives nulls, which are left
 * out); a figure no run produced stays null. Scores are rounded to whole points, as Lighthouse shows them.
 */
export function medianScores(runs: readonly Scores[]): Scores {
  const out = { ...NONE };
  for (const key of Object.keys(NONE) as (keyof Scores)[]) {
    const values = runs.map((r) => r[key]).filter((v): v is number => typeof v === 'number');
    if (values.length === 0) continue;
    const m = median(values);
    out[key] = key in TIMINGS ? m : Math.round(m);
  }
  return out;
}

/**
 * Scores (and two timings) per URL, the medians of `runs` rounds; a run that fails gives nulls
 * and its reason in `errors`.
 */
export async function lighthouseScores(
  urls: readonly string[],
  runs = 1,
): Promise<{ scores: Map<string, Scores>; errors: string[] }> {
  const perUrl = new Map<string, Scores[]>(urls.map((url) => [url, []]));
  const errors: string[] = [];
  const chrome = await withTimeout(
    'launching Chromium for Lighthouse',
    30_000,
    chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' }),
  );
  try {
    for (let round = 1; round <= runs; round++)
      for (const url of urls) {
        try {
          const result = await withTimeout(
            `Lighthouse on ${url}`,
            RUN_MS,
            lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] }),
          );
          if (!result) throw new Error('Lighthouse returned no result');
          if (result.lhr.runtimeError)
            throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
          const { categories, audits } = result.lhr;
          const score = (c: Category) => {
            const value = categories[c]?.score;
            return typeof value === 'number' ? Math.round(value * 100) : null;
          };
          const timing = (id: string) => audits[id]?.numericValue ?? null;
          perUrl.get(url)!.push({
            performance: score('performance'),
            accessibility: score('accessibility'),
            'best-practices': score('best-practices'),
            seo: score('seo'),
            lcp: timing(TIMINGS.lcp),
            tbt: timing(TIMINGS.tbt),
          });
        } catch (error) {
          errors.push(`${url}${runs > 1 ? ` (round ${round})` : ''}: ${(error as Error).message}`);
          perUrl.get(url)!.push(NONE);
        }
      }
  } finally {
    chrome.kill();
  }
  return { scores: new Map([...perUrl].map(([url, list]) => [url, medianScores(list)])), errors };
}
