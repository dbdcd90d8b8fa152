import { chromium } from 'playwright-core';
import { serveStatic } from './scripts/lib/bench/serve.ts';
const dir = process.argv[2]!;
const pages = process.argv.slice(3);
const server = await serveStatic(dir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const path of pages) {
  for (const width of [375, 1280]) {
    for (const theme of ['light', 'dark']) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.addInitScript((t) => localStorage.setItem('starlight-theme', t), theme);
      await page.goto(`${server.base}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const name = `${path.replace(/\//g, '_')}-${width}-${theme}.png`;
      await page.screenshot({ path: `/tmp/hp-shots/${name}`, fullPage: true });
      console.log(name, 'overflow', overflow);
      await page.close();
    }
  }
}
await browser.close();
await server.close();
