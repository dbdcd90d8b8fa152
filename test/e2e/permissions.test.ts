/**
 * Permission cases on the built site (dist/) against content/permissions/, read here without
 * the site's code: every record is a row of its agent's permissions page saying what the
 * record says (the rule, whether it ran, the model's exact words), a catalog entry, and a row
 * of its tool's "Allow or block it"; tool pages have that section (a sample everyday, every
 * page with SWEEP); and the pages hold their layout at 375 px in Chromium.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attr, elements, textOf, type Element, type Node } from '../helpers/html.ts';
import { AGENT_IDS, AGENTS, mcpNamingOf, type AgentId } from '../../src/lib/agents/index.ts';
import { buildSite, DIST, ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { atScale, spread } from '../helpers/sweep.ts';

interface PermissionRecord {
  agent: string;
  case: string;
  tool: string;
  rule: { form: string; text?: string; says: string };
  sideEffect: { kind: string; target: string; happened: boolean };
  offered: boolean;
  outcome: string;
  modelSaw: { result: string | null; isError: boolean };
  cliExit: { code: number | null; killedAfterSeconds?: number };
  cli: { package: string; version: string };
}
interface Catalog {
  agents: {
    id: string;
    permissions: {
      case: string;
      tool: string;
      rule: { form: string; text?: string };
      outcome: string;
      offered: boolean;
      modelSaw: { result: string | null };
      release: string;
      evidence: string;
      page: string;
    }[];
  }[];
  tools: { agent: string; fullName: string; slug: string; aliases: { name: string }[]; links: { page: string } }[];
}

let catalog: Catalog;
before(() => {
  buildSite();
  catalog = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as Catalog;
});

const dir = join(ROOT, 'content/permissions');
const records = (): PermissionRecord[] =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((agent) =>
        readdirSync(join(dir, agent)).map(
          (f) => JSON.parse(readFileSync(join(dir, agent, f), 'utf8')) as PermissionRecord,
        ),
      )
    : [];
const htmlOf = (page: string) => readFileSync(join(DIST, decodeURIComponent(page), 'index.html'), 'utf8');
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The side effect as the row says it, from the record's own fields. */
function sideEffectText(r: PermissionRecord): string {
  const { kind, target, happened } = r.sideEffect;
  if (kind === 'file') return `${target} ${happened ? 'was' : 'was not'} created`;
  if (kind === 'probe') return `the loopback probe server ${happened ? 'was' : 'was not'} asked`;
  if (kind === 'mcpCall') return `the stub MCP server ${happened ? 'got' : 'did not get'} a call of ${target}`;
  return `the result ${happened ? 'lists' : 'does not list'} ${target}`;
}

/** The rows of the permission table on a page, by their case. */
function caseRows(html: string): Map<string, Element> {
  const rows = new Map<string, Element>();
  for (const e of elements(html))
    if (e.tagName === 'tr' && attr(e, 'data-case') !== undefined) rows.set(attr(e, 'data-case')!, e);
  return rows;
}

test("every permission record is a row of its agent's page saying the rule, the outcome and the model's exact words", () => {
  const all = records();
  const agents = new Set(all.map((r) => r.agent));
  assert.ok(agents.size >= 6, `records of every agent (${[...agents].join(', ')})`);
  for (const agent of agents) {
    const mine = all.filter((r) => r.agent === agent);
    assert.ok(mine.length >= 5, `${agent}: at least five cases`);
    const rows = caseRows(htmlOf(`/${agent}/permissions/`));
    assert.deepEqual([...rows.keys()].sort(), mine.map((r) => r.case).sort(), `${agent}: one row per record`);
    for (const r of mine) {
      const row = rows.get(r.case)!;
      assert.equal(attr(row, 'id'), `case-${r.case}`);
      const text = squash(textOf(row as unknown as Node));
      const cell = (label: string) =>
        squash(
          textOf(
            row.childNodes.find(
              (e) => 'tagName' in e && e.tagName === 'td' && attr(e as Element, 'data-label') === label,
            ) as Node,
          ),
        );
      if (r.rule.text !== undefined) assert.ok(text.includes(squash(r.rule.text)), `${agent}/${r.case}: the rule text`);
      // What happened, in words that follow from the record: offered or not, the side effect, a result or none.
      const it = cell('What happened');
      const noResult = r.cliExit.killedAfterSeconds === undefined ? /^Stopped the run/ : /^Waited/;
      const expected = !r.offered
        ? /^(Taken out of the model's list|Not offered|Still not offered|Tested nothing)/
        : r.sideEffect.happened
          ? /^Ran/
          : r.modelSaw.result === null
            ? noResult
            : /^Refused/;
      assert.match(it, expected, `${agent}/${r.case}: ${it}`);
      assert.ok(it.includes(`Side effect: ${sideEffectText(r)}`), `${agent}/${r.case}: the side effect`);
      if (r.modelSaw.result !== null && r.modelSaw.result.trim() !== '')
        assert.ok(
          cell('The model was sent').includes(squash(r.modelSaw.result)),
          `${agent}/${r.case}: the model's words`,
        );
      assert.ok(text.includes(`${r.cli.package}@${r.cli.version}`), `${agent}/${r.case}: the release`);
    }
  }
});

test('catalog.json has each record as a permissions entry of its agent, with its evidence and row', () => {
  for (const r of records()) {
    const entry = catalog.agents.find((a) => a.id === r.agent)!.permissions.find((p) => p.case === r.case);
    assert.ok(entry, `${r.agent}/${r.case}`);
    assert.equal(entry.tool, r.tool);
    assert.equal(
      entry.outcome,
      r.sideEffect.happened ? 'ran' : r.modelSaw.result === null ? 'no-result' : 'did-not-run',
    );
    assert.equal(entry.offered, r.offered);
    assert.equal(entry.modelSaw.result, r.modelSaw.result);
    assert.equal(entry.release, `${r.cli.package}@${r.cli.version}`);
    assert.equal(entry.evidence, `content/permissions/${r.agent}/${r.case}.json`);
    assert.ok(entry.page.endsWith(`/${r.agent}/permissions/#case-${r.case}`), entry.page);
  }
});

test('tool pages have "Allow or block it"; a recorded call is a row there, linking to its case (every page with a record, and a spread; every page in the sweep)', () => {
  const byTool = new Map<string, PermissionRecord[]>();
  for (const r of records()) {
    // A tool of the stub MCP server is shown on its agent's MCP family page (the registry names both).
    const naming = mcpNamingOf(r.agent as AgentId);
    const name = naming?.isStubServerTool(r.tool) ? naming.family : r.tool;
    const tool = catalog.tools.find(
      (t) => t.agent === r.agent && (t.fullName === name || t.aliases.some((a) => a.name === name)),
    );
    if (tool) byTool.set(tool.links.page, [...(byTool.get(tool.links.page) ?? []), r]);
  }
  assert.ok(byTool.size > 0, 'some record names a tool with its own page');
  const withRecords = catalog.tools.filter((t) => byTool.has(t.links.page));
  for (const tool of atScale(catalog.tools, [...withRecords, ...spread(catalog.tools, 8)])) {
    const html = htmlOf(tool.links.page);
    const heading = elements(html).find((e) => /^h[2-6]$/.test(e.tagName) && attr(e, 'id') === 'permissions');
    assert.ok(
      heading && squash(textOf(heading as unknown as Node)).startsWith('Allow or block it'),
      `${tool.links.page}: the section`,
    );
    const expected = byTool.get(tool.links.page) ?? [];
    const rows = caseRows(html);
    assert.deepEqual([...rows.keys()].sort(), expected.map((r) => r.case).sort(), `${tool.links.page}: its cases`);
    for (const r of expected) {
      const link = elements(html).find(
        (e) => e.tagName === 'a' && attr(e, 'href')?.endsWith(`/${r.agent}/permissions/#case-${r.case}`),
      );
      assert.ok(link, `${tool.links.page}: links ${r.case}`);
    }
  }
});

let served: Served;
after(async () => {
  await served?.close();
});

test('the permissions pages keep to the screen at 375 px and stack their tables, light and dark', async () => {
  served = await serveAndLaunch();
  const agent = records()[0]!.agent;
  for (const path of [`/${agent}/permissions/`, '/permissions/']) {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await served.browser.newPage({ viewport: { width: 375, height: 800 }, colorScheme: scheme });
      try {
        await page.goto(`${served.base}${path}`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${path} (${scheme}): ${overflow} px wider than the screen`);
        // A narrow column shows each row as a block: the header row is hidden, the cells say what they are.
        const display = await page
          .locator('table.hooks-table tbody tr')
          .first()
          .evaluate((tr) => getComputedStyle(tr).display);
        assert.equal(display, 'block', `${path} (${scheme})`);
      } finally {
        await page.close();
      }
    }
  }
});

test("the comparison's MCP names row of each agent gives its name over releases as content/mcp-naming/ reads it", () => {
  const dir = join(ROOT, 'content/mcp-naming');
  const histories = existsSync(dir)
    ? readdirSync(dir).map(
        (f) =>
          JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
            agent: string;
            from: string;
            to: string;
            readings: { version: string }[];
            changes: { before: { version: string }; after: { version: string } }[];
          },
      )
    : [];
  assert.ok(histories.length > 0, 'some MCP naming history is committed');
  const html = htmlOf('/permissions/');
  for (const h of histories) {
    const row = elements(html).find((e) => e.tagName === 'li' && attr(e, 'id') === `mcp-history-${h.agent}`);
    assert.ok(row, `${h.agent}: a line`);
    const text = squash(textOf(row as unknown as Node));
    assert.ok(
      text.includes(`${h.readings.length} of the`) && text.includes(`from ${h.from} to ${h.to}`),
      `${h.agent}: ${text}`,
    );
    for (const c of h.changes)
      assert.ok(
        text.includes(`between ${c.before.version} and ${c.after.version}`),
        `${h.agent}: the change to ${c.after.version}`,
      );
  } // An agent whose module declares no MCP family: its row says so and links to the reason, which its line gives in the module's words.
  for (const id of AGENT_IDS.filter((a) => mcpNamingOf(a) === undefined)) {
    const declared = AGENTS[id].mcpNaming;
    const reason = 'none' in declared ? declared.none : '';
    const row = elements(html).find((e) => e.tagName === 'tr' && attr(e, 'id') === `mcp-${id}`);
    assert.ok(
      row && squash(textOf(row as unknown as Node)).includes('family not established'),
      `${id}: its row says no family is established`,
    );
    const line = elements(html).find((e) => e.tagName === 'li' && attr(e, 'id') === `mcp-history-${id}`);
    assert.ok(
      line && squash(textOf(line as unknown as Node)).includes(squash(reason.replace(/`/g, ''))),
      `${id}: its line gives the module's reason`,
    );
  }
});
