/**
 * The committed captures, the configuration matrix and the built pages agree:
 * every tool a capture advertises has a page whose availability table marks
 * that configuration, and no page claims a configuration whose capture lacks it.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'parse5';
import { loadContent } from '../../src/lib/content/load.ts';
import { AGENTS, type AgentId } from '../../src/lib/agents/index.ts';
import { deferredNamespaces, extractCapturedTools, type CaptureFile } from '../../src/lib/wire/index.ts';
import { DELIVERY_LABELS, type CaptureMatrix } from '../../src/lib/captures.ts';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';

const matrix = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as CaptureMatrix;
const site = loadContent({ root: ROOT });

before(() => buildSite());

/**
 * Configuration label → how the built tool page says it was advertised there,
 * read from the availability list: `<dt>Advertised as function (JSON Schema) in 19</dt>`
 * (or `Not advertised in 2`) followed by a `<dd>` linking each configuration.
 */
function availabilityOf(url: string): Map<string, string> {
  const html = readFileSync(join(DIST, url, 'index.html'), 'utf8');
  const out = new Map<string, string>();
  const text = (node: any): string => (node.nodeName === '#text' ? node.value : (node.childNodes ?? []).map(text).join(''));
  const links = (node: any): string[] => (node.tagName === 'a' ? [text(node).trim()] : (node.childNodes ?? []).flatMap(links));
  const walk = (node: any): void => {
    if (node.tagName === 'dl' && node.attrs.some((a: any) => a.name === 'class' && a.value.split(' ').includes('availability'))) {
      const items = node.childNodes.filter((c: any) => c.tagName === 'dt' || c.tagName === 'dd');
      for (let i = 0; i + 1 < items.length; i += 2) {
        const m = /^(?:Advertised as (.+)|Not advertised) in (\d+)$/.exec(text(items[i]).trim());
        assert.ok(m, `${url}: unexpected availability heading ${JSON.stringify(text(items[i]))}`);
        const labels = links(items[i + 1]);
        assert.equal(labels.length, Number(m[2]), `${url}: the count of "${text(items[i]).trim()}" matches its configurations`);
        for (const label of labels) out.set(label, m[1] ?? 'not advertised');
      }
    }
    for (const c of node.childNodes ?? []) walk(c);
  };
  walk(parse(html));
  return out;
}

test('every configuration of the matrix has its capture, at the pinned version', () => {
  for (const [agent, m] of Object.entries(matrix.agents)) {
    for (const c of m!.configurations) {
      const path = join(ROOT, 'content/captures', agent, `${c.id}.json`);
      assert.ok(existsSync(path), `${agent}/${c.id} has no capture`);
      const capture = JSON.parse(readFileSync(path, 'utf8')) as CaptureFile;
      assert.equal(capture.cli.version, m!.version);
      assert.equal(capture.configuration, c.id);
    }
  }
});

test('every captured tool has a page that marks each configuration exactly as the capture says', () => {
  let checked = 0;
  for (const [agent, m] of Object.entries(matrix.agents)) {
    const tools = site.tools.filter((t) => t.agent === agent);
    const perTool = new Map<string, Map<string, string>>();
    const namespaceOf = new Map<string, string>();
    const deferredIn = new Map<string, string[]>(); // configuration label → namespaces it only names
    for (const c of m!.configurations) {
      const capture = JSON.parse(readFileSync(join(ROOT, 'content/captures', agent, `${c.id}.json`), 'utf8')) as CaptureFile;
      deferredIn.set(c.label, deferredNamespaces(capture).map((d) => d.name));
      for (const captured of extractCapturedTools(capture)) {
        const tool =
          tools.find((t) => t.fullName === captured.fullName || t.generated.aliases.some((a) => a.kind !== 'sdk-type' && a.name === captured.fullName)) ??
          // A tool of the stub MCP server, named as its agent names MCP tools, is shown on the MCP family page.
          (AGENTS[agent as AgentId].mcpNaming.isStubServerTool(captured.fullName) ? tools.find((t) => t.generated.group === 'mcp') : undefined);
        assert.ok(tool, `${agent}/${c.id}: ${captured.fullName} has no page`);
        const url = `${agent}/${tool.slug}`;
        if (!perTool.has(url)) perTool.set(url, new Map());
        perTool.get(url)!.set(c.label, DELIVERY_LABELS[captured.delivery]);
        if (captured.namespace) namespaceOf.set(url, captured.namespace);
      }
    }
    // A configuration that names a namespace without its tools defers each of them.
    for (const [url, expected] of perTool) {
      const ns = namespaceOf.get(url);
      for (const [label, namespaces] of deferredIn) {
        if (ns && namespaces.includes(ns) && !expected.has(label)) expected.set(label, DELIVERY_LABELS.deferred);
      }
    }
    for (const [url, expected] of perTool) {
      const shown = availabilityOf(url);
      for (const c of m!.configurations) {
        assert.equal(shown.get(c.label), expected.get(c.label) ?? 'not advertised', `${url}: ${c.label}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} cells checked`);
});
