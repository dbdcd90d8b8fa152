/**
 * The export files of the built site (dist/): JSON Schemas beside every tool
 * page whose definitions allow one, at the latest and the versioned path;
 * the catalog and changes.json; the Codex declarations; llms.txt and llms-full.txt.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';
import { realContent } from '../helpers/real-content.ts';
import { minimalInstance } from '../../src/lib/shapes/minimal-instance.ts';
import type { SiteModel } from '../../src/lib/model/model.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

let site: SiteModel;
/** Every export file in dist/ (schemas other than the catalog's, declarations), as URL paths. */
let exportFiles: Set<string>;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const urlPath = (file: string) => '/' + relative(DIST, file).split('\\').join('/');
const read = (path: string) => readFileSync(join(DIST, decodeURIComponent(path)), 'utf8');
const built = (path: string) => {
  const file = join(DIST, decodeURIComponent(path), path.endsWith('/') ? 'index.html' : '');
  return existsSync(file) && statSync(file).isFile();
};

before(() => {
  buildSite();
  site = realContent();
  exportFiles = new Set(
    files(DIST)
      .map(urlPath)
      .filter(
        (p) =>
          (/\/(input|result|model-input)\.schema\.json$/.test(p) || p.endsWith('/input.d.ts')) &&
          !p.startsWith('/_astro/'),
      ),
  );
});

/** What each tool must have, from the kinds of its definitions: a schema for a JSON Schema or a TypeScript type. */
function expectedFiles(): Map<string, string[]> {
  const expected = new Map<string, string[]>();
  const schemaKind = (kind: string | undefined) => kind === 'json-schema' || kind === 'typescript';
  for (const tool of site.tools) {
    const names: string[] = [];
    if (schemaKind(tool.input.definition.kind)) names.push('input.schema.json');
    if (schemaKind(tool.output.definition.kind)) names.push('result.schema.json');
    if (schemaKind(tool.modelInput?.view.definition.kind)) names.push('model-input.schema.json');
    if (tool.agent === 'codex' && tool.input.definition.kind === 'json-schema') names.push('input.d.ts');
    expected.set(`${tool.agent}/${tool.slug}`, names);
  }
  return expected;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

/**
 * The release folder of a tool's export file, from the content files alone: a section
 * read from published types (a file in content/tools/) sits under the CLI release its
 * agent record names for that types package, or the types package's own release; a
 * section read from captures, under the capture matrix's pin.
 */
function releaseOf(agent: string, slug: string, file: string): string {
  const pinned = () =>
    readJson<{ agents: Record<string, { version: string }> }>('content/capture-matrix.json').agents[agent]!.version;
  const typed = join(ROOT, 'content/tools', agent, `${slug}.json`);
  if (file.startsWith('model-input') || !existsSync(typed)) return pinned();
  const provenance = readJson<{ provenance: { package: string; version: string }[] }>(relative(ROOT, typed))
    .provenance[0]!;
  const recordFile = join(ROOT, 'content/agents', `${agent}.json`);
  const record = existsSync(recordFile)
    ? readJson<{ version: string; sources: { package: string; version: string }[] }>(relative(ROOT, recordFile))
    : undefined;
  return record?.sources.some((s) => s.package === provenance.package && s.version === provenance.version)
    ? record.version
    : provenance.version;
}

/** Versioned paths of content/archive/, read from the files. */
function archivedPaths(): string[] {
  const dir = join(ROOT, 'content/archive');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) =>
    readJson<{ files: { path: string }[] }>(`content/archive/${f}`).files.map((e) => e.path),
  );
}

test('every tool has its export files, at its latest and its versioned path, and nothing else is exported', () => {
  const expected = new Set<string>();
  for (const [key, names] of expectedFiles()) {
    const [agent, slug] = key.split('/') as [string, string];
    for (const name of names) {
      const latest = `/${agent}/${slug}/${name}`;
      const versioned = `/${agent}/${slug}/${releaseOf(agent, slug, name)}/${name}`;
      expected.add(latest).add(versioned);
      assert.ok(exportFiles.has(latest) && exportFiles.has(versioned), `${latest} and ${versioned} are built`);
      assert.equal(read(latest), read(versioned), `${latest}: the same bytes at both paths`);
    }
  }
  for (const path of archivedPaths()) expected.add(path);
  assert.deepEqual([...exportFiles].sort(), [...expected].sort());
  // Counts that the content makes certain: every SDK type converts, every Codex JSON Schema input has a declaration.
  const archived = new Set(archivedPaths());
  const count = (suffix: string) => [...exportFiles].filter((p) => p.endsWith(suffix) && !archived.has(p)).length / 2;
  assert.equal(count('/model-input.schema.json'), site.tools.filter((t) => t.modelInput).length);
  assert.equal(
    count('/input.d.ts'),
    site.tools.filter((t) => t.agent === 'codex' && t.input.definition.kind === 'json-schema').length,
  );
});

test('each schema is JSON Schema 2020-12 with its versioned URL as $id, compiles with Ajv and accepts a minimal instance', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  let checked = 0;
  const archived = new Set(archivedPaths());
  for (const path of exportFiles) {
    if (!path.endsWith('.schema.json')) continue;
    const schema = JSON.parse(read(path)) as Record<string, unknown>;
    const [, agent, slug] = path.split('/') as [string, string, string];
    const file = path.slice(path.lastIndexOf('/') + 1);
    assert.equal(schema.$schema, JSON_SCHEMA_2020, path);
    // An archived file keeps the $id it was published with: its own path.
    const canonical = archived.has(path) ? path : `/${agent}/${slug}/${releaseOf(agent, slug, file)}/${file}`;
    assert.equal(new URL(String(schema.$id)).pathname, canonical, `${path}: $id`);
    assert.equal(typeof schema.title, 'string', `${path}: title`);
    const validate = ajv.compile(schema);
    const instance = minimalInstance(schema);
    assert.ok(validate(instance), `${path} rejects ${JSON.stringify(instance)}: ${ajv.errorsText(validate.errors)}`);
    // Not vacuous: a schema with required members rejects an empty object.
    if (Array.isArray(schema.required) && schema.required.length > 0) assert.ok(!validate({}), `${path} accepts {}`);
    ajv.removeSchema(schema.$id as string);
    checked++;
  }
  assert.ok(checked > 300, `only ${checked} schemas`);
});

test('each Codex input.d.ts compiles with the TypeScript compiler and declares the input type', () => {
  const declarations = [...exportFiles].filter((p) => p.endsWith('/input.d.ts') && !/\/\d[^/]*\/input\.d\.ts$/.test(p));
  assert.ok(declarations.length > 0);
  const program = ts.createProgram(
    declarations.map((p) => join(DIST, p)),
    { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, skipLibCheck: false, types: [] },
  );
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  assert.deepEqual(diagnostics, []);
  for (const path of declarations) {
    const source = program.getSourceFile(join(DIST, path))!;
    const exported = source.statements.filter(
      (s) =>
        (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) &&
        s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
    );
    assert.ok(
      exported.some((s) => (s as ts.InterfaceDeclaration).name.text.endsWith('Input')),
      `${path} exports its Input type`,
    );
  }
});

test('the catalog validates against its published schema and matches the content files', () => {
  const schema = JSON.parse(read('/catalog.schema.json'));
  // The file, with the agent ids narrowed to the agents that have content (every one of them registered).
  const file = JSON.parse(readFileSync(join(ROOT, 'schemas/catalog.schema.json'), 'utf8'));
  const agentIds = schema.$defs.agentId.enum as string[];
  assert.deepEqual({ ...schema, $id: file.$id, $defs: { ...schema.$defs, agentId: file.$defs.agentId } }, file);
  assert.equal(new URL(schema.$id).pathname, '/catalog.schema.json', 'its $id is its own address');
  // Independently of the loader: every agent with content (a record or captures) is listed.
  const withContent = new Set([
    ...readdirSync(join(ROOT, 'content/agents')).map((f) => f.replace(/\.json$/, '')),
    ...Object.keys(JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')).agents),
  ]);
  assert.deepEqual([...agentIds].sort(), [...withContent].sort());
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const catalog = JSON.parse(read('/catalog.json')) as {
    $schema: string;
    agents: { id: string; version: string; toolCount: number }[];
    tools: {
      agent: string;
      slug: string;
      version: string;
      links: {
        page: string;
        schemas: Record<string, { latest: string; versioned: string }>;
        declarations: Record<string, { latest: string; versioned: string }>;
        definitionFiles: Record<string, string>;
      };
    }[];
  };
  assert.ok(validate(catalog), ajv.errorsText(validate.errors));
  // Minified: one line of JSON, which the same value written without white space reproduces.
  assert.equal(read('/catalog.json'), `${JSON.stringify(catalog)}\n`, 'catalog.json is minified');
  assert.equal(new URL(catalog.$schema).pathname, '/catalog.schema.json');

  // Independently of the loader: a tool page per generated tool file and per editorial note (every tool has one).
  for (const agent of readdirSync(join(ROOT, 'content/tools'))) {
    const slugs = new Set<string>();
    for (const dir of ['content/tools', 'content/editorial']) {
      const folder = join(ROOT, dir, agent);
      if (existsSync(folder))
        for (const f of readdirSync(folder)) if (f.endsWith('.json')) slugs.add(f.replace(/\.json$/, ''));
    }
    const listed = catalog.tools.filter((t) => t.agent === agent).map((t) => t.slug);
    assert.deepEqual(
      [...listed].sort(),
      [...slugs].sort(),
      `${agent}: the catalog lists the tools of the content files`,
    );
    assert.equal(catalog.agents.find((a) => a.id === agent)!.toolCount, slugs.size, agent);
    // A tool's release: that of its input's source.
    for (const t of catalog.tools.filter((t) => t.agent === agent && t.links.schemas.input))
      assert.equal(t.version, releaseOf(agent, t.slug, 'input.schema.json'), `${agent}/${t.slug}: version`);
  }

  // Every link of the catalog is a built file.
  for (const tool of catalog.tools) {
    const links = [
      tool.links.page,
      ...Object.values(tool.links.schemas).flatMap((l) => [l.latest, l.versioned]),
      ...Object.values(tool.links.declarations).flatMap((l) => [l.latest, l.versioned]),
      ...Object.values(tool.links.definitionFiles),
    ];
    for (const link of links) assert.ok(built(link), `${tool.agent}/${tool.slug}: ${link} is built`);
  }
});

test('changes.json validates against its published schema, is minified, and links to built pages', () => {
  const schema = JSON.parse(read('/changes.schema.json'));
  const file = JSON.parse(readFileSync(join(ROOT, 'schemas/changes.schema.json'), 'utf8'));
  assert.deepEqual({ ...schema, $id: file.$id, $defs: { ...schema.$defs, agentId: file.$defs.agentId } }, file);
  assert.equal(new URL(schema.$id).pathname, '/changes.schema.json', 'its $id is its own address');
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const changes = JSON.parse(read('/changes.json')) as {
    $schema: string;
    releases: {
      id: string;
      url: string;
      groups: { tools: { page?: string; changes: { fieldPage?: string }[] }[] }[];
    }[];
  };
  assert.ok(validate(changes), ajv.errorsText(validate.errors));
  assert.equal(read('/changes.json'), `${JSON.stringify(changes)}\n`, 'changes.json is minified');
  assert.equal(changes.$schema, schema.$id);
  const page = (link: string) => link.replace(/#.*$/, '');
  for (const r of changes.releases) {
    const links = [
      r.url,
      ...r.groups.flatMap((g) => g.tools.flatMap((t) => [t.page ?? [], ...t.changes.map((c) => c.fieldPage ?? [])])),
    ].flat();
    for (const link of new Set(links.map(page))) assert.ok(built(link), `${r.id}: ${link} is built`);
  }
});

test('llms.txt follows the convention, covers every tool page, and every link resolves to a built page', () => {
  for (const file of ['/llms.txt', '/llms-full.txt']) {
    const text = read(file);
    const lines = text.split('\n');
    assert.match(lines[0]!, /^# \S/, `${file}: an H1 first`);
    assert.ok(
      lines.some((l) => l.startsWith('> ')),
      `${file}: a blockquote summary`,
    );
    assert.ok(
      lines.findIndex((l) => l.startsWith('> ')) < lines.findIndex((l) => l.startsWith('## ')),
      `${file}: the summary before the sections`,
    );
    // Links outside code spans: a field path such as `attachments[](string)` is code, not a link.
    const prose = text.replace(/`[^`\n]*`/g, '``');
    const links = [
      ...prose.matchAll(/\]\(([^)\s]+)\)/g),
      ...prose.matchAll(/^(https?:\/\/\S+)$/gm),
      ...prose.matchAll(/JSON Schema: (\S+)$/gm),
    ].map((m) => new URL(m[1]!).pathname);
    assert.ok(links.length > site.tools.length, `${file}: ${links.length} links`);
    const broken = links.filter((path) => !built(path));
    assert.deepEqual(broken, [], `${file}: links to files the build did not make`);
    for (const tool of site.tools)
      assert.ok(links.includes(`/${tool.agent}/${tool.slug}/`), `${file} links /${tool.agent}/${tool.slug}/`);
  }
  // In llms.txt, every list item is a link, with a one-line note when there is one to give (a tool
  // nobody has summarised is listed by its name alone, as the convention allows).
  const items = read('/llms.txt')
    .split('\n')
    .filter((l) => l.startsWith('- '));
  for (const line of items) assert.match(line, /^- \[[^\]]+\]\([^)]+\)(: \S.*)?$/);
  assert.ok(items.filter((l) => /\): \S/.test(l)).length > items.length / 2, 'most items have a note');
});

test('every versioned export path published on 2026-12-01 still resolves, each schema with that path as its $id', () => {
  // A snapshot of the versioned paths of that day's build: a versioned URL, once published, is permanent
  // (a later release archives the files of the earlier one, content/archive/). Append, never remove.
  const snapshot = readFileSync(join(ROOT, 'test/fixtures/published-versioned-paths.txt'), 'utf8')
    .split('\n')
    .filter(Boolean);
  assert.ok(snapshot.length > 0);
  const missing = snapshot.filter((path) => !built(path));
  assert.deepEqual(missing, [], 'published versioned paths that no longer resolve');
  for (const path of snapshot.filter((p) => p.endsWith('.schema.json'))) {
    assert.equal(new URL(String(JSON.parse(read(path)).$id)).pathname, path, `${path}: $id`);
  }
});
