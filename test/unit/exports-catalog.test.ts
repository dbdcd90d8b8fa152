/**
 * Which export files each tool gets (src/lib/site/export-files.ts) and the catalog
 * built from the content (src/lib/exports/catalog.ts), validated against
 * schemas/catalog.schema.json, and compared with facts read straight from the
 * raw content: the definition files of content/tools, the editorial files, the
 * capture matrix, and each capture's tools array walked by
 * test/helpers/captured-entries.ts — not with the model the catalog is built
 * from.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AGENT_IDS } from '../../src/lib/agents/index.ts';
import { publishedCatalogSchema, buildCatalog } from '../../src/lib/exports/catalog.ts';
import { expandAvailability } from '../../src/lib/exports/availability.ts';
import { exportFileNames, exportPath, siteUrl } from '../../src/lib/site/export-files.ts';
import { stubServerFamily } from '../../src/lib/model/tool-names.ts';
import { advertised, readCapture, readMatrix, standInPrefix, type Entry } from '../helpers/captured-entries.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const site = realContent();
const catalogSchema = JSON.parse(readFileSync(join(ROOT, 'schemas/catalog.schema.json'), 'utf8')) as Record<
  string,
  unknown
>;
const matrix = readMatrix();
const readJson = (...path: string[]) => JSON.parse(readFileSync(join(ROOT, ...path), 'utf8'));

/**
 * The definition file of content/tools for a tool, if the agent publishes its types
 * (`content/tools/<agent>/<slug>.json`).
 */
function contentTool(
  agent: string,
  slug: string,
): { name: string; input: { kind: string }; output: { kind: string } } | undefined {
  const path = join(ROOT, 'content/tools', agent, `${slug}.json`);
  return existsSync(path) ? readJson('content/tools', agent, `${slug}.json`) : undefined;
}

/** Per agent and configuration, the entries of its capture's tools array. */
const entries = new Map(
  Object.entries(matrix.agents).map(([agent, m]) => [
    agent,
    new Map(m.configurations.map((c) => [c.id, advertised(readCapture(agent, c.id).body, standInPrefix(agent))])),
  ]),
);
/** Every entry that names `name` in any configuration of the agent. */
const entriesNamed = (agent: string, names: readonly string[]): Entry[] =>
  [...(entries.get(agent)?.values() ?? [])].flat().filter((e) => names.includes(e.fullName));

test('export files follow what the content holds: a schema for each TypeScript or JSON Schema definition, none for a grammar or a hosted tool, a declaration only for a captured schema', () => {
  let checked = 0;
  for (const t of site.tools) {
    const files = exportFileNames(t);
    const published = contentTool(t.agent, t.slug);
    const captured = entriesNamed(t.agent, [t.fullName]);
    const where = `${t.agent}/${t.slug}`;
    if (published) {
      // Published types: the schemas follow the kinds of the content file; no generated declaration.
      const schema = (kind: string) => kind === 'typescript' || kind === 'json-schema';
      assert.equal(files.includes('input.schema.json'), schema(published.input.kind), `${where} input`);
      assert.equal(files.includes('result.schema.json'), schema(published.output.kind), `${where} result`);
      assert.equal(
        files.includes('model-input.schema.json'),
        captured.some((e) => e.input === 'json-schema'),
        `${where} model input`,
      );
      assert.ok(!files.includes('input.d.ts'), `${where}: published types need no generated declaration`);
      checked++;
    } else if (captured.length > 0) {
      // Captured only: the input schema is the one the entries carry; a grammar or a hosted tool has none.
      const schemaSent = captured.some((e) => e.input === 'json-schema');
      assert.equal(
        files.includes('input.schema.json'),
        schemaSent,
        `${where} input (${captured.map((e) => e.input).join(', ')})`,
      );
      assert.ok(!files.includes('model-input.schema.json'), `${where}: a captured schema is the input itself`);
      if (files.includes('input.d.ts'))
        assert.ok(schemaSent, `${where}: a declaration is generated from a captured schema`);
      checked++;
    }
  }
  assert.ok(checked > 0);
  // A declaration is generated for every captured-schema tool of an agent or for none of them.
  for (const agent of new Set(site.tools.map((t) => t.agent))) {
    const withSchema = site.tools.filter(
      (t) =>
        t.agent === agent &&
        !contentTool(t.agent, t.slug) &&
        entriesNamed(agent, [t.fullName]).some((e) => e.input === 'json-schema'),
    );
    const declared = withSchema.filter((t) => exportFileNames(t).includes('input.d.ts'));
    assert.ok(
      declared.length === 0 || declared.length === withSchema.length,
      `${agent}: ${declared.length} of ${withSchema.length} captured schemas have a declaration`,
    );
  }
});

test('paths: latest beside the page, versioned under the release the matrix pins; URLs absolute when the origin is known', () => {
  for (const t of site.tools) {
    const version = matrix.agents[t.agent]!.version;
    for (const file of exportFileNames(t)) {
      assert.equal(exportPath(t, file), `/${t.agent}/${t.slug}/${file}`);
      assert.equal(exportPath(t, file, version), `/${t.agent}/${t.slug}/${version}/${file}`);
    }
  }
  assert.equal(siteUrl('/catalog.json', { site: 'https://site.invalid' }), 'https://site.invalid/catalog.json');
  assert.equal(siteUrl('/catalog.json', {}), '/catalog.json');
});

test('the catalog validates against schemas/catalog.schema.json, whose agent ids are the registry', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const published = publishedCatalogSchema(catalogSchema as { $defs: { agentId: object } }, {
    site: 'https://site.invalid',
  });
  assert.equal(
    (published as { $id: string }).$id,
    'https://site.invalid/catalog.schema.json',
    "its $id is at the site's address",
  );
  const validate = ajv.compile(published);
  const catalog = buildCatalog(site, { site: 'https://site.invalid' });
  assert.ok(validate(catalog), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  // The file lists no agent; the published schema lists the registry's, and rejects any other id.
  assert.equal(JSON.stringify(catalogSchema).includes(JSON.stringify(AGENT_IDS[0])), false);
  assert.deepEqual((published as { $defs: { agentId: { enum: string[] } } }).$defs.agentId.enum, [...AGENT_IDS]);
  assert.equal(validate({ ...catalog, agents: [{ ...catalog.agents[0], id: 'not-an-agent' }] }), false);
  assert.equal(catalog.$schema, 'https://site.invalid/catalog.schema.json');
});

test('the catalog lists every tool once, its agents as the matrix pins them', () => {
  const catalog = buildCatalog(site, {});
  assert.equal(new Set(catalog.tools.map((t) => `${t.agent}/${t.slug}`)).size, catalog.tools.length, 'no tool twice');
  assert.deepEqual(new Set(catalog.agents.map((a) => a.id)), new Set(Object.keys(matrix.agents)));
  for (const agent of catalog.agents) {
    const pinned = matrix.agents[agent.id]!;
    assert.deepEqual(
      agent.configurations,
      pinned.configurations.map(({ id, label }) => ({ id, label })),
      agent.id,
    );
    assert.equal(agent.toolCount, catalog.tools.filter((t) => t.agent === agent.id).length, agent.id);
    assert.equal(agent.releases.captures?.packageVersion, pinned.version, `${agent.id}: captures at the matrix pin`);
    if (existsSync(join(ROOT, 'content/agents', `${agent.id}.json`))) {
      const record = readJson('content/agents', `${agent.id}.json`);
      assert.equal(agent.product, record.product, agent.id);
      // The record names the CLI release its types bundle, which may differ from the one captured.
      assert.equal(agent.releases.types?.cliVersion, record.version, `${agent.id}: types at the record's release`);
    } else {
      assert.equal(agent.version, pinned.version, agent.id);
    }
  }
  // A tool's release is its input's: captures' for a tool known from captures.
  for (const t of catalog.tools)
    if (!contentTool(t.agent, t.slug) && t.source === 'capture')
      assert.equal(t.version, matrix.agents[t.agent]!.version, `${t.agent}/${t.slug}`);
});

test('each tool of content/tools is in the catalog with the kinds of its definitions', () => {
  const catalog = buildCatalog(site, {});
  let checked = 0;
  for (const agent of readdirSync(join(ROOT, 'content/tools'))) {
    for (const file of readdirSync(join(ROOT, 'content/tools', agent))) {
      const raw = readJson('content/tools', agent, file);
      const slug = file.replace(/\.json$/, '');
      const tool = catalog.tools.find((t) => t.agent === agent && t.slug === slug);
      assert.ok(tool, `${agent}/${file} is in the catalog`);
      assert.equal(tool.fullName, raw.name);
      assert.equal(tool.definitions.input, raw.input.kind, `${agent}/${slug} input`);
      assert.equal(tool.definitions.result, raw.output.kind, `${agent}/${slug} result`);
      checked++;
    }
  }
  assert.ok(checked > 0);
});

test("each tool's summary and jobs are those of its editorial file", () => {
  const catalog = buildCatalog(site, {});
  let checked = 0;
  for (const t of catalog.tools) {
    const path = join(ROOT, 'content/editorial', t.agent, `${t.slug}.json`);
    if (!existsSync(path)) continue;
    const editorial = readJson('content/editorial', t.agent, `${t.slug}.json`);
    assert.equal(t.summary, editorial.summary, `${t.agent}/${t.slug}`);
    assert.deepEqual(t.jobs, editorial.jobs ?? [], `${t.agent}/${t.slug}`);
    checked++;
  }
  assert.ok(checked > 0);
});

test("availability: every entry of a capture's tools array is the delivery of its tool in that configuration; a documented-only tool is in no tools array", () => {
  const catalog = buildCatalog(site, {});
  // Each tool's availability read back against the matrix's configurations (not the catalog's own list).
  const configurationsOf = (agent: string) => matrix.agents[agent]?.configurations.map((c) => c.id) ?? [];
  const expanded = new Map(
    catalog.tools.map((t) => [t, expandAvailability(t.availability, configurationsOf(t.agent))]),
  );
  const DELIVERY: Record<Entry['how'], string> = {
    function: 'function',
    freeform: 'custom',
    'deferred with schema': 'defer-loading',
    hosted: 'hosted',
    'built-in': 'client-builtin',
  };
  const misses: string[] = [];
  let checked = 0;
  for (const [agent, configs] of entries) {
    for (const [config, list] of configs) {
      for (const e of list) {
        const tool = catalog.tools.find(
          (t) =>
            t.agent === agent &&
            (t.fullName === e.fullName || t.aliases.some((a) => a.kind !== 'sdk-type' && a.name === e.fullName)),
        );
        if (!tool) continue; // a tool of the stub MCP server, shown on its family's page
        if (expanded.get(tool)![config] !== DELIVERY[e.how])
          misses.push(`${agent}/${tool.slug} in ${config}: ${expanded.get(tool)![config]}, the capture has ${e.how}`);
        checked++;
      }
    }
  }
  assert.deepEqual(misses, []);
  assert.ok(checked > 0);
  for (const t of catalog.tools.filter((t) => t.source === 'documented')) {
    assert.deepEqual(
      entriesNamed(t.agent, [t.fullName, ...t.aliases.map((a) => a.name)]),
      [],
      `${t.agent}/${t.slug} is documented only`,
    );
    assert.ok(
      Object.values(expanded.get(t)!).every((d) => d === null),
      `${t.agent}/${t.slug}`,
    );
    assert.deepEqual(t.availability, { others: 'absent' }, `${t.agent}/${t.slug}`);
    assert.deepEqual(t.links.schemas, {});
  }
});

test('the catalog lists the jobs of content/jobs.json in its order, each with its page, and every job a tool names', () => {
  const catalog = buildCatalog(site, {});
  const raw = readJson('content/jobs.json') as { jobs: { id: string; title: string; description: string }[] };
  assert.deepEqual(
    catalog.jobs.map(({ id, title, description }) => ({ id, title, description })),
    raw.jobs.map(({ id, title, description }) => ({ id, title, description })),
  );
  // The route is src/pages/jobs/[job].astro; the build has no base path here.
  for (const job of catalog.jobs) assert.equal(job.page, `/jobs/${job.id}/`, job.id);
  const ids = new Set(catalog.jobs.map((j) => j.id));
  for (const t of catalog.tools)
    for (const job of t.jobs) assert.ok(ids.has(job), `${t.agent}/${t.slug} names the job ${job}, which is listed`);
});

test("each Codex tool's hookNames are the tool names its recorded hook payloads carry; no tool's twice", () => {
  const catalog = buildCatalog(site, {});
  // Read straight from content/payloads/codex: every call's hooks, by the name the model called.
  const seen = new Map<string, Set<string>>();
  const dir = join(ROOT, 'content/payloads/codex');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const payload = readJson('content/payloads/codex', file) as {
      calls: { tool: string; hooks?: { tool_name?: unknown }[] }[];
    };
    for (const call of payload.calls)
      for (const hook of call.hooks ?? [])
        if (typeof hook.tool_name === 'string')
          (seen.get(call.tool) ?? seen.set(call.tool, new Set()).get(call.tool)!).add(hook.tool_name);
  }
  assert.ok(seen.size > 0, 'some Codex payload records a hook');
  const codex = catalog.tools.filter((t) => t.agent === 'codex');
  // A call of the stub MCP server's tools is on its family's page (the registry's naming).
  const pageOf = (called: string) =>
    codex.find((t) => t.fullName === called || t.aliases.some((a) => a.name === called)) ??
    codex.find((t) => t.fullName === stubServerFamily('codex', called));
  const expected = new Map<(typeof codex)[number], Set<string>>();
  for (const [called, names] of seen) {
    const tool = pageOf(called);
    assert.ok(tool, `the catalog has the Codex tool ${called}`);
    expected.set(tool, new Set([...(expected.get(tool) ?? []), ...names]));
  }
  for (const t of codex) assert.deepEqual(new Set(t.hookNames), expected.get(t) ?? new Set(), t.slug);
  for (const t of catalog.tools) {
    assert.equal(new Set(t.hookNames).size, t.hookNames.length, `${t.agent}/${t.slug}`);
    // A hook schema is published exactly for the tools whose hooks are recorded.
    assert.equal(t.links.hookSchema !== undefined, t.hookNames.length > 0, `${t.agent}/${t.slug}`);
  }
});
