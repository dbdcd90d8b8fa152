/**
 * How the layout and accessibility tests pick one page per template
 * (test/helpers/pages.ts), on a made-up project: routes from src/pages and
 * src/content/docs, the route of each built page, the component each class
 * belongs to, and the choice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  builtPages,
  componentClasses,
  kindsNotChecked,
  pageFeatures,
  pageRoutes,
  pagesOfEveryKind,
  routeOf,
} from '../helpers/pages.ts';

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

test('components: the classes one .astro file alone writes (static, class:list, template prefixes) are its own', () => {
  using p = project({
    ...SOURCE,
    'src/components/Table.astro':
      '<table class="field-table wide"><tr class:list={[\'row\', { deprecated: r.old }]}><td class={`delivery-${d} cell`}>x</td></tr></table>',
    'src/components/Note.astro': '<p class="note"><span class="sr-only">x</span></p>',
    'src/pages/[agent]/index.astro': '<ul class="agent-list sr-only"></ul>',
  });
  const components = componentClasses(p.root);
  assert.deepEqual(Object.fromEntries([...components.exact].sort()), {
    'agent-list': 'src/pages/[agent]/index.astro',
    cell: 'src/components/Table.astro',
    deprecated: 'src/components/Table.astro',
    'field-table': 'src/components/Table.astro',
    note: 'src/components/Note.astro',
    row: 'src/components/Table.astro',
    wide: 'src/components/Table.astro',
  });
  assert.deepEqual([...components.prefixes], [['delivery-', 'src/components/Table.astro']]);
  // What a page is built of: its route, the components of its classes, other classes as they are; the frame,
  // scoping classes, heading outlines, ids and data- attributes are no kinds.
  const html = page(
    '<h2 id="input" class="field-table astro-abc123">I</h2><div data-check="1" class="deprecated  sr-only delivery-hosted"></div><h4 id="deep" class="sl-badge">D</h4>',
  );
  assert.deepEqual(
    [...pageFeatures(html, '/r/', components)].sort(),
    ['/r/', 'src/components/Table.astro', '.sr-only', '.sl-badge'].sort(),
  );
});

test("the choice: each route's largest page, then pages until every component and class is on one; redirect stubs are no pages", () => {
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
    'dist/codex/d/index.html': page('<h3 id="version-notes"></h3><h5>skipped levels are no kind</h5>'),
    'dist/jobs/write/index.html': page('<table class="field-table"></table><p class="x"></p>'),
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
  // a: the largest tool page; c: the first page with a grammar; not d (its outline is no kind); jobs/write: the largest
  // job page; jobs/read: its comparison table is on no other page.
  assert.deepEqual(chosen.pages, [
    '/',
    '/404.html',
    '/about/',
    '/codex/',
    '/codex/a/',
    '/codex/c/',
    '/codex/changelog/',
    '/jobs/read/',
    '/jobs/write/',
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

test("with another site's choice covered, only the routes and components that site lacks are chosen", () => {
  using real = project({
    ...SOURCE,
    'dist/index.html': page(''),
    'dist/codex/index.html': page('<p class="agent"></p>'),
    'dist/codex/a/index.html': page('<pre class="grammar"></pre>'),
  });
  using fixture = project({
    ...SOURCE,
    'dist/index.html': page(''),
    'dist/claude/index.html': page('<p class="agent"></p>'),
    'dist/claude/a/index.html': page('<pre class="grammar"></pre>'),
    'dist/claude/b/index.html': page('<pre class="grammar"></pre><p class="gone"></p>'),
    'dist/claude/changelog/index.html': page('<ol class="log"></ol>'),
  });
  const first = pagesOfEveryKind(real.dist, real.root);
  assert.deepEqual(first.pages, ['/', '/codex/', '/codex/a/']);
  for (const url of first.pages)
    assert.ok(first.covered.has(routeOf(url, pageRoutes(real.root))!.name), `${url}: its route is covered`);
  // b: the one page with `gone`; the changelog: a route the first site has no page of. Not a, whose kinds b has too.
  assert.deepEqual(pagesOfEveryKind(fixture.dist, fixture.root, { covered: first.covered }).pages, [
    '/claude/b/',
    '/claude/changelog/',
  ]);
  // Covering everything the second site has leaves nothing to check there.
  const all = pagesOfEveryKind(fixture.dist, fixture.root);
  assert.deepEqual(pagesOfEveryKind(fixture.dist, fixture.root, { covered: all.covered }).pages, []);
});

test('kinds not checked: a route or component some page of either site has and no checked page has, with where it is', () => {
  using a = project({
    ...SOURCE,
    'dist/index.html': page(''),
    'dist/codex/index.html': page('<p class="agent"></p>'),
  });
  using b = project({
    ...SOURCE,
    'dist/index.html': page(''),
    'dist/claude/a/index.html': page('<pre class="grammar"></pre>'),
  });
  const sites = (pagesA: string[], pagesB: string[]) => [
    { name: 'A', dir: a.dist, pages: pagesA },
    { name: 'B', dir: b.dist, pages: pagesB },
  ];
  assert.deepEqual(kindsNotChecked(sites(['/', '/codex/'], ['/claude/a/']), a.root), []);
  assert.deepEqual(kindsNotChecked(sites(['/'], ['/claude/a/']), a.root), [
    '/[agent]/ (A /codex/)',
    '.agent (A /codex/)',
  ]);
  assert.deepEqual(kindsNotChecked(sites(['/', '/codex/'], []), a.root), [
    '/[agent]/[tool]/ (B /claude/a/)',
    '.grammar (B /claude/a/)',
  ]);
});
