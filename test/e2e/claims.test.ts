/**
 * What tool pages claim, against the committed evidence read here with plain
 * walks of the raw files (not the build's own reading):
 * - a tool every capture sends without a schema member says the CLI sends none,
 *   and a tool always sent with one does not;
 * - captured text shows the capture's placeholders marked as placeholders, in the
 *   browser too (a dashed box with a title), never as plain verbatim text;
 * - every gate line says how it fares against the captures, and a gate on the model
 *   names the models the captures ask;
 * - a recorded PostToolUse hook that names the call another tool and receives a
 *   string, where the page declares a result, gets a finding.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSite, DIST, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { CONTENT, readCapture, readMatrix } from '../helpers/captured-entries.ts';
import { attr, elements, textOf, type Element } from '../helpers/html.ts';

before(() => buildSite());

const matrix = readMatrix();
const pageFile = (agent: string, name: string) => join(DIST, agent, name.toLowerCase(), 'index.html');
const html = (agent: string, name: string) => readFileSync(pageFile(agent, name), 'utf8');

/** Each tool entry of a raw request: its name and whether it carries its schema member. */
function schemaMembers(body: any): { name: string; sent: boolean }[] {
  const out: { name: string; sent: boolean }[] = [];
  for (const t of body.tools ?? []) {
    if (t.type === 'function' && t.function) out.push({ name: t.function.name, sent: 'parameters' in t.function });
    else if (t.type === 'function' && typeof t.name === 'string') out.push({ name: t.name, sent: 'parameters' in t });
    else if (t.type === undefined && typeof t.name === 'string' && !/never call this tool/i.test(t.description ?? ''))
      out.push({ name: t.name, sent: 'input_schema' in t });
  }
  return out;
}

test('a tool sent without its schema member says so; a tool always sent with one does not', () => {
  const seen = new Map<string, boolean[]>();
  for (const [agent, m] of Object.entries(matrix.agents)) {
    for (const c of m.configurations)
      for (const e of schemaMembers(readCapture(agent, c.id).body))
        seen.set(`${agent}/${e.name}`, [...(seen.get(`${agent}/${e.name}`) ?? []), e.sent]);
  }
  const never = [...seen].filter(([, sent]) => sent.every((s) => !s)).map(([k]) => k);
  const always = [...seen].filter(([, sent]) => sent.every((s) => s)).map(([k]) => k);
  let checked = 0;
  for (const key of always) {
    const [agent, name] = key.split('/') as [string, string];
    if (!existsSync(pageFile(agent, name))) continue; // MCP instances: their family page
    assert.doesNotMatch(html(agent, name), /class="absent-member"/, `${key} is sent with its schema`);
    checked++;
  }
  assert.ok(checked > 0);
  for (const key of never) {
    const [agent, name] = key.split('/') as [string, string];
    const page = html(agent, name);
    assert.match(
      page,
      /class="absent-member"[^>]*>\s*The CLI sends this tool with no <code>(parameters|input_schema)<\/code> member/,
      `${key}: the page says no schema member is sent`,
    );
    assert.match(
      page,
      /a stand-in: no <code>(parameters|input_schema)<\/code> was sent/,
      `${key}: the full definition is labelled a stand-in`,
    );
  }
});

/**
 * The placeholders the capture writes, read from its own rules' source: `$NAME` replacements and run variable names.
 */
function capturePlaceholders(): string[] {
  const names = new Set<string>();
  const rules = readFileSync(join(CONTENT, '..', 'scripts/lib/capture/placeholders.ts'), 'utf8');
  for (const m of rules.matchAll(/(?:placeholder|replace): '\$([A-Z][A-Z0-9_]*)'/g)) names.add(m[1]!);
  const runner = readFileSync(join(CONTENT, '..', 'scripts/lib/capture/runner.ts'), 'utf8');
  const vars = /function runVariables[\s\S]*?return \{([^}]*)\}/.exec(runner)![1]!;
  for (const m of vars.matchAll(/([A-Z][A-Z0-9_]*):/g)) names.add(m[1]!);
  return [...names];
}

/** Every built tool page (a folder with index.html two levels down). */
function toolPages(): string[] {
  const out: string[] = [];
  for (const agent of Object.keys(matrix.agents)) {
    for (const slug of readdirSync(join(DIST, agent))) {
      const file = join(DIST, agent, slug, 'index.html');
      if (existsSync(file)) out.push(file);
    }
  }
  return out;
}

test('captured text marks every placeholder as one, and the legend says what it stands for', () => {
  const tokens = capturePlaceholders();
  assert.ok(tokens.includes('YEAR') && tokens.includes('HOME'), `placeholders read: ${tokens.join(', ')}`);
  const token = new RegExp(`\\$(?:${tokens.join('|')})(?![A-Z0-9_])`, 'g');
  let marked = 0;
  for (const file of toolPages()) {
    const page = readFileSync(file, 'utf8');
    const pre = /<pre class="upstream-text"[^>]*>([\s\S]*?)<\/pre>/.exec(page)?.[1];
    if (!pre) continue;
    const bare = pre.replace(/<span class="placeholder"[^>]*>[^<]*<\/span>/g, '');
    assert.doesNotMatch(bare, token, `${file}: a placeholder shown as verbatim text`);
    const count = (pre.match(/<span class="placeholder"/g) ?? []).length;
    if (count > 0) {
      assert.match(page, /class="placeholder-legend"/, `${file}: a legend`);
      assert.match(page, /verbatim except for the marked placeholders/, `${file}: the verbatim label says so`);
    }
    marked += count;
  }
  // Some committed capture sends a description holding a placeholder: it is marked somewhere.
  const anyInCaptures = Object.entries(matrix.agents).some(([agent, m]) =>
    m.configurations.some((c) => token.test(JSON.stringify(readCapture(agent, c.id).body))),
  );
  assert.equal(marked > 0, anyInCaptures);
});

test('every gate line says how it fares against the captures; a model gate names the models captured', () => {
  for (const agent of readdirSync(join(CONTENT, 'editorial'))) {
    const models = new Set(
      readMatrix()
        .agents[agent]?.configurations.map((c) => readCapture(agent, c.id))
        .map((cap) => cap.body.model ?? /\/models\/([^/:]+):/.exec(cap.request.path)?.[1]),
    );
    for (const file of readdirSync(join(CONTENT, 'editorial', agent))) {
      const notes = JSON.parse(readFileSync(join(CONTENT, 'editorial', agent, file), 'utf8'));
      if (!notes.availability || notes.documentedOnly) continue;
      const page = html(agent, file.replace(/\.json$/, ''));
      const lines = page.match(/<ul class="gates"[\s\S]*?<\/ul>/)?.[0]?.match(/<li[\s\S]*?<\/li>/g) ?? [];
      assert.equal(lines.length, notes.availability.gates.length, `${agent}/${file}: one line per gate`);
      notes.availability.gates.forEach((gate: any, i: number) => {
        const line = lines[i]!;
        if (!gate.when) return assert.match(line, /not checked against the captures/, `${agent}/${file} gate ${i}`);
        assert.match(
          line,
          /checked against the captures: (holds in \d+ of \d+|no captured configuration)/,
          `${agent}/${file} gate ${i}`,
        );
        if (gate.when.model) {
          const listed = /established for the captured models only \(([^)]*)\)/.exec(line)?.[1]?.split(', ');
          assert.deepEqual(new Set(listed), models, `${agent}/${file} gate ${i}: the models the captures ask`);
        }
      });
    }
  }
});

test('a hook result under another tool name that is a string where an object is declared gets a finding', () => {
  let found = 0;
  for (const agent of readdirSync(join(CONTENT, 'payloads'))) {
    for (const file of readdirSync(join(CONTENT, 'payloads', agent))) {
      const payload = JSON.parse(readFileSync(join(CONTENT, 'payloads', agent, file), 'utf8'));
      const call = payload.calls[0];
      const post = call.hooks.find((h: any) => h.hook_event_name === 'PostToolUse');
      if (!post || post.tool_name === call.tool || typeof post.tool_response !== 'string') continue;
      const slug = file.split('.').slice(0, -2).join('.');
      const page = html(agent, slug);
      // Only pages that declare a result (rows under output.) can differ from it.
      if (!/id="output\./.test(page)) continue;
      const example =
        new RegExp(`id="example-${payload.scenario}"[\\s\\S]*?class="example-findings"[\\s\\S]*?</ul>`).exec(
          page,
        )?.[0] ?? '';
      assert.match(
        example,
        /hook tool_response\): the PostToolUse hook \(which names the call &quot;[^&]+&quot;\) receives a result that differs/,
        `${agent}/${file}`,
      );
      found++;
    }
  }
  assert.ok(found > 0, 'no recorded hook result under another name with a declared result');
});

let served: Served;
after(async () => served?.close());

test('in the browser a placeholder is a dashed box with a title, and the gate status is shown', async () => {
  served = await serveAndLaunch();
  const withPlaceholder = toolPages().find((f) =>
    /<pre class="upstream-text"[^>]*>[\s\S]*?<span class="placeholder"/.test(readFileSync(f, 'utf8')),
  );
  assert.ok(withPlaceholder);
  const url = withPlaceholder.slice(DIST.length).replace(/index\.html$/, '');
  const page = await served.browser.newPage();
  await page.goto(served.base + url);
  // Sections above may still be laid out (content-visibility) as the click lands, moving the summary under it: click
  // until it opens.
  const details = page.locator('details.model-description').first();
  for (let i = 0; i < 3 && !(await details.evaluate((d) => (d as HTMLDetailsElement).open)); i++)
    await details.locator('summary').click();
  assert.ok(await details.evaluate((d) => (d as HTMLDetailsElement).open), 'the description opens');
  const span = details.locator('pre.upstream-text .placeholder').first();
  await span.waitFor();
  assert.equal(await span.evaluate((e) => getComputedStyle(e).borderTopStyle), 'dashed');
  assert.match((await span.getAttribute('title')) ?? '', /^Placeholder, not verbatim/);
  assert.ok(await page.locator('.gate-check').first().isVisible());
  await page.close();
});

test('the home page lists each agent of content/not-documented.json with its reason and day, and none the site documents', () => {
  const file = join(CONTENT, 'not-documented.json');
  if (!existsSync(file)) return;
  const listed = (
    JSON.parse(readFileSync(file, 'utf8')) as {
      agents: { product: string; package?: string; why: string; checked: string }[];
    }
  ).agents;
  const home = elements(readFileSync(join(DIST, 'index.html'), 'utf8'));
  const list = home.find((e) => e.tagName === 'dl' && attr(e, 'class')?.split(' ').includes('not-covered'));
  assert.ok(list, 'the home page has the list of agents not covered');
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  const terms = list.childNodes.filter((n): n is Element => 'tagName' in n && n.tagName === 'dt').map(textOf);
  const reasons = list.childNodes.filter((n): n is Element => 'tagName' in n && n.tagName === 'dd').map(textOf);
  assert.deepEqual(
    terms.map(squash),
    listed.map((a) => (a.package ? `${a.product} (${a.package})` : a.product)),
  );
  assert.deepEqual(
    reasons.map(squash),
    listed.map((a) => squash(`${a.why} Checked ${a.checked}.`)),
  );
  // A documented agent is a link in the table above; none of them is listed as not covered.
  const inAgentsTable = (e: Element): boolean => {
    if (e.tagName === 'table' && attr(e, 'class') === 'home-agents') return true;
    const parent = e.parentNode;
    return parent !== null && 'tagName' in parent && inAgentsTable(parent as Element);
  };
  const documented = home
    .filter((e) => e.tagName === 'a' && inAgentsTable(e))
    .map((a) => squash(textOf(a)).toLowerCase());
  assert.ok(documented.length > 0);
  for (const a of listed) assert.ok(!documented.includes(a.product.toLowerCase()), `${a.product} is documented`);
});
