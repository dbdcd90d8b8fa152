import { chromium } from 'playwright-core';
import { serveStatic } from './scripts/lib/bench/serve.ts';
const [dir, path, width, theme, count] = process.argv.slice(2) as [string, string, string, string, string];
const server = await serveStatic(dir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 1000 } });
await page.addInitScript((t) => localStorage.setItem('starlight-theme', t), theme);
await page.goto(`${server.base}${path}`);
const h = await page.evaluate(() => document.documentElement.scrollHeight);
for (let i = 0; i < Number(count) && i * 1400 < h; i++) {
  await page.screenshot({ path: `/tmp/hp-shots/clip-${i}.png`, fullPage: true, clip: { x: 0, y: i * 1400, width: Number(width), height: Math.min(1400, h - i * 1400) } });
}
console.log('height', h);
await browser.close(); await server.close();
