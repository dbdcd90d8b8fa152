/**
 * A new agent is one module plus its content. In a copy of the project, this test writes a seventh agent's module beside the others, registers
 * it in the registry's list (src/lib/agents/index.ts, one import and one entry),
 * adds its capture-matrix entry and one capture to a copy of the fixture content,
 * and builds: nothing else is edited. The built site has the agent's page, its tool
 * page with the captured field, and lists it in catalog.json, the catalog schema and
 * the 404 page. The agent's id and product are made up here and appear in no other file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyProject } from '../../scripts/lib/bench/sites.ts';
import { ROOT } from '../helpers/browser.ts';

const ID = 'seventh-fixture';
const PRODUCT = 'Seventh Fixture CLI';
const VERSION = '3.2.1';
const TOOL = 'run_shell';
const FIELD = 'command_line';

const MODULE = `/** A made-up agent for test/e2e/seventh-agent.test.ts: OpenAI Chat Completions, print mode. */
import type { WireFormatId } from '../wire/index.ts';
import { promptedRequestWithTools } from './shared.ts';
import { STUB_MCP_SERVER, type Agent, type InvocationContext, type Invocation } from './types.ts';

const WIRES = ['openai-chat-completions'] as const satisfies readonly WireFormatId[];

function invoke(c: InvocationContext): Invocation {
  return { command: c.binary, args: ['run', ...c.args], env: { ...c.baseEnv, ...c.env }, input: { kind: 'stdin', text: c.prompt + '\\n' }, files: new Map() };
}

export const seventhFixture: Agent<'${ID}'> = {
  id: '${ID}',
  product: '${PRODUCT}',
  npmPackage: '@fixture/${ID}',
  wires: WIRES,
  binary: 'node_modules/@fixture/${ID}/bin/cli',
  modes: ['print'],
  options: [],
  mcpNaming: { family: 'mcp__<server>__<tool>', isStubServerTool: (fullName) => fullName.startsWith(\`mcp__\${STUB_MCP_SERVER}__\`) },
  captureHistory: { none: 'a test fixture' },
  inventory: { none: 'a test fixture' },
  publishedTypes: { none: 'a test fixture' },
  generatedDeclarations: false,
  hooks: { none: 'a test fixture' },
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
          parameters: { type: 'object', properties: { [FIELD]: { type: 'string', description: 'The command to run.' } }, required: [FIELD] },
        },
      },
    ],
  },
};

let dir: string;
let out: string;
let build: ReturnType<typeof spawnSync>;

/** Registers the module: one import and one entry in the registry's list. */
function register(project: string): void {
  const index = join(project, 'src/lib/agents/index.ts');
  const text = readFileSync(index, 'utf8');
  const list = /const REGISTRY = \[([^\]]*)\] as const;/.exec(text);
  assert.ok(list, 'src/lib/agents/index.ts declares `const REGISTRY = [...] as const;`');
  const registered = text
    .replace(list[0], `const REGISTRY = [${list[1]}, seventhFixture] as const;`)
    .replace(/^(import type \{ Agent)/m, `import { seventhFixture } from './${ID}.ts';\n$1`);
  assert.notEqual(registered, text);
  writeFileSync(index, registered);
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'seventh-agent-'));
  const project = join(dir, 'project');
  // A copy with node_modules hard-linked (Astro does not build through a symlinked node_modules).
  copyProject(ROOT, project);
  writeFileSync(join(project, `src/lib/agents/${ID}.ts`), MODULE);
  register(project);

  const content = join(dir, 'content');
  cpSync(join(ROOT, 'test/fixtures/content'), content, { recursive: true });
  const matrixFile = join(content, 'capture-matrix.json');
  const matrix = JSON.parse(readFileSync(matrixFile, 'utf8'));
  matrix.agents[ID] = {
    package: `@fixture/${ID}`,
    version: VERSION,
    checked: '2026-01-01',
    configurations: [{ id: 'print', label: 'Print', description: 'Fixture configuration.', mode: 'print', args: [], env: {} }],
  };
  writeFileSync(matrixFile, JSON.stringify(matrix, null, 2));
  mkdirSync(join(content, 'captures', ID));
  writeFileSync(join(content, 'captures', ID, 'print.json'), JSON.stringify(CAPTURE, null, 2));

  out = join(dir, 'out');
  build = spawnSync(process.execPath, [join(project, 'scripts/build.ts'), '--out', out], {
    cwd: project,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: content },
  });
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const page = (path: string): string => readFileSync(join(out, path), 'utf8');

test('a seventh agent registered as one module, with its matrix entry and capture, builds', () => {
  assert.equal(build.status, 0, `the build failed:\n${String(build.stdout)}\n${String(build.stderr)}`);
});

test('its agent page and tool page show what the capture declares, under the agent\'s product and release', () => {
  assert.equal(build.status, 0, 'the build failed (see the first test)');
  const agentPage = page(`${ID}/index.html`);
  assert.match(agentPage, new RegExp(`<h1[^>]*>[^<]*${PRODUCT}`));
  assert.ok(agentPage.includes(`/${ID}/${TOOL}/`), 'the agent page links its tool');
  const toolPage = page(`${ID}/${TOOL}/index.html`);
  assert.ok(toolPage.includes(FIELD), 'the tool page shows the captured field');
  assert.ok(toolPage.includes(VERSION), 'the tool page names the captured release');
});

test('the catalog, its schema and the 404 page list it', () => {
  assert.equal(build.status, 0, 'the build failed (see the first test)');
  const catalog = JSON.parse(page('catalog.json')) as { agents: { id: string; product: string }[]; tools: { agent: string; name: string }[] };
  assert.deepEqual(catalog.agents.find((a) => a.id === ID)?.product, PRODUCT);
  assert.ok(catalog.tools.some((t) => t.agent === ID && t.name === TOOL));
  const schema = JSON.parse(page('catalog.schema.json')) as { $defs: { agentId: { enum: string[] } } };
  assert.ok(schema.$defs.agentId.enum.includes(ID));
  assert.ok(page('404.html').includes(`/${ID}/`));
});
