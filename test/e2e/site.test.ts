import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { fieldTables } from '../../src/lib/model/model.ts';
import { DIST, serveAndLaunch, ROOT, type Served } from '../helpers/browser.ts';
import { realContent } from '../helpers/real-content.ts';
import { builtPages, fileOfPage } from '../helpers/pages.ts';
import { atScale, spread } from '../helpers/sweep.ts';
import { elements, textOf } from '../helpers/html.ts';

const site = realContent();
const urlOf = (t: { agent: string; slug: string }) => `/${t.agent}/${t.slug}/`;

let served: Served;
let page: Page;

before(async () => {
  served = await serveAndLaunch();
  page = await served.browser.newPage({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  await served?.close();
});

const SEARCH_INPUT = 'site-search input.pagefind-ui__search-input';

/**
 * Opens Starlight's search dialog on the about page; when the tab shows it open there already (an earlier test's
 * search), empties it and clears the agent filter instead: a fresh load and Pagefind's start cost over a second each.
 */
async function openSearch(): Promise<void> {
  const open = async () =>
    new URL(page.url()).pathname === '/about/' &&
    (await page.locator('site-search dialog').evaluate((d) => (d as HTMLDialogElement).open));
  if (await open()) {
    for (const box of await page.locator('.pagefind-ui__filter-checkbox:checked').all()) await box.uncheck();
    await page.fill(SEARCH_INPUT, '');
    await page.waitForFunction(() => document.querySelectorAll('.pagefind-ui__result').length === 0, undefined, {
      timeout: 10_000,
    });
    return;
  }
  await page.goto(`${served.base}/about/`);
  // The button opens the dialog once Starlight's <site-search> element is defined; a click before
  // that does nothing. Pagefind's UI then builds its input after a dynamic import, which on a
  // loaded machine takes a while: a click that opened nothing is tried again.
  await page.waitForFunction(() => customElements.get('site-search') !== undefined, undefined, { timeout: 30_000 });
  for (let attempt = 1; ; attempt++) {
    await page.click('site-search button[data-open-modal]');
    try {
      await page.waitForSelector(SEARCH_INPUT, { timeout: 20_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * Types a query into the open search dialog and returns, in order, the links of
 * the results once they are for that query. Pagefind's UI fills results in as
 * their data arrives, so wait until every listed result has its link.
 */
async function searchUi(query: string): Promise<string[]> {
  await page.fill(SEARCH_INPUT, query);
  await page.waitForFunction(
    (q) => {
      const msg = document.querySelector('.pagefind-ui__message')?.textContent ?? '';
      const results = [...document.querySelectorAll('.pagefind-ui__result')];
      return (
        msg.endsWith(` for ${q}`) &&
        results.length > 0 &&
        results.every((r) => r.querySelector('.pagefind-ui__result-link'))
      );
    },
    query,
    { timeout: 10_000 },
  );
  return page.$$eval('.pagefind-ui__result', (results) =>
    results.map((r) => {
      const url = new URL((r.querySelector('.pagefind-ui__result-link') as HTMLAnchorElement).href);
      return url.pathname + url.hash;
    }),
  );
}

/**
 * Searches each query with the Pagefind module the search dialog imported
 * (a second import of its URL is the same module, with the options the dialog
 * set), and returns the URLs of the first `shown` results of each.
 */
async function searchPagefind(queries: string[], shown: number): Promise<Map<string, string[]>> {
  const found = await page.evaluate(
    async ({ queries, shown }) => {
      const url = '/pagefind/pagefind.js';
      const pagefind = await import(url);
      const out: [string, string[]][] = [];
      for (const q of queries) {
        const search = await pagefind.search(q);
        const data = await Promise.all(
          search.results.slice(0, shown).map((r: { data(): Promise<{ url: string }> }) => r.data()),
        );
        out.push([q, data.map((d: { url: string }) => new URL(d.url, location.href).pathname)]);
      }
      return out;
    },
    { queries, shown },
  );
  return new Map(found);
}

/** All links of the results, sub-results included. */
async function allResultLinks(): Promise<string[]> {
  return page.$$eval('.pagefind-ui__result-link', (links) =>
    links.map((a) => {
      const url = new URL((a as HTMLAnchorElement).href);
      return url.pathname + url.hash;
    }),
  );
}

/** A row of a built tool page's field tables: its anchor id and what its Required cell says. */
interface Row {
  id: string;
  required: string;
  depth: number;
  role: string;
}

/** The field rows of a built page, read from its HTML (the tables are written at build time). */
function rowsOf(html: string): Row[] {
  const rows: Row[] = [];
  // A row of a field table: its cells have no class; the third one says whether the field is required.
  for (const m of html.matchAll(/<tr id="([^"]*)" role="row"([^>]*)style="--depth: (\d+)">([\s\S]*?)<\/tr>/g)) {
    const cells = [...m[4]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]*>/g, '').trim());
    const role = /class="[^"]*\brole-variant\b/.test(m[2]!) ? 'variant' : 'other';
    rows.push({ id: m[1]!, role, depth: Number(m[3]), required: cells[2] ?? '' });
  }
  return rows;
}

/**
 * A field name in an anchor, as docs/pages.md "URLs and field anchors" specifies: [A-Za-z0-9_-] as is, any other
 * character `~` + its UTF-8 bytes in hex.
 */
const anchorName = (name: string): string =>
  name === ''
    ? '~'
    : [...name]
        .map((ch) =>
          /^[A-Za-z0-9_-]$/.test(ch)
            ? ch
            : [...new TextEncoder().encode(ch)]
                .map((b) => `~${b.toString(16).toUpperCase().padStart(2, '0')}`)
                .join(''),
        )
        .join('');

/**
 * The fields a definition states plainly: id (root + `.name` per level, array items transparent) and whether it is
 * required.
 */
interface Expected {
  id: string;
  required: boolean;
  topLevel: boolean;
}

/**
 * The fields of a JSON Schema reached through `properties`, and through `items`
 * of arrays, with `required` read from the object that lists them. Anything else
 * (unions, references, conditions, maps) is not followed: the walk only claims
 * what the schema says without interpretation. `exact` is false when the root
 * is not a plain object, whose top-level fields are then not listed here.
 */
function schemaFields(schema: any, root: string): { fields: Expected[]; exact: boolean } {
  const fields: Expected[] = [];
  const walk = (s: any, id: string, top: boolean): void => {
    if (!s || typeof s !== 'object') return;
    if (s.type === 'array' && s.items && !Array.isArray(s.items) && s.items.type !== 'array')
      return walk(s.items, id, false);
    if (s.properties && typeof s.properties === 'object' && !s.anyOf && !s.oneOf && !s.allOf && !s.if) {
      for (const [name, sub] of Object.entries(s.properties)) {
        const child = `${id}.${anchorName(name)}`;
        fields.push({ id: child, required: Array.isArray(s.required) && s.required.includes(name), topLevel: top });
        walk(sub, child, false);
      }
    }
  };
  walk(schema, root, true);
  const exact =
    schema.type === 'object' &&
    !!schema.properties &&
    !schema.anyOf &&
    !schema.oneOf &&
    !schema.allOf &&
    !schema.if &&
    !schema.patternProperties;
  return { fields, exact };
}

/**
 * The fields of a TypeScript declaration file, read with the TypeScript
 * compiler's parser: the first declared interface or object type, its property
 * signatures (`name?:` optional), and those of object literal types, arrays of
 * them and interfaces of the same file they name. Unions, index signatures,
 * heritage and generics are not followed (`exact` false when the root has any).
 */
function typeScriptFields(source: string, root: string): { fields: Expected[]; exact: boolean } {
  const file = ts.createSourceFile('definition.d.ts', source, ts.ScriptTarget.Latest, false);
  const declarations = new Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration>();
  for (const st of file.statements)
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) declarations.set(st.name.text, st);
  const first = [...declarations.values()][0];
  const membersOf = (node: ts.Node | undefined, seen: Set<string>): ts.NodeArray<ts.TypeElement> | undefined => {
    if (!node) return undefined;
    if (ts.isInterfaceDeclaration(node)) return node.heritageClauses || node.typeParameters ? undefined : node.members;
    if (ts.isTypeAliasDeclaration(node)) return node.typeParameters ? undefined : membersOf(node.type, seen);
    if (ts.isTypeLiteralNode(node)) return node.members;
    if (ts.isParenthesizedTypeNode(node)) return membersOf(node.type, seen);
    if (ts.isArrayTypeNode(node))
      return ts.isArrayTypeNode(node.elementType) ? undefined : membersOf(node.elementType, seen);
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && !node.typeArguments) {
      const name = node.typeName.text;
      if (seen.has(name)) return undefined;
      seen.add(name);
      return membersOf(declarations.get(name), seen);
    }
    return undefined;
  };
  const fields: Expected[] = [];
  const walk = (
    members: ts.NodeArray<ts.TypeElement> | undefined,
    id: string,
    top: boolean,
    seen: Set<string>,
  ): void => {
    for (const m of members ?? []) {
      if (!ts.isPropertySignature(m) || !(ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) continue;
      const child = `${id}.${anchorName(m.name.text)}`;
      fields.push({ id: child, required: !m.questionToken, topLevel: top });
      walk(membersOf(m.type, new Set(seen)), child, false, seen);
    }
  };
  const rootMembers = membersOf(first, new Set(first ? [first.name.text] : []));
  walk(rootMembers, root, true, new Set(first ? [first.name.text] : []));
  const exact =
    rootMembers !== undefined &&
    rootMembers.every((m) => ts.isPropertySignature(m) && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)));
  return { fields, exact };
}

/** The definition files a tool page publishes beside itself, and the anchor root of the table each one defines. */
const DEFINITION_FILES: readonly { root: string; files: readonly string[] }[] = [
  { root: 'input', files: ['input.json', 'input.d.ts.txt'] },
  { root: 'output', files: ['result.json', 'result.d.ts.txt'] },
  { root: 'model-input', files: ['model-input.json'] },
];

describe('tool pages', () => {
  test('every field table agrees with the definition published beside it: each field it states, with Required, and exactly its top-level fields in order', () => {
    const misses: string[] = [];
    let checked = 0;
    for (const tool of site.tools) {
      const dir = join(DIST, tool.agent, tool.slug);
      const rows = rowsOf(readFileSync(join(dir, 'index.html'), 'utf8'));
      for (const { root, files } of DEFINITION_FILES) {
        const file = files.find((f) => existsSync(join(dir, f)));
        const ofRoot = rows.filter(
          (r) =>
            r.id === root || r.id.startsWith(`${root}.`) || r.id.startsWith(`${root}:`) || r.id.startsWith(`${root}@`),
        );
        if (!file) {
          if (ofRoot.length > 0)
            misses.push(`${tool.agent}/${tool.slug}: ${ofRoot.length} ${root} row(s) but no definition file`);
          continue;
        }
        const text = readFileSync(join(dir, file), 'utf8');
        const { fields, exact } = file.endsWith('.json')
          ? schemaFields(JSON.parse(text), root)
          : typeScriptFields(text, root);
        for (const f of fields) {
          const row = ofRoot.find((r) => r.id === f.id);
          const want = f.required ? 'required' : 'optional';
          if (!row) misses.push(`${tool.agent}/${tool.slug}: no row ${f.id} (${file})`);
          else if (row.required !== want)
            misses.push(`${tool.agent}/${tool.slug}: ${f.id} shows "${row.required}", ${file} says ${want}`);
          checked++;
        }
        if (exact) {
          // A top-level property: the root, a dot and one name in the anchor alphabet (no `*`, `:`, `@`).
          const shown = ofRoot
            .filter((r) => r.depth === 0 && r.role !== 'variant' && /^[^.:@]+\.[A-Za-z0-9_~-]+$/.test(r.id))
            .map((r) => r.id);
          const stated = fields.filter((f) => f.topLevel).map((f) => f.id);
          if (JSON.stringify(shown) !== JSON.stringify(stated))
            misses.push(
              `${tool.agent}/${tool.slug}: top-level ${root} rows ${shown.join(' ')}; ${file} has ${stated.join(' ')}`,
            );
        }
      }
    }
    assert.deepEqual(misses, []);
    assert.ok(checked >= site.tools.length, `only ${checked} fields checked`);
  });

  test('the TypeScript definitions published beside the pages (the oracle above) are the sources of content/tools, verbatim', () => {
    let compared = 0;
    for (const agent of readdirSync(join(ROOT, 'content/tools'))) {
      for (const file of readdirSync(join(ROOT, 'content/tools', agent))) {
        const tool = JSON.parse(readFileSync(join(ROOT, 'content/tools', agent, file), 'utf8'));
        for (const [side, published] of [
          ['input', 'input.d.ts.txt'],
          ['output', 'result.d.ts.txt'],
        ] as const) {
          if (tool[side]?.kind !== 'typescript') continue;
          assert.equal(
            readFileSync(join(DIST, agent, file.replace(/\.json$/, ''), published), 'utf8'),
            tool[side].source,
            `${agent}/${file} ${side}`,
          );
          compared++;
        }
      }
    }
    assert.ok(compared > 0);
  });

  test('the description as sent is on its page as a configuration sent it, a leading line break kept', () => {
    // HTML drops a line break that follows <pre> at once: a description starting with one would lose it.
    const described = site.tools.filter((t) => [...(t.captured?.byConfig.values() ?? [])].some((c) => c.description));
    const sent = (t: (typeof described)[number]) => [...t.captured!.byConfig.values()].map((c) => c.description ?? '');
    let checked = 0;
    for (const tool of described) {
      const html = readFileSync(fileOfPage(DIST, urlOf(tool)), 'utf8');
      const pre = /<pre class="upstream-text"[^>]*>[\s\S]*?<\/pre>/.exec(html)?.[0];
      if (pre === undefined) continue; // a stand-in description, or one the page does not show as sent
      const shown = textOf(elements(pre).find((e) => e.tagName === 'pre')!);
      assert.ok(sent(tool).includes(shown), `${urlOf(tool)}: ${JSON.stringify(shown.slice(0, 80))}`);
      checked++;
    }
    assert.ok(checked > 0, 'some description as sent was read');
  });

  test('each tool of the content has a page whose heading is its name', () => {
    for (const tool of site.tools) {
      const html = readFileSync(join(DIST, tool.agent, tool.slug, 'index.html'), 'utf8');
      const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
      const text = h1
        .replace(/<[^>]*>/g, '')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&')
        .replace(/\s/g, '');
      assert.equal(text, tool.fullName.replace(/\s/g, ''), `${tool.agent}/${tool.slug}`);
    }
  });

  test('the Read page shows its input fields with types and meanings', async () => {
    await page.goto(`${served.base}/claude-code/read/`);
    const row = page.locator('tr[id="input.file_path"]');
    const cells = row.getByRole('cell');
    assert.equal((await cells.nth(1).textContent())?.trim(), 'string');
    assert.equal((await cells.nth(2).textContent())?.trim(), 'required');
    assert.match((await cells.nth(3).textContent()) ?? '', /absolute path/i);
    assert.equal(await page.locator('#input .kind-badge, h2#input .sl-badge').first().textContent(), 'TypeScript');
    // The full definition is collapsed by default and opens on click.
    const details = page.locator('details.full-definition').first();
    assert.equal(await details.getAttribute('open'), null);
    await details.locator('summary').click();
    assert.ok(await details.locator('pre').isVisible());
    assert.match((await details.locator('pre').textContent()) ?? '', /export interface FileReadInput/);
  });

  test('text that looks like HTML is shown as text', async () => {
    await page.goto(`${served.base}/claude-code/mcp__server__tool/`);
    assert.equal((await page.textContent('h1'))?.trim(), 'mcp__<server>__<tool>');
    assert.equal(await page.locator('server, tool').count(), 0);
  });
});

describe('field anchors', () => {
  test('a URL with a field fragment scrolls to the row and highlights it', async () => {
    const id = 'output:completed.usage.input_tokens';
    await page.goto(`${served.base}/claude-code/agent/#${id}`);
    const state = await page.evaluate((id) => {
      const row = document.getElementById(id)!;
      const box = row.getBoundingClientRect();
      return {
        target: row.matches(':target'),
        inView: box.top >= 0 && box.bottom <= window.innerHeight,
        outline: getComputedStyle(row).outlineStyle,
        background: getComputedStyle(row).backgroundColor,
        otherBackground: getComputedStyle(row.nextElementSibling!).backgroundColor,
      };
    }, id);
    assert.equal(state.target, true);
    assert.equal(state.inView, true, 'the row is scrolled into view');
    assert.equal(state.outline, 'solid');
    assert.notEqual(state.background, state.otherBackground, 'the target row is highlighted');
  });

  test('the # link of a row points at the row and puts its fragment in the URL', async () => {
    await page.goto(`${served.base}/claude-code/edit/`);
    await page.click('tr[id="output.structuredPatch.lines"] a.field-link');
    assert.equal(new URL(page.url()).hash, '#output.structuredPatch.lines');
    assert.equal(await page.evaluate(() => document.querySelector(':target')?.id), 'output.structuredPatch.lines');
  });

  test('a long definition is loaded from its own file when expanded, and linked without JavaScript', async () => {
    // The longest TypeScript input of content/tools, whose page links it rather than inlining it.
    const [agent, file, source] = readdirSync(join(ROOT, 'content/tools'))
      .flatMap((a) =>
        readdirSync(join(ROOT, 'content/tools', a)).map(
          (f) => [a, f, JSON.parse(readFileSync(join(ROOT, 'content/tools', a, f), 'utf8')).input] as const,
        ),
      )
      .filter(([, , input]) => input?.kind === 'typescript')
      .map(([a, f, input]) => [a, f, input.source as string] as const)
      .sort((x, y) => y[2].length - x[2].length)[0]!;
    const tool = { agent, slug: file.replace(/\.json$/, '') };
    // Its first top-level field, read from the source: its row is in the table without JavaScript.
    const firstField = /^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\??:/m.exec(source.slice(source.indexOf('{') + 1))![1]!;
    await page.goto(`${served.base}${urlOf(tool)}`);
    const details = page
      .locator('#input ~ details.full-definition, section:has(#input) details.full-definition')
      .first();
    await details.locator('summary').click();
    await page.waitForFunction(
      () => (document.querySelector('section:has(#input) pre.definition-text')?.textContent ?? '').length > 0,
    );
    assert.equal(await details.locator('pre.definition-text').textContent(), source);

    const noScript = await served.browser.newContext({ javaScriptEnabled: false });
    try {
      const bare = await noScript.newPage();
      await bare.goto(`${served.base}${urlOf(tool)}`);
      assert.ok(
        await bare.locator(`tr[id="input.${firstField}"]`).isVisible(),
        'the input table reads without JavaScript',
      );
      const href = await bare.locator('section:has(#input) details.full-definition a').first().getAttribute('href');
      const file = await (await fetch(new URL(href!, `${served.base}${urlOf(tool)}`))).text();
      assert.equal(file, source);
    } finally {
      await noScript.close();
    }
  });

  test('anchor ids are unique on every page', () => {
    const duplicated: string[] = [];
    for (const url of builtPages()) {
      const ids = [...readFileSync(fileOfPage(DIST, url), 'utf8').matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!);
      const twice = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
      if (twice.length > 0) duplicated.push(`${url}: ${twice.join(' ')}`);
    }
    assert.deepEqual(duplicated, []);
  });
});

describe('names as people type them', () => {
  // Expected from the content: the tool's own name and each accepted alias or former name,
  // spelled as upstream spells it (`TaskStop`, `KillShell`), at `/<agent>/<name>/`. Placeholders
  // such as mcp__<server>__<tool> are not typed as URLs.
  const typedNames = site.tools.flatMap((tool) =>
    [tool.fullName, ...tool.generated.aliases.filter((a) => a.kind !== 'sdk-type').map((a) => a.name)]
      .filter((name) => !/[^A-Za-z0-9._-]/.test(name))
      .map((name) => ({ tool, name, alias: name !== tool.fullName })),
  );

  test('every tool name and alias, in lowercase as the not-found page retries it, is the tool page or a redirect page to it', () => {
    // Read from dist/: the folder the lowercase address names, and where its redirect page points.
    const misses: string[] = [];
    for (const { tool, name } of typedNames) {
      const file = join(DIST, tool.agent, name.toLowerCase(), 'index.html');
      const html = existsSync(file) ? readFileSync(file, 'utf8') : '';
      const target =
        /<meta\s+http-equiv="refresh"\s+content="0;url=([^"]+)"/i.exec(html)?.[1] ??
        (html ? `/${tool.agent}/${name.toLowerCase()}/` : 'nothing');
      if (target !== urlOf(tool))
        misses.push(`${tool.agent}/${name.toLowerCase()}/ → ${target}, expected ${urlOf(tool)}`);
    }
    assert.ok(typedNames.length >= site.tools.length, `only ${typedNames.length} names`);
    assert.deepEqual(misses, []);
  });

  test('typed in its own case, a name and an alias of each agent reach the tool page in the browser', async () => {
    // The browser path behind the test above: the 404 page's script retries in lowercase, then the
    // redirect page sends on. One own name and one alias per agent, preferring names with capitals.
    const byCapitals = (a: { name: string }, b: { name: string }) =>
      Number(/[A-Z]/.test(b.name)) - Number(/[A-Z]/.test(a.name)) || a.name.localeCompare(b.name);
    const sample = site.agents.flatMap((agent) =>
      [false, true].flatMap((alias) =>
        typedNames
          .filter((n) => n.tool.agent === agent.id && n.alias === alias)
          .sort(byCapitals)
          .slice(0, 1),
      ),
    );
    assert.ok(
      sample.some((n) => n.alias) && sample.some((n) => /[A-Z]/.test(n.name)),
      'the sample has an alias and a name with capitals',
    );
    const misses: string[] = [];
    for (const { tool, name } of sample) {
      await page.goto(`${served.base}/${tool.agent}/${name}/`);
      await page.waitForURL((u) => u.pathname === urlOf(tool), { timeout: 5_000 }).catch(() => {});
      if (new URL(page.url()).pathname !== urlOf(tool))
        misses.push(`${tool.agent}/${name}/ → ${new URL(page.url()).pathname}, expected ${urlOf(tool)}`);
    }
    assert.deepEqual(misses, []);
  });

  test('a case variant keeps its fragment; an unknown name shows the not-found page with the agent links', async () => {
    await page.goto(`${served.base}/Codex/Exec_Command/#input.cmd`);
    await page.waitForURL((u) => u.pathname === '/codex/exec_command/', { timeout: 5_000 });
    assert.equal(new URL(page.url()).hash, '#input.cmd');
    const missing = await page.goto(`${served.base}/claude-code/no-such-tool/`);
    assert.equal(missing?.status(), 404);
    assert.equal(new URL(page.url()).pathname, '/claude-code/no-such-tool/');
    const agentLinks = await page.$$eval('main a', (as) => as.map((a) => a.getAttribute('href')));
    for (const agent of site.agents) assert.ok(agentLinks.includes(`/${agent.id}/`), `404 links to /${agent.id}/`);
  });
});

describe('search', () => {
  // Each name people type (a tool's name or alias, any case) with every page that answers to it:
  // across agents names coincide (Claude Code's Glob, Gemini CLI's glob, OpenCode's glob …). The
  // MCP family names with placeholders (`mcp__<server>__<tool>`, `<server>-<tool>` …) are patterns,
  // not names anyone types, and search reads their `<` and `>` as nothing: they are left out.
  const stem = (word: string) => word.toLowerCase().replace(/e?s$/, '');
  const groups = new Map<string, { name: string; urls: Set<string> }>();
  for (const tool of site.tools) {
    for (const name of [tool.fullName, ...tool.generated.aliases.map((a) => a.name)]) {
      if (/[<>]/.test(name)) continue;
      const key = name.toLowerCase();
      const group = groups.get(key) ?? { name, urls: new Set<string>() };
      group.urls.add(urlOf(tool));
      groups.set(key, group);
    }
  }

  /**
   * Search stems and splits names at `_` and `.`, and indexes field names too (weight 6): a
   * tool whose name or one of whose fields has the typed name as a part, give or take a
   * plural (`propose_skills` for `Skill`, TaskStop's `task_id` for `Task`), is the same word
   * to it and may come among the pages that answer to the name (`urls`); nothing else may.
   */
  const sameWord = (name: string, urls: ReadonlySet<string>): Set<string> => {
    const hasPart = (n: string) => n.split(/[._-]/).some((part) => stem(part) === stem(name));
    return new Set(
      site.tools
        .filter(
          (t) =>
            !urls.has(urlOf(t)) &&
            ([t.fullName, ...t.generated.aliases.map((a) => a.name)].some(hasPart) ||
              fieldTables(t).some((table) => table.rows.some((r) => hasPart(r.name)))),
        )
        .map(urlOf),
    );
  };

  test('names typed exactly give the pages that answer to them as the first results (ties, an alias per agent and a spread; every name in the sweep)', async () => {
    const misses: string[] = [];
    await openSearch();
    // Every name through the Pagefind instance the dialog loaded (same module, same ranking
    // options), as many results as the dialog lists, which is far faster than typing each one.
    // How many results the dialog lists at first: its count for a word on many pages (an agent's
    // product name), which finds more than that.
    const common = site.agents[0]!.product;
    const listed = await searchUi(common);
    const all = await searchPagefind([common], Number.MAX_SAFE_INTEGER);
    assert.ok(all.get(common)!.length > listed.length, `${common} finds more pages than the dialog lists`);
    assert.deepEqual(
      all.get(common)!.slice(0, listed.length),
      listed,
      'the dialog and its Pagefind instance give the same results',
    );
    // Everyday: every name several pages answer to (the ties), an alias of each agent that has one, and a spread of
    // the others; with SWEEP, every name of its share too.
    const names = [...groups.values()];
    const aliases = site.agents.flatMap((agent) => {
      const alias = site.tools.find((t) => t.agent === agent.id && t.generated.aliases.length > 0)?.generated
        .aliases[0];
      const group = alias && groups.get(alias.name.toLowerCase());
      return group ? [group] : [];
    });
    const checked = atScale(names, [...names.filter((g) => g.urls.size > 1), ...aliases, ...spread(names, 8)]);
    const found = await searchPagefind(
      checked.map((g) => g.name),
      listed.length,
    );
    for (const { name, urls } of checked) {
      const results = found.get(name)!;
      // Those aside (`sameWord`), the first results are exactly the pages that answer to the name;
      // a name more agents share than the dialog lists at first (Glob, with eight agents) fills it.
      const aside = sameWord(name, urls);
      const want = Math.min(urls.size, listed.length);
      const first = results.filter((u) => !aside.has(u)).slice(0, want);
      if (first.length !== want || first.some((u) => !urls.has(u)))
        misses.push(`${name}: first results ${first.join(', ')}, expected ${[...urls].join(', ')}`);
    }
    assert.ok(groups.size >= site.tools.length * 0.8, `only ${groups.size} distinct names`);
    assert.deepEqual(misses, []);
  });

  test('a field name only one tool has gives that tool first, with field rows among its sub-results', async () => {
    // Compound field names (snake_case or camelCase, six characters or more) that occur in exactly
    // one tool's tables, from the content model; a deterministic spread of them. A plain English
    // word such as `updated` or `removed` is left out: search stems it, so it also finds `update`
    // and every changelog line, and no index can tell the field apart from the prose. Names are
    // compared without a plural ending for the same reason (`counts` finds a field `count`). A field
    // named like a tool (`ask_user`) is left out: the tool comes first. A name that begins a tool's
    // name (`askUser`, AskUserQuestion) or a longer field name (`new_str`, new_string) is kept, and
    // every such name is in the sample: search completes words, so those are the hard cases.
    const toolNames = site.tools
      .flatMap((t) => [t.fullName, ...t.generated.aliases.map((a) => a.name)])
      .map((n) => n.toLowerCase());
    const fieldNames = [
      ...new Set(
        site.tools.flatMap((t) => fieldTables(t).flatMap((table) => table.rows.map((r) => r.name.toLowerCase()))),
      ),
    ];
    const owners = new Map<string, Set<string>>();
    for (const tool of site.tools) {
      for (const table of fieldTables(tool)) {
        for (const row of table.rows) {
          if (row.role !== 'property' || !/^[a-z][A-Za-z0-9_]{5,}$/.test(row.name) || !/[A-Z_]/.test(row.name))
            continue;
          if (toolNames.includes(row.name.toLowerCase())) continue;
          owners.set(stem(row.name), (owners.get(stem(row.name)) ?? new Set()).add(`${urlOf(tool)} ${row.name}`));
        }
      }
    }
    const unique = [...owners]
      .filter(([, places]) => new Set([...places].map((p) => p.split(' ')[0])).size === 1 && places.size === 1)
      .map(([, places]) => {
        const [url, name] = [...places][0]!.split(' ') as [string, string];
        return { name, url };
      });
    const completed = (name: string) =>
      [...toolNames, ...fieldNames].some((n) => n !== name.toLowerCase() && n.startsWith(name.toLowerCase()));
    const hard = unique.filter((u) => completed(u.name));
    const step = Math.max(1, Math.floor(unique.length / 12));
    const sample = [...hard, ...unique.filter((u, i) => i % step === 0 && !completed(u.name))];
    assert.ok(sample.length >= 10, `only ${sample.length} unique field names`);
    assert.ok(hard.length > 0, 'some unique field name begins a longer name');
    const misses: string[] = [];
    await openSearch();
    for (const { name, url } of sample) {
      const results = await searchUi(name);
      const rows = (await allResultLinks()).filter((l) => l.startsWith(url + '#'));
      if (results[0] !== url) misses.push(`${name}: first result ${results[0]}, expected ${url}`);
      // A field row of the Input, Result or model-facing table, or of a definition that differs by configuration.
      else if (!rows.some((l) => /#(config-[a-z0-9-]+\.)?(input|output|model-input)[.:]/.test(decodeURIComponent(l))))
        misses.push(`${name}: no field row among the sub-results (${rows.join(', ')})`);
    }
    assert.deepEqual(misses, []);
  });

  /**
   * The parts of the open tool page's fact line as a sighted reader sees them: without the separators drawn between
   * them (their text is sized 0) and the names indexed in place of those shown.
   */
  const factParts = (): Promise<string[]> =>
    page.$$eval('.tool-facts > span:not(.index-term)', (spans) =>
      spans.map((span) => {
        const copy = span.cloneNode(true) as HTMLElement;
        copy.querySelectorAll('.fact-sep, .index-term').forEach((e) => e.remove());
        return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      }),
    );

  test("a name typed in one agent's spelling gives the pages spelled so first, then the other agents' pages of that name", async () => {
    // Every name that agents spell differently (Bash and bash, Edit and edit …), typed each way into
    // the dialog. Expected, from the content model: the pages that answer to the name exactly as typed,
    // then the other pages that answer to it in another case; pages that only have it as a part of a
    // name or field (the first test's `sameWord`) may come among them and are set aside.
    const spelledBy = new Map<string, Map<string, Set<string>>>();
    for (const tool of site.tools) {
      for (const name of [tool.fullName, ...tool.generated.aliases.map((a) => a.name)]) {
        if (/[<>]/.test(name)) continue;
        const spellings = spelledBy.get(name.toLowerCase()) ?? new Map<string, Set<string>>();
        spellings.set(name, (spellings.get(name) ?? new Set()).add(urlOf(tool)));
        spelledBy.set(name.toLowerCase(), spellings);
      }
    }
    const mixed = [...spelledBy].filter(([, spellings]) => spellings.size > 1);
    assert.ok(mixed.length > 0, 'some name is spelled differently by two agents');
    const misses: string[] = [];
    const orders: string[] = [];
    await openSearch();
    // Each spelling through the Pagefind instance the dialog loaded, as many results as the dialog lists (the first
    // test holds the dialog to that instance's order), in one call rather than typed one by one.
    const shown = (await searchUi(site.agents[0]!.product)).length;
    const found = await searchPagefind(
      mixed.flatMap(([, spellings]) => [...spellings.keys()]),
      shown,
    );
    for (const [key, spellings] of mixed) {
      const all = new Set([...spellings.values()].flatMap((urls) => [...urls]));
      for (const [typed, exact] of spellings) {
        const listed = found.get(typed)!;
        orders.push(`${typed}: ${listed.join(' ')}`);
        const aside = sameWord(typed, all);
        const first = listed.filter((u) => !aside.has(u)).slice(0, all.size);
        const want = first.map((_, i) => (i < exact.size ? 'exact' : 'other'));
        const got = first.map((u) => (exact.has(u) ? 'exact' : all.has(u) ? 'other' : `not ${key}: ${u}`));
        if (got.join() !== want.join())
          misses.push(
            `${typed}: ${first.join(', ')} (expected ${[...exact].join(', ')} first, then ${[...all].filter((u) => !exact.has(u)).join(', ')})`,
          );
      }
    }
    assert.deepEqual(misses, [], orders.join('\n'));
  });

  test('each tool result is titled with its name and the release its page shows, and hides the ranking fields', async () => {
    // A spread of tools whose name no other tool has: the first result for the name is the tool's page.
    const single = [...groups.values()].filter(
      (g) => g.urls.size === 1 && site.tools.some((t) => t.fullName === g.name && urlOf(t) === [...g.urls][0]),
    );
    const step = Math.max(1, Math.floor(single.length / 6));
    const sample = single.filter((_, i) => i % step === 0).slice(0, 6);
    // What each page shows: its h1 and the first fact of its fact line (the release), read from the page.
    const shown = new Map<string, string>();
    for (const { urls } of sample) {
      const url = [...urls][0]!;
      await page.goto(served.base + url);
      const h1 = (await page.locator('h1').innerText()).trim();
      const [release] = await factParts();
      shown.set(url, `${h1} — ${release}`);
    }
    await openSearch();
    const misses: string[] = [];
    for (const { name, urls } of sample) {
      const url = [...urls][0]!;
      const listed = await searchUi(name);
      if (listed[0] !== url) continue; // the name-ranking test reports that
      const first = page.locator('.pagefind-ui__result').first();
      const title = (await first.locator('.pagefind-ui__result-link').first().innerText()).trim();
      if (title !== shown.get(url))
        misses.push(
          `${name}: result titled ${JSON.stringify(title)}, the page shows ${JSON.stringify(shown.get(url))}`,
        );
      for (const field of ['names', 'spelled']) {
        const meta = first.locator(`[data-pagefind-ui-meta="${field}"]`);
        if ((await meta.count()) > 0 && (await meta.isVisible())) misses.push(`${name}: the ${field} field is shown`);
      }
    }
    assert.ok(sample.length >= 3, `only ${sample.length} tools sampled`);
    assert.deepEqual(misses, []);
  });

  test("the agent filter lists every agent and narrows the results to that agent's pages", async () => {
    // The name the most agents share.
    const shared = [...groups.values()].sort(
      (a, b) =>
        new Set([...b.urls].map((u) => u.split('/')[1])).size - new Set([...a.urls].map((u) => u.split('/')[1])).size,
    )[0]!;
    await openSearch();
    const before = await searchUi(shared.name);
    // Product names are written with no-break spaces (search.ts says why); read as typed.
    const labels = await page.$$eval('.pagefind-ui__filter-label', (ls) =>
      ls.map((l) => (l.textContent ?? '').replaceAll('\u00a0', ' ')),
    );
    const ids = await page.$$eval('.pagefind-ui__filter-checkbox', (bs) =>
      bs.map((b) => [b.id, document.querySelector(`label[for="${CSS.escape(b.id)}"]`) !== null] as const),
    );
    // Pagefind turns the no-break spaces of the filter values back into spaces when it builds the
    // checkbox ids, so an id may hold a space (an open blemish); each checkbox still has its label.
    for (const [id, labelled] of ids) assert.ok(labelled, `checkbox ${id} has its label`);
    assert.equal(new Set(ids.map(([id]) => id)).size, ids.length, 'checkbox ids are unique');
    assert.deepEqual(
      labels.map((l) => l.replace(/ \(\d+\)$/, '')).sort(),
      site.agents.map((a) => a.product).sort(),
      'one checkbox per agent, labelled with its product name and a count',
    );
    const agent = site.agents.find((a) => before.slice(1).some((u) => u.startsWith(`/${a.id}/`)))!;
    const box = page
      .locator('.pagefind-ui__filter-checkbox')
      .nth(labels.findIndex((l) => l.startsWith(`${agent.product} (`)));
    // Pagefind's UI opens a lone filter group by itself only when it has at most six values: with
    // more agents a reader opens it first, by its summary, as done here.
    if (!(await page.locator('details.pagefind-ui__filter-block').evaluate((d) => (d as HTMLDetailsElement).open)))
      await page.click('details.pagefind-ui__filter-block > summary');
    await box.check();
    await page.waitForFunction(
      (prefix) => {
        const links = [
          ...document.querySelectorAll('.pagefind-ui__result > * .pagefind-ui__result-link'),
        ] as HTMLAnchorElement[];
        return links.length > 0 && links.every((a) => new URL(a.href).pathname.startsWith(prefix));
      },
      `/${agent.id}/`,
      { timeout: 10_000 },
    );
    const filtered = await page.$$eval('.pagefind-ui__result', (rs) =>
      rs.map((r) => new URL((r.querySelector('.pagefind-ui__result-link') as HTMLAnchorElement).href).pathname),
    );
    assert.ok(
      filtered.every((u) => u.startsWith(`/${agent.id}/`)),
      filtered.join(' '),
    );
    assert.equal(
      filtered[0],
      before.find((u) => u.startsWith(`/${agent.id}/`)),
      `${agent.product}'s page of ${shared.name} comes first`,
    );
    await box.uncheck();
  });

  test('excerpts read the fact line as the page shows it, its parts separated', async () => {
    // Pagefind's text of a tool page holds its fact line as shown, ` · ` between the parts; names
    // are indexed lowercased in place of the names shown, so the comparison ignores case.
    const tool = site.tools.find((t) => t.generated.aliases.some((a) => a.kind !== 'sdk-type')) ?? site.tools[0]!;
    await page.goto(served.base + urlOf(tool));
    const parts = await factParts();
    assert.ok(parts.length >= 3, parts.join(' | '));
    const content = await page.evaluate(
      async ({ url, name }) => {
        const module = '/pagefind/pagefind.js';
        const pagefind = await import(module);
        const found = await pagefind.search(name);
        for (const r of found.results) {
          const data = await r.data();
          if (new URL(data.url, location.href).pathname === url) return data.content as string;
        }
        return '';
      },
      { url: urlOf(tool), name: tool.fullName },
    );
    const squash = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').replace(/ \)/g, ')');
    assert.ok(
      squash(content).includes(squash(parts.join(' · '))),
      `${parts.join(' · ')}\nnot in\n${content.slice(0, 400)}`,
    );
  });

  /**
   * The tie rule's reference, read from the published catalog (dist/catalog.json), not from the
   * ranking code: its agents are listed in the site's order, which docs/pages.md's search section
   * says breaks ties; and the pages that answer to each name exactly as spelled (a tool's full name
   * or one of its aliases).
   */
  const catalog = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as {
    agents: { id: string; product: string }[];
    tools: { agent: string; slug: string; name: string; fullName: string; aliases: { name: string }[] }[];
  };
  const catalogOrder = catalog.agents.map((a) => a.id);
  const spelledPages = new Map<string, Set<string>>();
  for (const t of catalog.tools) {
    for (const name of new Set([t.fullName, ...t.aliases.map((a) => a.name)])) {
      if (/[<>]/.test(name)) continue;
      spelledPages.set(name, (spelledPages.get(name) ?? new Set()).add(`/${t.agent}/${t.slug}/`));
    }
  }
  const agentOfUrl = (url: string) => url.split('/')[1]!;
  /** The agents of `urls` as the tie rule orders them: by their place in the catalog's agent list. */
  const inCatalogOrder = (urls: Iterable<string>) =>
    [...urls].map(agentOfUrl).sort((a, b) => catalogOrder.indexOf(a) - catalogOrder.indexOf(b));

  /**
   * Each agent's hooks page's events, read from the built page: the rows of its events table
   * (`id="event-<name>"`) and the events the paragraph under it says concern no tool call.
   */
  const hookEvents = new Map<string, Set<string>>();
  for (const agent of catalogOrder) {
    const file = join(DIST, agent, 'hooks', 'index.html');
    if (!existsSync(file)) continue;
    const html = readFileSync(file, 'utf8');
    const rows = [...html.matchAll(/<tr role="row" id="event-([^"]+)"/g)].map((m) => m[1]!);
    const others = [
      ...(html.match(/concern no single tool call: (.*?)\.<\/p>/)?.[1] ?? '').matchAll(/<code>([^<]+)<\/code>/g),
    ].map((m) => m[1]!);
    hookEvents.set(agent, new Set([...rows, ...others].map((e) => e.replace(/&amp;/g, '&'))));
  }
  /** The title each result in the open dialog shows, by its link. */
  const resultTitles = () =>
    page.$$eval('.pagefind-ui__result', (rs) =>
      rs.map((r) => ((r.querySelector('.pagefind-ui__result-link') as HTMLElement).textContent ?? '').trim()),
    );

  test("an event name gives the hooks pages of the agents that have it first, in the catalog's agent order, each titled with its agent", async () => {
    const event = 'PreToolUse';
    const having = [...hookEvents].filter(([, events]) => events.has(event)).map(([agent]) => agent);
    assert.ok(having.length >= 2, `${event} is an event of several agents' hooks pages (${having.join(', ')})`);
    await openSearch();
    const listed = await searchUi(event);
    const titles = await resultTitles();
    const want = Math.min(having.length, listed.length);
    const tools = spelledPages.get(event) ?? new Set<string>();
    assert.equal(tools.size, 0, `no tool is named ${event}`);
    assert.deepEqual(
      listed.slice(0, want),
      having.slice(0, want).map((a) => `/${a}/hooks/`),
      `${event}: ${listed.join(' ')}`,
    );
    for (const [i, url] of listed.slice(0, want).entries()) {
      const product = catalog.agents.find((a) => a.id === agentOfUrl(url))!.product;
      assert.ok(
        titles[i]!.replaceAll('\u00a0', ' ').includes(product),
        `result ${i + 1} (${url}) is titled ${JSON.stringify(titles[i])}, which does not name ${product}`,
      );
    }
    // Every other event, through the dialog's Pagefind instance: the pages that answer to it as
    // spelled (hooks pages with that event, tools of that name) come first, in the catalog's order.
    const events = [...new Set([...hookEvents.values()].flatMap((e) => [...e]))].filter((e) => e !== event);
    const found = await searchPagefind(events, listed.length);
    const misses: string[] = [];
    for (const e of events) {
      const pages = new Set([
        ...[...hookEvents].filter(([, es]) => es.has(e)).map(([a]) => `/${a}/hooks/`),
        ...(spelledPages.get(e) ?? []),
      ]);
      const first = found.get(e)!.slice(0, Math.min(pages.size, listed.length));
      const expected = inCatalogOrder(pages).slice(0, first.length);
      if (first.some((u) => !pages.has(u)) || first.map(agentOfUrl).join() !== expected.join())
        misses.push(`${e}: ${first.join(' ')} (expected the pages of ${expected.join(', ')})`);
    }
    assert.deepEqual(misses, []);
  });

  test("a name several agents spell alike gives all their pages first, ordered by the tie rule (the catalog's agent order)", async () => {
    // A namespaced tool's name inside its namespace (Codex's `notes.read_file` is `read_file` there)
    // is left out: whether its page answers to it depends on the names its history saw, which the
    // catalog does not list.
    const inNamespace = new Set(catalog.tools.filter((t) => t.name !== t.fullName).map((t) => t.name));
    const shared = [...spelledPages].filter(
      ([name, urls]) => new Set([...urls].map(agentOfUrl)).size > 1 && !inNamespace.has(name),
    );
    for (const name of ['TaskStop', 'WebSearch'])
      assert.ok(
        shared.some(([n]) => n === name),
        `${name} is spelled alike by several agents`,
      );
    await openSearch();
    // The two names the issue named, as typed into the dialog: the first result is the page of the
    // agent the rule picks, titled with that agent.
    for (const name of ['TaskStop', 'WebSearch']) {
      const urls = spelledPages.get(name)!;
      const [agent] = inCatalogOrder(urls);
      const listed = await searchUi(name);
      const title = (await resultTitles())[0]!.replaceAll('\u00a0', ' ');
      assert.equal(
        listed[0],
        [...urls].find((u) => agentOfUrl(u) === agent),
        `${name}: ${listed.join(' ')}`,
      );
      assert.ok(
        title.includes(catalog.agents.find((a) => a.id === agent)!.product),
        `${name}: first result titled ${title}`,
      );
    }
    // Every name spelled alike by several agents, through the dialog's Pagefind instance.
    const listedCount = (await searchUi(catalog.agents[0]!.product)).length;
    const found = await searchPagefind(
      shared.map(([n]) => n),
      listedCount,
    );
    const misses: string[] = [];
    for (const [name, urls] of shared) {
      const hooks = [...hookEvents].filter(([, es]) => es.has(name)).map(([a]) => `/${a}/hooks/`);
      const pages = new Set([...urls, ...hooks]);
      const first = found.get(name)!.slice(0, Math.min(pages.size, listedCount));
      const expected = inCatalogOrder(pages).slice(0, first.length);
      if (first.some((u) => !pages.has(u)) || first.map(agentOfUrl).join() !== expected.join())
        misses.push(`${name}: ${first.join(' ')} (expected the pages of ${expected.join(', ')} in that order)`);
    }
    assert.ok(shared.length >= 2);
    assert.deepEqual(misses, []);
  });

  test('excerpts read as the pages do: every word of an excerpt is a word of its page, none glued from two cells or blocks', async () => {
    // The words of a page as a reader sees them apart: its text, cut wherever an element that is not
    // laid out inline starts or ends (table cells, list items, terms and descriptions, summaries …);
    // hidden elements count, as search indexes some (names lowercased).
    // One second tab reads every page: a tab per page would start a renderer per page.
    const other = await served.browser.newPage();
    const pageWords = async (url: string): Promise<Set<string>> => {
      await other.goto(served.base + url);
      const text = await other.$eval('main', (main) => {
        const parts: string[] = [];
        const walk = (node: Node) => {
          if (node.nodeType === Node.TEXT_NODE) return void parts.push(node.textContent ?? '');
          if (!(node instanceof Element)) return;
          const display = getComputedStyle(node).display;
          const inline = display.startsWith('inline') || display === 'contents';
          if (!inline) parts.push('\n');
          for (const child of node.childNodes) walk(child);
          if (!inline) parts.push('\n');
        };
        walk(main);
        return parts.join('');
      });
      return new Set(text.split(/\s+/).map(bare).filter(Boolean));
    };
    const bare = (word: string) => word.toLowerCase().replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    // Searches whose excerpts cross table headers, cells, definition lists and folded evidence.
    const queries = ['PreToolUse', 'TaskStop', 'Required', 'defaults', catalog.agents[0]!.product];
    await openSearch();
    const misses: string[] = [];
    const words = new Map<string, Set<string>>();
    let checked = 0;
    for (const q of queries) {
      await searchUi(q);
      const excerpts = await page.$$eval('.pagefind-ui__result-excerpt', (ps) =>
        ps.map((p) => {
          const link = p.parentElement?.querySelector('.pagefind-ui__result-link') as HTMLAnchorElement | null;
          return { url: link ? new URL(link.href).pathname : '', text: p.textContent ?? '' };
        }),
      );
      // The excerpts of the first three pages listed (each page's sub-results with it): a page read costs a load.
      const firstPages = [...new Set(excerpts.map((e) => e.url).filter(Boolean))].slice(0, 3);
      for (const { url, text } of excerpts) {
        if (!firstPages.includes(url) || text.trim() === '') continue;
        if (!words.has(url)) words.set(url, await pageWords(url));
        const known = words.get(url)!;
        checked++;
        for (const token of text.split(/\s+/).map(bare).filter(Boolean))
          if (!known.has(token)) misses.push(`${q} → ${url}: "${token}" in ${JSON.stringify(text)}`);
      }
    }
    await other.close();
    assert.ok(checked >= queries.length * 3, `only ${checked} excerpts read`);
    assert.deepEqual(misses, []);
  });

  test('a field name gives the field row as a sub-result', async () => {
    await openSearch();
    await searchUi('structuredPatch');
    const links = await allResultLinks();
    assert.ok(links.includes('/claude-code/edit/#output.structuredPatch'), links.join('\n'));
  });
});

describe('weight', () => {
  // The script elements each page ships, read from its built HTML: what a browser runs on load (no script of the
  // site adds a <script> element). Reading the files spares a browser load of each page.
  test("agent pages, home and jobs load no script beyond Starlight's; tool pages at most 2 KB more", async () => {
    const scriptsOf = (path: string) =>
      [...readFileSync(fileOfPage(DIST, path), 'utf8').matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map(
        ([, attributes, text]) => /\ssrc="([^"]+)"/.exec(attributes!)?.[1] ?? `inline:${text}`,
      );
    const bytes = async (script: string) =>
      script.startsWith('inline:')
        ? Buffer.byteLength(script.slice('inline:'.length))
        : (await (await fetch(served.base + script)).arrayBuffer()).byteLength;
    // The about page is a Markdown page with a code block: Starlight's own scripts, nothing of ours.
    const baseline = new Set(scriptsOf('/about/'));
    assert.ok(
      [...baseline].some((s) => s.startsWith('/_astro/')),
      'the reading finds the module scripts Starlight ships',
    );
    for (const path of ['/', '/jobs/', ...site.agents.map((a) => `/${a.id}/`)]) {
      const extra = scriptsOf(path).filter((s) => !baseline.has(s));
      assert.deepEqual(extra, [], `${path} loads scripts beyond Starlight's`);
    }
    // The first tool page of each agent with a field table (its rows carry the copy-link control).
    const toolPages = site.agents.flatMap((a) => {
      const url = site.tools
        .filter((t) => t.agent === a.id)
        .map(urlOf)
        .sort()
        .find((u) => readFileSync(fileOfPage(DIST, u), 'utf8').includes('class="field-link"'));
      return url ? [url] : [];
    });
    assert.ok(toolPages.length > 0);
    for (const path of toolPages) {
      const extra = scriptsOf(path).filter((s) => !baseline.has(s));
      let total = 0;
      for (const s of extra) total += await bytes(s);
      assert.ok(extra.length > 0, `${path}: the copy-link script is there`);
      assert.ok(total <= 2048, `${path} adds ${total} bytes of script`);
    }
  });
});
