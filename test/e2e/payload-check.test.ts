/**
 * "Check a payload" on tool pages, in Chromium over the built site: the form
 * opens from the keyboard, loads its logic and the tool's precompiled
 * validator only then (no script of it before), and gives Ajv's verdict with
 * errors that link to the field's row; a hook payload's tool_input is checked.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { newView, openPage, type Theme } from '../helpers/pages.ts';

let served: Served;
const contexts: BrowserContext[] = [];

before(async () => {
  served = await serveAndLaunch();
});
after(async () => {
  for (const c of contexts) await c.close();
  await served?.close();
});

interface Opened {
  page: Page;
  /** Every script response since the page was opened: path and decoded bytes. */
  scripts: Promise<{ path: string; bytes: number }>[];
}

async function open(path: string, width = 1280, theme?: Theme): Promise<Opened> {
  const context = await newView(served.browser, served.base, theme ? { width, height: 900, theme } : { width, height: 900 });
  contexts.push(context);
  const scripts: Opened['scripts'] = [];
  context.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.body().then((body) => ({ path: new URL(response.url()).pathname, bytes: body.byteLength })));
  });
  return { page: await openPage(context, path, theme), scripts };
}

/** Bytes of the page's inline scripts plus those of every script response so far. */
async function scriptBytes(opened: Opened): Promise<{ inline: number; loaded: { path: string; bytes: number }[] }> {
  const inline = await opened.page.$$eval('script:not([src])', (ss) => ss.reduce((n, s) => n + new TextEncoder().encode(s.textContent ?? '').length, 0));
  return { inline, loaded: await Promise.all(opened.scripts) };
}

const isChecker = (path: string) => path.startsWith('/payload-check/') || /\/validate-[a-z-]+\.js$/.test(path);

/** Opens the checker with the keyboard (focus on its summary, Enter) and waits for the form. */
async function openChecker(page: Page): Promise<void> {
  const summary = page.locator('details[data-payload-check] > summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.locator('details[data-payload-check] form').waitFor({ state: 'visible', timeout: 10_000 });
}

/** Replaces the text, checks it with Control+Enter, and returns the verdict region once it has changed. */
async function check(page: Page, json: string): Promise<{ text: string; links: string[] }> {
  const box = page.locator('#payload-check-text');
  const status = page.locator('details[data-payload-check] [role="status"]');
  const before = await status.innerHTML();
  await box.fill('');
  await box.focus();
  await page.keyboard.insertText(json);
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction((old) => document.querySelector('details[data-payload-check] [role="status"]')!.innerHTML !== old, before, { timeout: 10_000 });
  return {
    text: (await status.innerText()).replace(/\s+/g, ' ').trim(),
    links: await status.locator('a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).hash)),
  };
}

/** Follows a verdict link from the keyboard and returns the id the page then targets. */
async function follow(page: Page, hash: string): Promise<string | undefined> {
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

test('Claude Code Bash: no checker script before opening; errors link to the model-facing row; valid input and a PreToolUse payload pass', async () => {
  const opened = await open('/claude-code/bash/');
  const { page } = opened;
  const heading = page.locator('h3#check-payload');
  assert.equal(await heading.textContent(), 'Check a payload');
  assert.ok(await page.locator('.right-sidebar a[href="#check-payload"]').count(), '"On this page" lists the section');
  // Without opening, the section names the schema file.
  assert.equal(await page.locator('section.payload-check > p a[href="model-input.schema.json"]').count(), 1);

  await page.waitForLoadState('networkidle');
  const initial = await scriptBytes(opened);
  assert.deepEqual(initial.loaded.filter((s) => isChecker(s.path)), [], 'nothing of the checker loads before the form is opened');

  await openChecker(page);
  const bad = await check(page, '{"command": 5}');
  assert.match(bad.text, /^Not valid against the model-facing schema of Bash \(Claude Code [\d.]+\): 1 error\./);
  assert.match(bad.text, /command must be string, not integer \(5\)/);
  assert.deepEqual(bad.links, ['#model-input.command']);

  const opened_ = await scriptBytes(opened);
  const added = opened_.loaded.filter((s) => isChecker(s.path));
  // The form, the error → row mapping it shares with the build (error-rows), the anchor scheme, and the validator.
  assert.deepEqual(
    added.map((s) => s.path).sort(),
    [
      '/claude-code/bash/validate-model-input.js',
      '/payload-check/lib/anchors.js',
      '/payload-check/lib/error-rows.js',
      '/payload-check/lib/payload-check-ui.js',
      '/payload-check/scripts/payload-check.js',
    ],
  );
  assert.equal(opened_.inline, initial.inline, 'opening adds no inline script');
  console.log(
    `# /claude-code/bash/: ${initial.inline} B inline + ${initial.loaded.reduce((n, s) => n + s.bytes, 0)} B loaded before opening; opening loads ${added.map((s) => `${s.path} ${s.bytes} B`).join(', ')}`,
  );

  assert.equal(await follow(page, '#model-input.command'), 'model-input.command');

  const good = await check(page, '{"command": "ls -la", "description": "List files"}');
  assert.match(good.text, /^Valid against the model-facing schema of Bash/);
  assert.deepEqual(good.links, []);

  const hook = await check(page, '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}');
  assert.match(hook.text, /^Valid against/);
  assert.match(hook.text, /PreToolUse hook payload: only its tool_input was checked/);

  const hookBad = await check(page, '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}}');
  assert.match(hookBad.text, /^Not valid/);
  assert.match(hookBad.text, /tool_name is Read, not Bash/);
  assert.ok(hookBad.links.includes('#model-input.command'), hookBad.links.join(' '));

  const notJson = await check(page, '{"command": ');
  assert.match(notJson.text, /^Not JSON: /);
});

test('Codex exec_command: checked against its input schema, the error links to #input.cmd, and the button works from the keyboard', async () => {
  const { page } = await open('/codex/exec_command/');
  await openChecker(page);
  const bad = await check(page, '{"cmd": 5, "unknown": true}');
  assert.match(bad.text, /^Not valid against the input schema of exec_command \(Codex CLI [\d.]+\): 2 errors\./);
  assert.ok(bad.links.includes('#input.cmd'), bad.links.join(' '));
  // The unknown field is not a row: the link goes to the table's heading.
  assert.ok(bad.links.includes('#input'), bad.links.join(' '));
  assert.equal(await follow(page, '#input.cmd'), 'input.cmd');

  // Tab from the text box reaches the Check button; Enter on it checks.
  const box = page.locator('#payload-check-text');
  await box.fill('{"cmd": "ls"}');
  await box.focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Check');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^Valid/.test(document.querySelector('details[data-payload-check] [role="status"]')!.textContent ?? ''));
});

test('OpenCode question: a nested error links to the row of the nested field', async () => {
  const { page } = await open('/opencode/question/');
  await openChecker(page);
  const bad = await check(page, '{"questions":[{"question":"Which?","header":"Pick","options":[{"label":"a","description":"A"},{"label":2,"description":"B"}]}]}');
  assert.match(bad.text, /questions\[0\]\.options\[1\]\.label must be string, not integer/);
  assert.deepEqual(bad.links, ['#input.questions.options.label']);
  assert.equal(await follow(page, '#input.questions.options.label'), 'input.questions.options.label');
  const missing = await check(page, '{"questions":[{"question":"Which?","options":[]}]}');
  assert.match(missing.text, /questions\[0\]\.header is required/);
  assert.deepEqual(missing.links, ['#input.questions.header']);
});

test('with a verdict shown, the section passes axe in both themes and does not widen a 375 px screen', async () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [375, 1280]) {
      const { page } = await open('/claude-code/askuserquestion/', width, theme);
      await openChecker(page);
      for (const json of ['{"questions":[{"question":"Which one?","header":"Pick","options":[{"label":5}],"multiSelect":"no"}],"extra":true}', '{"questions":[]}']) {
        await check(page, json);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.equal(overflow, 0, `${theme} ${width}px: the page is ${overflow} px too wide`);
        if (width !== 1280) continue;
        await page.addScriptTag({ path: join(ROOT, 'node_modules/axe-core/axe.min.js') });
        const violations = await page.evaluate(async () => {
          type Results = { violations: { id: string; nodes: { target: unknown[] }[] }[] };
          const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<Results> } }).axe;
          const results = await axe.run({ include: [['section.payload-check']] }, { resultTypes: ['violations'] });
          return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        });
        assert.deepEqual(violations, [], `${theme}: ${json}`);
      }
    }
  }
});
