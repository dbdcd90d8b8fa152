/**
 * "Check a payload" on tool pages, in Chromium over the built site: the form
 * opens from the keyboard, loads its logic, its worker and the tool's
 * precompiled validator only then (no script of it before), and gives Ajv's
 * verdict with errors that link to the field's row; a hook payload's tool_input
 * is checked, or compared with the recorded hook form where the tool's hooks
 * get their own, and a tool_name of another tool fails. How fast a payload of
 * megabytes is answered is payload-check-timing.test.ts, which runs alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';
import { servedSite } from '../helpers/pages.ts';
import { check, follow, isChecker, open, openChecker, scriptBytes } from '../helpers/payload-check.ts';

const site = servedSite();

test('Claude Code Bash: no checker script before opening; errors link to the model-facing row; valid input and a PreToolUse payload pass', async () => {
  const opened = await open(site, '/claude-code/bash/');
  const { page } = opened;
  const heading = page.locator('h3#check-payload');
  assert.equal(await heading.textContent(), 'Check a payload');
  assert.ok(await page.locator('.right-sidebar a[href="#check-payload"]').count(), '"On this page" lists the section');
  // Without opening, the section names the schema file.
  assert.equal(await page.locator('section.payload-check > p a[href="model-input.schema.json"]').count(), 1);

  await page.waitForLoadState('networkidle');
  const initial = await scriptBytes(opened);
  assert.deepEqual(
    initial.loaded.filter((s) => isChecker(s.path)),
    [],
    'nothing of the checker loads before the form is opened',
  );

  await openChecker(page);
  const bad = await check(page, '{"command": 5}');
  assert.match(bad.text, /^Not valid against the model-facing schema of Bash \(Claude Code [\d.]+\): 1 error\./);
  assert.match(bad.text, /command must be string, not integer \(5\)/);
  assert.deepEqual(bad.links, ['#model-input.command']);

  const opened_ = await scriptBytes(opened);
  const added = opened_.loaded.filter((s) => isChecker(s.path));
  // The form, its worker, the rules and words, the error → row mapping it shares with the build (error-rows), the
  // anchor scheme, the validator,
  // and the hook schema's validator (Bash has recorded hook payloads).
  assert.deepEqual(added.map((s) => s.path).sort(), [
    '/claude-code/bash/validate-hooks.js',
    '/claude-code/bash/validate-model-input.js',
    '/payload-check/lib/check/error-rows.js',
    '/payload-check/lib/check/payload-check-ui.js',
    '/payload-check/lib/shapes/anchors.js',
    '/payload-check/scripts/payload-check-worker.js',
    '/payload-check/scripts/payload-check.js',
  ]);
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
  assert.match(hook.text, /PreToolUse hook payload with tool_name Bash: only its tool_input was checked/);
  assert.match(
    hook.text,
    /The tool_input of the \d+ hook payloads recorded for Bash \(Claude Code [\d.]+\) is the model.s input/,
  );

  // A hook payload of another tool fails, naming both, even with a tool_input this tool would take.
  const hookBad = await check(
    page,
    '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}}',
  );
  assert.match(hookBad.text, /^Not a hook payload of Bash: its tool_name is Read, not Bash/);
  assert.ok(hookBad.links.includes('#model-input.command'), hookBad.links.join(' '));
  assert.ok(await page.locator('details[data-payload-check] .payload-check-headline.is-invalid').count());
  const otherName = await check(
    page,
    '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"command":"ls"}}',
  );
  assert.match(otherName.text, /^Not a hook payload of Bash: its tool_name is Read/);
  assert.match(otherName.text, /checked against the model-facing schema of Bash .* anyway: valid/);

  const notJson = await check(page, '{"command": ');
  assert.match(notJson.text, /^Not JSON: /);

  // A byte-order mark before valid JSON is skipped; a number out of range is refused, naming its field.
  const marked = await check(page, '\uFEFF{"command": "ls"}');
  assert.match(marked.text, /^Valid against the model-facing schema of Bash/);
  assert.match(marked.text, /byte-order mark/);
  const huge = await check(page, '{"command": "ls", "timeout": 1e400}');
  assert.match(huge.text, /^Not valid: a number in it is too large for a 64-bit float/);
  assert.match(huge.text, /timeout is a number too large .* reads it as Infinity/);
  assert.deepEqual(huge.links, ['#model-input.timeout']);
});

test('Codex exec_command: checked against its input schema, the error links to #input.cmd, and the button works from the keyboard', async () => {
  const { page } = await open(site, '/codex/exec_command/');
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
  await page.waitForFunction(() =>
    /^Valid/.test(document.querySelector('details[data-payload-check] [role="status"]')!.textContent ?? ''),
  );
});

/** The PreToolUse hook payloads recorded for `agent`'s calls of `tool` (content/payloads/). */
function recordedPreToolUse(agent: string, tool: string): Record<string, unknown>[] {
  const dir = join(ROOT, 'content/payloads', agent);
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${tool}.`))
    .flatMap(
      (f) =>
        (
          JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
            calls: { tool: string; hooks: Record<string, unknown>[] }[];
          }
        ).calls,
    )
    .filter((c) => c.tool === tool)
    .flatMap((c) => c.hooks.filter((h) => h['hook_event_name'] === 'PreToolUse'));
}

test('Codex exec_command: its recorded PreToolUse payload (Bash, tool_input.command) is recognised and compared with the recorded hook form', async () => {
  const [recorded] = recordedPreToolUse('codex', 'exec_command');
  assert.ok(recorded, 'a recorded PreToolUse payload of exec_command');
  const hookName = String(recorded['tool_name']);
  const { page } = await open(site, '/codex/exec_command/');
  await openChecker(page);
  const real = await check(page, JSON.stringify(recorded, null, 2));
  assert.match(
    real.text,
    new RegExp(`^Matches the hook form recorded for exec_command \\(tool_name ${hookName}\\)\\.`),
  );
  assert.match(real.text, /not checked against the input schema of exec_command/);
  assert.doesNotMatch(real.text, /cmd is required/);
  // The model's input form in a hook payload is not what the hooks receive.
  const modelForm = await check(page, JSON.stringify({ ...recorded, tool_input: { cmd: 'ls' } }));
  assert.match(modelForm.text, /^Does not match the hook form recorded for exec_command: 2 differences\./);
  assert.ok(
    modelForm.links.every((l) => l === '#examples'),
    modelForm.links.join(' '),
  );
  assert.equal(await follow(page, '#examples'), 'examples');
  // Another tool's name fails, naming both.
  const other = await check(page, JSON.stringify({ ...recorded, tool_name: 'apply_patch' }));
  assert.match(
    other.text,
    new RegExp(
      `^Not a hook payload of exec_command: its tool_name is apply_patch, and the \\d+ hook payloads recorded for exec_command \\(Codex CLI [\\d.]+\\) name it ${hookName}\\.`,
    ),
  );
});

test('OpenCode question: a nested error links to the row of the nested field', async () => {
  const { page } = await open(site, '/opencode/question/');
  await openChecker(page);
  const bad = await check(
    page,
    '{"questions":[{"question":"Which?","header":"Pick","options":[{"label":"a","description":"A"},{"label":2,"description":"B"}]}]}',
  );
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
      const { page } = await open(site, '/claude-code/askuserquestion/', width, theme);
      await openChecker(page);
      for (const json of [
        '{"questions":[{"question":"Which one?","header":"Pick","options":[{"label":5}],"multiSelect":"no"}],"extra":true}',
        '{"questions":[]}',
        `{"hook_event_name":"PreToolUse","tool_name":"${'AVeryLongToolNameWithoutBreaks'.repeat(4)}","tool_input":{"${'x'.repeat(120)}":1e400}}`,
      ]) {
        await check(page, json);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
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
