/**
 * Every internal link and #fragment in the built site resolves: parsed from
 * the HTML in dist/ with parse5 (the same tree a browser builds).
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';
import { realContent } from '../helpers/real-content.ts';
import { PAGE_BUDGET_BYTES } from '../../src/lib/history/changelog-parts.ts';
import { STARLIGHT_PAGE_IDS } from '../../src/lib/content/url-names.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

function walk(node: Node, visit: (el: Element) => void): void {
  if ('tagName' in node) visit(node as Element);
  const children = 'childNodes' in node ? node.childNodes : [];
  for (const child of children) walk(child as Node, visit);
  if ('content' in node && node.content) walk(node.content as unknown as Node, visit);
}

const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;

interface PageInfo {
  ids: Set<string>;
  links: { href: string; tag: string; className?: string }[];
}

/** URL path of a built file: dist/a/b/index.html → /a/b/ */
function urlPathOf(file: string): string {
  const rel = '/' + relative(DIST, file).split('\\').join('/');
  return rel.endsWith('/index.html') ? rel.slice(0, -'index.html'.length) : rel;
}

/** The built file a URL path points at, if any. */
function fileFor(path: string): string | undefined {
  const decoded = decodeURIComponent(path);
  const candidates = decoded.endsWith('/')
    ? [join(DIST, decoded, 'index.html')]
    : [join(DIST, decoded), join(DIST, decoded, 'index.html'), join(DIST, decoded + '.html')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

let pages: Map<string, PageInfo>;

before(() => {
  buildSite();
  pages = new Map();
  for (const file of htmlFiles(DIST)) {
    const info: PageInfo = { ids: new Set(), links: [] };
    walk(parse(readFileSync(file, 'utf8')) as unknown as Node, (el) => {
      const id = attr(el, 'id');
      if (id !== undefined) info.ids.add(id);
      const name = attr(el, 'name');
      if (el.tagName === 'a' && name) info.ids.add(name);
      for (const [tag, key] of [
        ['a', 'href'],
        ['link', 'href'],
        ['script', 'src'],
        ['img', 'src'],
      ] as const) {
        const value = el.tagName === tag ? attr(el, key) : undefined;
        const className = attr(el, 'class');
        if (value !== undefined) info.links.push({ href: value, tag, ...(className ? { className } : {}) });
      }
    });
    pages.set(urlPathOf(file), info);
  }
});

test('the site has exactly the pages the content describes', () => {
  // Expected from the content folder itself: one page per generated tool file, captured tool and
  // documented-only note, read independently of the loader.
  const site = realContent();
  const expected = new Set([
    '/',
    '/jobs/',
    '/about/',
    '/for-programs/',
    '/404.html',
    ...site.agents.map((a) => `/${a.id}/`),
  ]);
  for (const agent of readdirSync(join(ROOT, 'content/tools')))
    for (const f of readdirSync(join(ROOT, 'content/tools', agent)))
      expected.add(`/${agent}/${f.replace(/\.json$/, '')}/`);
  for (const agent of readdirSync(join(ROOT, 'content/editorial'))) {
    for (const f of readdirSync(join(ROOT, 'content/editorial', agent))) {
      if (JSON.parse(readFileSync(join(ROOT, 'content/editorial', agent, f), 'utf8')).documentedOnly)
        expected.add(`/${agent}/${f.replace(/\.json$/, '')}/`);
    }
  }
  for (const tool of site.tools) if (tool.source === 'capture') expected.add(`/${tool.agent}/${tool.slug}/`);
  // Redirect pages: each accepted alias or former name in a generated tool file, at its lowercase URL name.
  for (const agent of readdirSync(join(ROOT, 'content/tools'))) {
    for (const f of readdirSync(join(ROOT, 'content/tools', agent))) {
      const file = JSON.parse(readFileSync(join(ROOT, 'content/tools', agent, f), 'utf8')) as {
        aliases: { name: string; kind: string }[];
      };
      for (const a of file.aliases) if (a.kind !== 'sdk-type') expected.add(`/${agent}/${a.name.toLowerCase()}/`);
    }
  }
  // Redirect pages of the aliases in a binary's alias table (content/inventory/) whose tool has a page.
  const inventoryDir = join(ROOT, 'content/inventory');
  for (const f of existsSync(inventoryDir) ? readdirSync(inventoryDir) : []) {
    const inv = JSON.parse(readFileSync(join(inventoryDir, f), 'utf8')) as {
      agent: string;
      aliasTables?: { entries: { alias: string; tool: string }[] }[];
    };
    for (const e of (inv.aliasTables ?? []).flatMap((t) => t.entries))
      if (expected.has(`/${inv.agent}/${e.tool.toLowerCase()}/`))
        expected.add(`/${inv.agent}/${e.alias.toLowerCase()}/`);
  }
  // History: a changelog per agent with a history file, and a page per tool a history saw removed
  // that no current tool answers to (name or alias) and that was not added again later.
  const historyDir = join(ROOT, 'content/history');
  // What changed across agents: one page, when any history exists.
  if (existsSync(historyDir) && readdirSync(historyDir).length > 0) expected.add('/changes/');
  const names = new Set(
    site.tools.flatMap((t) => [t.fullName, ...t.generated.aliases.map((a) => a.name)].map((n) => `${t.agent} ${n}`)),
  );
  for (const f of existsSync(historyDir) ? readdirSync(historyDir) : []) {
    const history = JSON.parse(readFileSync(join(historyDir, f), 'utf8')) as {
      agent: string;
      events: { tool: string; kind: string }[];
    };
    expected.add(`/${history.agent}/changelog/`);
    // A changelog cut into parts: the part pages its index links to (that they hold every release is checked below).
    for (const l of pages.get(`/${history.agent}/changelog/`)?.links ?? []) {
      const path = new URL(l.href, 'http://site.invalid/').pathname;
      if (path.startsWith(`/${history.agent}/changelog/`) && path !== `/${history.agent}/changelog/`)
        expected.add(path);
    }
    history.events.forEach((e, i) => {
      const again = history.events.slice(i + 1).some((l) => l.tool === e.tool && l.kind === 'tool-added');
      if (e.kind === 'tool-removed' && !again && !names.has(`${history.agent} ${e.tool}`))
        expected.add(`/${history.agent}/${e.tool.toLowerCase()}/`);
    });
    // A tool renamed (a `renamed` event without a field) redirects from its old name when its new name has a page.
    for (const e of history.events as { tool: string; kind: string; field?: string; from?: string }[]) {
      if (
        e.kind === 'renamed' &&
        e.field === undefined &&
        e.from &&
        !names.has(`${history.agent} ${e.from}`) &&
        expected.has(`/${history.agent}/${e.tool.toLowerCase()}/`)
      ) {
        expected.add(`/${history.agent}/${e.from.toLowerCase()}/`);
      }
    }
  }
  // Hooks: one page per agent, and the page comparing them.
  expected.add('/hooks/');
  for (const a of site.agents) expected.add(`/${a.id}/hooks/`);
  // Permissions: one page per agent, and the page comparing them.
  expected.add('/permissions/');
  for (const a of site.agents) expected.add(`/${a.id}/permissions/`);
  // A comparison page per job of content/jobs.json.
  for (const job of (JSON.parse(readFileSync(join(ROOT, 'content/jobs.json'), 'utf8')) as { jobs: { id: string }[] })
    .jobs)
    expected.add(`/jobs/${job.id}/`);
  assert.deepEqual([...pages.keys()].sort(), [...expected].sort());
});

test('every alias page redirects to the page of the tool it names', () => {
  const site = realContent();
  let checked = 0;
  for (const tool of site.tools) {
    for (const alias of tool.generated.aliases) {
      if (alias.kind === 'sdk-type' || alias.name.toLowerCase() === tool.slug) continue;
      const html = readFileSync(join(DIST, tool.agent, alias.name.toLowerCase(), 'index.html'), 'utf8');
      assert.match(
        html,
        new RegExp(`http-equiv="refresh" content="0;url=/${tool.agent}/${tool.slug}/"`),
        `${alias.name} → ${tool.fullName}`,
      );
      checked++;
    }
  }
  assert.ok(checked > 0, 'no alias page checked');
  // The old name of a tool a history saw renamed leads to the page of its new name.
  for (const f of readdirSync(join(ROOT, 'content/history'))) {
    const history = JSON.parse(readFileSync(join(ROOT, 'content/history', f), 'utf8')) as {
      agent: string;
      events: { tool: string; kind: string; field?: string; from?: string }[];
    };
    for (const e of history.events) {
      if (e.kind !== 'renamed' || e.field !== undefined || !e.from) continue;
      const tool = site.tools.find((t) => t.agent === history.agent && t.fullName === e.tool);
      if (!tool || tool.generated.aliases.some((a) => a.name === e.from)) continue;
      const html = readFileSync(join(DIST, history.agent, e.from.toLowerCase(), 'index.html'), 'utf8');
      assert.match(
        html,
        new RegExp(`http-equiv="refresh" content="0;url=/${tool.agent}/${tool.slug}/"`),
        `${e.from} → ${tool.fullName}`,
      );
    }
  }
});

test('every internal link and fragment resolves', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const [from, info] of pages) {
    for (const { href, tag } of info.links) {
      const url = new URL(href, `http://site.invalid${from}`);
      if (url.host !== 'site.invalid') continue; // external: not ours to check
      checked++;
      const target = url.pathname === from ? from : url.pathname;
      const file = fileFor(target);
      if (!file) {
        broken.push(`${from}: <${tag}> ${href} → no such file`);
        continue;
      }
      if (url.hash && url.hash !== '#') {
        const id = decodeURIComponent(url.hash.slice(1));
        const targetPage = pages.get(urlPathOf(file));
        if (!targetPage) broken.push(`${from}: ${href} → fragment on a non-HTML file`);
        else if (!targetPage.ids.has(id) && id !== '_top')
          broken.push(`${from}: ${href} → no element with id ${JSON.stringify(id)}`);
      }
    }
  }
  assert.ok(checked > 1000, `only ${checked} links checked`);
  assert.deepEqual(broken, []);
});

test('every since badge and every changelog link lands on an element of its target page', () => {
  // Every release the history files credit a change to has a heading on its agent's changelog
  // (read from content/history directly), and every badge and changelog link resolves.
  const site = realContent();
  const resolve = (from: string, href: string): boolean => {
    const url = new URL(href, `http://site.invalid${from}`);
    const target = pages.get(url.pathname);
    // A file that is not a page (the changelog's Atom feed) resolves when it is built and the link names no fragment.
    if (!target) return !url.hash && Boolean(fileFor(url.pathname));
    return !url.hash || target.ids.has(decodeURIComponent(url.hash.slice(1)));
  };
  const badges = [...pages].flatMap(([from, info]) =>
    info.links.filter((l) => l.className?.split(' ').includes('since')).map((l) => ({ from, href: l.href })),
  );
  assert.ok(badges.length > 0, 'no since badge on any page');
  assert.deepEqual(
    badges.filter((b) => !resolve(b.from, b.href)),
    [],
  );
  for (const h of site.histories) {
    const log = pages.get(`/${h.agent}/changelog/`);
    assert.ok(log, `${h.agent} has a changelog page`);
    const releases = new Set(
      h.events.map((e) => h.releases.find((r) => r.version === e.release)!.cliVersion ?? e.release),
    );
    // Old links (`/<agent>/changelog/#<release>`) land on an element of the changelog page, even once it is cut into
    // parts.
    for (const release of releases) assert.ok(log.ids.has(release), `${h.agent} changelog has #${release}`);
    const broken = log.links.filter(
      (l) => l.tag === 'a' && l.href.startsWith('/') && !resolve(`/${h.agent}/changelog/`, l.href),
    );
    assert.deepEqual(broken, []);
    // When it is cut, every release is a section of exactly one part page, and the index's element for it links there.
    const parts = [...pages].filter(
      ([path]) => path.startsWith(`/${h.agent}/changelog/`) && path !== `/${h.agent}/changelog/`,
    );
    if (parts.length === 0) continue;
    for (const release of releases) {
      const holding = parts.filter(([, info]) => info.ids.has(release)).map(([path]) => path);
      assert.equal(holding.length, 1, `${h.agent} ${release} is on one part page: ${holding.join(', ')}`);
      assert.ok(
        log.links.some((l) => l.href === `${holding[0]}#${release}`),
        `${h.agent} index links ${release} to ${holding[0]}`,
      );
    }
  }
});

test(`no page is over ${PAGE_BUDGET_BYTES} bytes of HTML`, () => {
  // The budget a long changelog is cut into parts for (src/lib/history/changelog-parts.ts).
  const heavy = htmlFiles(DIST)
    .map((file) => ({ page: urlPathOf(file), bytes: statSync(file).size }))
    .filter((p) => p.bytes > PAGE_BUDGET_BYTES)
    .sort((a, b) => b.bytes - a.bytes)
    .map((p) => `${p.page}: ${p.bytes} bytes`);
  assert.deepEqual(heavy, []);
});

test('ids are unique within every page', () => {
  const dups: string[] = [];
  for (const file of htmlFiles(DIST)) {
    const seen = new Map<string, number>();
    walk(parse(readFileSync(file, 'utf8')) as unknown as Node, (el) => {
      const id = attr(el, 'id');
      if (id !== undefined) seen.set(id, (seen.get(id) ?? 0) + 1);
    });
    for (const [id, n] of seen) if (n > 1) dups.push(`${urlPathOf(file)}#${id} ×${n}`);
  }
  assert.deepEqual(dups, []);
});

test('the ids the loader reserves are exactly those Starlight puts on a plain page', () => {
  // Independent reference: the about page is a plain Starlight page; every id outside its Markdown content is
  // Starlight's.
  const ids: string[] = [];
  const collect = (node: Node, inContent: boolean): void => {
    let inside = inContent;
    if ('tagName' in node) {
      const el = node as Element;
      inside ||= (attr(el, 'class') ?? '').split(/\s+/).includes('sl-markdown-content');
      const id = attr(el, 'id');
      if (id !== undefined && !inside) ids.push(id);
    }
    for (const child of 'childNodes' in node ? node.childNodes : []) collect(child as Node, inside);
  };
  collect(parse(readFileSync(join(DIST, 'about/index.html'), 'utf8')) as unknown as Node, false);
  assert.deepEqual(ids.sort(), [...STARLIGHT_PAGE_IDS].sort());
});
