/**
 * Driving "Check a payload" on a tool page of the served site (test/e2e/payload-check*.test.ts): open a page and
 * record the scripts it loads, open the checker from the keyboard, check a text, follow a verdict's link.
 */
import type { Page } from 'playwright-core';
import type { servedSite, Theme } from './pages.ts';
import { openPage } from './pages.ts';

type Site = ReturnType<typeof servedSite>;

export interface Opened {
  page: Page;
  /** Every script response since the page was opened: path and decoded bytes. */
  scripts: Promise<{ path: string; bytes: number }>[];
}

export async function open(site: Site, path: string, width = 1280, theme?: Theme): Promise<Opened> {
  const context = await site.view(theme ? { width, height: 900, theme } : { width, height: 900 });
  const scripts: Opened['scripts'] = [];
  context.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const path = new URL(response.url()).pathname;
    // A worker dropped for a newer check, or a page closed, can leave a body unreadable.
    scripts.push(
      response.body().then(
        (body) => ({ path, bytes: body.byteLength }),
        () => ({ path, bytes: 0 }),
      ),
    );
  });
  return { page: await openPage(context, path, theme), scripts };
}

/** Bytes of the page's inline scripts plus those of every script response so far. */
export async function scriptBytes(
  opened: Opened,
): Promise<{ inline: number; loaded: { path: string; bytes: number }[] }> {
  const inline = await opened.page.$$eval('script:not([src])', (ss) =>
    ss.reduce((n, s) => n + new TextEncoder().encode(s.textContent ?? '').length, 0),
  );
  return { inline, loaded: await Promise.all(opened.scripts) };
}

export const isChecker = (path: string) => path.startsWith('/payload-check/') || /\/validate-[a-z-]+\.js$/.test(path);

/** Opens the checker with the keyboard (focus on its summary, Enter) and waits for the form. */
export async function openChecker(page: Page): Promise<void> {
  const summary = page.locator('details[data-payload-check] > summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.locator('details[data-payload-check] form').waitFor({ state: 'visible', timeout: 10_000 });
}

/**
 * Replaces the text, checks it with Control+Enter, and returns the verdict region once it has changed and the check is
 * over.
 */
export async function check(page: Page, json: string): Promise<{ text: string; links: string[] }> {
  const box = page.locator('#payload-check-text');
  const status = page.locator('details[data-payload-check] [role="status"]');
  const before = await status.innerHTML();
  await box.fill('');
  await box.focus();
  await page.keyboard.insertText(json);
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction(
    (old) => {
      const region = document.querySelector('details[data-payload-check] [role="status"]')!;
      return region.innerHTML !== old && !region.hasAttribute('aria-busy');
    },
    before,
    { timeout: 10_000 },
  );
  return {
    text: (await status.innerText()).replace(/\s+/g, ' ').trim(),
    links: await status.locator('a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).hash)),
  };
}

/** Follows a verdict link from the keyboard and returns the id the page then targets. */
export async function follow(page: Page, hash: string): Promise<string | undefined> {
  const link = page.locator(`details[data-payload-check] [role="status"] a[href="${hash}"]`).first();
  await link.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((h) => location.hash === h, hash);
  return page.evaluate(() => {
    const target = document.querySelector(':target');
    if (!target) return undefined;
    const box = target.getBoundingClientRect();
    return box.top >= 0 && box.top < innerHeight ? target.id : `${target.id} (out of view)`;
  });
}
