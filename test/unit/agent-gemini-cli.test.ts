/**
 * Gemini CLI's agent module: how a configuration is run (command line, environment,
 * settings file) and which recorded request is the main one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENTS, mcpNamingOf, type InvocationContext } from '../../src/lib/agents/index.ts';
import { BASE_SETTINGS } from '../../src/lib/agents/gemini-cli.ts';
import { STUB_MCP_SERVER } from '../../src/lib/agents/types.ts';
import { baseEnv, buildInvocation, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';
import { loadMatrix } from '../../scripts/lib/capture/matrix.ts';
import type { WireRequest } from '../../src/lib/wire/types.ts';

const ROOT = join(import.meta.dirname, '../..');
const gemini = AGENTS['gemini-cli'];
const PATHS: RunPaths = { home: '/c/home', workdir: '/c/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const BINARY = '/pkg/bundle/gemini.js';
const SETTINGS = join(PATHS.home, '.gemini/settings.json');

function context(over: Partial<InvocationContext> = {}): InvocationContext {
  return {
    mode: 'print',
    args: [],
    env: {},
    baseEnv: baseEnv(PATHS.home),
    binary: BINARY,
    node: PATHS.node,
    home: PATHS.home,
    workdir: PATHS.workdir,
    stubUrl: URL,
    prompt: PROMPT,
    apiKey: DUMMY_KEY,
    ...over,
  };
}

test("print mode runs bundle/gemini.js with Node, --skip-trust, -p and the prompt, then the configuration's arguments", () => {
  const inv = gemini.invoke(context({ args: ['--approval-mode', 'yolo'] }));
  assert.equal(inv.command, PATHS.node);
  assert.deepEqual(inv.args, [BINARY, '--skip-trust', '-p', PROMPT, '--approval-mode', 'yolo']);
  assert.deepEqual(inv.input, { kind: 'argument' });
  assert.equal(gemini.binary, 'node_modules/@google/gemini-cli/bundle/gemini.js');
});

test("the stub is reached through GOOGLE_GEMINI_BASE_URL with the stand-in API key; the configuration's variables come last", () => {
  const inv = gemini.invoke(context());
  assert.equal(inv.env['GOOGLE_GEMINI_BASE_URL'], URL);
  assert.equal(inv.env['GEMINI_API_KEY'], DUMMY_KEY);
  assert.equal(inv.env['HOME'], PATHS.home);
  assert.equal(inv.env['PATH'], baseEnv(PATHS.home)['PATH']);
  assert.equal(
    gemini.invoke(context({ env: { GEMINI_MODEL: 'gemini-2.5-pro' } })).env['GEMINI_MODEL'],
    'gemini-2.5-pro',
  );
});

test('interactive mode starts `-i <prompt>` in a pseudo-terminal through script', () => {
  const inv = gemini.invoke(context({ mode: 'interactive', args: ['--approval-mode', 'yolo'] }));
  assert.equal(inv.command, '/usr/bin/script');
  assert.deepEqual(inv.input, { kind: 'pty' });
  const shell = inv.args[inv.args.indexOf('-c') + 1]!;
  assert.equal(shell, `${PATHS.node} ${BINARY} --skip-trust -i '${PROMPT}' --approval-mode yolo`);
  assert.equal(inv.env['COLUMNS'], '120');
  assert.equal(inv.env['GOOGLE_GEMINI_BASE_URL'], URL);
});

test('a mode Gemini CLI does not have is refused', () => {
  assert.throws(() => gemini.invoke(context({ mode: 'exec' })), /gemini-cli has no mode exec/);
  assert.throws(() => gemini.invoke(context({ mode: 'sdk' })), /gemini-cli has no mode sdk/);
});

test("settings go to ~/.gemini/settings.json: API-key auth and no usage statistics, with a configuration's settings merged over them", () => {
  const plain = gemini.invoke(context());
  assert.equal(plain.files.size, 1);
  assert.deepEqual(JSON.parse(plain.files.get(SETTINGS)!), BASE_SETTINGS);
  assert.deepEqual(BASE_SETTINGS, {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
  });
  const merged = JSON.parse(
    gemini
      .invoke(
        context({ settings: { security: { folderTrust: { enabled: false } }, experimental: { taskTracker: true } } }),
      )
      .files.get(SETTINGS)!,
  );
  assert.deepEqual(merged, {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    experimental: { taskTracker: true },
  });
  assert.equal(gemini.settingsFile, '.gemini/settings.json');
});

test('the matrix configurations: approval modes and the model as flags, features and tool lists through settings, the stub MCP server trusted under its name', () => {
  const configurations = loadMatrix(ROOT).agents['gemini-cli'].configurations;
  const byId = new Map(configurations.map((c) => [c.id, c]));
  const run = (id: string) => buildInvocation('gemini-cli', byId.get(id)!, BINARY, PATHS, URL);
  const settingsOf = (id: string) => JSON.parse(run(id).files.get(SETTINGS)!) as Record<string, unknown>;
  const extra = (id: string) => {
    const { security: _s, privacy: _p, ...rest } = settingsOf(id);
    return rest;
  };
  assert.deepEqual(run('print').args, [BINARY, '--skip-trust', '-p', PROMPT]);
  // A history run of a release before the flag existed leaves it out (it would exit on an unknown argument).
  const release = (id: string, version: string) =>
    buildInvocation('gemini-cli', byId.get(id)!, BINARY, PATHS, URL, version).args;
  assert.deepEqual(release('print', '0.39.0'), [BINARY, '-p', PROMPT]);
  assert.deepEqual(release('print', '0.22.4'), [BINARY, '-p', PROMPT]);
  assert.deepEqual(release('print', '0.39.1'), [BINARY, '--skip-trust', '-p', PROMPT]);
  assert.deepEqual(release('print', '0.100.0'), [BINARY, '--skip-trust', '-p', PROMPT]);
  assert.deepEqual(release('approval-yolo', '0.30.0'), [BINARY, '-p', PROMPT, '--approval-mode', 'yolo']);
  assert.deepEqual(run('approval-default').args.slice(-2), ['--approval-mode', 'default']);
  assert.deepEqual(run('approval-auto-edit').args.slice(-2), ['--approval-mode', 'auto_edit']);
  assert.deepEqual(run('approval-yolo').args.slice(-2), ['--approval-mode', 'yolo']);
  assert.deepEqual(run('approval-plan').args.slice(-2), ['--approval-mode', 'plan']);
  assert.deepEqual(run('pro-yolo').args.slice(-4), ['-m', 'gemini-2.5-pro', '--approval-mode', 'yolo']);
  assert.deepEqual(run('interactive').input, { kind: 'pty' });
  assert.deepEqual(extra('task-tracker'), { experimental: { taskTracker: true } });
  assert.deepEqual(extra('mcp-server'), {
    mcpServers: { [STUB_MCP_SERVER]: { command: PATHS.node, args: [PATHS.mcpServer], trust: true } },
  });
  assert.deepEqual(extra('no-plan'), { general: { plan: { enabled: false } } });
  assert.deepEqual(extra('no-topic-narration'), { general: { topicUpdateNarration: false } });
  assert.deepEqual(extra('core-tools'), { tools: { core: ['read_file', 'glob', 'run_shell_command'] } });
  assert.deepEqual(extra('exclude-tools'), { tools: { exclude: ['google_web_search', 'invoke_agent'] } });
  for (const c of configurations) {
    assert.ok(gemini.modes.includes(c.mode), c.id);
    // Every configuration keeps the module's own settings (the stub's auth) under its own.
    assert.deepEqual((settingsOf(c.id) as { security: unknown }).security, BASE_SETTINGS['security'], c.id);
  }
});

test('MCP tools are named mcp_<server>_<tool>', () => {
  assert.equal(mcpNamingOf('gemini-cli')!.family, 'mcp_<server>_<tool>');
  assert.equal(mcpNamingOf('gemini-cli')!.isStubServerTool('mcp_capture_echo'), true);
  assert.equal(mcpNamingOf('gemini-cli')!.isStubServerTool('mcp__capture__echo'), false);
  assert.equal(mcpNamingOf('gemini-cli')!.isStubServerTool('mcp_other_echo'), false);
  assert.equal(mcpNamingOf('gemini-cli')!.isStubServerTool('read_mcp_resource'), false);
});

const MAIN = '/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse';
const ROUTING = '/v1beta/models/gemini-3.5-flash-lite:generateContent';
const req = (url: string, json: unknown): WireRequest => ({ method: 'POST', url, headers: {}, json });
const turn = (text: string, tools: unknown[] = [{ functionDeclarations: [{ name: 'read_file' }] }]) => ({
  contents: [{ role: 'user', parts: [{ text }] }],
  tools,
});

test('the main request is the streamed turn carrying the prompt and the tools, not the routing call before it', () => {
  // As recorded in every auto-routed 0.61.0 configuration: the routing generateContent (prompt, no tools), then the
  // streamed turn.
  const routing = req(ROUTING, {
    contents: [{ role: 'user', parts: [{ text: PROMPT }] }],
    generationConfig: { responseJsonSchema: { type: 'object' } },
  });
  const main = req(MAIN, turn(PROMPT));
  assert.equal(gemini.mainRequest([routing, main], PROMPT), main);
  // An explicit model (-m) or plan mode skips the routing call: the only request is the main one.
  const only = req('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', turn(PROMPT));
  assert.equal(gemini.mainRequest([only], PROMPT), only);
});

test("a streamed side request (a subagent, a tool's own model call) is not taken for the main one", () => {
  const subagent = req(
    MAIN,
    turn('Investigate the repository layout', [{ functionDeclarations: [{ name: 'complete_task' }] }]),
  );
  const webSearch = req(MAIN, turn('latest release notes', []));
  const main = req(MAIN, turn(PROMPT));
  assert.equal(gemini.mainRequest([subagent, webSearch, main], PROMPT), main);
  assert.equal(gemini.mainRequest([webSearch, main], PROMPT), main);
  // Context before the prompt in the same text part still counts as the prompt's turn.
  const withContext = req(MAIN, turn(`<session_context>…</session_context>\n${PROMPT}`));
  assert.equal(gemini.mainRequest([subagent, withContext], PROMPT), withContext);
});

// --- Hook payloads (npm run payloads) ---------------------------------------------------

const HOOK_CONTEXT = {
  home: '/c/home',
  tmp: '/c/run/tmp',
  hookCommand: 'cat >> /c/run/hooks.log',
  taggedHookCommand: (event: string) => `tag ${event}`,
  hookLog: '/c/run/hooks.log',
  allowedTools: ['read_file'],
};
const hooks = () => {
  const h = gemini.hooks;
  assert.ok(!('none' in h), 'Gemini CLI declares a hook mechanism');
  return h;
};
const before = (tool: string, input: unknown, extra: object = {}) => ({
  hook_event_name: 'BeforeTool',
  tool_name: tool,
  tool_input: input,
  ...extra,
});
const after = (tool: string, input: unknown, extra: object = {}) => ({
  hook_event_name: 'AfterTool',
  tool_name: tool,
  tool_input: input,
  tool_response: { llmContent: 'x' },
  ...extra,
});

test('hooks: BeforeTool and AfterTool, matcher "*", a command hook with a timeout in milliseconds, in the settings the configuration\'s are merged with', () => {
  const h = hooks();
  assert.deepEqual(h.events, ['BeforeTool', 'AfterTool']);
  assert.equal(h.shape.before, 'BeforeTool');
  assert.equal(h.shape.after, 'AfterTool');
  assert.equal(h.shape.afterFailure, undefined, 'a failed call fires AfterTool too');
  const additions = h.runAdditions(HOOK_CONTEXT);
  const group = [{ matcher: '*', hooks: [{ type: 'command', command: HOOK_CONTEXT.hookCommand, timeout: 10000 }] }];
  assert.deepEqual(additions.settings, { hooks: { BeforeTool: group, AfterTool: group } });
  // No approval flag: given twice (the yolo configurations give one) the CLI refuses to start.
  assert.equal(additions.args.includes('--approval-mode'), false);
  assert.equal(additions.env['TMPDIR'], HOOK_CONTEXT.tmp);
  assert.equal(
    additions.files.size,
    0,
    "settings.json is the agent's own file: the hooks go through `settings`, not a second copy",
  );
});

test('hooks: a functionResponse with `error` is a failure, one with `output` a success', () => {
  const h = hooks();
  const part = (response: object) => ({ functionResponse: { id: 'call_stub_1', name: 'read_file', response } });
  assert.equal(h.outcome(part({ error: 'File not found: missing.txt' }), '', []), 'failure');
  assert.equal(h.outcome(part({ output: 'Output: oops\nExit Code: 3' }), '', []), 'success');
  assert.equal(h.outcome({}, '', []), 'success');
});

test('hooks: payloads without call ids go to calls by order, tool name and input (any key order)', () => {
  const h = hooks();
  assert.ok(h.hooksOfCalls);
  const a = { file_path: 'a.txt', start_line: 1 };
  const b = { file_path: 'b.txt' };
  const calls = [
    { id: 'call_stub_1', tool: 'read_file', input: a },
    { id: 'call_stub_2', tool: 'read_file', input: b },
    { id: 'call_stub_3', tool: 'glob', input: { pattern: '*' } },
  ];
  const payloads = [
    { hook_event_name: 'SessionStart' },
    before('read_file', b),
    before('read_file', { start_line: 1, file_path: 'a.txt' }),
    after('read_file', { start_line: 1, file_path: 'a.txt' }),
    after('read_file', b),
  ];
  const out = h.hooksOfCalls(payloads, calls);
  assert.deepEqual(out, [[payloads[2], payloads[3]], [payloads[1], payloads[4]], []]);
  // A payload is given to one call only: two equal calls get one pair each, in order.
  const twice = [before('glob', {}), after('glob', {}, { n: 1 }), before('glob', {}), after('glob', {}, { n: 2 })];
  assert.deepEqual(
    h.hooksOfCalls(twice, [
      { id: '1', tool: 'glob', input: {} },
      { id: '2', tool: 'glob', input: {} },
    ]),
    [
      [twice[0], twice[1]],
      [twice[2], twice[3]],
    ],
  );
  // An input the CLI changed before the hook saw it still matches by tool name; an after-event alone is kept.
  assert.deepEqual(
    h.hooksOfCalls([before('glob', { pattern: '**' })], [{ id: '1', tool: 'glob', input: { pattern: '*' } }]),
    [[before('glob', { pattern: '**' })]],
  );
  assert.deepEqual(h.hooksOfCalls([after('glob', {})], [{ id: '1', tool: 'glob', input: {} }]), [[after('glob', {})]]);
});

test('a release is given the settings format it reads: flat keys before 0.3.4, nested from 0.3.4 on', () => {
  // Facts from the packages (npm pack @google/gemini-cli@<version>): 0.1.1's bundle/gemini.js and
  // 0.2.2's dist read `settings.merged.selectedAuthType` and `usageStatisticsEnabled` and never
  // name `security.auth.selectedType`; 0.3.4's dist names `security.auth.selectedType` and
  // `migrateSettingsToV2`. 0.2.2 and 0.3.4 are adjacent stable releases on the registry.
  const flat = { selectedAuthType: 'gemini-api-key', usageStatisticsEnabled: false };
  const nested = { security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } };
  const settingsFor = (release: string | undefined) =>
    JSON.parse(gemini.invoke(context({ release })).files.get(SETTINGS)!) as unknown;
  assert.deepEqual(settingsFor('0.1.1'), flat);
  assert.deepEqual(settingsFor('0.2.2'), flat);
  assert.deepEqual(settingsFor('0.3.4'), nested);
  assert.deepEqual(settingsFor('0.61.0'), nested);
  assert.deepEqual(settingsFor(undefined), nested, 'the pin (no release given) reads the nested keys');
  // A configuration's own settings merge over the format of the release.
  const withHooks = JSON.parse(
    gemini.invoke(context({ release: '0.1.1', settings: { hooks: { BeforeTool: [] } } })).files.get(SETTINGS)!,
  ) as unknown;
  assert.deepEqual(withHooks, { ...flat, hooks: { BeforeTool: [] } });
});
