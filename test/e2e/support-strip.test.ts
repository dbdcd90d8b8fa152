/**
 * The support strip of the built tool pages (dist/) against content/payloads/, read here
 * without the site's code: a tool with recorded hook payloads never says "no hook payload
 * recorded", and each name its "In hooks" lists is a string some recorded payload of that
 * tool carries. And a history claims no "since" for a tool none of the configurations it
 * follows advertises: every page that says so names no release in its "Releases" line.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attr, elements, textOf as text, type Element } from '../helpers/html.ts';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';
import { expandAvailability, type CompactAvailability } from '../../src/lib/exports/availability.ts';

interface Catalog {
  tools: { agent: string; fullName: string; aliases: { name: string }[]; links: { page: string } }[];
}

let catalog: Catalog;
before(() => {
  buildSite();
  catalog = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as Catalog;
});

/** The strip's definition list of a built page: term → its description element. */
function strip(page: string): Map<string, Element> {
  const html = readFileSync(join(DIST, page, 'index.html'), 'utf8');
  const dl = elements(html).find(
    (e) => e.tagName === 'dl' && (attr(e, 'class') ?? '').split(/\s+/).includes('support-strip'),
  );
  assert.ok(dl, `${page} has a support strip`);
  const out = new Map<string, Element>();
  for (const div of dl.childNodes.filter((c): c is Element => 'tagName' in c)) {
    const dt = div.childNodes.find((c): c is Element => 'tagName' in c && c.tagName === 'dt');
    const dd = div.childNodes.find((c): c is Element => 'tagName' in c && c.tagName === 'dd');
    if (dt && dd) out.set(text(dt).trim(), dd);
  }
  return out;
}

/** Every string anywhere in a JSON value. */
function strings(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

test('a tool page with recorded hook payloads never says none is recorded, and names the tool as its payloads do', () => {
  const PAYLOADS = join(ROOT, 'content/payloads');
  // Tool page → the strings of the hook payloads recorded for calls of that tool.
  const recorded = new Map<string, Set<string>>();
  let unmatched = 0;
  for (const agent of existsSync(PAYLOADS) ? readdirSync(PAYLOADS) : []) {
    for (const f of readdirSync(join(PAYLOADS, agent))) {
      const data = JSON.parse(readFileSync(join(PAYLOADS, agent, f), 'utf8')) as {
        tool: string;
        calls: { tool: string; hooks?: unknown[] }[];
      };
      const own = data.calls.filter((c) => c.tool === data.tool && (c.hooks?.length ?? 0) > 0);
      if (own.length === 0) continue;
      const tool = catalog.tools.find(
        (t) => t.agent === agent && (t.fullName === data.tool || t.aliases.some((a) => a.name === data.tool)),
      );
      if (!tool) {
        unmatched++;
        continue;
      }
      const set = recorded.get(tool.links.page) ?? new Set<string>();
      for (const c of own) strings(c.hooks, set);
      recorded.set(tool.links.page, set);
    }
  }
  assert.ok(recorded.size > 0, 'some tool has recorded hook payloads');
  assert.ok(unmatched < recorded.size, `most payload files name a tool of the catalog (${unmatched} do not)`);
  const agents = new Set<string>();
  for (const [page, values] of recorded) {
    const dd = strip(page).get('In hooks');
    assert.ok(dd, `${page}: the strip has an "In hooks" line`);
    const line = text(dd).trim();
    assert.doesNotMatch(line, /no hook payload recorded/, `${page} has recorded hook payloads`);
    const names = dd.childNodes.filter((c): c is Element => 'tagName' in c && c.tagName === 'code').map((c) => text(c));
    assert.ok(names.length > 0, `${page}: "In hooks" names the tool (${line})`);
    for (const name of names)
      assert.ok(values.has(name), `${page}: "${name}" is a string of its recorded hook payloads`);
    agents.add(page.split('/')[1]!);
  }
  assert.ok(agents.size > 1, 'payloads of several agents were checked');
});

test('a page whose history follows no configuration advertising the tool names no release in its "Releases" line', () => {
  let seen = 0;
  for (const tool of catalog.tools) {
    const dd = strip(tool.links.page).get('Releases');
    assert.ok(dd, `${tool.links.page}: the strip has a "Releases" line`);
    const line = text(dd).replace(/\s+/g, ' ').trim();
    if (!/none of them advertises this tool|it does not advertise this tool/.test(line)) continue;
    seen++;
    const captures = line.split('; ').find((part) => part.startsWith('captures:'))!;
    assert.doesNotMatch(captures, /since|already there|added|removed|\d+\.\d+\.\d+/, `${tool.links.page}: ${captures}`);
    assert.match(
      captures,
      /the history follows the configurations? \S/,
      `${tool.links.page} says which configurations the history follows`,
    );
  }
  assert.ok(seen > 0, 'some page has a tool no followed configuration advertises');
});

test('"already there in" in captures only for a tool some configuration the capture history follows advertises at the pin', () => {
  const HISTORY = join(ROOT, 'content/history');
  const followed = new Map<string, string[]>();
  for (const f of existsSync(HISTORY) ? readdirSync(HISTORY) : []) {
    const h = JSON.parse(readFileSync(join(HISTORY, f), 'utf8')) as {
      agent: string;
      source: string;
      configurations?: string[];
    };
    if (h.source === 'capture') followed.set(h.agent, h.configurations ?? []);
  }
  const catalog = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as {
    agents: { id: string; configurations: { id: string }[] }[];
    tools: { agent: string; links: { page: string }; availability?: CompactAvailability }[];
  };
  const configurationsOf = (agent: string) =>
    catalog.agents.find((a) => a.id === agent)?.configurations.map((c) => c.id) ?? [];
  let checked = 0;
  for (const tool of catalog.tools) {
    const configs = followed.get(tool.agent);
    if (!configs || !tool.availability) continue;
    // A configuration the history follows that the catalog does not list is undefined here: not advertised.
    const availability = expandAvailability(tool.availability, configurationsOf(tool.agent));
    if (configs.some((c) => availability[c] !== null && availability[c] !== undefined)) continue;
    checked++;
    const line = text(strip(tool.links.page).get('Releases')!).replace(/\s+/g, ' ');
    const captures = line.split('; ').find((part) => part.startsWith('captures:')) ?? '';
    assert.doesNotMatch(
      captures,
      /since before|already there/,
      `${tool.links.page}: no configuration the history follows advertises it, yet "${captures}"`,
    );
  }
  assert.ok(checked > 0, 'some tool is advertised by no configuration a capture history follows');
});
