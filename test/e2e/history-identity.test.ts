/**
 * Union variants by identity and renames, on the real build: what a reader of
 * a link sees. Expectations come from the committed history file
 * (content/history/<agent>.sdk.json) and the tool's own declaration, never
 * from the code that renders the page; a case the history does not hold is
 * skipped with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../helpers/browser.ts';
import { openPage, servedSite } from '../helpers/pages.ts';

interface Event {
  release: string;
  tool: string;
  kind: string;
  side?: string;
  field?: string;
  formerField?: string;
  from?: string;
  to?: string;
}
interface History {
  agent: string;
  releases: { version: string; cliVersion?: string }[];
  events: Event[];
}

const history = JSON.parse(readFileSync(join(ROOT, 'content/history/claude-code.sdk.json'), 'utf8')) as History;
const cli = (version: string) => history.releases.find((r) => r.version === version)?.cliVersion ?? version;

const site = servedSite();

async function open(path: string): Promise<Page> {
  const context = await site.view({ width: 1280, height: 900 });
  return openPage(context, path);
}

test('a result variant known by its own member: its stable link lands on its row, which has its badge and its positional id', async (t) => {
  // The variant whose own member is `asset_upload`, by the history's stable anchor.
  const added = history.events.find(
    (e) => e.tool === 'Artifact' && e.kind === 'field-added' && e.side === 'output' && e.field === ':+asset_upload',
  );
  if (!added) return t.skip('the history records no addition of the asset_upload variant of Artifact');
  const page = await open('/claude-code/artifact/#output:+asset_upload');
  const row = page.locator('tr:has(> td[id="output:+asset_upload"])');
  assert.equal(await row.count(), 1, 'one row carries the stable anchor');
  // The row keeps a positional id, the number of its variant in the declaration as shipped.
  const id = await row.getAttribute('id');
  assert.match(id ?? '', /^output:\d+$/);
  const source = readFileSync(join(ROOT, 'content/tools/claude-code/artifact.json'), 'utf8');
  const declared = (JSON.parse(source) as { output: { source: string } }).output.source;
  // Variants of the top-level union start with `  | {` at two spaces of indent.
  const variants = declared.split(/\n  \| /).slice(1);
  const position = variants.findIndex((v) => /^\{[\s\S]*?\n {6}asset_upload:/.test(v)) + 1;
  assert.equal(id, `output:${position}`, "the positional id is the variant's place in the declaration");
  // The link lands on it: the row is the target, highlighted and in view.
  const targeted = await row.evaluate((tr) => tr.matches(':has(> td:target)'));
  assert.ok(targeted, 'the first cell is the :target');
  const box = await row.boundingBox();
  assert.ok(box && box.y >= 0 && box.y < 900, `row in view (y=${box?.y})`);
  // Its badge names the release that added the variant, and leads to the note of that addition.
  const badge = row.locator('a.since');
  assert.equal((await badge.textContent())?.trim(), `since ${cli(added.release)}`);
  const note = (await badge.getAttribute('href'))!;
  assert.equal(note, '#since-output:+asset_upload');
  assert.equal(await page.locator(`li[id="${note.slice(1)}"]`).count(), 1, 'the note exists');
});

test('a renamed tool: its old name redirects to its page, and the changelog line links both names', async (t) => {
  const renamed = history.events.find((e) => e.kind === 'renamed' && e.field === undefined && e.from && e.to);
  if (!renamed) return t.skip('the history records no renamed tool');
  const page = await open(`/claude-code/${renamed.from!.toLowerCase()}/`);
  await page.waitForURL(new RegExp(`/claude-code/${renamed.to!.toLowerCase()}/$`), { timeout: 5_000 });
  const log = await open('/claude-code/changelog/');
  // The changelog may be cut into parts: follow the index to the part that holds the release.
  const release = cli(renamed.release);
  const where = log.locator(`[id="${release}"]`);
  const href = await where
    .evaluate((el) => (el instanceof HTMLAnchorElement ? el.href : (el.querySelector('a')?.href ?? location.href)))
    .catch(() => log.url());
  const part = await open(new URL(href).pathname + `#${release}`);
  const section = part.locator(`section:has([id="${release}"])`);
  const line = section.locator('li', { hasText: `renamed: ${renamed.from} → ${renamed.to}` }).last();
  assert.equal(await line.count(), 1, `a line "renamed: ${renamed.from} → ${renamed.to}" in ${release}`);
  const links = await line
    .locator('a')
    .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  assert.ok(links.includes(`/claude-code/${renamed.from!.toLowerCase()}/`), `links the old name: ${links.join(', ')}`);
  assert.ok(links.includes(`/claude-code/${renamed.to!.toLowerCase()}/`), `links the new name: ${links.join(', ')}`);
});
