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

/** The text of a node and its descendants. */
const text = (node: Node): string =>
  'value' in node && typeof node.value === 'string'
    ? node.value
    : 'childNodes' in node
      ? node.childNodes.map((c) => text(c as Node)).join('')
      : '';

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
    const names = new Set([
      ...(inv.names?.items ?? []),
      ...(inv.aliasTables ?? []).flatMap((t) => t.entries.map((e) => e.tool)),
    ]);
    for (const name of names) {
      assert.ok(
        page(inv.agent, name) || entries.has(name),
        `${inv.agent} ${name}: no page, no redirect page and not listed on /${inv.agent}/`,
      );
      checked++;
    }
    for (const { alias, tool } of (inv.aliasTables ?? []).flatMap((t) => t.entries)) {
      const onEntry = entries.get(tool)?.includes(alias) ?? false;
      assert.ok(
        page(inv.agent, alias) || onEntry,
        `${inv.agent} alias ${alias} → ${tool}: no redirect page and not on the entry of ${tool}`,
      );
    }
  }
  assert.ok(checked > 0);
});

test('the agent page states its inventory counts', () => {
  const html = readFileSync(join(DIST, 'claude-code', 'index.html'), 'utf8');
  const inv = JSON.parse(readFileSync(join(ROOT, 'content/inventory/claude-code.json'), 'utf8')) as Inventory;
  const total = new Set([
    ...(inv.names?.items ?? []),
    ...(inv.aliasTables ?? []).flatMap((t) => t.entries.map((e) => e.tool)),
  ]).size;
  assert.match(html, new RegExp(`data-inventory-counts[^>]*>${total} tool names registered`));
});

test('an embedded model catalog is tabulated on its agent page: a row per model, in catalog order, and the captured models marked', () => {
  const files = readdirSync(join(ROOT, 'content/inventory')).filter((f) => f.endsWith('.json'));
  const catalogs = files
    .map(
      (f) =>
        JSON.parse(readFileSync(join(ROOT, 'content/inventory', f), 'utf8')) as Inventory & {
          modelCatalog?: { models: { slug: string }[] };
        },
    )
    .filter((i) => i.modelCatalog);
  assert.ok(catalogs.length > 0, 'no inventory holds a model catalog');
  for (const inv of catalogs) {
    const doc = parse(readFileSync(join(DIST, inv.agent, 'index.html'), 'utf8')) as unknown as Node;
    const rows: { slug: string; cells: string[] }[] = [];
    const walk = (node: Node, inTable: boolean): void => {
      const el = 'tagName' in node ? (node as Element) : undefined;
      const here =
        inTable ||
        (el?.tagName === 'table' &&
          el.attrs.some((a) => a.name === 'class' && a.value.split(' ').includes('catalog-table')));
      if (here && el?.tagName === 'tr') {
        const th = el.childNodes.find(
          (c) =>
            'tagName' in c &&
            (c as Element).tagName === 'th' &&
            (c as Element).attrs.some((a) => a.name === 'scope' && a.value === 'row'),
        );
        if (th)
          rows.push({
            slug: text(th as Node).trim(),
            cells: el.childNodes
              .filter((c) => 'tagName' in c && (c as Element).tagName === 'td')
              .map((c) => text(c as Node).trim()),
          });
      }
      for (const child of 'childNodes' in node ? node.childNodes : []) walk(child as Node, here);
    };
    walk(doc, false);
    assert.deepEqual(
      rows.map((r) => r.slug),
      inv.modelCatalog!.models.map((m) => m.slug),
      `${inv.agent}: catalog rows`,
    );
    // The models the captures asked for (read from the capture files) are the rows whose "captured as" cell is filled.
    const asked = new Set<string>();
    const dir = join(ROOT, 'content/captures', inv.agent);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const capture = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { body?: { model?: unknown } };
      const model = capture.body?.model;
      if (typeof model === 'string') asked.add(model);
    }
    assert.ok(asked.size > 0, `${inv.agent}: no captured request names its model`);
    for (const r of rows)
      assert.equal(r.cells[0] !== '–', asked.has(r.slug), `${inv.agent} ${r.slug}: captured-as cell "${r.cells[0]}"`);
  }
});
