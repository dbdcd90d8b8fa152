/**
 * Text from captures and content never becomes markup or code. The fixture
 * content gets hostile text in every field a page shows — a captured tool's
 * name and description, field names, enum values and defaults, a job's title,
 * a removed tool's name in history, editorial prose, configuration labels — each
 * carrying a script that would set `window.__pwned` to a number naming where it
 * came from. The real build must succeed, and in Chromium every built page (and
 * every generated validator module) runs none of it, shows it as text, and has
 * no duplicate id. llms.txt and llms-full.txt, rendered by a CommonMark reader with raw
 * HTML let through and opened in Chromium, show it as text too, with no link off the site.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { parse } from 'parse5';
import { micromark } from 'micromark';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/system/chromium.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/system/static-server.ts';
import { ensureChromium, ROOT, runBuild } from '../helpers/browser.ts';
import { editJson } from '../helpers/files.ts';
import { textId } from '../../src/lib/core/text-id.ts';

/** Markup that runs as soon as it is parsed as HTML, in a title, a text node or an attribute. */
const hostile = (n: number): string =>
  `</title></code>"'><script>window.__pwned=${n}</script><img src=x onerror="window.__pwned=${n}">`;
const TOOL_NAME = `x</title><script>window.__pwned=1</script>`;
const CODEX_TOOL = `y"'><svg onload=window.__pwned=2>`;
const REMOVED_TOOL = `z</title><script>window.__pwned=3</script>`;
const FIELD_NAME = `a<img src=x onerror=window.__pwned=4>`;

function plantHostileText(content: string): void {
  editJson(join(content, 'captures/claude-code/print.json'), (c) => {
    c.body.tools.push({
      name: TOOL_NAME,
      description: `Does things ${hostile(10)}`,
      input_schema: {
        type: 'object',
        properties: {
          [FIELD_NAME]: { type: 'string', description: hostile(11), default: hostile(12) },
          mode: { enum: [hostile(13), 'plain'], description: `Mode ${hostile(14)}` },
        },
        required: [FIELD_NAME],
      },
    });
  });
  editJson(join(content, 'captures/codex/default.json'), (c) => {
    c.body.tools[0].description = `Runs a command ${hostile(20)}`;
    // Fields named like Object.prototype members (a generator that calls `schema.hasOwnProperty(…)` broke every build
    // on them;
    // `__proto__` is refused by the content check, json-key-stored).
    const shadowing = {
      hasOwnProperty: { type: 'string' },
      constructor: { type: 'number' },
      toString: { type: 'boolean' },
    };
    c.body.tools.push({
      type: 'function',
      name: CODEX_TOOL,
      description: hostile(21),
      strict: false,
      parameters: {
        type: 'object',
        properties: { q: { type: 'string', description: hostile(22) }, ...shadowing },
        required: ['hasOwnProperty'],
      },
    });
  });
  editJson(join(content, 'capture-matrix.json'), (m) => {
    m.agents.codex.configurations[0].label = `<script>window.__pwned=30</script>`; // labels hold 60 characters
    m.agents.codex.configurations[0].description = hostile(31);
  });
  editJson(join(content, 'jobs.json'), (j) => {
    j.jobs[0].title = `Read <script>window.__pwned=40</script>`;
    j.jobs[0].description = hostile(41);
  });
  editJson(join(content, 'history/claude-code.sdk.json'), (h) => {
    h.events.push({ release: '1.0.3', previous: '1.0.1', tool: REMOVED_TOOL, kind: 'tool-removed' });
    h.events[0].to = hostile(50);
    // A tool's description changed, word for word on the changelog and in "Compare two releases".
    h.events.push({
      release: '1.0.3',
      previous: '1.0.1',
      tool: 'Read',
      kind: 'description-changed',
      fromText: textId(hostile(80)),
      toText: textId(`${hostile(80)} ${hostile(81)}`),
    });
    h.texts = {
      [textId(hostile(80))]: hostile(80),
      [textId(`${hostile(80)} ${hostile(81)}`)]: `${hostile(80)} ${hostile(81)}`,
    };
  });
  editJson(join(content, 'editorial/claude-code/shell.json'), (e) => {
    e.summary = `Runs a command ${hostile(60)} [click](javascript:window.__pwned=63) <javascript:window.__pwned=64> # not a heading`;
    e.lifecycle = hostile(61);
    e.availability.prose = hostile(62);
  });
  editJson(join(content, 'agents/claude-code.json'), (a) => {
    a.sources[0].role = hostile(70);
  });
}

/** Every built HTML page, as a URL path. */
function pagesOf(out: string): string[] {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html'))
        pages.push(
          '/' +
            relative(out, path)
              .split(sep)
              .join('/')
              .replace(/(^|\/)index\.html$/, '$1'),
        );
    }
  };
  walk(out);
  return pages.sort();
}

/** Script elements and event-handler attributes of a page, as an HTML parser builds them. */
function scriptsAndHandlers(html: string): string[] {
  const found: string[] = [];
  const walk = (node: any): void => {
    if (node.tagName === 'script') found.push('script');
    for (const attr of node.attrs ?? []) if (/^on/i.test(attr.name)) found.push(`${node.tagName} ${attr.name}`);
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parse(html));
  return found;
}

let dir: string;
let out: string;
let server: StaticServer;
let browser: Browser;

before(() => {
  ensureChromium();
  dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const content = join(dir, 'content');
  cpSync(join(ROOT, 'test/fixtures/content'), content, { recursive: true });
  plantHostileText(content);
  out = join(dir, 'out');
  const result = runBuild(['--out', out], { CONTENT_DIR: content });
  assert.equal(result.status, 0, `the hostile fixture must build:\n${result.stdout}\n${result.stderr}`);
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a page ran and grew from the planted text. */
async function inspect(page: Page) {
  return page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    const handlers = [...document.querySelectorAll('*')].flatMap((e) =>
      [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`),
    );
    return {
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      duplicateIds: ids.filter((id, i) => ids.indexOf(id) !== i),
      titles: document.querySelectorAll('title').length,
      title: document.title,
      plantedScripts: [...document.querySelectorAll('script')].filter((s) => (s.textContent ?? '').includes('__pwned'))
        .length,
      plantedImages: document.querySelectorAll('img[src="x"], svg[onload]').length,
      handlers,
      text: document.body.textContent ?? '',
    };
  });
}

test('the hostile fixture builds, and no page runs, renders or duplicates anything from the planted text', async () => {
  server = await serveStatic(out);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const pages = pagesOf(out);
  const toolPage = pages.find((p) => p.startsWith('/claude-code/x-title'));
  assert.ok(toolPage, `the captured tool named ${JSON.stringify(TOOL_NAME)} has a page (pages: ${pages.join(' ')})`);
  assert.ok(
    pages.some((p) => p.startsWith('/claude-code/z-title')),
    'the removed tool from history has a page',
  );
  const codexPage = pages.find((p) => p.startsWith('/codex/y-svg'));
  assert.ok(codexPage, 'the Codex tool has a page');
  // Its declaration (Codex's are generated from the schema) names each field under its own name.
  const declaration = readFileSync(join(out, codexPage.replace(/^\//, ''), 'input.d.ts'), 'utf8');
  for (const field of ['hasOwnProperty: string;', 'constructor?: number;', 'toString?: boolean;'])
    assert.ok(declaration.includes(field), `${field} in ${declaration}`);
  for (const path of pages) {
    const html = readFileSync(join(out, path.replace(/\/$/, '/index.html').replace(/^\//, '')), 'utf8');
    if (/http-equiv="refresh"/i.test(html)) {
      // An alias page navigates away at once: its markup is checked as parsed, without running it.
      assert.deepEqual(scriptsAndHandlers(html), [], `${path}: redirect page markup`);
      continue;
    }
    await page.goto(`${server.base}${path}`, { waitUntil: 'load' });
    const seen = await inspect(page);
    assert.equal(seen.pwned, undefined, `${path}: planted script ran (window.__pwned = ${String(seen.pwned)})`);
    assert.deepEqual(seen.duplicateIds, [], `${path}: duplicate ids`);
    assert.equal(seen.titles, 1, `${path}: one <title> element`);
    assert.equal(seen.plantedScripts, 0, `${path}: a planted <script> became an element`);
    assert.equal(seen.plantedImages, 0, `${path}: a planted <img>/<svg> became an element`);
    assert.deepEqual(seen.handlers, [], `${path}: elements with event-handler attributes`);
  }
  // The text is shown as written: in the document title, the heading and the body.
  await page.goto(`${server.base}${toolPage}`, { waitUntil: 'load' });
  const tool = await inspect(page);
  assert.ok(tool.title.startsWith(TOOL_NAME), `document title shows the name as text: ${tool.title}`);
  assert.equal(await page.locator('h1').innerText(), TOOL_NAME);
  assert.ok(tool.text.includes(FIELD_NAME), 'the field name is shown as text');
  assert.ok(tool.text.includes(hostile(10)), 'the description is shown as text');
  const job = pages.find((p) => p.startsWith('/jobs/read-file'));
  assert.ok(job);
  await page.goto(`${server.base}${job}`, { waitUntil: 'load' });
  assert.ok((await inspect(page)).title.startsWith('Read <script>window.__pwned=40</script>'));
  assert.deepEqual(dialogs, []);
});

test('a changed description is shown word for word as text, on the changelog and in the comparison, and runs nothing', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.base}/claude-code/changelog/`, { waitUntil: 'load' });
  assert.ok(
    await page.locator('pre.text-diff-body ins', { hasText: hostile(81) }).count(),
    'the added text is an <ins> of text',
  );
  const read = pagesOf(out).find((p) => p === '/claude-code/read/');
  assert.ok(read, 'the fixture has a Read page');
  await page.goto(`${server.base}${read}?compare=sdk:1.0.1..1.0.3`, { waitUntil: 'load' });
  await page.locator('details#compare pre.text-diff-body').waitFor({ timeout: 10_000 });
  const seen = await inspect(page);
  assert.equal(seen.pwned, undefined, 'the comparison ran planted script');
  assert.equal(seen.plantedScripts, 0);
  assert.equal(seen.plantedImages, 0);
  assert.ok(
    (await page.locator('details#compare pre.text-diff-body').innerText()).includes(hostile(81)),
    'shown as text',
  );
  await page.close();
});

test('search results show planted names as text and run nothing', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.base}/claude-code/`, { waitUntil: 'load' });
  await page.waitForFunction(() => customElements.get('site-search') !== undefined, undefined, { timeout: 30_000 });
  await page.click('site-search button[data-open-modal]');
  const input = page.locator('site-search input.pagefind-ui__search-input');
  await input.waitFor({ timeout: 30_000 });
  await input.fill('pwned');
  await page.waitForSelector('.pagefind-ui__result-link', { timeout: 30_000 });
  const seen = await inspect(page);
  assert.equal(seen.pwned, undefined, `a search result ran planted script (${String(seen.pwned)})`);
  assert.equal(seen.plantedScripts, 0);
  assert.equal(seen.plantedImages, 0);
  await page.close();
});

test('every generated validator module imports without running planted text', async () => {
  const modules = readdirSync(out, { recursive: true, encoding: 'utf8' })
    .filter((p) => /validate-[^/]*\.js$/.test(p))
    .map((p) => '/' + p.split(sep).join('/'));
  assert.ok(
    modules.some((m) => m.startsWith('/claude-code/x-title')),
    `the hostile tool has a validator module (${modules.join(' ')})`,
  );
  const page = await browser.newPage();
  await page.goto(`${server.base}/`, { waitUntil: 'load' });
  for (const path of modules) {
    const result = await page.evaluate(async (url) => {
      const mod = (await import(url)) as { validate: (v: unknown) => boolean };
      return {
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        validates: typeof mod.validate === 'function',
      };
    }, `${server.base}${path}`);
    assert.equal(result.pwned, undefined, `${path} ran planted text`);
    assert.ok(result.validates, `${path} exports validate`);
  }
  await page.close();
});

test('llms.txt and llms-full.txt read back as Markdown show the planted text as text, run nothing and link only to the site', async () => {
  const page = await browser.newPage();
  for (const file of ['llms.txt', 'llms-full.txt']) {
    const markdown = readFileSync(join(out, file), 'utf8');
    // What a Markdown reader that lets raw HTML through makes of it, in a browser page of the site's origin.
    await page.goto(`${server.base}/`, { waitUntil: 'load' });
    await page.setContent(
      `<!doctype html><title>${file}</title><body>${micromark(markdown, { allowDangerousHtml: true })}</body>`,
      { waitUntil: 'load' },
    );
    const seen = await inspect(page);
    assert.equal(seen.pwned, undefined, `${file}: planted script ran (${String(seen.pwned)})`);
    assert.equal(seen.plantedScripts, 0, `${file}: a planted <script> became an element`);
    assert.equal(seen.plantedImages, 0, `${file}: a planted <img>/<svg> became an element`);
    assert.deepEqual(seen.handlers, [], `${file}: elements with event-handler attributes`);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
    );
    const site = new URL(readFileSync(join(out, 'llms.txt'), 'utf8').match(/\]\((https?:\/\/[^/)]+)\//)![1]!).origin;
    assert.deepEqual(
      links.filter((href) => new URL(href).origin !== site),
      [],
      `${file}: every link goes to the site`,
    );
    assert.ok(seen.text.includes(TOOL_NAME), `${file}: the captured tool's name is shown as text`);
    assert.ok(
      seen.text.includes(
        `${hostile(60)} [click](javascript:window.__pwned=63) <javascript:window.__pwned=64> # not a heading`,
      ),
      `${file}: the editorial summary is shown as text`,
    );
    const headings = await page.evaluate(() => [...document.querySelectorAll('h3')].map((h) => h.textContent));
    if (file === 'llms-full.txt')
      assert.ok(headings.includes(TOOL_NAME), `${file}: the tool's heading is its name, as text`);
  }
  await page.close();
});
