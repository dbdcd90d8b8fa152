/**
 * The committed captures, the configuration matrix and the built pages agree.
 * What each capture advertises is read from the raw request body, with a plain
 * walk of the wire format's `tools` array written for the tests
 * (test/helpers/captured-entries.ts), not with the build's extraction: every
 * tool there has a page, found in dist/ by its name (or its alias's redirect
 * page, or its MCP family's placeholder name), that marks that configuration as
 * advertised, in the way the entry says; and no page claims a configuration
 * whose capture does not name the tool.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFragment } from 'parse5';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';
import { advertised, readCapture, readMatrix, type Entry } from '../helpers/captured-entries.ts';

const matrix = readMatrix();
const captureOf = (agent: string, config: string) => readCapture(agent, config);

before(() => buildSite());

/** How each kind of entry is worded in a page's availability list ("Advertised as … in N"). */
const WORDING: Record<Entry['how'], RegExp> = {
  function: /^function\b/,
  freeform: /^freeform\b/,
  'deferred with schema': /^deferred \(schema sent/,
  hosted: /^hosted\b/,
  'built-in': /^built-in\b/,
};

const textOf = (node: any): string =>
  node.nodeName === '#text' ? node.value : (node.childNodes ?? []).map(textOf).join('');

/** The text of a built page's <h1>: the tool's name. */
function titleOf(url: string): string {
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(readFileSync(join(DIST, url, 'index.html'), 'utf8'));
  return h1 ? textOf(parseFragment(h1[1]!)).replace(/\s/g, '') : '';
}

/** A name as a pattern: each placeholder (`<server>`) stands for any identifier. */
const namePattern = (name: string): RegExp =>
  new RegExp(
    name
      .split(/(<[a-z]+>)/)
      .map((part) => (/^<[a-z]+>$/.test(part) ? '[A-Za-z0-9_-]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join(''),
  );

/** The built page a typed name reaches: its own page, or where its alias's redirect page sends the browser. */
function pageOfName(agent: string, name: string): string | undefined {
  const file = join(DIST, agent, name.toLowerCase(), 'index.html');
  if (!existsSync(file)) return undefined;
  const refresh = /<meta\s+http-equiv="refresh"\s+content="0;url=([^"]+)"/i.exec(readFileSync(file, 'utf8'));
  return refresh ? refresh[1]!.replace(/^\/|\/$/g, '') : `${agent}/${name.toLowerCase()}`;
}

/**
 * Pages of an agent named with placeholders (`mcp__<server>__<tool>`), each as
 * a pattern of the names it stands for: a tool of any MCP server is shown there.
 */
const families = new Map<string, { url: string; pattern: RegExp }[]>();
function familyPages(agent: string): { url: string; pattern: RegExp }[] {
  if (!families.has(agent)) families.set(agent, readFamilyPages(agent));
  return families.get(agent)!;
}
function readFamilyPages(agent: string): { url: string; pattern: RegExp }[] {
  return readdirSync(join(DIST, agent), { withFileTypes: true }).flatMap((d) => {
    const file = join(DIST, agent, d.name, 'index.html');
    if (!d.isDirectory() || !existsSync(file)) return [];
    const title = titleOf(`${agent}/${d.name}`);
    if (!/<[a-z]+>/.test(title)) return [];
    return [{ url: `${agent}/${d.name}`, pattern: new RegExp(`^${namePattern(title).source}$`) }];
  });
}

/**
 * Configuration label → how the built tool page says it was advertised there,
 * read from the availability list: `<dt>Advertised as function (JSON Schema) in 19</dt>`
 * (or `Not advertised in 2`) followed by a `<dd>` linking each configuration.
 */
const availabilities = new Map<string, Map<string, string>>();
function availabilityOf(url: string): Map<string, string> {
  if (!availabilities.has(url)) availabilities.set(url, readAvailability(url));
  return availabilities.get(url)!;
}
function readAvailability(url: string): Map<string, string> {
  const html = readFileSync(join(DIST, url, 'index.html'), 'utf8');
  const start = html.indexOf('<dl class="availability"');
  const out = new Map<string, string>();
  if (start < 0) return out;
  const text = (node: any): string =>
    node.nodeName === '#text' ? node.value : (node.childNodes ?? []).map(text).join('');
  const links = (node: any): string[] =>
    node.tagName === 'a' ? [text(node).trim()] : (node.childNodes ?? []).flatMap(links);
  const walk = (node: any): void => {
    if (
      node.tagName === 'dl' &&
      node.attrs.some((a: any) => a.name === 'class' && a.value.split(' ').includes('availability'))
    ) {
      const items = node.childNodes.filter((c: any) => c.tagName === 'dt' || c.tagName === 'dd');
      for (let i = 0; i + 1 < items.length; i += 2) {
        const m = /^(?:Advertised as (.+)|Not advertised) in (\d+)$/.exec(text(items[i]).trim());
        assert.ok(m, `${url}: unexpected availability heading ${JSON.stringify(text(items[i]))}`);
        const labels = links(items[i + 1]);
        assert.equal(
          labels.length,
          Number(m[2]),
          `${url}: the count of "${text(items[i]).trim()}" matches its configurations`,
        );
        for (const label of labels) out.set(label, m[1] ?? 'not advertised');
      }
    }
    for (const c of node.childNodes ?? []) walk(c);
  };
  walk(parseFragment(html.slice(start, html.indexOf('</dl>', start) + '</dl>'.length)));
  return out;
}

/**
 * The page of a tool entry: by its name; for a namespaced entry whose name already carries its
 * namespace (`github-mcp-server.github-mcp-server-search_code`, sent flat elsewhere), by that name;
 * else the family page whose placeholders its name fills.
 */
const pages = new Map<string, string | undefined>();
function pageOf(agent: string, tool: Entry): string | undefined {
  const key = `${agent} ${tool.fullName}`;
  const namespace =
    tool.fullName.length > tool.name.length
      ? tool.fullName.slice(0, tool.fullName.length - tool.name.length - 1)
      : undefined;
  const carried =
    namespace !== undefined && tool.name.startsWith(`${namespace}-`) ? pageOfName(agent, tool.name) : undefined;
  if (!pages.has(key))
    pages.set(
      key,
      pageOfName(agent, tool.fullName) ??
        carried ??
        familyPages(agent).find((f) => f.pattern.test(tool.fullName) || f.pattern.test(tool.name))?.url,
    );
  return pages.get(key);
}

test('every configuration of the matrix has its capture, at the pinned version', () => {
  for (const [agent, m] of Object.entries(matrix.agents)) {
    for (const c of m.configurations) {
      const path = join(ROOT, 'content/captures', agent, `${c.id}.json`);
      assert.ok(existsSync(path), `${agent}/${c.id} has no capture`);
      const capture = captureOf(agent, c.id);
      assert.equal(capture.cli.version, m.version);
      assert.equal(capture.configuration, c.id);
    }
  }
});

test("every tool in a capture's tools array has a page that marks the configuration as the entry advertises it", () => {
  const misses: string[] = [];
  let checked = 0;
  for (const [agent, m] of Object.entries(matrix.agents)) {
    for (const c of m.configurations) {
      const tools = advertised(captureOf(agent, c.id).body);
      assert.ok(tools.length > 0, `${agent}/${c.id}: the walk found no tools`);
      for (const tool of tools) {
        const url = pageOf(agent, tool);
        if (!url) {
          misses.push(`${agent}/${c.id}: ${tool.fullName} has no page`);
          continue;
        }
        const shown = availabilityOf(url).get(c.label);
        if (!shown || !WORDING[tool.how].test(shown))
          misses.push(
            `${url}: ${c.label} shows ${shown ?? 'nothing'}, the capture has ${tool.fullName} as ${tool.how}`,
          );
        checked++;
      }
    }
  }
  assert.deepEqual(misses, []);
  assert.ok(checked > 0);
});

test('no page marks a configuration as advertising a tool whose capture does not name it', () => {
  const misses: string[] = [];
  for (const [agent, m] of Object.entries(matrix.agents)) {
    const bodies = new Map(m.configurations.map((c) => [c.label, captureOf(agent, c.id).body]));
    const texts = new Map([...bodies].map(([label, body]) => [label, JSON.stringify(body)]));
    // The pages the entries of each configuration's tools array lead to.
    const direct = new Map(
      [...bodies].map(([label, body]) => [label, new Set(advertised(body).map((tool) => pageOf(agent, tool)))]),
    );
    for (const d of readdirSync(join(DIST, agent), { withFileTypes: true })) {
      const file = join(DIST, agent, d.name, 'index.html');
      if (!d.isDirectory() || !existsSync(file)) continue;
      const url = `${agent}/${d.name}`;
      for (const [label, shown] of availabilityOf(url)) {
        assert.ok(bodies.has(label), `${url}: ${label} is no configuration of the matrix`);
        if (shown === 'not advertised') continue;
        if (/^(function|freeform|hosted|built-in)\b|^deferred \(schema sent/.test(shown)) {
          // Said to be an entry of the tools array: then the walk finds an entry that leads to this page.
          if (!direct.get(label)!.has(url))
            misses.push(`${url}: ${label} shows ${shown}, but no entry of its tools array is this tool`);
        } else {
          // Nested in code mode or named only (deferred, alone or by its namespace): the request names
          // the tool, or its namespace, in its text; a family page (`mcp__<server>__<tool>`), some
          // name of that shape.
          const text = texts.get(label)!;
          const title = titleOf(url);
          const family = /<[a-z]+>/.test(title);
          const dot = title.lastIndexOf('.');
          const names = [title, ...(dot > 0 ? [title.slice(0, dot)] : []), ...(family ? [] : [title.slice(dot + 1)])];
          const named = names.some((n) => namePattern(n).test(text));
          if (!named) misses.push(`${url}: ${label} shows ${shown}, but its capture never names ${title}`);
        }
      }
    }
  }
  assert.deepEqual(misses, []);
});
