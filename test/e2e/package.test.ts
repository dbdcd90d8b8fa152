/**
 * The `agent-tools` package as a user gets it: written from the built site (scripts/package.ts),
 * packed with `npm pack`, installed into an empty folder with an empty npm cache and no network,
 * then each verb run and `agent-tools mcp` driven by the MCP SDK's own client over stdio. Answers
 * are compared with the site's exports in the same build (dist/), read here directly: the
 * catalog, timelines, changes.json, the tool pages' anchors and the hook schemas.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';
import { atScale, spread } from '../helpers/sweep.ts';

interface CatalogTool {
  agent: string;
  name: string;
  fullName: string;
  slug: string;
  version: string;
  summary: string;
  jobs: string[];
  hookNames: string[];
  links: { page: string; timeline?: string; hookSchema?: string; schemas: { input?: { latest: string } } };
}
interface Catalog {
  agents: {
    id: string;
    product: string;
    version: string;
    hooks: {
      schemas: { event: string; schema: string }[];
      outputs?: { schemas?: { event: string; schema: string }[] };
    };
  }[];
  tools: CatalogTool[];
  jobs: { id: string; title: string; page: string }[];
}

const work = mkdtempSync(join(tmpdir(), 'agent-tools-package-'));
let bin = '';
let catalog: Catalog;
let site = '';

const json = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const distFile = (sitePath: string) => join(DIST, sitePath);

function run(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    input: input ?? '',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}
function answer<T>(args: string[], input?: string, code = 0): T {
  const r = run([...args, '--json'], input);
  assert.equal(r.code, code, `agent-tools ${args.join(' ')} exited ${r.code}: ${r.err}`);
  return JSON.parse(r.out) as T;
}

before(() => {
  buildSite();
  catalog = json<Catalog>(join(DIST, 'catalog.json'));
  const packageDir = join(work, 'package');
  const wrote = spawnSync(process.execPath, [join(ROOT, 'scripts/package.ts'), '--site', DIST, '--out', packageDir], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(wrote.status, 0, wrote.stderr);
  const npm = (cwd: string, args: string[]) => {
    const r = spawnSync('npm', args, {
      cwd,
      encoding: 'utf8',
      timeout: 120_000,
      // An empty cache and --offline: nothing the package needs may come from the registry or an earlier install.
      env: { ...process.env, npm_config_cache: join(work, 'empty-cache'), npm_config_offline: 'true' },
    });
    assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const tarball = npm(packageDir, ['pack', '--pack-destination', work, '--silent']).trim().split('\n').pop()!;
  const size = statSync(join(work, tarball)).size;
  assert.ok(size < 15_000_000, `the tarball is ${size} bytes`);
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}\n');
  npm(app, ['install', '--no-audit', '--no-fund', join(work, tarball)]);
  bin = join(app, 'node_modules', 'agent-tool-reference', 'bin', 'agent-tools.js');
  assert.ok(existsSync(bin), 'the installed package has its command');
  site = json<{ site: string }>(join(app, 'node_modules', 'agent-tool-reference', 'data', 'snapshot.json')).site;
});

after(() => rmSync(work, { recursive: true, force: true }));

const url = (sitePath: string) => new URL(sitePath, site).href;
/** One tool per agent: its first in the catalog. */
const firstTools = () => catalog.agents.map((a) => catalog.tools.find((t) => t.agent === a.id)!);

test('--version names the package and every agent release of the catalog', () => {
  const r = run(['--version']);
  assert.equal(r.code, 0);
  for (const a of catalog.agents) assert.ok(r.out.includes(`${a.product} ${a.version}`), `${a.product} ${a.version}`);
});

test('show: the catalog entry and the page, and every field it lists is a row anchor of that page', () => {
  for (const tool of firstTools()) {
    const a = answer<{
      tool: string;
      release: string;
      summary: string;
      page: string;
      fields: Record<string, { id: string }[]>;
    }>(['show', tool.agent, tool.name]);
    assert.equal(a.tool, tool.fullName);
    assert.equal(a.release, tool.version);
    assert.equal(a.summary, tool.summary);
    assert.equal(a.page, url(tool.links.page));
    const html = readFileSync(join(distFile(tool.links.page), 'index.html'), 'utf8');
    for (const rows of Object.values(a.fields))
      for (const row of rows) assert.ok(html.includes(`id="${row.id}"`), `${tool.agent} ${tool.name}: #${row.id}`);
  }
  // Any letter case finds the tool; an unknown one exits 3 and says what is close.
  const tool = firstTools()[0]!;
  assert.equal(run(['show', tool.agent, tool.name.toUpperCase()]).code, 0);
  const miss = run(['show', tool.agent, `${tool.name}x`]);
  assert.equal(miss.code, 3);
  assert.match(miss.err, new RegExp(`Did you mean: .*${tool.fullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
});

test('search: exact spellings first, each with its agent, every URL a built page', () => {
  for (const tool of firstTools()) {
    const a = answer<{
      hits: { kind: string; name: string; rank: number; agent?: string; tool?: string; url: string }[];
    }>(['search', tool.fullName]);
    assert.equal(a.hits[0]!.rank, 0, `${tool.fullName}: ${JSON.stringify(a.hits[0])}`);
    const exact = a.hits.filter((h) => h.rank === 0 && h.kind === 'tool');
    assert.ok(exact.some((h) => h.agent === tool.agent && h.tool === tool.fullName));
    const firstOther = a.hits.findIndex((h) => h.rank > 0);
    if (firstOther >= 0)
      assert.ok(
        a.hits.slice(firstOther).every((h) => h.rank > 0),
        'ranks are in order',
      );
    for (const hit of a.hits) {
      const path = new URL(hit.url).pathname;
      assert.ok(existsSync(join(DIST, path, 'index.html')), `${hit.url} is a built page`);
    }
  }
});

test('names: a job lists, for every agent, the catalog tools of that job and their hook names', () => {
  for (const job of catalog.jobs.slice(0, 6)) {
    const a = answer<{
      jobs: { job: string; url: string; agents: { agent: string; tools: { name: string; hookNames: string[] }[] }[] }[];
    }>(['names', job.id]);
    assert.equal(a.jobs.length, 1);
    assert.equal(a.jobs[0]!.url, url(job.page));
    const expected = catalog.tools.filter((t) => t.jobs.includes(job.id));
    const got = a.jobs[0]!.agents.flatMap((g) => g.tools.map((t) => ({ agent: g.agent, ...t })));
    assert.deepEqual(
      got.map((t) => `${t.agent}/${t.name}`).sort(),
      expected.map((t) => `${t.agent}/${t.fullName}`).sort(),
    );
    for (const t of got)
      assert.deepEqual(t.hookNames, expected.find((e) => e.agent === t.agent && e.fullName === t.name)!.hookNames);
  }
});

test("diff: a changed description's texts are the timeline's own, word for word", () => {
  const timed = catalog.tools.filter((t) => t.links.timeline !== undefined);
  let compared = 0;
  for (const tool of timed) {
    const timeline = json<{
      sources: {
        source: string;
        changes: { release: string; previous: string; fromText?: string; toText?: string }[];
      }[];
      texts: Record<string, string>;
    }>(distFile(tool.links.timeline!));
    for (const source of timeline.sources) {
      const change = source.changes.find((c) => c.fromText !== undefined && c.toText !== undefined);
      if (!change) continue;
      const a = answer<{ items: { before?: string; after?: string; releases: string[] }[] }>([
        'diff',
        tool.agent,
        tool.fullName,
        change.previous,
        change.release,
        '--source',
        source.source,
      ]);
      assert.ok(
        a.items.some(
          (i) => i.before === timeline.texts[change.fromText!] && i.after === timeline.texts[change.toText!],
        ),
        `${tool.agent} ${tool.fullName} ${change.previous}..${change.release}`,
      );
      compared++;
      break;
    }
    if (compared >= 5) break;
  }
  assert.ok(compared > 0, 'no timeline holds a changed text');
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return text.startsWith('{');
  } catch {
    return false;
  }
}

/** Starts `agent-tools mcp` and gives the SDK's client connected to it. */
async function withClient(use: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ name: 'package-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], stderr: 'pipe' }));
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

/** Recorded hook payloads with the event they name: content/payloads/<agent>/*.json. */
function recordedPayloads(agent: string): { event: string; payload: Record<string, unknown> }[] {
  const dir = join(ROOT, 'content/payloads', agent);
  if (!existsSync(dir)) return [];
  const out: { event: string; payload: Record<string, unknown> }[] = [];
  for (const file of readdirSync(dir)) {
    const record = json<{ calls: { hooks?: Record<string, unknown>[]; hookEvents?: string[] }[] }>(join(dir, file));
    for (const call of record.calls)
      (call.hooks ?? []).forEach((payload, i) => {
        const event = payload.hook_event_name ?? payload.hookEventName ?? call.hookEvents?.[i];
        if (typeof event === 'string') out.push({ event, payload });
      });
  }
  return out;
}

// The command line reads stdin and answers with its exit code: one recorded payload of each agent through it is enough,
// as the test over MCP below checks more recorded payloads (every one in the sweep) through the same checker.
test('check: a recorded payload of each agent is accepted; one spoiled is refused with its pointer and rule', () => {
  let accepted = 0;
  for (const agent of catalog.agents) {
    const events = new Set(agent.hooks.schemas.map((s) => s.event));
    const recorded = recordedPayloads(agent.id).find(({ event }) => events.has(event));
    if (recorded) {
      const r = run(['check', agent.id, recorded.event, '-'], JSON.stringify(recorded.payload));
      assert.equal(r.code, 0, `${agent.id} ${recorded.event}: ${r.out}`);
      accepted++;
    }
    const schemaRef = agent.hooks.schemas[0];
    const sample = recordedPayloads(agent.id).find((p) => p.event === schemaRef?.event);
    if (!schemaRef || !sample) continue;
    // Spoil a required member the schema types: give it a value of another JSON type.
    const schema = json<{ required?: string[]; properties: Record<string, { type?: string }> }>(
      distFile(schemaRef.schema),
    );
    const member = (schema.required ?? []).find((m) => typeof schema.properties[m]?.type === 'string');
    if (!member) continue;
    const wrong = schema.properties[member]!.type === 'string' ? 12345 : 'text';
    const refused = answer<{ valid: boolean; errors: { pointer: string; rule: string; text: string }[] }>(
      ['check', agent.id, schemaRef.event, '-'],
      JSON.stringify({ ...sample.payload, [member]: wrong }),
      1,
    );
    assert.equal(refused.valid, false);
    assert.ok(
      refused.errors.some((e) => e.pointer === `/${member}` && e.rule === 'type' && /^must be /.test(e.text)),
      JSON.stringify(refused.errors),
    );
  }
  assert.ok(accepted > 0, 'no recorded payload was checked');
});

test("check: a payload naming a tool is checked against that tool's hook schema, its input as recorded", () => {
  let refused = 0;
  for (const agent of catalog.agents) {
    for (const { event, payload } of recordedPayloads(agent.id)) {
      const input = payload.tool_input;
      const name = payload.tool_name;
      if (typeof name !== 'string' || input === null || typeof input !== 'object' || Array.isArray(input)) continue;
      const tool = catalog.tools.find((t) => t.agent === agent.id && t.hookNames.includes(name) && t.links.hookSchema);
      if (!tool) continue;
      const schema = json<{ $defs: Record<string, { properties?: Record<string, { type?: string }> }> }>(
        distFile(tool.links.hookSchema!),
      );
      if (!schema.$defs[`event-${event}`]) continue;
      // A member the recorded input types as a string, given a number.
      const member = Object.entries(schema.$defs['input-recorded']?.properties ?? {}).find(
        ([, p]) => p.type === 'string',
      )?.[0];
      if (member === undefined || !(member in input)) continue;
      const spoiled = { ...payload, tool_input: { ...input, [member]: 12345 } };
      const a = answer<{ errors: { pointer: string; rule: string }[]; notes: string[] }>(
        ['check', agent.id, event, '-'],
        JSON.stringify(spoiled),
        1,
      );
      assert.ok(
        a.errors.some((e) => e.pointer === `/tool_input/${member}` && e.rule === 'type'),
        `${agent.id} ${tool.fullName}: ${JSON.stringify(a.errors)}`,
      );
      assert.ok(
        a.notes.some((n) => n.includes(tool.fullName)),
        'the answer says which tool schema it used',
      );
      refused++;
      break;
    }
  }
  assert.ok(refused > 0, 'no recorded payload had a typed tool input to spoil');
});

test('check over MCP: recorded payloads are accepted (the first of each agent and event, and a spread; every one in the sweep)', async () => {
  await withClient(async (client) => {
    let accepted = 0;
    for (const agent of catalog.agents) {
      const events = new Set(agent.hooks.schemas.map((s) => s.event));
      const recorded = recordedPayloads(agent.id).filter(({ event }) => events.has(event));
      const firstOfEvent = [...events].flatMap((e) => recorded.find(({ event }) => event === e) ?? []);
      for (const { event, payload } of atScale(recorded, [...firstOfEvent, ...spread(recorded, 8)])) {
        const result = await client.callTool({
          name: 'check_hook_payload',
          arguments: { agent: agent.id, event, payload },
        });
        const verdict = result.structuredContent as { valid: boolean; headline: string } | undefined;
        assert.equal(verdict?.valid, true, `${agent.id} ${event}: ${JSON.stringify(result.content)}`);
        accepted++;
      }
    }
    assert.ok(accepted > 0);
  });
});

/** Recorded hook answers that are JSON, of events whose output schema the site publishes: content/hook-behaviour/. */
function recordedAnswers(): { agent: string; event: string; file: string; answer: string; schema: string }[] {
  const out: { agent: string; event: string; file: string; answer: string; schema: string }[] = [];
  for (const agent of catalog.agents) {
    const outputs = new Map((agent.hooks.outputs?.schemas ?? []).map((s) => [s.event, s.schema]));
    const dir = join(ROOT, 'content/hook-behaviour', agent.id);
    if (outputs.size === 0 || !existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      const record = json<{ event: string; hookReturn: { stdout: string } }>(join(dir, file));
      const answer = record.hookReturn.stdout.trim();
      const schema = outputs.get(record.event);
      if (schema !== undefined && isJson(answer))
        out.push({ agent: agent.id, event: record.event, file, answer, schema });
    }
  }
  return out;
}

// One answer of each agent through the command line, and one spoiled; the test over MCP below checks every recorded
// answer.
test('check --answer: a recorded answer of each agent is accepted; spoiled, it is refused with pointer and rule', () => {
  const accepted = new Set<string>();
  const spoiled = new Set<string>();
  for (const { agent, event, file, answer: text, schema: schemaPath } of recordedAnswers()) {
    if (!accepted.has(agent)) {
      accepted.add(agent);
      const r = run(['check', agent, event, '--answer'], text);
      assert.equal(r.code, 0, `${agent}/${file}: ${r.out}`);
    }
    if (spoiled.has(agent)) continue;
    // The same answer with a member the output schema types given a value of another type.
    const schema = json<{ properties?: Record<string, { type?: string }> }>(distFile(schemaPath));
    const typed = Object.entries(schema.properties ?? {}).find(([, p]) => typeof p.type === 'string');
    if (!typed) continue;
    spoiled.add(agent);
    const [member, { type }] = typed;
    const refused = answer<{ errors: { pointer: string; rule: string }[] }>(
      ['check', agent, event, '--answer'],
      JSON.stringify({ ...JSON.parse(text), [member]: type === 'string' ? 12345 : 'text' }),
      1,
    );
    assert.ok(
      refused.errors.some((e) => e.pointer === `/${member}` && e.rule === 'type'),
      JSON.stringify(refused.errors),
    );
  }
  assert.ok(accepted.size > 0 && spoiled.size > 0, 'no recorded answer was checked');
});

test('check over MCP: every recorded JSON answer of every agent is accepted where an output schema exists', async () => {
  const answers = recordedAnswers();
  assert.ok(answers.length > 0);
  await withClient(async (client) => {
    for (const { agent, event, file, answer: text } of answers) {
      const result = await client.callTool({ name: 'check_hook_answer', arguments: { agent, event, payload: text } });
      const verdict = result.structuredContent as { valid: boolean } | undefined;
      assert.equal(verdict?.valid, true, `${agent}/${file}: ${JSON.stringify(result.content)}`);
    }
  });
});

test('changes: the releases of the site changes.json, filtered by agent, day and breaking', () => {
  const data = json<{ releases: { id: string; agent: string; published: string; groups: unknown[] }[] }>(
    join(DIST, 'changes.json'),
  );
  const all = answer<{ releases: { id: string }[] }>(['changes']);
  assert.deepEqual(
    all.releases.map((r) => r.id),
    data.releases.map((r) => r.id),
  );
  const agent = data.releases[0]!.agent;
  const own = answer<{ releases: { id: string; agent: string }[] }>(['changes', '--agent', agent]);
  assert.deepEqual(
    own.releases.map((r) => r.id),
    data.releases.filter((r) => r.agent === agent).map((r) => r.id),
  );
  const day = data.releases[Math.floor(data.releases.length / 2)]!.published.slice(0, 10);
  const since = answer<{ releases: { id: string }[] }>(['changes', '--since', day]);
  assert.deepEqual(
    since.releases.map((r) => r.id),
    data.releases.filter((r) => r.published >= `${day}T00:00:00`).map((r) => r.id),
  );
  const breaking = answer<{ releases: { groups: { tools: { changes: { breaking?: string }[] }[] }[] }[] }>([
    'changes',
    '--breaking',
  ]);
  for (const r of breaking.releases)
    for (const g of r.groups) for (const t of g.tools) for (const c of t.changes) assert.ok(c.breaking);
  assert.equal(run(['changes', '--since', 'yesterday']).code, 2);
});

test('exit codes: wrong command line 2, not in the snapshot 3, input not JSON 4', () => {
  const agent = catalog.agents.find((a) => a.hooks.schemas.length > 0)!;
  assert.equal(run(['show']).code, 2);
  assert.equal(run(['show', agent.id, 'x', '--nope']).code, 2);
  assert.equal(run(['frobnicate']).code, 2);
  assert.equal(run(['show', 'no-such-agent', 'x']).code, 3);
  assert.equal(run(['check', agent.id, 'NoSuchEvent', '-'], '{}').code, 3);
  const notJson = run(['check', agent.id, agent.hooks.schemas[0]!.event, '-'], '{"a":');
  assert.equal(notJson.code, 4);
  assert.match(notJson.err, /Not JSON/);
  assert.equal(run(['check', agent.id, agent.hooks.schemas[0]!.event, join(work, 'missing.json')]).code, 4);
  for (const verb of ['show', 'search', 'names', 'diff', 'check', 'changes', 'mcp']) {
    const help = run([verb, '--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, new RegExp(`^agent-tools ${verb}`));
  }
});

test('at scale, over MCP: catalog tools are looked up and found first by their names, their timelines compared end to end (the first of each agent and a spread; every tool in the sweep)', async () => {
  const tools = atScale(catalog.tools, [...firstTools(), ...spread(catalog.tools, 8)]);
  assert.ok(
    tools.some((t) => t.links.timeline),
    'a tool with a timeline is among them',
  );
  await withClient(async (client) => {
    for (const tool of tools) {
      const shown = await client.callTool({
        name: 'lookup_tool',
        arguments: { agent: tool.agent, tool: tool.fullName },
      });
      const a = shown.structuredContent as { tool: string; release: string; page: string } | undefined;
      assert.deepEqual(
        a && [a.tool, a.release, a.page],
        [tool.fullName, tool.version, url(tool.links.page)],
        `${tool.agent} ${tool.fullName}`,
      );
      const found = await client.callTool({ name: 'search', arguments: { text: tool.fullName, limit: 500 } });
      const hits = (
        found.structuredContent as { hits: { rank: number; kind: string; agent?: string; tool?: string }[] }
      ).hits;
      assert.ok(
        hits.some((h) => h.rank === 0 && h.kind === 'tool' && h.agent === tool.agent && h.tool === tool.fullName),
        `search ${tool.fullName}`,
      );
      if (!tool.links.timeline) continue;
      const timeline = json<{ sources: { source: string; releases: { version: string }[]; changes: unknown[] }[] }>(
        distFile(tool.links.timeline),
      );
      for (const source of timeline.sources) {
        const compared = await client.callTool({
          name: 'compare_releases',
          arguments: {
            agent: tool.agent,
            tool: tool.fullName,
            from: source.releases[0]!.version,
            to: source.releases.at(-1)!.version,
            source: source.source,
          },
        });
        assert.notEqual(compared.isError, true, `${tool.agent} ${tool.fullName}: ${JSON.stringify(compared.content)}`);
        // From the first release read to the last: every change of the history.
        const { summary } = compared.structuredContent as { summary: string };
        const n = source.changes.length;
        assert.ok(summary.startsWith(`${n} change${n === 1 ? '' : 's'} of `), `${tool.fullName}: ${summary}`);
      }
    }
  });
});

test('mcp: the SDK client initializes, lists and calls each tool, each under a second, answers as the command', async () => {
  const client = new Client({ name: 'package-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], stderr: 'pipe' });
  const timed = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await call();
    const ms = performance.now() - start;
    assert.ok(ms < 1000, `${what} took ${ms.toFixed(0)} ms`);
    return result;
  };
  try {
    await timed('initialize', () => client.connect(transport));
    const { tools } = await timed('tools/list', () => client.listTools());
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'check_hook_answer',
      'check_hook_payload',
      'compare_releases',
      'lookup_tool',
      'map_names',
      'search',
      'what_changed',
    ]);
    for (const t of tools) assert.equal(t.inputSchema.type, 'object');
    const tool = firstTools()[0]!;
    const hooked = catalog.agents.find((a) => a.hooks.schemas.length > 0)!;
    const payload = recordedPayloads(hooked.id).find((p) => p.event === hooked.hooks.schemas[0]!.event)!;
    const outputAgent = catalog.agents.find((a) => (a.hooks.outputs?.schemas ?? []).length > 0)!;
    const timeline = catalog.tools.find((t) => t.links.timeline !== undefined)!;
    const source = json<{ sources: { source: string; releases: { version: string }[] }[] }>(
      distFile(timeline.links.timeline!),
    ).sources[0]!;
    const calls: [string, Record<string, unknown>, string[]][] = [
      ['lookup_tool', { agent: tool.agent, tool: tool.name }, ['show', tool.agent, tool.name]],
      ['search', { text: tool.fullName }, ['search', tool.fullName]],
      ['map_names', { name: tool.fullName }, ['names', tool.fullName]],
      [
        'compare_releases',
        {
          agent: timeline.agent,
          tool: timeline.fullName,
          from: source.releases[0]!.version,
          to: source.releases.at(-1)!.version,
          source: source.source,
        },
        [
          'diff',
          timeline.agent,
          timeline.fullName,
          source.releases[0]!.version,
          source.releases.at(-1)!.version,
          '--source',
          source.source,
        ],
      ],
      [
        'check_hook_payload',
        { agent: hooked.id, event: payload.event, payload: payload.payload },
        ['check', hooked.id, payload.event, '-'],
      ],
      [
        'check_hook_answer',
        { agent: outputAgent.id, event: outputAgent.hooks.outputs!.schemas![0]!.event, payload: { continue: 'no' } },
        ['check', outputAgent.id, outputAgent.hooks.outputs!.schemas![0]!.event, '-', '--answer'],
      ],
      ['what_changed', { agent: tool.agent }, ['changes', '--agent', tool.agent]],
    ];
    for (const [name, args, cli] of calls) {
      const result = await timed(name, () => client.callTool({ name, arguments: args }));
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
      const input =
        name === 'check_hook_payload'
          ? JSON.stringify(payload.payload)
          : name === 'check_hook_answer'
            ? '{"continue":"no"}'
            : undefined;
      const r = run([...cli, '--json'], input);
      assert.deepEqual(result.structuredContent, JSON.parse(r.out), `${name} answers as agent-tools ${cli[0]}`);
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      assert.ok(text.length > 0);
    }
    const { resources } = await timed('resources/list', () => client.listResources());
    const schemaPath = tool.links.schemas.input?.latest;
    if (schemaPath) {
      assert.ok(resources.some((r) => r.uri === url(schemaPath)));
      const read = await timed('resources/read', () => client.readResource({ uri: url(schemaPath) }));
      assert.equal((read.contents[0] as { text: string }).text, readFileSync(distFile(schemaPath), 'utf8'));
    }
    const missing = await client.callTool({ name: 'lookup_tool', arguments: { agent: 'no-such-agent', tool: 'x' } });
    assert.equal(missing.isError, true);
  } finally {
    await client.close();
  }
});
