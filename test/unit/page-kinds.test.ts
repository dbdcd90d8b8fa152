/**
 * How the layout and accessibility tests pick one page of every kind
 * (test/helpers/pages.ts), on a made-up project: routes from src/pages and
 * src/content/docs, the route of each built page, and the choice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { builtPages, pageFeatures, pageRoutes, pagesOfEveryKind, routeOf } from '../helpers/pages.ts';

function project(files: Record<string, string>): { root: string; dist: string; [Symbol.dispose](): void } {
  const root = mkdtempSync(join(tmpdir(), 'page-kinds-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, dist: join(root, 'dist'), [Symbol.dispose]: () => rmSync(root, { recursive: true, force: true }) };
}

const page = (main: string, padding = 0) =>
  `<!doctype html><html><body><nav class="sidebar"></nav><main>${main}</main>${' '.repeat(padding)}</body></html>`;
const SOURCE = {
  'src/pages/index.astro': '',
  'src/pages/404.astro': '',
  'src/pages/[agent]/index.astro': '',
  'src/pages/[agent]/[tool].astro': '',
  'src/pages/[agent]/changelog.astro': '',
  'src/pages/[agent]/[tool]/input.schema.json.ts': '',
  'src/pages/jobs/[job].astro': '',
  'src/content/docs/about.md': '',
};

test('routes come from the .astro pages and the Markdown docs; the most static route serves a URL', () => {
  using p = project(SOURCE);
  const routes = pageRoutes(p.root);
  assert.deepEqual(routes.map((r) => r.name).sort(), [
    '/',
    '/404.html',
    '/[agent]/',
    '/[agent]/[tool]/',
    '/[agent]/changelog/',
    '/about/',
    '/jobs/[job]/',
  ]);
  const of = (url: string) => routeOf(url, routes)?.name;
  assert.equal(of('/'), '/');
  assert.equal(of('/404.html'), '/404.html');
  assert.equal(of('/codex/'), '/[agent]/');
  assert.equal(of('/about/'), '/about/');
  assert.equal(of('/codex/changelog/'), '/[agent]/changelog/');
  assert.equal(of('/codex/exec/'), '/[agent]/[tool]/');
  assert.equal(of('/jobs/read/'), '/jobs/[job]/');
  assert.equal(of('/codex/exec/input.schema.json'), undefined);
  assert.equal(of('/a/b/c/'), undefined);
});

test('features: classes, data- attributes and heading-level steps inside <main>, per route; scoping classes, heading ids and the frame left out', () => {
  const html = page(
    '<h2 id="input" class="x astro-abc123">I</h2><div data-check="1" class="y  z"></div><h4 id="deep">D</h4><h2 id="result">R</h2>',
  );
  assert.deepEqual(
    [...pageFeatures(html, '/r/')].sort(),
    ['/r/', '/r/ .x', '/r/ .y', '/r/ .z', '/r/ [data-check]', '/r/ ^>h2', '/r/ h2>h4', '/r/ h4>h2', '/r/ h2>$'].sort(),
  );
  // The same outline under other ids is the same kind.
  const renamed = page(
    '<h2 id="other" class="x">I</h2><div data-check="1" class="y z"></div><h4 id="x">D</h4><h2 id="more">R</h2>',
  );
  assert.deepEqual([...pageFeatures(renamed, '/r/')].sort(), [...pageFeatures(html, '/r/')].sort());
});

test("the choice: each route's largest page, then pages until every feature is on one; redirect stubs are no pages", () => {
  using p = project({
    ...SOURCE,
    'dist/index.html': page('<p class="home"></p>'),
    'dist/404.html': page('<p class="missing"></p>'),
    'dist/about/index.html': page('<p></p>'),
    'dist/codex/index.html': page('<p class="agent"></p>'),
    'dist/codex/a/index.html': page('<h2 id="input"></h2><table class="field-table"></table>', 5000),
    'dist/codex/b/index.html': page('<h2 id="input"></h2><table class="field-table"></table>'),
    'dist/codex/c/index.html': page(
      '<h2 id="input"></h2><table class="field-table"></table><pre class="grammar"></pre>',
    ),
    'dist/codex/d/index.html': page('<h3 id="version-notes"></h3>'),
    'dist/codex/e/index.html': page(
      '<h2 id="input"></h2><table class="field-table"></table><pre class="grammar"></pre>',
    ),
    'dist/codex/old/index.html': '<!doctype html><meta http-equiv="refresh" content="0;url=/codex/a/">',
    'dist/codex/changelog/index.html': page('<ol class="log"></ol>'),
    'dist/jobs/read/index.html': page('<table class="comparison"></table>'),
    'dist/_astro/x/index.html': page(''),
  });
  assert.ok(!builtPages(p.dist).includes('/codex/old/'), 'a redirect stub is no page');
  assert.ok(!builtPages(p.dist).some((u) => u.startsWith('/_astro/')), 'assets are no pages');
  const chosen = pagesOfEveryKind(p.dist, p.root);
  // a: the largest tool page; c: the first page with a grammar; d: a tool page whose outline opens at another level.
  assert.deepEqual(chosen.pages, [
    '/',
    '/404.html',
    '/about/',
    '/codex/',
    '/codex/a/',
    '/codex/c/',
    '/codex/changelog/',
    '/codex/d/',
    '/jobs/read/',
  ]);
});

test('a built page that no route serves fails the choice', () => {
  using p = project({ ...SOURCE, 'dist/index.html': page(''), 'dist/a/b/c/index.html': page('') });
  assert.throws(() => pagesOfEveryKind(p.dist, p.root), /\/a\/b\/c\/: no route/);
});

test('for checks whose cost grows with the page, the smallest page of each route and the smallest of equal gain', () => {
  using p = project({
    ...SOURCE,
    'dist/index.html': page(''),
    'dist/codex/index.html': page('<p class="agent"></p>', 5000),
    'dist/claude/index.html': page('<p class="agent"></p>'),
    'dist/codex/a/index.html': page('<pre class="grammar"></pre>', 5000),
    'dist/codex/b/index.html': page('<pre class="grammar"></pre>'),
    'dist/codex/c/index.html': page('<p class="x"></p>', 10),
  });
  assert.deepEqual(pagesOfEveryKind(p.dist, p.root, { prefer: 'smallest' }).pages, [
    '/',
    '/claude/',
    '/codex/b/',
    '/codex/c/',
  ]);
  assert.deepEqual(pagesOfEveryKind(p.dist, p.root).pages, ['/', '/codex/', '/codex/a/', '/codex/c/']);
});
