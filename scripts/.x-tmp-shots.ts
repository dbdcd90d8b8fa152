import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './lib/chromium.ts';
import { serveStatic } from './lib/bench/serve.ts';
const paths = process.argv.slice(2);
const server = await serveStatic('dist');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
mkdirSync('.tmp-shots', { recursive: true });
for (const path of paths) {
  for (const width of [375, 1280]) for (const scheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
    await page.addInitScript((s) => localStorage.setItem('starlight-theme', s), scheme);
    await page.goto(server.base + path, { waitUntil: 'load' });
    if (process.env.TEXT) {
      const hit = page.getByText(process.env.TEXT, { exact: false }).first();
      if (await hit.count()) await hit.scrollIntoViewIfNeeded();
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const name = `.tmp-shots/${path.replace(/[^a-z0-9]+/gi, '_')}-${width}-${scheme}.png`;
    await page.screenshot({ path: name, fullPage: false });
    console.log(name, 'overflow', overflow);
    await page.close();
  }
}
await browser.close();
await server.close();
