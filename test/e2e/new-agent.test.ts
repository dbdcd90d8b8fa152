/**
 * A new agent is one module plus its content, on the real content. In a copy of
 * the project this test writes a made-up agent's module beside the six real
 * ones, registers it in the registry's list (src/lib/agents/index.ts, one import
 * and one entry), runs `npm run generate:types` (which rewrites the generated
 * AgentId union), and adds its capture-matrix entry and one capture to the
 * copy's real content/. It then checks that nothing else in the copy changed,
 * runs the whole unit suite there and builds it: both must pass with the agent
 * beside the real ones, with no editorial file for it. The built site has the
 * agent's page, its tool page with the captured field, and lists it in
 * catalog.json, the catalog schema and the 404 page. The agent's id and product
 * are made up here and appear in no other file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { copyProject } from '../../scripts/lib/bench/sites.ts';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';

const ID = 'made-up-fixture';
const PRODUCT = 'Made-up Fixture CLI';
const VERSION = '3.2.1';
const TOOL = 'run_shell';
const FIELD = 'command_line';

const MODULE = `/** A made-up agent for test/e2e/new-agent.test.ts: OpenAI Chat Completions, print mode. */
import type { WireFormatId } from '../wire/index.ts';
import { promptedRequestWithTools } from './shared.ts';
import { STUB_MCP_SERVER, type Agent, type InvocationContext, type Invocation } from './types.ts';

const WIRES = ['openai-chat-completions'] as const satisfies readonly WireFormatId[];

function invoke(c: InvocationContext): Invocation {
  return { command: c.binary, args: ['run', ...c.args], env: { ...c.baseEnv, ...c.env }, input: { kind: 'stdin', text: c.prompt + '\\n' }, files: new Map() };
}

export const madeUpFixture: Agent<'${ID}'> = {
  id: '${ID}',
  product: '${PRODUCT}',
  npmPackage: '@fixture/${ID}',
  wires: WIRES,
  binary: 'node_modules/@fixture/${ID}/bin/cli',
  modes: ['print'],
  options: [],
  mcpNaming: { family: 'mcp__<server>__<tool>', isStubServerTool: (fullName) => fullName.startsWith(\`mcp__\${STUB_MCP_SERVER}__\`) },
  captureHistory: { none: 'a made-up agent of a test: it has no releases to read' },
  inventory: { none: 'a made-up agent of a test: it has no binary to read' },
  publishedTypes: { none: 'a made-up agent of a test: it publishes no types' },
  generatedDeclarations: false,
  hooks: { none: 'a made-up agent of a test: it has no hooks' },
  invoke,
  mainRequest: (candidates, prompt) => promptedRequestWithTools(WIRES, candidates, prompt),
};
`;

const CAPTURE = {
  agent: ID,
  cli: { package: `@fixture/${ID}`, version: VERSION },
  configuration: 'print',
  request: { method: 'POST', path: '/v1/chat/completions' },
  body: {
    model: 'fixture-model',
    tools: [
      {
        type: 'function',
        function: {
          name: TOOL,
          description: 'Runs one shell command.',
          parameters: {
            type: 'object',
            properties: { [FIELD]: { type: 'string', description: 'The command to run.' } },
            required: [FIELD],
          },
        },
      },
    ],
  },
};

let dir: string;
let project: string;
let out: string;
/** Files of the copy that differ from the project's (added, changed or gone), relative paths. */
let changed: string[];
let generate: ReturnType<typeof spawnSync>;
let unit: ReturnType<typeof spawnSync>;
let build: ReturnType<typeof spawnSync>;

/** Registers the module: one import and one entry in the registry's list. */
function register(at: string): void {
  const index = join(at, 'src/lib/agents/index.ts');
  const text = readFileSync(index, 'utf8');
  const list = /const REGISTRY = \[([^\]]*)\] as const;/.exec(text);
  assert.ok(list, 'src/lib/agents/index.ts declares `const REGISTRY = [...] as const;`');
  const registered = text
    .replace(list[0], `const REGISTRY = [${list[1]}, madeUpFixture] as const;`)
    .replace(/^(import type \{ Agent)/m, `import { madeUpFixture } from './${ID}.ts';\n$1`);
  assert.notEqual(registered, text);
  writeFileSync(index, registered);
}

/** Its content: a capture-matrix entry and one capture, in the copy's real content/. */
function addContent(at: string): void {
  const matrixFile = join(at, 'content/capture-matrix.json');
  const matrix = JSON.parse(readFileSync(matrixFile, 'utf8'));
  matrix.agents[ID] = {
    package: `@fixture/${ID}`,
    version: VERSION,
    checked: '2026-01-01',
    configurations: [
      { id: 'print', label: 'Print', description: 'Fixture configuration.', mode: 'print', args: [], env: {} },
    ],
  };
  writeFileSync(matrixFile, `${JSON.stringify(matrix, null, 2)}\n`);
  mkdirSync(join(at, 'content/captures', ID));
  writeFileSync(join(at, 'content/captures', ID, 'print.json'), `${JSON.stringify(CAPTURE, null, 2)}\n`);
}

/** The folders a new agent could be tempted to touch; outputs and dependencies are not compared. */
const COMPARED = ['src', 'scripts', 'schemas', 'content', 'test', 'public'];

/** Every file under the compared folders with a hash of its bytes, and the top-level files. */
function fileHashes(at: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const hash = (file: string) =>
    createHash('sha256')
      .update(readFileSync(join(at, file)))
      .digest('hex');
  for (const folder of COMPARED) {
    for (const file of readdirSync(join(at, folder), { recursive: true, encoding: 'utf8' })) {
      const rel = `${folder}/${file.split(sep).join('/')}`;
      if (statSync(join(at, rel)).isFile()) hashes.set(rel, hash(rel));
    }
  }
  for (const entry of readdirSync(at, { withFileTypes: true }))
    if (entry.isFile()) hashes.set(entry.name, hash(entry.name));
  return hashes;
}

/**
 * Runs Node in the copy. NODE_TEST_CONTEXT is dropped: set by the test runner running this
 * file, it would make the inner `node --test` report to it instead of running as a suite.
 */
function run(args: string[], timeout: number): ReturnType<typeof spawnSync> {
  const { NODE_TEST_CONTEXT: _runner, SITE_BUILT: _built, ...env } = process.env;
  // Temporary files of the copy's runs (the unit tests' content cache among them) go with the copy.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return spawnSync(process.execPath, args, {
    cwd: project,
    encoding: 'utf8',
    timeout,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...env, ASTRO_TELEMETRY_DISABLED: '1', TMPDIR: tmp },
  });
}

before(() => {
  buildSite(); // the project's own build, which the copy's is compared with
  dir = mkdtempSync(join(tmpdir(), 'new-agent-'));
  project = join(dir, 'project');
  // A copy with node_modules hard-linked (Astro does not build through a symlinked node_modules).
  copyProject(ROOT, project);
  writeFileSync(join(project, `src/lib/agents/${ID}.ts`), MODULE);
  register(project);
  addContent(project);
  generate = run(['scripts/generate-content-types.ts'], 120_000);
  const before = fileHashes(ROOT);
  const now = fileHashes(project);
  changed = [...new Set([...before.keys(), ...now.keys()])].filter((f) => before.get(f) !== now.get(f)).sort();
  // The whole unit suite in one process, as `npm run test:unit` and `npm test` run it.
  unit = run(['--test', '--test-reporter=tap', '--test-isolation=none', 'test/unit/*.test.ts'], 900_000);
  out = join(dir, 'out');
  build = run(['scripts/build.ts', '--out', out], 600_000);
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const page = (path: string): string => readFileSync(join(out, path), 'utf8');

/** The names of the failing tests in a `node --test` report, with the lines that say why. */
function failures(report: string): string {
  const failed = report.split(/\n(?=(?:not )?ok \d)/).filter((block) => block.startsWith('not ok'));
  return failed.length > 0 ? failed.join('\n').slice(0, 8000) : report.slice(-4000);
}

test('adding the agent changed only its module, the registry list, the generated AgentId union and its content', () => {
  assert.equal(
    generate.status,
    0,
    `npm run generate:types failed:\n${String(generate.stdout)}\n${String(generate.stderr)}`,
  );
  assert.deepEqual(
    changed,
    [
      'content/capture-matrix.json',
      `content/captures/${ID}/print.json`,
      `src/lib/agents/${ID}.ts`,
      'src/lib/agents/index.ts',
      'src/lib/generated/agent-ids.ts',
    ].sort(),
  );
  assert.match(readFileSync(join(project, 'src/lib/generated/agent-ids.ts'), 'utf8'), new RegExp(`'${ID}'`));
});

test('the whole unit suite passes with the agent beside the real ones, on the real content', () => {
  assert.equal(
    unit.status,
    0,
    `the unit suite failed in the copy:\n${failures(String(unit.stdout))}\n${String(unit.stderr).slice(-2000)}`,
  );
  // It ran the suite, not nothing: as many test files as the project has.
  const files = readdirSync(join(ROOT, 'test/unit')).filter((f) => f.endsWith('.test.ts')).length;
  const suites = /^# tests (\d+)$/m.exec(String(unit.stdout));
  assert.ok(suites && Number(suites[1]) >= files, `a report of at least ${files} tests: ${suites?.[0]}`);
});

test('the copy builds with the agent beside the real ones', () => {
  assert.equal(
    build.status,
    0,
    `the build failed:\n${String(build.stdout).slice(-4000)}\n${String(build.stderr).slice(-4000)}`,
  );
});

test("its agent page and tool page show what the capture declares, under the agent's product and release", () => {
  assert.equal(build.status, 0, 'the build failed (see above)');
  const agentPage = page(`${ID}/index.html`);
  assert.match(agentPage, new RegExp(`<h1[^>]*>[^<]*${PRODUCT}`));
  assert.ok(agentPage.includes(`/${ID}/${TOOL}/`), 'the agent page links its tool');
  const toolPage = page(`${ID}/${TOOL}/index.html`);
  assert.ok(toolPage.includes(FIELD), 'the tool page shows the captured field');
  assert.ok(toolPage.includes(VERSION), 'the tool page names the captured release');
});

test('the catalog, its schema and the 404 page list it beside the real agents', () => {
  assert.equal(build.status, 0, 'the build failed (see above)');
  const catalog = JSON.parse(page('catalog.json')) as {
    agents: { id: string; product: string }[];
    tools: { agent: string; name: string }[];
  };
  const real = JSON.parse(readFileSync(join(DIST, 'catalog.json'), 'utf8')) as typeof catalog;
  assert.deepEqual(catalog.agents.find((a) => a.id === ID)?.product, PRODUCT);
  assert.deepEqual(
    catalog.agents.map((a) => a.id),
    [...real.agents.map((a) => a.id), ID],
  );
  assert.ok(catalog.tools.some((t) => t.agent === ID && t.name === TOOL));
  assert.equal(catalog.tools.length, real.tools.length + 1);
  const schema = JSON.parse(page('catalog.schema.json')) as { $defs: { agentId: { enum: string[] } } };
  assert.ok(schema.$defs.agentId.enum.includes(ID));
  assert.ok(page('404.html').includes(`/${ID}/`));
});
