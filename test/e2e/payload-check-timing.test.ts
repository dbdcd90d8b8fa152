/**
 * "Check a payload" on a tool page answers a payload of megabytes within a second without a long task on the page, and
 * drops a check still running for the next one. It measures time, so `npm test` runs it alone (MEASURES_TIME in
 * scripts/test.ts); what the checker says is payload-check.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servedSite } from '../helpers/pages.ts';
import { check, open, openChecker } from '../helpers/payload-check.ts';

const site = servedSite();

/**
 * Puts `size` in the box from inside the page (not through the keyboard), lets the page settle,
 * then checks it and measures, in the page: the time until the verdict is shown, and every long
 * task (PerformanceObserver 'longtask': a task of the page's main thread over 50 ms) from the
 * submit until 300 ms after the verdict.
 */
async function timedCheck(
  page: Page,
  keys: number,
  prefix: string,
): Promise<{ bytes: number; elapsed: number; tasks: number[]; text: string }> {
  const bytes = await page.evaluate(
    ({ keys, prefix }) => {
      const parts = ['"cmd":"ls"'];
      for (let i = 0; i < keys; i++) parts.push(`"${prefix}${String(i).padStart(6, '0')}":${i}`);
      const text = `{${parts.join(',')}}`;
      document.querySelector<HTMLTextAreaElement>('#payload-check-text')!.value = text;
      return text.length;
    },
    { keys, prefix },
  );
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 500)))),
  );
  const measured = await page.evaluate(
    () =>
      new Promise<{ elapsed: number; tasks: number[]; text: string }>((resolve) => {
        const tasks: number[] = [];
        const longTasks = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) tasks.push(entry.duration);
        });
        longTasks.observe({ type: 'longtask' });
        const status = document.querySelector('details[data-payload-check] [role="status"]')!;
        const started = performance.now();
        // The click marks the region busy at once; the answer is in when the mark goes.
        const changes = new MutationObserver(() => {
          if (status.hasAttribute('aria-busy')) return;
          const elapsed = performance.now() - started;
          changes.disconnect();
          setTimeout(() => {
            longTasks.disconnect();
            resolve({ elapsed, tasks, text: status.textContent ?? '' });
          }, 300);
        });
        changes.observe(status, { childList: true, subtree: true, attributes: true });
        document.querySelector<HTMLButtonElement>('details[data-payload-check] form button')!.click();
        if (!status.hasAttribute('aria-busy')) throw new Error('the click did not start a check');
      }),
  );
  return { bytes, ...measured };
}

/**
 * What this machine needs, at this moment, for JSON.parse of the text in the box in a bare worker
 * (the floor under any answer): the time to answer is judged against it when the machine is so
 * loaded (shared cores) that the floor itself is most of a second.
 */
async function parseFloor(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const text = document.querySelector<HTMLTextAreaElement>('#payload-check-text')!.value;
    const worker = new Worker(
      URL.createObjectURL(
        new Blob(
          [
            'onmessage = (e) => { const t = performance.now(); JSON.parse(e.data); postMessage(performance.now() - t); };',
          ],
          { type: 'text/javascript' },
        ),
      ),
    );
    const took = await new Promise<number>((resolve) => {
      worker.onmessage = (e: MessageEvent<number>) => resolve(e.data);
      worker.postMessage(text);
    });
    worker.terminate();
    return took;
  });
}

test('a 6.6 MB payload with 400,000 keys is answered in under a second, and no task blocks the page for more than 100 ms', async () => {
  const { page } = await open(site, '/codex/exec_command/');
  await openChecker(page);
  assert.match((await check(page, '{"cmd": "ls"}')).text, /^Valid/);
  // The cores are shared: the best of up to three runs is the one judged, every run's long tasks count.
  const runs: Awaited<ReturnType<typeof timedCheck>>[] = [];
  let floor = Infinity;
  for (let i = 0; i < 3 && !runs.some((r) => r.elapsed < 1000); i++) {
    runs.push(await timedCheck(page, 400_000, 'k'));
    floor = Math.min(floor, await parseFloor(page));
  }
  const big = runs.reduce((a, b) => (b.elapsed < a.elapsed ? b : a));
  const tasks = runs.flatMap((r) => r.tasks);
  console.log(
    `# ${(big.bytes / 1e6).toFixed(1)} MB, 400,000 keys: answered in ${runs.map((r) => `${Math.round(r.elapsed)} ms`).join(', then ')} (JSON.parse alone in a worker: ${Math.round(floor)} ms); long tasks: ${tasks.map((t) => `${Math.round(t)} ms`).join(', ') || 'none'}`,
  );
  assert.ok(big.bytes > 6_500_000, `${big.bytes} bytes`);
  assert.match(
    big.text,
    /^Not valid against the input schema of exec_command \(Codex CLI [\d.]+\): stopped at the first error\./,
  );
  assert.match(big.text, /k000000 is not a field the schema allows/);
  // Under a second; on a machine so loaded that parsing alone takes 700 ms or more, within 300 ms of that.
  assert.ok(
    big.elapsed < Math.max(1000, floor + 300),
    `answered in ${Math.round(big.elapsed)} ms, JSON.parse alone ${Math.round(floor)} ms`,
  );
  assert.ok(
    tasks.every((t) => t <= 100),
    `long tasks: ${tasks.join(', ')} ms`,
  );

  // Just under the size up to which every error is listed: all counted, 50 listed.
  const listed = await timedCheck(page, 60_000, 'u');
  console.log(
    `# ${(listed.bytes / 1e6).toFixed(2)} MB, 60,000 keys, every error listed: answered in ${Math.round(listed.elapsed)} ms; long tasks: ${listed.tasks.map((t) => `${Math.round(t)} ms`).join(', ') || 'none'}`,
  );
  assert.ok(listed.bytes < 1_000_000, `${listed.bytes} bytes`);
  assert.match(listed.text, /: 60,000 errors\./);
  assert.match(listed.text, /… and 59,950 more/);
  assert.equal(await page.locator('details[data-payload-check] [role="status"] li a').count(), 50);
  assert.ok(listed.elapsed < 1000, `answered in ${Math.round(listed.elapsed)} ms`);
  assert.ok(
    listed.tasks.every((t) => t <= 100),
    `long tasks: ${listed.tasks.join(', ')} ms`,
  );

  // A check still running is dropped for the next one.
  const box = page.locator('#payload-check-text');
  await page.evaluate(() => {
    const parts = Array.from({ length: 400_000 }, (_, i) => `"k${i}":${i}`);
    document.querySelector<HTMLTextAreaElement>('#payload-check-text')!.value = `{${parts.join(',')}}`;
    document.querySelector<HTMLButtonElement>('details[data-payload-check] form button')!.click();
  });
  assert.match(
    (await check(page, '{"cmd": 1}')).text,
    /^Not valid against the input schema of exec_command \(Codex CLI [\d.]+\): 1 error\./,
  );
  await page.waitForTimeout(1500);
  assert.match(
    (await page.locator('details[data-payload-check] [role="status"]').innerText()).trim(),
    /: 1 error\./,
    'the dropped check does not overwrite the answer',
  );
  assert.equal(await box.inputValue(), '{"cmd": 1}');
});
