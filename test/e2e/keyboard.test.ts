/**
 * The site with the keyboard only: search, the sidebar (desktop and the phone
 * menu), the collapsed full definitions and the field copy-link control are
 * all reached with Tab and operated with Enter or Space. Elements are focused
 * only by key presses, never by focus() or click().
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { openPage, servedSite } from '../helpers/pages.ts';

const TOOL = '/codex/exec_command/';

const site = servedSite();

async function open(path: string, width = 1280, height = 900, permissions?: string[]): Promise<Page> {
  const context = await site.view(permissions ? { width, height, permissions } : { width, height });
  return openPage(context, path);
}

/** What has focus, in words: `a /codex/ "Overview"`, `summary "Claude Code"`. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '(body)';
    const href = el instanceof HTMLAnchorElement ? ` ${new URL(el.href).pathname}${new URL(el.href).hash}` : '';
    const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${el.localName}${href} "${name}"`;
  });
}

const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/**
 * Presses Tab until `target` has focus; returns how many presses it took.
 * Fails with the path focus took when it is not reached within `max` presses.
 */
async function tabTo(page: Page, target: Locator, max: number): Promise<number> {
  const path: string[] = [];
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    if (await hasFocus(target)) return i;
    path.push(await focused(page));
  }
  assert.fail(`Tab never reached ${target} in ${max} presses; focus went:\n  ${path.join('\n  ')}`);
}

test('search opens from the keyboard and a typed tool name leads to its page', async () => {
  const page = await open('/about/');
  // Starlight fills the dialog with Pagefind's UI once the page is idle.
  await page.waitForSelector('site-search input.pagefind-ui__search-input', { state: 'attached' });
  await tabTo(page, page.locator('site-search button[data-open-modal]'), 10);
  await page.keyboard.press('Enter');
  assert.equal(
    await page.locator('site-search dialog').evaluate((d) => (d as HTMLDialogElement).open),
    true,
    'Enter on the search button opens the dialog',
  );
  assert.ok(
    await hasFocus(page.locator('site-search input.pagefind-ui__search-input')),
    `focus is in the search box, not on ${await focused(page)}`,
  );

  await page.keyboard.type('write_stdin');
  const result = page.locator('.pagefind-ui__result-link[href*="/codex/write_stdin/"]').first();
  await result.waitFor({ timeout: 10_000 });
  // Pagefind's result list has no arrow-key navigation; Tab moves from the box to the results.
  await tabTo(page, result, 10);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/codex/write_stdin/', { timeout: 10_000 });
});

test('Control+K opens search from anywhere on the page and Escape closes it', async () => {
  const page = await open(TOOL);
  await page.waitForSelector('site-search input.pagefind-ui__search-input', { state: 'attached' });
  const dialog = page.locator('site-search dialog');
  // Starlight listens for the key value `k` with Control (or Meta).
  await page.keyboard.press('Control+k');
  assert.equal(await dialog.evaluate((d) => (d as HTMLDialogElement).open), true);
  assert.ok(
    await hasFocus(page.locator('site-search input.pagefind-ui__search-input')),
    `focus is on ${await focused(page)}`,
  );
  await page.keyboard.press('Escape');
  assert.equal(await dialog.evaluate((d) => (d as HTMLDialogElement).open), false);
});

test('at 1280 px every sidebar link and group is a Tab stop, in order, and a collapsed group opens with Enter', async () => {
  const page = await open(TOOL);
  const sidebar = page.locator('#starlight__sidebar');
  const stops = () =>
    sidebar.evaluate((nav) =>
      [...nav.querySelectorAll('a[href], summary')]
        .filter((el) => el.checkVisibility({ visibilityProperty: true }))
        .map((el) =>
          el instanceof HTMLAnchorElement
            ? `link ${new URL(el.href).pathname}`
            : `group ${el.textContent?.replace(/\s+/g, ' ').trim()}`,
        ),
    );
  const expected = await stops();
  assert.ok(expected.length > 5, `the sidebar shows ${expected.length} links`);
  const reached: string[] = [];
  for (let i = 0; i < expected.length + 40 && reached.length < expected.length; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el?.closest('#starlight__sidebar')) return null;
      return el instanceof HTMLAnchorElement
        ? `link ${new URL(el.href).pathname}`
        : `group ${el.textContent?.replace(/\s+/g, ' ').trim()}`;
    });
    if (stop) reached.push(stop);
  }
  assert.deepEqual(reached, expected, 'Tab visits the visible sidebar entries in order');

  // A collapsed group (found by position among all groups: once open it no longer matches
  // :not([open])): Enter opens it and its first link is the next Tab stop. Tabbing starts
  // again from the top of the page, so that the page's own controls do not count.
  await page.reload();
  const summaries = sidebar.locator('details > summary');
  const index = await summaries.evaluateAll((els) =>
    els.findIndex((s) => !(s.parentElement as HTMLDetailsElement).open),
  );
  assert.ok(index >= 0, 'the sidebar has a collapsed group');
  const summary = summaries.nth(index);
  const group = summary.locator('xpath=..');
  await tabTo(page, summary, expected.length + 40);
  await page.keyboard.press('Enter');
  assert.equal(await group.evaluate((d) => (d as HTMLDetailsElement).open), true, 'Enter opens the sidebar group');
  await page.keyboard.press('Tab');
  assert.ok(
    await hasFocus(group.locator('a[href]').first()),
    `after opening the group, Tab went to ${await focused(page)}`,
  );
});

test('at 375 px the menu button opens the sidebar with Enter and its links are Tab stops', async () => {
  const page = await open(TOOL, 375, 812);
  const menu = page.getByRole('button', { name: /menu/i });
  const home = page.locator('#starlight__sidebar a[href="/"]');
  assert.equal(await home.isVisible(), false, 'the sidebar starts closed on a phone');
  await tabTo(page, menu, 15);
  await page.keyboard.press('Enter');
  await home.waitFor({ state: 'visible', timeout: 2_000 });
  await tabTo(page, home, 10);
  const box = await home.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 812, 'the focused link is on screen');
  await page.keyboard.press('Escape');
  await home.waitFor({ state: 'hidden', timeout: 2_000 });
});

test('the collapsed full definition is a Tab stop and opens and closes with Enter and Space', async () => {
  const page = await open(TOOL);
  const details = page.locator('details.full-definition').first();
  const summary = details.locator(':scope > summary');
  const isOpen = () => details.evaluate((d) => (d as HTMLDetailsElement).open);
  assert.equal(await isOpen(), false, 'collapsed at first');
  await tabTo(page, summary, 200);
  await page.keyboard.press('Enter');
  assert.equal(await isOpen(), true, 'Enter opens it');
  // A long definition is fetched when first opened: give it time to arrive.
  await details.locator('pre').first().waitFor({ state: 'visible', timeout: 5_000 });
  await page.keyboard.press('Enter');
  assert.equal(await isOpen(), false, 'Enter closes it again');
  await page.keyboard.press('Space');
  assert.equal(await isOpen(), true, 'Space opens it');
});

test('the copy-link control of a field is a Tab stop, is named for its field, and Enter copies the field URL', async () => {
  const row = 'input.cmd';
  const page = await open(TOOL, 1280, 900, ['clipboard-read', 'clipboard-write']);
  const tr = page.locator(`tr[id="${row}"]`);
  assert.equal(await tr.count(), 1, `${TOOL} has a row ${row}`);
  const name = new RegExp(`^copy link to ${row.replace(/\./g, '\\.')}$`, 'i');
  const control = tr.getByRole('button', { name }).or(tr.getByRole('link', { name }));
  const found = await control.count();
  if (found !== 1) {
    const controls = await tr
      .locator('a, button, [role="button"]')
      .evaluateAll((els) =>
        els.map((el) => `${el.outerHTML.slice(0, 160)} (aria-label: ${el.getAttribute('aria-label')})`),
      );
    assert.fail(
      `row ${row}: expected one control named "Copy link to ${row}", found ${found}; the row's controls are:\n  ${controls.join('\n  ')}`,
    );
  }
  // Something else on the clipboard first, so that only the control can make the assertion pass.
  await page.evaluate(() => navigator.clipboard.writeText('before'));
  await tabTo(page, control, 200);
  await page.keyboard.press('Enter');
  const expected = `${site.served.base}${TOOL}#${row}`;
  let copied = '';
  for (let i = 0; i < 20 && copied !== expected; i++) {
    copied = await page.evaluate(() => navigator.clipboard.readText());
    if (copied !== expected) await page.waitForTimeout(100);
  }
  assert.equal(copied, expected, 'Enter on the control puts the full URL of the field on the clipboard');
  // The confirmation it shows (its ::after box, placed from the control) must not cover the field's name.
  const overlap = await tr.locator('a.field-link').evaluate((link) => {
    const tip = getComputedStyle(link, '::after');
    if (tip.content === 'none' || tip.content === 'normal') return 'no confirmation shown';
    const at = link.getBoundingClientRect();
    const box = {
      left: at.left + parseFloat(tip.left),
      top: at.top + parseFloat(tip.top),
      width: parseFloat(tip.width),
      height: parseFloat(tip.height),
    };
    const name = link.parentElement!.querySelector('code')!.getBoundingClientRect();
    const apart =
      box.left + box.width <= name.left ||
      name.right <= box.left ||
      box.top + box.height <= name.top ||
      name.bottom <= box.top;
    return apart ? '' : `confirmation ${JSON.stringify(box)} covers the name ${JSON.stringify(name)}`;
  });
  assert.equal(overlap, '');
});
