import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STUB_MCP_SERVER } from '../../src/lib/agents/types.ts';
import type { CaptureFile } from '../../src/lib/wire/index.ts';
import {
  AGENT_IDS,
  AGENT_PRODUCTS,
  AGENTS,
  agentOfPublishedTypesScript,
  agentWireForPath,
  capturedNamespaces,
  capturedTools,
  agentWires,
  isAgentId,
  mcpNamingOf,
  PAYLOAD_AGENTS,
  payloadDriver,
  type InvocationContext,
} from '../../src/lib/agents/index.ts';
import { WIRE_FORMAT_IDS, WIRE_FORMATS } from '../../src/lib/wire/index.ts';
import {
  baseEnv,
  buildInvocation,
  DUMMY_KEY,
  expandInJson,
  PROMPT,
  runVariables,
  type RunPaths,
} from '../../scripts/lib/capture/runner.ts';
import { mergeSettings } from '../../src/lib/agents/settings.ts';
import { expandPlaceholders } from '../../scripts/lib/capture/placeholders.ts';
import { loadMatrix, validateMatrix, MatrixError, type Configuration } from '../../scripts/lib/capture/matrix.ts';
import { turnMetadata } from '../../src/lib/agents/codex.ts';
import type { WireRequest } from '../../src/lib/wire/types.ts';

const ROOT = join(import.meta.dirname, '../..');
const PATHS: RunPaths = { home: '/c/home', workdir: '/c/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';

/** What src/lib/agents/ holds, read independently of the registry: each module's exported Agent objects. */
async function agentModules(): Promise<Map<string, { id: string; product: string }>> {
  const dir = join(ROOT, 'src/lib/agents');
  const out = new Map<string, { id: string; product: string }>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const exported = Object.values(await import(join(dir, file))) as unknown[];
    for (const value of exported) {
      const v = value as { id?: unknown; product?: unknown; invoke?: unknown };
      if (typeof v?.id === 'string' && typeof v.product === 'string' && typeof v.invoke === 'function')
        out.set(file, { id: v.id, product: v.product });
    }
  }
  return out;
}

// The README does not list the agents: the site's pages do, from the registry, so a new agent is one module and its
// content.
test('the registry holds every agent module, once, each in the file named after its id; products are unique', async () => {
  const modules = await agentModules();
  assert.deepEqual([...AGENT_IDS].sort(), [...modules.values()].map((m) => m.id).sort());
  for (const [file, m] of modules) assert.equal(file, `${m.id}.ts`);
  assert.equal(new Set(AGENT_IDS).size, AGENT_IDS.length);
  assert.equal(new Set(Object.values(AGENT_PRODUCTS)).size, AGENT_IDS.length);
});

test('the registry: npm packages, a known wire format each', () => {
  // Each agent's package is the one the README and the matrix name (checked against the matrix below).
  assert.equal(new Set(AGENT_IDS.map((id) => AGENTS[id].npmPackage)).size, AGENT_IDS.length);
  for (const id of AGENT_IDS) {
    const agent = AGENTS[id];
    assert.equal(agent.id, id);
    for (const wire of agent.wires)
      assert.ok((WIRE_FORMAT_IDS as readonly string[]).includes(wire), `${id}: wire format ${wire} does not exist`);
    assert.deepEqual(
      agentWires(id).map((w) => w.id),
      agent.wires,
    );
    for (const wire of agentWires(id)) assert.equal(agentWireForPath(id, wire.requestPath), wire);
    assert.match(agent.binary, /^node_modules\//);
    assert.ok(agent.modes.length > 0);
  }
  assert.deepEqual(AGENTS.codex.wires, ['openai-responses']);
  assert.deepEqual(AGENTS['claude-code'].wires, ['anthropic-messages']);
  assert.equal(agentWireForPath('codex', '/v1/messages'), undefined);
  assert.equal(isAgentId('codex'), true);
  assert.equal(isAgentId('gemini'), false);
});

test('every wire format an agent uses lets the stub make tool calls, or the agent says why its hook payloads are not recorded', () => {
  for (const id of AGENT_IDS) {
    const { hooks } = AGENTS[id];
    const silent = agentWires(id)
      .filter((w) => w.toolCalls === undefined)
      .map((w) => w.id);
    if (silent.length > 0)
      assert.ok(
        'none' in hooks,
        `${id}: the stub cannot make tool calls in ${silent.join(', ')}, yet its hooks are declared`,
      );
    if ('none' in hooks) {
      assert.match(hooks.none, /\S/, `${id}: an empty reason`);
      assert.deepEqual(payloadDriver(id), hooks);
      assert.equal(PAYLOAD_AGENTS.includes(id), false);
    } else {
      const driver = payloadDriver(id);
      assert.ok(!('none' in driver), id);
      assert.equal(
        driver.wire,
        agentWires(id).find((w) => w.toolCalls !== undefined),
        `${id}: payload runs use its first calling wire format`,
      );
      assert.equal(PAYLOAD_AGENTS.includes(id), true);
    }
  }
  // Today every wire format can: what is left is the hooks of agents not recorded yet.
  for (const id of WIRE_FORMAT_IDS) assert.ok(WIRE_FORMATS[id].toolCalls, `${id} has no toolCalls`);
});

test('the committed capture matrix pins every registered agent, with its package, in modes it has', () => {
  const matrix = loadMatrix(ROOT);
  assert.deepEqual(Object.keys(matrix.agents).sort(), [...AGENT_IDS].sort());
  for (const id of AGENT_IDS) {
    assert.equal(matrix.agents[id].package, AGENTS[id].npmPackage);
    for (const c of matrix.agents[id].configurations)
      assert.ok(AGENTS[id].modes.includes(c.mode), `${id}/${c.id}: ${c.mode}`);
  }
});

test('a matrix that disagrees with the registry on a package or a mode is refused, whatever its schema allows', () => {
  const matrix = loadMatrix(ROOT);
  const otherPackage = structuredClone(matrix);
  otherPackage.agents.codex.package = '@openai/codex-fork';
  assert.throws(
    () => validateMatrix(otherPackage, {}),
    (e: unknown) =>
      e instanceof MatrixError &&
      /\/agents\/codex\/package is @openai\/codex-fork, but src\/lib\/agents\/codex.ts installs @openai\/codex/.test(
        e.message,
      ),
  );
  const otherMode = structuredClone(matrix);
  otherMode.agents['claude-code'].configurations[2]!.mode = 'exec';
  assert.throws(
    () => validateMatrix(otherMode, {}),
    /\/agents\/claude-code\/configurations\/2\/mode: claude-code has no mode exec/,
  );
});

test('every configuration of the matrix is invoked through its agent module, with placeholders expanded first', () => {
  const matrix = loadMatrix(ROOT);
  for (const id of AGENT_IDS) {
    for (const configuration of matrix.agents[id].configurations) {
      const inv = buildInvocation(id, configuration, `/bin/${id}`, PATHS, URL);
      const expand = (text: string) => expandPlaceholders(text, runVariables(PATHS, URL));
      const context: InvocationContext = {
        mode: configuration.mode,
        args: configuration.args.map(expand),
        env: Object.fromEntries(Object.entries(configuration.env).map(([k, v]) => [k, expand(v)])),
        configToml: configuration.configToml === undefined ? undefined : expand(configuration.configToml),
        settings: configuration.settings === undefined ? undefined : expandInJson(configuration.settings, expand),
        baseEnv: baseEnv(PATHS.home),
        binary: `/bin/${id}`,
        node: PATHS.node,
        home: PATHS.home,
        workdir: PATHS.workdir,
        stubUrl: URL,
        prompt: PROMPT,
        apiKey: DUMMY_KEY,
      };
      const direct = AGENTS[id].invoke(context);
      // homeFiles are the runner's, not the module's: present in the invocation, then set aside.
      for (const relative of Object.keys(configuration.homeFiles ?? {}))
        assert.ok(inv.files.delete(join(PATHS.home, relative)), `${id}/${configuration.id}: ${relative}`);
      const { input: a, ...restA } = inv;
      const { input: b, ...restB } = direct;
      assert.deepEqual(restA, restB, `${id}/${configuration.id}`);
      assert.equal(a.kind, b.kind);
      assert.doesNotMatch(
        JSON.stringify([inv.args, inv.env, [...inv.files.values()]]),
        /\$(NODE|MCP_SERVER|HOME|WORKDIR|STUB_URL)\b/,
        `${id}/${configuration.id}: a placeholder is left`,
      );
      assert.equal(inv.env['HOME'], PATHS.home);
    }
  }
});

test('a mode an agent does not have is refused by its module', () => {
  const cfg = (mode: Configuration['mode']): Configuration => ({
    id: 'x',
    label: 'x',
    description: 'x',
    mode,
    args: [],
    env: {},
  });
  assert.throws(() => buildInvocation('codex', cfg('print'), '/bin/codex', PATHS, URL), /codex has no mode print/);
  assert.throws(
    () => buildInvocation('claude-code', cfg('exec'), '/bin/claude', PATHS, URL),
    /claude-code has no mode exec/,
  );
});

test('each agent picks its main request: Claude Code the prompted streaming one with tools, Codex the user turn', () => {
  const req = (json: unknown, headers: Record<string, string> = {}): WireRequest => ({
    method: 'POST',
    url: '/x',
    headers,
    json,
  });
  const claudeTitle = req({ stream: true, tools: [], messages: [{ role: 'user', content: `<s>${PROMPT}</s>` }] });
  const claudeMain = req({ stream: true, tools: [{ name: 'Read' }], messages: [{ role: 'user', content: PROMPT }] });
  assert.equal(AGENTS['claude-code'].mainRequest([claudeTitle, claudeMain], PROMPT), claudeMain);
  const meta = (m: object) => ({ 'x-codex-turn-metadata': JSON.stringify(m) });
  const memories = req({ input: [] }, meta({ request_kind: 'turn', thread_source: 'memory_consolidation' }));
  const turn = req({ input: [] }, meta({ request_kind: 'turn', thread_source: 'user' }));
  assert.equal(AGENTS.codex.mainRequest([memories, turn], PROMPT), turn);
  assert.deepEqual(turnMetadata(turn), { request_kind: 'turn', thread_source: 'user' });
  assert.equal(turnMetadata(req({}, { 'x-codex-turn-metadata': '[1]' })), undefined);
});

test('settings merge key by key into objects, replace anything else, and leave both inputs unchanged', () => {
  const base = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    list: [1, 2],
  };
  const over = { security: { auth: { enforced: true } }, list: [3], experimental: { taskTracker: true } };
  const before = structuredClone([base, over]);
  assert.deepEqual(mergeSettings(base, over), {
    security: { auth: { selectedType: 'gemini-api-key', enforced: true } },
    privacy: { usageStatisticsEnabled: false },
    list: [3],
    experimental: { taskTracker: true },
  });
  assert.deepEqual([base, over], before);
  assert.deepEqual(mergeSettings(base, { privacy: 'off' }).privacy, 'off');
  assert.deepEqual(mergeSettings(base, undefined), base);
  assert.notEqual(mergeSettings(base, undefined).security, base.security);
});

test('placeholders are expanded in every string of a settings object, not in its keys', () => {
  const expand = (text: string) => expandPlaceholders(text, runVariables(PATHS, URL));
  assert.deepEqual(expandInJson({ $HOME: { url: '$STUB_URL/v1', n: 3, list: ['$WORKDIR', true, null] } }, expand), {
    $HOME: { url: `${URL}/v1`, n: 3, list: ['/c/work', true, null] },
  });
});

test('a configuration option its agent does not take is refused, naming the option and the agent module', () => {
  const matrix = loadMatrix(ROOT);
  const withSettings = structuredClone(matrix);
  withSettings.agents.codex.configurations[0]!.settings = { a: 1 };
  assert.throws(
    () => validateMatrix(withSettings, {}),
    /\/agents\/codex\/configurations\/0\/settings: codex takes no settings \(src\/lib\/agents\/codex.ts options: configToml\)/,
  );
  const withToml = structuredClone(matrix);
  withToml.agents['claude-code'].configurations[0]!.configToml = 'a = 1';
  assert.throws(
    () => validateMatrix(withToml, {}),
    /\/agents\/claude-code\/configurations\/0\/configToml: claude-code takes no configToml \(src\/lib\/agents\/claude-code.ts options: none\)/,
  );
});

test("tools named as the stub MCP server's are found only in captures whose configuration declares that server, and every agent that declares it shows them somewhere", () => {
  const matrix = loadMatrix(ROOT);
  for (const id of AGENT_IDS) {
    let declaring = 0;
    let found = 0;
    for (const configuration of matrix.agents[id].configurations) {
      const capture = JSON.parse(
        readFileSync(join(ROOT, 'content/captures', id, `${configuration.id}.json`), 'utf8'),
      ) as CaptureFile;
      // A namespace deferred to tool search stands for its tools (`mcp__capture.` + a tool name).
      const names = [
        ...capturedTools(capture).map((t) => t.fullName),
        ...capturedNamespaces(capture).map((n) => `${n.name}.tool`),
      ];
      // Without a declared family, any name holding the server's and its tool's names counts.
      const isStub =
        mcpNamingOf(id)?.isStubServerTool ??
        ((name: string) => name.includes(STUB_MCP_SERVER) && name.includes('echo'));
      const stubTools = names.filter((name) => isStub(name));
      const declares = JSON.stringify(configuration).includes('$MCP_SERVER');
      if (!declares) assert.deepEqual(stubTools, [], `${id}/${configuration.id}`);
      // An agent whose family has no <server> part offers a server's tools under their own names.
      if (mcpNamingOf(id)?.family.includes('<server>') ?? true)
        for (const name of stubTools) assert.ok(name.includes(STUB_MCP_SERVER), name);
      // A server that starts too late (Claude Code slow-mcp-server) or is not trusted (Gemini CLI) brings none.
      if (declares) declaring++;
      if (declares && stubTools.length > 0) found++;
    }
    // An agent whose module says no capture shows its MCP naming must have no capture that does (else the reason is
    // stale).
    if (mcpNamingOf(id) === undefined)
      assert.equal(found, 0, `${id}: a capture shows the stub server's tools, yet its module says none does`);
    else if (declaring > 0)
      assert.ok(found > 0, `${id}: none of ${declaring} configurations that declare the stub server shows its tools`);
  }
});

test('homeFiles are written into HOME with placeholders expanded, and may not replace a file the agent module writes', () => {
  const cfg = (homeFiles: Record<string, string>): Configuration => ({
    id: 'x',
    label: 'x',
    description: 'x',
    mode: 'print',
    args: [],
    env: {},
    homeFiles,
  });
  const inv = buildInvocation(
    'gemini-cli',
    cfg({ '.codex/auth.json': '{"url":"$STUB_URL"}' }),
    '/bin/gemini.js',
    PATHS,
    URL,
  );
  assert.equal(inv.files.get(join(PATHS.home, '.codex/auth.json')), `{"url":"${URL}"}`);
  assert.throws(
    () => buildInvocation('gemini-cli', cfg({ '.gemini/settings.json': '{}' }), '/bin/gemini.js', PATHS, URL),
    /homeFiles \.gemini\/settings\.json: gemini-cli writes this file itself/,
  );
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/capture-matrix.schema.json'), 'utf8'));
  const matrix = loadMatrix(ROOT);
  for (const bad of ['../escape', '/etc/passwd', 'a/../../b', './x']) {
    const m = structuredClone(matrix);
    m.agents.codex.configurations[0]!.homeFiles = { [bad]: 'x' };
    assert.throws(() => validateMatrix(m, schema), /does not match/, bad);
  }
});

test('each agent module says whether scripts can read its capture history and inventory, and the content agrees', async () => {
  const { existsSync } = await import('node:fs');
  const matrix = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as {
    agents: Record<string, { configurations: { id: string }[] }>;
  };
  for (const id of AGENT_IDS) {
    const { captureHistory, inventory } = AGENTS[id];
    const historyFile = join(ROOT, `content/history/${id}.capture.json`);
    if ('none' in captureHistory) {
      assert.ok(captureHistory.none.length > 20, `${id}: the reason there is no capture history is said`);
      assert.equal(existsSync(historyFile), false, `${id}: a capture history exists, so its plan must be declared`);
    } else {
      const configurations = new Set(matrix.agents[id]!.configurations.map((c) => c.id));
      for (const c of captureHistory.configurations)
        assert.ok(configurations.has(c), `${id}: the history compares configuration ${c}, which the matrix lacks`);
      const history = JSON.parse(readFileSync(historyFile, 'utf8')) as { configurations?: string[] };
      assert.deepEqual(
        [...(history.configurations ?? [])].sort(),
        [...captureHistory.configurations].sort(),
        `${id}: the history file compares the planned configurations`,
      );
    }
    const inventoryFile = join(ROOT, `content/inventory/${id}.json`);
    if ('none' in inventory)
      assert.equal(existsSync(inventoryFile), false, `${id}: an inventory exists, so its method must be declared`);
    else
      assert.deepEqual(
        JSON.parse(readFileSync(inventoryFile, 'utf8')).notes,
        inventory.notes,
        `${id}: the inventory file was written with the method's notes`,
      );
  }
});

test('a published-types script finds its agent through the registry; a script no module names is refused', () => {
  let found = 0;
  for (const id of AGENT_IDS) {
    const declared = AGENTS[id].publishedTypes;
    if (!('ingest' in declared)) continue;
    for (const script of [declared.ingest, declared.history].filter((s) => s !== undefined))
      assert.equal(agentOfPublishedTypesScript(script).id, id, script);
    found++;
  }
  assert.ok(found > 0, 'no agent declares a published-types script');
  assert.throws(() => agentOfPublishedTypesScript('scripts/no-such-script.ts'), /no agent module declares/);
});
