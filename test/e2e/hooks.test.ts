/**
 * The hooks pages of the built site (dist/): every agent of the catalog has
 * one, their links and fragments resolve, the exported hook schemas validate
 * every recorded payload of content/payloads/ with an Ajv of this test's own
 * (not the site's code), and a tool page's checker checks a pasted hook
 * payload's every member against its hook schema.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildSite, DIST, ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['node'];

interface Catalog {
  agents: { id: string; hooks: { page: string; recorded: number; schemas: { event: string; schema: string }[] } }[];
  tools: { agent: string; fullName: string; slug: string; aliases: { name: string }[]; links: { page: string; hookSchema?: string } }[];
}

let catalog: Catalog;
let served: Served;

before(async () => {
  buildSite();
  catalog = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as Catalog;
  served = await serveAndLaunch();
});
after(async () => {
  await served?.close();
});

const fileOf = (path: string) => join(DIST, decodeURIComponent(path), path.endsWith('/') ? 'index.html' : '');
const exists = (path: string) => existsSync(fileOf(path)) && statSync(fileOf(path)).isFile();

function elements(html: string): Element[] {
  const out: Element[] = [];
  const walk = (node: Node): void => {
    if ('tagName' in node) out.push(node as Element);
    for (const child of 'childNodes' in node ? node.childNodes : []) walk(child as Node);
  };
  walk(parse(html) as unknown as Node);
  return out;
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;

const PAYLOADS = join(ROOT, 'content/payloads');
const payloadFiles = () =>
  (existsSync(PAYLOADS) ? readdirSync(PAYLOADS) : []).flatMap((agent) => readdirSync(join(PAYLOADS, agent)).map((f) => ({ agent, file: `content/payloads/${agent}/${f}`, data: JSON.parse(readFileSync(join(PAYLOADS, agent, f), 'utf8')) as { calls: { tool: string; hooks: Record<string, unknown>[] }[] } })));

test('every agent of the catalog has a hooks page, linked from the sidebar and the comparison page, whose links and fragments resolve', () => {
  assert.ok(exists('/hooks/'), 'the comparison page is built');
  const comparison = readFileSync(fileOf('/hooks/'), 'utf8');
  for (const agent of catalog.agents) {
    assert.equal(agent.hooks.page, `/${agent.id}/hooks/`);
    assert.ok(exists(agent.hooks.page), `${agent.hooks.page} is built`);
    const html = readFileSync(fileOf(agent.hooks.page), 'utf8');
    const els = elements(html);
    assert.ok(els.some((e) => e.tagName === 'a' && attr(e, 'href') === agent.hooks.page && attr(e, 'aria-current') === 'page'), `${agent.id}: the sidebar marks its hooks page`);
    assert.ok(comparison.includes(`href="${agent.hooks.page}"`), `${agent.id}: the comparison links it`);
    const ids = new Set(els.map((e) => attr(e, 'id')).filter((id): id is string => id !== undefined));
    for (const a of els.filter((e) => e.tagName === 'a')) {
      const href = attr(a, 'href');
      if (!href || !href.startsWith('/') || href.startsWith('//')) continue;
      const [path, fragment] = href.split('#') as [string, string | undefined];
      if (path === '') {
        assert.ok(ids.has(decodeURIComponent(fragment!)), `${agent.hooks.page}: #${fragment} is on the page`);
        continue;
      }
      assert.ok(exists(path), `${agent.hooks.page} links ${href}, which is built`);
      if (fragment && path.endsWith('/')) {
        const target = new Set(elements(readFileSync(fileOf(path), 'utf8')).map((e) => attr(e, 'id')));
        assert.ok(target.has(decodeURIComponent(fragment)), `${agent.hooks.page} links ${href}: the fragment is on that page`);
      }
    }
    // A page with recordings lists them; one without says so.
    assert.equal(/No hook payload of .* is recorded here yet/.test(html), agent.hooks.recorded === 0, agent.id);
  }
});

test('the exported hook schemas validate every recorded hook payload (masked values aside)', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const load = (path: string) => JSON.parse(readFileSync(fileOf(path), 'utf8')) as { $id: string; $schema: string };
  for (const agent of catalog.agents) for (const s of agent.hooks.schemas) ajv.addSchema(load(s.schema));
  const placeholder = (v: unknown) => typeof v === 'string' && /^\$[A-Z][A-Z0-9_]*$/.test(v);
  const at = (root: unknown, pointer: string) => pointer.split('/').slice(1).reduce<unknown>((v, t) => (v as Record<string, unknown>)?.[t.replaceAll('~1', '/').replaceAll('~0', '~')], root);
  let checked = 0;
  for (const { agent, file, data } of payloadFiles()) {
    for (const [i, call] of data.calls.entries()) {
      if (call.hooks.length === 0) continue;
      // The page of the tool the call names: by its name or an alias; an MCP tool by its family's pattern.
      const tool =
        catalog.tools.find((t) => t.agent === agent && (t.fullName === call.tool || t.aliases.some((a) => a.name === call.tool))) ??
        catalog.tools.find((t) => t.agent === agent && /<[^<>]+>/.test(t.fullName) && new RegExp(`^${t.fullName.split(/<[^<>]+>/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`).test(call.tool));
      assert.ok(tool?.links.hookSchema, `${file} call ${i + 1}: ${call.tool} has a hook schema in the catalog`);
      const schema = load(tool.links.hookSchema);
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
      const validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
      for (const hook of call.hooks) {
        const errors = validate(hook) ? [] : (validate.errors ?? []).filter((e) => !placeholder(at(hook, e.instancePath)));
        assert.deepEqual(errors, [], `${file} call ${i + 1}`);
        checked++;
      }
    }
  }
  assert.equal(checked, catalog.agents.reduce((n, a) => n + a.hooks.recorded, 0), 'every recorded payload was checked');
});

test('the checker of a tool page checks every member of a pasted hook payload against the hook schema', async () => {
  // A recorded payload with a before-event hook, of a tool whose page has a checker and a hook schema.
  const candidates = payloadFiles().flatMap(({ agent, data }) => data.calls.flatMap((call) => call.hooks.map((hook) => ({ agent, call, hook }))));
  const found = candidates
    .map((c) => ({ ...c, tool: catalog.tools.find((t) => t.agent === c.agent && t.fullName === c.call.tool && t.links.hookSchema) }))
    .find((c) => c.tool && readFileSync(fileOf(c.tool.links.page), 'utf8').includes('data-payload-check'));
  assert.ok(found?.tool, 'a recorded hook payload of a tool with a checker');
  const page = await served.browser.newPage();
  try {
    await page.goto(`${served.base}${found.tool.links.page}`);
    await page.locator('details[data-payload-check] > summary').click();
    await page.locator('details[data-payload-check] form').waitFor({ state: 'visible' });
    const verdict = async (json: string) => {
      const status = page.locator('details[data-payload-check] [role="status"]');
      const before = await status.innerHTML();
      await page.locator('#payload-check-text').fill(json);
      await page.locator('details[data-payload-check] form button').click();
      await page.waitForFunction((old) => {
        const region = document.querySelector('details[data-payload-check] [role="status"]')!;
        return region.innerHTML !== old && !region.hasAttribute('aria-busy');
      }, before);
      return (await status.innerText()).replace(/\s+/g, ' ');
    };
    const ok = await verdict(JSON.stringify(found.hook));
    assert.match(ok, /Every member of the payload was checked against hooks\.schema\.json[^:]*: valid\./);
    // A member of the wrong type: the hook schema says so, and the verdict is not valid.
    const key = Object.keys(found.hook).find((k) => typeof found.hook[k] === 'string' && !/^\$/.test(found.hook[k] as string))!;
    const bad = await verdict(JSON.stringify({ ...found.hook, [key]: 12345 }));
    assert.match(bad, /Every member of the payload was checked against hooks\.schema\.json[^:]*: [1-9]\d* errors?/);
    assert.ok(bad.includes(`payload ${key}`), bad);
  } finally {
    await page.close();
  }
});
