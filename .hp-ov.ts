import { chromium } from 'playwright-core';
import { serveStatic } from './scripts/lib/bench/serve.ts';
const server = await serveStatic('/tmp/hp-dist-new');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 375, height: 900 } });
await page.goto(`${server.base}${process.argv[2]}`);
console.log(await page.evaluate(() => [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > 380).slice(0, 8).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)} ${(e.textContent ?? '').slice(0, 60)}`)));
await browser.close(); await server.close();
