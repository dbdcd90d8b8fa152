/**
 * Lighthouse category scores (0–100) for a list of URLs, with Lighthouse's
 * default configuration: mobile emulation and simulated slow-4G throttling,
 * the figures PageSpeed Insights shows first. One Chromium (Debian's) for all
 * runs; each run clears storage, so every page loads cold.
 */
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM, CHROMIUM_FLAGS } from '../chromium.ts';
import { withTimeout } from './timeout.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];
/**
 * Two of the metrics behind the performance score, in milliseconds: scores of
 * small static pages saturate at 100, these still show a difference.
 */
export const TIMINGS = { lcp: 'largest-contentful-paint', tbt: 'total-blocking-time' } as const;
export type Scores = Record<Category | keyof typeof TIMINGS, number | null>;
const NONE: Scores = { performance: null, accessibility: null, 'best-practices': null, seo: null, lcp: null, tbt: null };

const RUN_MS = 120_000;

/** Scores (and two timings) per URL; a URL whose run fails gets nulls and its reason in `errors`. */
export async function lighthouseScores(urls: readonly string[]): Promise<{ scores: Map<string, Scores>; errors: string[] }> {
  const scores = new Map<string, Scores>();
  const errors: string[] = [];
  const chrome = await withTimeout(
    'launching Chromium for Lighthouse',
    30_000,
    chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' }),
  );
  try {
    for (const url of urls) {
      try {
        const result = await withTimeout(
          `Lighthouse on ${url}`,
          RUN_MS,
          lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] }),
        );
        if (!result) throw new Error('Lighthouse returned no result');
        if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
        const { categories, audits } = result.lhr;
        const score = (c: Category) => {
          const value = categories[c]?.score;
          return typeof value === 'number' ? Math.round(value * 100) : null;
        };
        const timing = (id: string) => audits[id]?.numericValue ?? null;
        scores.set(url, {
          performance: score('performance'),
          accessibility: score('accessibility'),
          'best-practices': score('best-practices'),
          seo: score('seo'),
          lcp: timing(TIMINGS.lcp),
          tbt: timing(TIMINGS.tbt),
        });
      } catch (error) {
        errors.push(`${url}: ${(error as Error).message}`);
        scores.set(url, NONE);
      }
    }
  } finally {
    chrome.kill();
  }
  return { scores, errors };
}
