/**
 * A new agent is one module plus its content, on the real content. In a copy of the project
 * this test writes a made-up agent's module beside the real ones, registers it in the
 * registry's list (src/lib/agents/index.ts, one import and one entry), runs
 * `npm run generate:types` (which rewrites the generated AgentId union), and adds its
 * capture-matrix entry and one capture to the copy's real content/. It checks that nothing
 * else in the copy changed, then proves that no shared code needs an edit for the agent,
 * with no editorial file for it:
 * - the unit tests whose subject is the registry (REGISTRY_TESTS) pass in the copy: the
 *   registry's own checks, no agent id in shared code, the generated types against the
 *   registry, the catalog over a load of the real content with the agent beside the real
 *   ones, the README's figures;
 * - the copy's build, on the fixture content (test/fixtures/content) with the same matrix
 *   entry and capture added, builds every page with the agent among the others: its agent
 *   page, its tool page with the captured field, catalog.json, the catalog schema and the 404
 *   page list it.
 * The whole unit suite and the full build are not repeated here: `npm test` runs them on the
 * project itself, whose shared code the copy shares byte for byte (the first test). The
 * agent's id and product are made up here and appear in no other file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
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
import { join, sep } from 'node:path';
import { copyProject } from '../../scripts/lib/system/project-copy.ts';
import { ROOT } from '../helpers/browser.ts';
import { AGENT_IDS } from '../../src/lib/agents/index.ts';

const ID = 'made-up-fixture';
const PRODUCT = 'Made-up Fixture CLI';
const VERSION = '3.2.1';
const TOOL = 'run_shell';
const FIELD = 'command_line';

/**
 * The unit tests about the registry, run in the copy: its modules and matrix (agents), no agent
 * id in shared code (registry-only), the generated types against the registry (content-types),
 * the catalog over a fresh load of the real content and its agent ids (exports-catalog), the
 * README's figures over every pinned release (readme-figures).
 */
const REGISTRY_TESTS = ['agents', 'registry-only', 'content-types', 'exports-catalog', 'readme-figures'].map(
  (name) => `test/unit/${name}.test.ts`,
);

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
/** The fixture content the copy builds, with the agent's matrix entry and capture added. */
let fixture: string;
/** Files of the copy that differ from the project's (added, changed or gone), relative paths. */
let changed: string[];
let generate: ReturnType<typeof spawnSync>;
let unit: ReturnType<typeof spawnSync>;
let build: ReturnType<typeof spawnSync>;

/** Registers the module: one import and one entry in the registry's list, laid out as the formatter lays it out. */
function register(at: string): void {
  const index = join(at, 'src/lib/agents/index.ts');
  const text = readFileSync(index, 'utf8');
  const list = /const REGISTRY = \[([^\]]*)\] as const;/.exec(text);
  assert.ok(list, 'src/lib/agents/index.ts declares `const REGISTRY = [...] as const;`');
  const entries = list[1]!
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const registered = text
    .replace(
      list[0],
      `const REGISTRY = [\n${[...entries, 'madeUpFixture'].map((e) => `  ${e},\n`).join('')}] as const;`,
    )
    .replace(/^(import type \{ Agent)/m, `import { madeUpFixture } from './${ID}.ts';\n$1`);
  assert.notEqual(registered, text);
  writeFileSync(index, registered);
}

/** Its content: a capture-matrix entry and one capture, in the content folder `content`. */
function addContent(content: string): void {
  const matrixFile = join(content, 'capture-matrix.json');
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
  mkdirSync(join(content, 'captures', ID), { recursive: true });
  writeFileSync(join(content, 'captures', ID, 'print.json'), `${JSON.stringify(CAPTURE, null, 2)}\n`);
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
function run(args: string[], timeout: number, extraEnv: NodeJS.ProcessEnv = {}): ReturnType<typeof spawnSync> {
  const {
    NODE_TEST_CONTEXT: _runner,
    SITE_BUILT: _built,
    FIXTURE_SITE: _site,
    CONTENT_DIR: _content,
    ...env
  } = process.env;
  // Temporary files of the copy's runs (the unit tests' content cache among them) go with the copy.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return spawnSync(process.execPath, args, {
    cwd: project,
    encoding: 'utf8',
    timeout,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...env, ASTRO_TELEMETRY_DISABLED: '1', TMPDIR: tmp, ...extraEnv },
  });
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'new-agent-'));
  project = join(dir, 'project');
  // A copy with node_modules hard-linked (Astro does not build through a symlinked node_modules).
  copyProject(ROOT, project);
  writeFileSync(join(project, `src/lib/agents/${ID}.ts`), MODULE);
  register(project);
  addContent(join(project, 'content'));
  generate = run(['scripts/generate-content-types.ts'], 120_000);
  const before = fileHashes(ROOT);
  const now = fileHashes(project);
  changed = [...new Set([...before.keys(), ...now.keys()])].filter((f) => before.get(f) !== now.get(f)).sort();
  // In one process, as `npm run test:unit` runs the suite.
  unit = run(['--test', '--test-reporter=tap', '--test-isolation=none', ...REGISTRY_TESTS], 600_000);
  fixture = join(dir, 'fixture-content');
  cpSync(join(project, 'test/fixtures/content'), fixture, { recursive: true });
  addContent(fixture);
  out = join(dir, 'out');
  build = run(['scripts/build.ts', '--out', out], 600_000, { CONTENT_DIR: fixture });
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

test('the unit tests of the registry pass with the agent beside the real ones, on the real content', () => {
  for (const file of REGISTRY_TESTS) assert.ok(existsSync(join(ROOT, file)), `${file} is gone: update REGISTRY_TESTS`);
  assert.equal(
    unit.status,
    0,
    `the unit tests failed in the copy:\n${failures(String(unit.stdout))}\n${String(unit.stderr).slice(-2000)}`,
  );
  // They ran, not nothing: at least as many tests as the files declare at their top level.
  const declared = REGISTRY_TESTS.map(
    (f) => readFileSync(join(ROOT, f), 'utf8').match(/^(?:test|it)\(/gm)?.length ?? 0,
  );
  const ran = /^# tests (\d+)$/m.exec(String(unit.stdout));
  const least = declared.reduce((a, b) => a + b, 0);
  assert.ok(ran && Number(ran[1]) >= least, `a report of at least ${least} tests: ${ran?.[0]}`);
});

test('the copy builds with the agent beside the others', () => {
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

test('the catalog, its schema and the 404 page list it beside the other agents, after them', () => {
  assert.equal(build.status, 0, 'the build failed (see above)');
  const catalog = JSON.parse(page('catalog.json')) as {
    agents: { id: string; product: string }[];
    tools: { agent: string; name: string }[];
  };
  // The fixture's agents, in the registry's order (the copy's registry lists the new one last).
  const others = Object.keys(JSON.parse(readFileSync(join(fixture, 'capture-matrix.json'), 'utf8')).agents);
  assert.deepEqual(
    catalog.agents.map((a) => a.id),
    [...AGENT_IDS.filter((id) => others.includes(id)), ID],
  );
  assert.equal(catalog.agents.find((a) => a.id === ID)?.product, PRODUCT);
  assert.deepEqual(
    catalog.tools.filter((t) => t.agent === ID).map((t) => t.name),
    [TOOL],
  );
  assert.ok(
    catalog.tools.every((t) => catalog.agents.some((a) => a.id === t.agent)),
    'every tool is of a listed agent',
  );
  const schema = JSON.parse(page('catalog.schema.json')) as { $defs: { agentId: { enum: string[] } } };
  assert.deepEqual(schema.$defs.agentId.enum, [...AGENT_IDS, ID]);
  const notFound = page('404.html');
  assert.ok(notFound.includes(`/${ID}/`) && notFound.includes(PRODUCT), 'the 404 page links the agent by its product');
});
