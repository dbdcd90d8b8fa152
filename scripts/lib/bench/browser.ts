/**
 * What Chromium fetches: every response of a page load in a fresh context
 * (empty cache), and the responses of a first search in Starlight's dialog.
 * Debian's Chromium through playwright-core; no browser is downloaded.
 */
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../system/chromium.ts';
import type { Fetched } from './report.ts';

const STEP_MS = 30_000;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: STEP_MS });
}

/** Records each response with its decoded and wire sizes; `settle()` waits for the bodies. */
function record(page: Page): { settle(): Promise<Fetched[]> } {
  const pending: Promise<Fetched>[] = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    inFlight++;
    lastActivity = Date.now();
  });
  const done = () => {
    inFlight--;
    lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (response: Response) => {
    pending.push(
      (async () => {
        const body = await response.body().catch(() => Buffer.alloc(0));
        const sizes = await response
          .request()
          .sizes()
          .catch(() => undefined);
        return {
          url: response.url(),
          contentType: (await response.headerValue('content-type')) ?? '',
          bytes: body.length,
          transferred: sizes?.responseBodySize ?? body.length,
        };
      })(),
    );
  });
  return {
    /** Network idle: nothing in flight for 500 ms (lazy scripts, Pagefind chunks), at most 15 s. */
    async settle() {
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastActivity < 500)) await page.waitForTimeout(100);
      return Promise.all(pending);
    },
  };
}

/** Everything one page load fetches, cold, until the network is idle. */
export async function measureLoad(browser: Browser, url: string): Promise<Fetched[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_MS);
    const responses = record(page);
    await page.goto(url, { waitUntil: 'load' });
    return await responses.settle();
  } finally {
    await context.close();
  }
}

/**
 * The first search on a freshly loaded page: open the dialog, type the query,
 * wait for results with their links; returns everything fetched since the page
 * was opened (Pagefind may start loading before the dialog opens), for the
 * caller to pick Pagefind's part.
 */
export async function measureSearch(
  browser: Browser,
  url: string,
  query: string,
): Promise<{ fetched: Fetched[]; results: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_MS);
    const responses = record(page);
    await page.goto(url, { waitUntil: 'load' });
    await responses.settle();
    await page.click('site-search button[data-open-modal]');
    const input = page.locator('site-search input.pagefind-ui__search-input');
    await input.waitFor();
    await input.pressSequentially(query);
    await page.waitForFunction((q) => {
      const message = document.querySelector('.pagefind-ui__message')?.textContent ?? '';
      const results = [...document.querySelectorAll('.pagefind-ui__result')];
      return (
        message.endsWith(` for ${q}`) &&
        results.length > 0 &&
        results.every((r) => r.querySelector('.pagefind-ui__result-link'))
      );
    }, query);
    const fetched = await responses.settle();
    return { fetched, results: await page.locator('.pagefind-ui__result').count() };
  } finally {
    await context.close();
  }
}
