/**
 * The subagent tool sets on the built site (dist/) against content/subagents/, read here
 * without the site's code: the starting tool's page has one row per recorded type listing
 * exactly the tools that type's request offered, and every tool page of the agent says which
 * types were offered it, agreeing with the same file.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { elements, textOf as text, type Element, type Node } from '../helpers/html.ts';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';

interface Catalog {
  tools: { agent: string; fullName: string; aliases: { name: string }[]; links: { page: string } }[];
}
interface SubagentsFile {
  agent: string;
  tool: string;
  types: { type: string; tools: string[]; mainTools: string[] }[];
}

let catalog: Catalog;
before(() => {
  buildSite();
  catalog = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as Catalog;
});

const pageOf = (agent: string, name: string) =>
  catalog.tools.find((t) => t.agent === agent && (t.fullName === name || t.aliases.some((a) => a.name === name)));
const htmlOf = (page: string) => readFileSync(join(DIST, decodeURIComponent(page), 'index.html'), 'utf8');

const dir = join(ROOT, 'content/subagents');
const files = (): SubagentsFile[] =>
  existsSync(dir) ? readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SubagentsFile) : [];

test('the page of the tool that starts subagents lists, per type, exactly the tools its request offered', () => {
  assert.ok(files().length > 0, 'some agent has recorded subagent tool sets');
  for (const file of files()) {
    const starter = pageOf(file.agent, file.tool);
    assert.ok(starter, `${file.agent}: ${file.tool} has a page`);
    const table = elements(htmlOf(starter.links.page)).find(
      (e) => e.tagName === 'table' && e.attrs.some((a) => a.name === 'class' && a.value.includes('subagents-table')),
    );
    assert.ok(table, `${file.agent}: ${starter.links.page} has the subagent table`);
    const bodyRows: Element[] = [];
    const collect = (n: Node): void => {
      if (
        'tagName' in n &&
        n.tagName === 'tr' &&
        (n as Element).childNodes.some(
          (c) =>
            'tagName' in c &&
            c.tagName === 'th' &&
            (c as Element).attrs.some((a) => a.name === 'scope' && a.value === 'row'),
        )
      )
        bodyRows.push(n as Element);
      for (const c of 'childNodes' in n ? n.childNodes : []) collect(c as Node);
    };
    collect(table as unknown as Node);
    assert.deepEqual(
      bodyRows.map((r) => text(r.childNodes.find((c) => 'tagName' in c && c.tagName === 'th') as Node).trim()),
      file.types.map((t) => t.type),
    );
    bodyRows.forEach((row, i) => {
      const cells = row.childNodes.filter((c): c is Element => 'tagName' in c && c.tagName === 'td');
      const offered = text(cells[0]!)
        .replace(/^\d+:\s*/, '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      assert.deepEqual(offered, file.types[i]!.tools, `${file.agent} ${file.types[i]!.type}: the offered tools`);
    });
  }
});

test('every tool page of an agent with recorded subagents says which types were offered it, as the file says', () => {
  for (const file of files()) {
    const tools = catalog.tools.filter((t) => t.agent === file.agent);
    assert.ok(tools.length > 0);
    for (const tool of tools) {
      const names = [tool.fullName, ...tool.aliases.map((a) => a.name)];
      const offeredTo = file.types.filter((t) => t.tools.some((n) => names.includes(n))).map((t) => t.type);
      const html = htmlOf(tool.links.page);
      const strip = elements(html).find(
        (e) => e.tagName === 'dl' && e.attrs.some((a) => a.name === 'class' && a.value.includes('support-strip')),
      );
      assert.ok(strip, `${tool.links.page} has a support strip`);
      const line = text(strip).replace(/\s+/g, ' ');
      const expected =
        offeredTo.length === 0
          ? `offered to none of the ${file.types.length} built-in types`
          : `offered to ${offeredTo.join(', ')}`;
      assert.ok(
        line.includes(`Subagents${expected}`) || line.includes(`Subagents ${expected}`),
        `${tool.links.page}: ${line}`,
      );
    }
  }
});
