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
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Page } from 'playwright-core';
import { attr, elements, textOf, type Element, type Node } from '../helpers/html.ts';
import { buildSite, DIST, ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { AGENT_IDS, AGENTS } from '../../src/lib/agents/index.ts';

interface Catalog {
  agents: { id: string; hooks: { page: string; recorded: number; schemas: { event: string; schema: string }[] } }[];
  tools: {
    agent: string;
    fullName: string;
    slug: string;
    aliases: { name: string }[];
    links: { page: string; hookSchema?: string };
  }[];
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

/** The catalog's tool a call names: by its name or an alias; an MCP tool by its family's pattern. */
function catalogTool(agent: string, name: string): Catalog['tools'][number] | undefined {
  const family = (t: Catalog['tools'][number]) =>
    new RegExp(
      `^${t.fullName
        .split(/<[^<>]+>/)
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+')}$`,
    );
  return (
    catalog.tools.find((t) => t.agent === agent && (t.fullName === name || t.aliases.some((a) => a.name === name))) ??
    catalog.tools.find((t) => t.agent === agent && /<[^<>]+>/.test(t.fullName) && family(t).test(name))
  );
}

const PAYLOADS = join(ROOT, 'content/payloads');
const payloadFiles = () =>
  (existsSync(PAYLOADS) ? readdirSync(PAYLOADS) : []).flatMap((agent) =>
    readdirSync(join(PAYLOADS, agent)).map((f) => ({
      agent,
      file: `content/payloads/${agent}/${f}`,
      data: JSON.parse(readFileSync(join(PAYLOADS, agent, f), 'utf8')) as {
        calls: { tool: string; hooks: Record<string, unknown>[] }[];
      },
    })),
  );

test('every agent of the catalog has a hooks page, linked from the sidebar and the comparison page, whose links and fragments resolve', () => {
  assert.ok(exists('/hooks/'), 'the comparison page is built');
  const comparison = readFileSync(fileOf('/hooks/'), 'utf8');
  for (const agent of catalog.agents) {
    assert.equal(agent.hooks.page, `/${agent.id}/hooks/`);
    assert.ok(exists(agent.hooks.page), `${agent.hooks.page} is built`);
    const html = readFileSync(fileOf(agent.hooks.page), 'utf8');
    const els = elements(html);
    assert.ok(
      els.some((e) => e.tagName === 'a' && attr(e, 'href') === agent.hooks.page && attr(e, 'aria-current') === 'page'),
      `${agent.id}: the sidebar marks its hooks page`,
    );
    assert.ok(comparison.includes(`href="${agent.hooks.page}"`), `${agent.id}: the comparison links it`);
    const ids = new Set(els.map((e) => attr(e, 'id')).filter((id): id is string => id !== undefined));
    for (const a of els.filter((e) => e.tagName === 'a')) {
      const href = attr(a, 'href');
      if (!href?.startsWith('/') || href.startsWith('//')) continue;
      const [path, fragment] = href.split('#') as [string, string | undefined];
      if (path === '') {
        assert.ok(ids.has(decodeURIComponent(fragment!)), `${agent.hooks.page}: #${fragment} is on the page`);
        continue;
      }
      assert.ok(exists(path), `${agent.hooks.page} links ${href}, which is built`);
      if (fragment && path.endsWith('/')) {
        const target = new Set(elements(readFileSync(fileOf(path), 'utf8')).map((e) => attr(e, 'id')));
        assert.ok(
          target.has(decodeURIComponent(fragment)),
          `${agent.hooks.page} links ${href}: the fragment is on that page`,
        );
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
  const at = (root: unknown, pointer: string) =>
    pointer
      .split('/')
      .slice(1)
      .reduce<unknown>((v, t) => (v as Record<string, unknown>)?.[t.replaceAll('~1', '/').replaceAll('~0', '~')], root);
  let checked = 0;
  for (const { agent, file, data } of payloadFiles()) {
    for (const [i, call] of data.calls.entries()) {
      if (call.hooks.length === 0) continue;
      // The page of the tool the call names: by its name or an alias; an MCP tool by its family's pattern.
      const tool = catalogTool(agent, call.tool);
      assert.ok(tool?.links.hookSchema, `${file} call ${i + 1}: ${call.tool} has a hook schema in the catalog`);
      const schema = load(tool.links.hookSchema);
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
      const validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
      for (const hook of call.hooks) {
        const errors = validate(hook)
          ? []
          : (validate.errors ?? []).filter((e) => !placeholder(at(hook, e.instancePath)));
        assert.deepEqual(errors, [], `${file} call ${i + 1}`);
        checked++;
      }
    }
  }
  assert.equal(
    checked,
    catalog.agents.reduce((n, a) => n + a.hooks.recorded, 0),
    'every recorded payload was checked',
  );
});

/** Opens the tool page at `url` and its checker, and waits for the form. */
async function openChecker(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('details[data-payload-check] > summary').click();
  await page.locator('details[data-payload-check] form').waitFor({ state: 'visible' });
}

/** Pastes `json` into the open checker of the page, asks for a check and returns the verdict's text once it changed. */
async function checkerVerdict(page: Page, json: string): Promise<string> {
  const status = page.locator('details[data-payload-check] [role="status"]');
  const before = await status.innerHTML();
  await page.locator('#payload-check-text').fill(json);
  await page.locator('details[data-payload-check] form button').click();
  await page.waitForFunction((old) => {
    const region = document.querySelector('details[data-payload-check] [role="status"]')!;
    return region.innerHTML !== old && !region.hasAttribute('aria-busy');
  }, before);
  return (await status.innerText()).replace(/\s+/g, ' ');
}

test('the checker of a tool page checks every member of a pasted hook payload against the hook schema', async () => {
  // A recorded payload with a before-event hook, of a tool whose page has a checker and a hook schema.
  const candidates = payloadFiles().flatMap(({ agent, data }) =>
    data.calls.flatMap((call) => call.hooks.map((hook) => ({ agent, call, hook }))),
  );
  const found = candidates
    .map((c) => ({
      ...c,
      tool: catalog.tools.find((t) => t.agent === c.agent && t.fullName === c.call.tool && t.links.hookSchema),
    }))
    .find((c) => c.tool && readFileSync(fileOf(c.tool.links.page), 'utf8').includes('data-payload-check'));
  assert.ok(found?.tool, 'a recorded hook payload of a tool with a checker');
  const page = await served.browser.newPage();
  try {
    await openChecker(page, `${served.base}${found.tool.links.page}`);
    const verdict = (json: string) => checkerVerdict(page, json);
    const ok = await verdict(JSON.stringify(found.hook));
    assert.match(ok, /Every member of the payload was checked against hooks\.schema\.json[^:]*: valid\./);
    // A member of the wrong type: the hook schema says so, and the verdict is not valid.
    const key = Object.keys(found.hook).find(
      (k) => typeof found.hook[k] === 'string' && !/^\$/.test(found.hook[k] as string),
    )!;
    const bad = await verdict(JSON.stringify({ ...found.hook, [key]: 12345 }));
    assert.match(bad, /Every member of the payload was checked against hooks\.schema\.json[^:]*: [1-9]\d* errors?/);
    assert.ok(bad.includes(`payload ${key}`), bad);
  } finally {
    await page.close();
  }
});

test('the built hooks pages read each agent’s declared members: names by event form with the matcher warning, every tool event the code names, plugin wording', async () => {
  const { AGENTS } = await import('../../src/lib/agents/index.ts');
  const text = (html: string) =>
    html
      .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;|&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ');
  const main = (html: string) => text(html.slice(html.indexOf('<main'), html.indexOf('</main>')));
  for (const agent of catalog.agents) {
    const hooks = AGENTS[agent.id as keyof typeof AGENTS].hooks;
    if ('none' in hooks) continue;
    const html = readFileSync(fileOf(agent.hooks.page), 'utf8');
    const page = main(html);
    // Plugin hooks: no standard input, no matcher; named with the module's own noun (Pi: extension), OpenCode's
    // (plugin) by default.
    if (hooks.kind === 'plugin') {
      assert.doesNotMatch(page, /standard input|matcher/i, agent.id);
      const noun = hooks.pluginWords?.host.replace(/^an? /, '') ?? 'plugin';
      assert.ok(page.includes(hooks.shape.before) && page.includes(noun), agent.id);
    }
    // Every tool-related event the code names (content/hook-events, read directly) is a row of the events table.
    const listFile = join(ROOT, 'content/hook-events', `${agent.id}.json`);
    if (existsSync(listFile)) {
      const list = JSON.parse(readFileSync(listFile, 'utf8')) as { package: string; events: { name: string }[] };
      for (const { name } of list.events.filter((e) => /tool|permission/i.test(e.name))) {
        const row = new RegExp(`<tr[^>]*id="event-${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[\\s\\S]*?</tr>`).exec(
          html,
        );
        assert.ok(row, `${agent.id}: a row for ${name}`);
        assert.ok(text(row[0]).includes(list.package), `${agent.id} ${name}: its evidence names ${list.package}`);
        assert.match(text(row[0]), /payloads of \d+ tools|not recorded\s*: \S/, `${agent.id} ${name}`);
      }
    }
    // Forms whose payloads name one tool differently: a column each, and the warning quoting a recorded pair.
    const shapes = [hooks.shape, ...(hooks.otherShapes ?? [])];
    const byForm = shapes.map(() => new Map<string, Set<string>>());
    for (const { agent: a, data } of payloadFiles()) {
      if (a !== agent.id) continue;
      for (const call of data.calls as { tool: string; hooks: Record<string, unknown>[]; hookEvents?: string[] }[]) {
        call.hooks.forEach((h, i) => {
          const event = call.hookEvents?.[i] ?? h['hook_event_name'];
          const f = Math.max(
            0,
            shapes.findIndex((s) => [s.before, s.after, s.afterFailure].includes(event as string)),
          );
          const name = shapes[f]!.toolNameField.split('.').reduce<unknown>(
            (v, k) => (v as Record<string, unknown> | undefined)?.[k],
            h,
          );
          if (typeof name === 'string')
            (byForm[f]!.get(call.tool) ?? byForm[f]!.set(call.tool, new Set()).get(call.tool)!).add(name);
        });
      }
    }
    const differing = [...byForm[0]!.keys()].filter((tool) =>
      byForm.slice(1).some((m) => m.has(tool) && [...m.get(tool)!].join() !== [...byForm[0]!.get(tool)!].join()),
    );
    if (differing.length === 0) {
      assert.doesNotMatch(page, /A matcher is tested against the name in its own event's payloads/, agent.id);
      continue;
    }
    assert.match(page, /A matcher is tested against the name in its own event's payloads/, agent.id);
    const warning = /A matcher is tested against the name in its own event's payloads.*?never fires[^.]*\./.exec(
      page,
    )![0];
    const quoted = new RegExp(`a ${shapes[0]!.before} hook with matcher (\\S+) never fires`).exec(warning);
    assert.ok(quoted, warning);
    // The matcher it warns about is a name the other form's payloads give, and no payload of the first form carries it.
    assert.ok(
      byForm.slice(1).some((m) => [...m.values()].some((s) => s.has(quoted[1]!))),
      warning,
    );
    assert.ok(![...byForm[0]!.values()].some((s) => s.has(quoted[1]!)), warning);
    for (const s of shapes)
      assert.ok(
        html.includes(`<code>${s.before}</code>`) && page.includes(`${s.before}`),
        `${agent.id}: a column for ${s.before}`,
      );
  }
});

test('the checker reads a pasted hook payload through its agent’s own members and names them (toolArgs, output.args), not tool_input', async () => {
  const { AGENTS } = await import('../../src/lib/agents/index.ts');
  let checked = 0;
  for (const agent of catalog.agents) {
    const hooks = AGENTS[agent.id as keyof typeof AGENTS].hooks;
    if ('none' in hooks || hooks.shape.inputField === 'tool_input') continue;
    // A recorded payload of this agent with its input in the declared member, of a tool whose page has a checker.
    const at = (h: Record<string, unknown>, path: string) =>
      path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], h);
    const found = payloadFiles()
      .filter((f) => f.agent === agent.id)
      .flatMap(({ data }) =>
        data.calls.flatMap((call) =>
          call.hooks
            .filter(
              (h) =>
                at(h, hooks.shape.inputField) !== undefined && typeof at(h, hooks.shape.toolNameField) === 'string',
            )
            .map((hook) => ({ call, hook })),
        ),
      )
      .map((c) => ({
        ...c,
        tool: catalog.tools.find((t) => t.agent === agent.id && t.fullName === c.call.tool && t.links.hookSchema),
      }))
      .find((c) => c.tool && readFileSync(fileOf(c.tool.links.page), 'utf8').includes('data-payload-check'));
    if (!found?.tool) continue;
    const page = await served.browser.newPage();
    try {
      await page.goto(`${served.base}${found.tool.links.page}`);
      // What the checker reads is said in its fold, where the reader who opens it reads it.
      const intro = (
        (await page.locator('section.payload-check .payload-check-about').first().textContent()) ?? ''
      ).replace(/\s+/g, ' ');
      assert.ok(intro.includes(hooks.shape.inputField), `${agent.id}: the section names ${hooks.shape.inputField}`);
      await page.locator('details[data-payload-check] > summary').click();
      await page.locator('details[data-payload-check] form').waitFor({ state: 'visible' });
      await page.locator('#payload-check-text').fill(JSON.stringify(found.hook));
      await page.locator('details[data-payload-check] form button').click();
      await page.waitForFunction(() => {
        const region = document.querySelector('details[data-payload-check] [role="status"]')!;
        return region.textContent!.trim() !== '' && !region.hasAttribute('aria-busy');
      });
      const verdict = (await page.locator('details[data-payload-check] [role="status"]').innerText()).replace(
        /\s+/g,
        ' ',
      );
      assert.ok(
        verdict.includes(`with ${hooks.shape.toolNameField} ${String(at(found.hook, hooks.shape.toolNameField))}`),
        `${agent.id}: ${verdict}`,
      );
      assert.ok(verdict.includes(hooks.shape.inputField) && !verdict.includes('tool_input'), `${agent.id}: ${verdict}`);
      checked++;
    } finally {
      await page.close();
    }
  }
  assert.ok(checked > 0, 'an agent whose hook payloads carry their input elsewhere than tool_input');
});

/** The text of an element, whitespace collapsed. */
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

test("each recorded hook behaviour case is a row of its agent's hooks page and a catalog entry, saying what the record says", () => {
  const dir = join(ROOT, 'content/hook-behaviour');
  const records = (existsSync(dir) ? readdirSync(dir) : []).flatMap((agent) =>
    readdirSync(join(dir, agent)).map(
      (f) =>
        JSON.parse(readFileSync(join(dir, agent, f), 'utf8')) as {
          agent: string;
          case: string;
          kind: string;
          event: string;
          tool: string;
          sideEffect?: { happened: boolean };
          cliExit: { killedAfterSeconds?: number };
          modelSaw: { result: string | null; isError: boolean; otherTexts: string[] };
          cli: { package: string; version: string };
        },
    ),
  );
  assert.ok(records.length > 0, 'hook behaviour is recorded');
  const full = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as {
    agents: {
      id: string;
      behaviour: { case: string; page: string; release: string; outcome: { ran: boolean | null; isError: boolean } }[];
    }[];
  };
  for (const r of records) {
    const html = readFileSync(fileOf(`/${r.agent}/hooks/`), 'utf8');
    const row = elements(html).find((e) => e.tagName === 'tr' && attr(e, 'id') === `case-${r.case}`);
    assert.ok(row, `${r.agent}/${r.case}: a row on the hooks page`);
    const text = squash(textOf(row as unknown as Node));
    assert.ok(text.includes(r.event), `${r.case}: names its event`);
    if (r.modelSaw.result !== null)
      assert.ok(text.includes(squash(r.modelSaw.result)), `${r.case}: shows the result the model got`);
    for (const other of r.modelSaw.otherTexts)
      assert.ok(text.includes(squash(other)), `${r.case}: shows what came with the result`);
    if (r.sideEffect) {
      // What happened, in words that follow from the record: the side effect, an error result, a rewrite that did not
      // take.
      const said = squash(
        textOf(
          row.childNodes.find(
            (e) => 'tagName' in e && e.tagName === 'td' && attr(e as Element, 'data-label') === 'What happened',
          ) as Node,
        ),
      );
      assert.ok(
        said.includes(`Side effect: ${r.sideEffect.happened ? 'happened' : 'did not happen'}`),
        `${r.agent}/${r.case}: the side effect (${said})`,
      );
      if (r.sideEffect.happened)
        assert.match(said, /^(Ran|Failed|The call ended)/, `${r.agent}/${r.case}: ran (${said})`);
      else if (r.modelSaw.result === null)
        assert.match(
          said,
          r.cliExit.killedAfterSeconds === undefined ? /^Stopped the run/ : /^Waited/,
          `${r.agent}/${r.case}: no result (${said})`,
        );
      else if (r.modelSaw.isError) assert.match(said, /^Refused/, `${r.agent}/${r.case}: refused (${said})`);
      else if (r.kind === 'pre-rewrite')
        assert.match(said, /^Ran the original/, `${r.agent}/${r.case}: the rewrite was ignored (${said})`);
    }
    assert.ok(text.includes(`${r.cli.package}@${r.cli.version}`), `${r.case}: names its release`);
    const entry = full.agents.find((a) => a.id === r.agent)?.behaviour.find((b) => b.case === r.case);
    assert.ok(entry, `${r.agent}/${r.case}: in catalog.json`);
    assert.equal(entry.page, `/${r.agent}/hooks/#case-${r.case}`);
    assert.equal(entry.outcome.isError, r.modelSaw.isError);
    assert.equal(entry.outcome.ran, r.sideEffect ? r.sideEffect.happened : null);
  }
  // The page of the tool each case calls links the case from its support strip.
  for (const r of records) {
    const tool = catalogTool(r.agent, r.tool);
    assert.ok(tool, `${r.agent}/${r.case}: ${r.tool} has a page`);
    assert.ok(
      readFileSync(fileOf(tool.links.page), 'utf8').includes(`href="/${r.agent}/hooks/#case-${r.case}"`),
      `${tool.links.page} links ${r.case}`,
    );
  }
  // /hooks/ links every case from its comparison.
  const comparison = readFileSync(fileOf('/hooks/'), 'utf8');
  for (const r of records)
    assert.ok(comparison.includes(`href="/${r.agent}/hooks/#case-${r.case}"`), `/hooks/ links ${r.agent}/${r.case}`);
});

interface OutputsFile {
  agent: string;
  unavailable?: string;
  source?: { package: string; version: string; file: string; form: string };
  events?: { event: string; declaredAs: string; schema: Record<string, unknown> }[];
}
const outputFiles = (): OutputsFile[] =>
  readdirSync(join(ROOT, 'content/hook-outputs')).map(
    (f) => JSON.parse(readFileSync(join(ROOT, 'content/hook-outputs', f), 'utf8')) as OutputsFile,
  );

test('every agent says what its hooks may return: its catalog entry, published schemas that compile, a hooks-page section whose member links reach recorded cases', () => {
  const files = outputFiles();
  // Every agent of the catalog whose registry module records hooks; one whose hooks are not
  // covered yet has no file, and its hooks page says why.
  const covered = catalog.agents
    .map((a) => a.id)
    .filter((id) => AGENT_IDS.some((known) => known === id && !('none' in AGENTS[known].hooks)));
  assert.deepEqual(
    files.map((f) => f.agent).sort(),
    covered.sort(),
    'one hook outputs file per agent whose hooks are recorded',
  );
  for (const id of AGENT_IDS) {
    const hooks = AGENTS[id].hooks;
    if (!('none' in hooks)) continue;
    const entry = catalog.agents.find((a) => a.id === id) as unknown as { hooks: { page: string } } | undefined;
    assert.ok(entry, `${id} is in the catalog`);
    const main = elements(readFileSync(fileOf(entry.hooks.page), 'utf8')).find((e) => e.nodeName === 'main');
    assert.ok(main, `${entry.hooks.page} has a main element`);
    assert.ok(
      squash(textOf(main as unknown as Node)).includes(squash(hooks.none.replaceAll('`', ''))),
      `${id}: its hooks page says why no payload is recorded`,
    );
  }
  const ajv = new Ajv2020({ strict: false });
  for (const file of files) {
    const agent = catalog.agents.find((a) => a.id === file.agent) as unknown as {
      hooks: {
        page: string;
        outputs?: { from?: string; unavailable?: string; schemas?: { event: string; schema: string }[] };
      };
    };
    const html = readFileSync(fileOf(agent.hooks.page), 'utf8');
    const all = elements(html);
    const section = all.find((e) => attr(e, 'aria-labelledby') === 'outputs');
    assert.ok(section, `${file.agent}: the hooks page has a section on what a hook may return`);
    if (file.unavailable !== undefined) {
      assert.equal(agent.hooks.outputs?.unavailable, file.unavailable);
      // The reason's `code` spans are rendered as code, so the page's text has no backticks.
      assert.ok(
        squash(textOf(section)).includes(squash(file.unavailable.replace(/`/g, ''))),
        `${file.agent}: the page says why none is published`,
      );
      continue;
    }
    assert.deepEqual(
      agent.hooks.outputs?.schemas?.map((s) => s.event),
      file.events!.map((e) => e.event),
    );
    assert.equal(agent.hooks.outputs?.from, `${file.source!.package}@${file.source!.version}, ${file.source!.file}`);
    for (const { event, schema } of agent.hooks.outputs!.schemas!) {
      const published = JSON.parse(readFileSync(fileOf(schema), 'utf8')) as Record<string, unknown>;
      assert.equal(published['$schema'], 'https://json-schema.org/draft/2020-12/schema', schema);
      const { $id: _id, ...body } = published;
      ajv.compile(body);
      // The published body is the declared one.
      const declared = file.events!.find((e) => e.event === event)!.schema;
      assert.deepEqual(published['properties'], declared['properties'], `${schema}: its members are the declared ones`);
    }
    // Every link of the section to a case lands on a row of the behaviour table of the same page.
    const ids = new Set(all.map((e) => attr(e, 'id')).filter((id) => id !== undefined));
    const caseLinks = all.filter((e) => attr(e, 'href')?.startsWith('#case-') && isInside(e, section));
    for (const link of caseLinks)
      assert.ok(ids.has(attr(link, 'href')!.slice(1)), `${file.agent}: ${attr(link, 'href')} has no target`);
    if (file.source!.form !== 'plugin-output')
      assert.ok(caseLinks.length > 0, `${file.agent}: some declared member links to a case that used it`);
  }
});

/** Whether `node` lies inside `ancestor`. */
function isInside(node: Node, ancestor: Node): boolean {
  for (let n: Node | null = node; n; n = (n as Element).parentNode as Node | null) if (n === ancestor) return true;
  return false;
}

test("the checker of a tool page reads a pasted hook answer and checks it against the event's published output schema", async () => {
  // A deny case the CLI obeyed, of an agent with printed (not plugin) outputs, on a tool whose page has a checker.
  const files = outputFiles().filter((f) => f.source !== undefined && f.source.form !== 'plugin-output');
  const found = files
    .flatMap((f) =>
      readdirSync(join(ROOT, 'content/hook-behaviour', f.agent)).map(
        (n) =>
          JSON.parse(readFileSync(join(ROOT, 'content/hook-behaviour', f.agent, n), 'utf8')) as {
            agent: string;
            kind: string;
            tool: string;
            event: string;
            sideEffect?: { happened: boolean };
            hookReturn: { stdout: string; exitCode: number };
          },
      ),
    )
    .filter(
      (r) =>
        r.kind === 'pre-deny' &&
        r.sideEffect?.happened === false &&
        r.hookReturn.exitCode === 0 &&
        r.hookReturn.stdout.trim() !== '',
    )
    .map((r) => ({
      record: r,
      tool: catalog.tools.find(
        (t) => t.agent === r.agent && (t.fullName === r.tool || t.aliases.some((a) => a.name === r.tool)),
      ),
    }))
    .find((c) => c.tool && readFileSync(fileOf(c.tool.links.page), 'utf8').includes('data-payload-check'));
  assert.ok(found?.tool, 'an obeyed deny case of a tool with a checker');
  const answer = JSON.parse(found.record.hookReturn.stdout) as Record<string, unknown>;
  const page = await served.browser.newPage();
  try {
    await openChecker(page, `${served.base}${found.tool.links.page}`);
    const verdict = (json: string) => checkerVerdict(page, json);
    const ok = await verdict(JSON.stringify(answer));
    assert.match(ok, new RegExp(`Valid as the answer of a [^.]*\\b${found.record.event}\\b[^.]* hook\\.`), ok);
    // The same answer with a decision no schema allows: not valid, and the place is named.
    const spoiled = JSON.parse(JSON.stringify(answer).replace(/"(deny|block)"/, '"perhaps"')) as unknown;
    assert.notDeepEqual(spoiled, answer, 'the answer holds a deny or block word to spoil');
    const bad = await verdict(JSON.stringify(spoiled));
    assert.match(bad, /Not valid as the answer of a .* hook: [1-9]\d* errors?/, bad);
  } finally {
    await page.close();
  }
});

test('an agent whose behaviour history ran says so on its hooks page, with the releases it covers', () => {
  const dir = join(ROOT, 'content/hook-behaviour-history');
  const histories = existsSync(dir)
    ? readdirSync(dir).map(
        (f) =>
          JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
            agent: string;
            releases: string[];
            read: string[];
            cases: Record<string, { from: string; to: string }[]>;
            changes: { case: string; between: [string, string] }[];
          },
      )
    : [];
  assert.ok(histories.length > 0, 'some agent has a behaviour history');
  for (const h of histories) {
    const agent = catalog.agents.find((a) => a.id === h.agent)!;
    const html = readFileSync(fileOf(agent.hooks.page), 'utf8');
    const section = elements(html).find((e) => attr(e, 'aria-labelledby') === 'behaviour')!;
    const text = squash(textOf(section));
    assert.ok(
      text.includes(`from ${h.releases[0]} to ${h.releases.at(-1)}`),
      `${h.agent}: the page names the range of the history`,
    );
    assert.ok(
      text.includes(
        `${h.read.length === h.releases.length ? `each of its ${h.releases.length}` : `${h.read.length} of its ${h.releases.length}`} stable releases`,
      ),
      `${h.agent}: how many releases were read`,
    );
    for (const c of h.changes)
      assert.ok(
        text.includes(`between ${c.between[0]} and ${c.between[1]}`),
        `${h.agent}/${c.case}: its change is on the page`,
      );
    if (h.changes.length === 0) assert.ok(text.includes('Every case behaved the same at every release read.'));
  }
});
