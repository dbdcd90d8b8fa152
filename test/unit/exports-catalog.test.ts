/**
 * Which export files each tool gets (src/lib/exports/files.ts) and the catalog
 * built from the content (src/lib/exports/catalog.ts), validated against
 * schemas/catalog.schema.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AGENT_IDS } from '../../src/lib/agents/index.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { publishedCatalogSchema, buildCatalog } from '../../src/lib/exports/catalog.ts';
import { exportFileNames, exportPath, siteUrl } from '../../src/lib/exports/files.ts';
import type { ToolModel } from '../../src/lib/model.ts';

const ROOT = join(import.meta.dirname, '../..');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const site = loadContent({ root: ROOT });
const catalogSchema = JSON.parse(readFileSync(join(ROOT, 'schemas/catalog.schema.json'), 'utf8')) as Record<string, unknown>;
const tool = (agent: string, slug: string): ToolModel => site.tools.find((t) => t.agent === agent && t.slug === slug)!;

test('export files follow the kind of each definition', () => {
  // SDK type with a captured model-facing schema: all three schemas.
  assert.deepEqual(exportFileNames(tool('claude-code', 'bash')), ['input.schema.json', 'result.schema.json', 'model-input.schema.json']);
  // Codex: a captured schema, a code-mode result type, and a generated declaration.
  assert.deepEqual(exportFileNames(tool('codex', 'exec_command')), ['input.schema.json', 'result.schema.json', 'input.d.ts']);
  for (const t of site.tools) {
    const files = exportFileNames(t);
    const schemaKind = (kind: string | undefined) => kind === 'json-schema' || kind === 'typescript';
    assert.equal(files.includes('input.schema.json'), schemaKind(t.input.definition.kind), `${t.agent}/${t.slug}`);
    assert.equal(files.includes('result.schema.json'), schemaKind(t.output.definition.kind), `${t.agent}/${t.slug}`);
    assert.equal(files.includes('model-input.schema.json'), schemaKind(t.modelInput?.view.definition.kind), `${t.agent}/${t.slug}`);
    assert.equal(files.includes('input.d.ts'), t.agent === 'codex' && t.input.definition.kind === 'json-schema', `${t.agent}/${t.slug}`);
  }
  // A grammar or an unavailable definition has none.
  const grammar = site.tools.find((t) => t.input.definition.kind === 'grammar' && t.output.definition.kind === 'unavailable')!;
  assert.deepEqual(exportFileNames(grammar), []);
});

test('paths: latest beside the page, versioned under the release; URLs absolute when the origin is known', () => {
  const bash = tool('claude-code', 'bash');
  assert.equal(exportPath(bash, 'input.schema.json'), '/claude-code/bash/input.schema.json');
  assert.equal(exportPath(bash, 'input.schema.json', '2.1.332'), '/claude-code/bash/2.1.332/input.schema.json');
  assert.equal(exportPath(tool('codex', 'collaboration.post'), 'input.d.ts'), '/codex/collaboration.post/input.d.ts');
  assert.equal(siteUrl('/catalog.json', { site: 'https://site.invalid' }), 'https://site.invalid/catalog.json');
  assert.equal(siteUrl('/catalog.json', {}), '/catalog.json');
});

test('the catalog validates against schemas/catalog.schema.json, whose agent ids are the registry', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const published = publishedCatalogSchema(catalogSchema as { $defs: { agentId: object } });
  const validate = ajv.compile(published);
  const catalog = buildCatalog(site, { site: 'https://site.invalid' });
  assert.ok(validate(catalog), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  // The file lists no agent; the published schema lists the registry's, and rejects any other id.
  assert.equal(JSON.stringify(catalogSchema).includes(JSON.stringify(AGENT_IDS[0])), false);
  assert.deepEqual((published as { $defs: { agentId: { enum: string[] } } }).$defs.agentId.enum, [...AGENT_IDS]);
  assert.equal(validate({ ...catalog, agents: [{ ...catalog.agents[0], id: 'not-an-agent' }] }), false);
  assert.equal(catalog.$schema, 'https://site.invalid/catalog.schema.json');
});

test('the catalog lists every tool once, with its facts from the model', () => {
  const catalog = buildCatalog(site, {});
  assert.equal(catalog.tools.length, site.tools.length);
  assert.equal(new Set(catalog.tools.map((t) => `${t.agent}/${t.slug}`)).size, site.tools.length);
  assert.deepEqual(catalog.agents.map((a) => a.id), site.agents.map((a) => a.id));
  for (const agent of catalog.agents) assert.equal(agent.toolCount, catalog.tools.filter((t) => t.agent === agent.id).length);

  const bash = catalog.tools.find((t) => t.agent === 'claude-code' && t.slug === 'bash')!;
  assert.equal(bash.product, 'Claude Code');
  assert.equal(bash.version, site.agents.find((a) => a.id === 'claude-code')!.version);
  assert.deepEqual(bash.definitions, { input: 'typescript', result: 'typescript', modelInput: 'json-schema' });
  assert.ok(bash.jobs.includes('run-shell-command'));
  assert.equal(bash.links.page, '/claude-code/bash/');
  assert.deepEqual(bash.links.schemas.input, { latest: '/claude-code/bash/input.schema.json', versioned: `/claude-code/bash/${bash.version}/input.schema.json` });
  assert.equal(bash.links.definitionFiles.input, '/claude-code/bash/input.d.ts.txt');
  assert.equal(bash.links.definitionFiles.modelInput, '/claude-code/bash/model-input.json');
  assert.deepEqual(bash.links.declarations, {});

  // Availability: every configuration of the matrix, in order; null where the tool is not advertised.
  const post = catalog.tools.find((t) => t.agent === 'codex' && t.slug === 'collaboration.post')!;
  const codexConfigs = site.matrix!.agents.codex!.configurations.map((c) => c.id);
  assert.deepEqual(Object.keys(post.availability), codexConfigs);
  assert.equal(post.availability['message-board'], 'function');
  assert.equal(post.availability['default-model-message-board'], 'code-mode');
  assert.ok(Object.values(post.availability).includes(null));
  assert.equal(post.name, 'post');
  assert.equal(post.namespace, 'collaboration');
  assert.equal(post.fullName, 'collaboration.post');
  assert.ok(post.links.declarations.input?.latest.endsWith('/codex/collaboration.post/input.d.ts'));

  // A tool only documentation names: no captured configuration, no schema.
  const documented = catalog.tools.find((t) => t.source === 'documented')!;
  assert.ok(Object.values(documented.availability).every((d) => d === null));
  assert.deepEqual(documented.links.schemas, {});
});
