/**
 * Every name the pinned binaries register (content/inventory/*.json, read here
 * independently of the loader) is reachable in the built site: a tool page, a
 * redirect page of an alias, or an entry of the agent page's "Registered but
 * never advertised" list. Every alias of the binary's alias table is too.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

interface Inventory {
  agent: string;
  names?: { items: string[] };
  aliasTables?: { entries: { alias: string; tool: string }[] }[];
}

function listed(agent: string): Map<string, string> {
  // data-registered-name → the text of its entry
  const out = new Map<string, string>();
  const walk = (node: Node): void => {
    if ('tagName' in node) {
      const el = node as Element;
      const name = el.attrs.find((a) => a.name === 'data-registered-name')?.value;
      if (name !== undefined) out.set(name, text(el));
    }
    for (const child of 'childNodes' in node ? node.childNodes : []) walk(child as Node);
  };
  const text = (node: Node): string => ('value' in node && typeof node.value === 'string' ? node.value : 'childNodes' in node ? node.childNodes.map((c) => text(c as Node)).join('') : '');
  walk(parse(readFileSync(join(DIST, agent, 'index.html'), 'utf8')) as unknown as Node);
  return out;
}

const page = (agent: string, name: string) => existsSync(join(DIST, agent, name.toLowerCase(), 'index.html'));

before(() => buildSite());

test('every inventoried name and alias is a page, a redirect page or listed as registered but never advertised', () => {
  const files = readdirSync(join(ROOT, 'content/inventory')).filter((f) => f.endsWith('.json'));
  assert.ok(files.length > 0, 'no inventory files');
  let checked = 0;
  for (const f of files) {
    const inv = JSON.parse(readFileSync(join(ROOT, 'content/inventory', f), 'utf8')) as Inventory;
    const entries = listed(inv.agent);
    const names = new Set([...(inv.names?.items ?? []), ...(inv.aliasTables ?? []).flatMap((t) => t.entries.map((e) => e.tool))]);
    for (const name of names) {
      assert.ok(page(inv.agent, name) || entries.has(name), `${inv.agent} ${name}: no page, no redirect page and not listed on /${inv.agent}/`);
      checked++;
    }
    for (const { alias, tool } of (inv.aliasTables ?? []).flatMap((t) => t.entries)) {
      const onEntry = entries.get(tool)?.includes(alias) ?? false;
      assert.ok(page(inv.agent, alias) || onEntry, `${inv.agent} alias ${alias} → ${tool}: no redirect page and not on the entry of ${tool}`);
    }
  }
  assert.ok(checked > 0);
});

test('the agent page states its inventory counts', () => {
  const html = readFileSync(join(DIST, 'claude-code', 'index.html'), 'utf8');
  const inv = JSON.parse(readFileSync(join(ROOT, 'content/inventory/claude-code.json'), 'utf8')) as Inventory;
  const total = new Set([...(inv.names?.items ?? []), ...(inv.aliasTables ?? []).flatMap((t) => t.entries.map((e) => e.tool))]).size;
  assert.match(html, new RegExp(`data-inventory-counts[^>]*>${total} tool names registered`));
});
