/**
 * OpenCode's agent module: how a configuration is run (command line, environment,
 * settings file) and which recorded request is the main one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENTS, mcpNamingOf, type InvocationContext } from '../../src/lib/agents/index.ts';
import { promptWords, STUB_MODEL } from '../../src/lib/agents/opencode.ts';
import { STUB_MCP_SERVER } from '../../src/lib/agents/types.ts';
import { baseEnv, buildInvocation, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';
import { loadMatrix } from '../../scripts/lib/capture/matrix.ts';
import type { WireRequest } from '../../src/lib/wire/types.ts';

const ROOT = join(import.meta.dirname, '../..');
const opencode = AGENTS.opencode;
const PATHS: RunPaths = { home: '/c/home', workdir: '/c/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const BINARY = '/pkg/node_modules/opencode-linux-x64/bin/opencode';
const SETTINGS = join(PATHS.home, '.config/opencode/opencode.json');

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

const settingsOf = (files: Map<string, string>): Record<string, unknown> =>
  JSON.parse(files.get(SETTINGS)!) as Record<string, unknown>;

test("print mode runs `run`, the configuration's arguments, then the prompt word by word (run quotes an argument with spaces)", () => {
  const inv = opencode.invoke(context({ args: ['--agent', 'plan'] }));
  assert.equal(inv.command, BINARY);
  assert.deepEqual(inv.args, ['run', '--agent', 'plan', 'Reply', 'with', 'the', 'single', 'word:', 'ok']);
  assert.equal(inv.args.slice(3).join(' '), PROMPT);
  assert.deepEqual(inv.input, { kind: 'argument' });
});

test('a prompt that cannot be passed word by word is refused rather than changed', () => {
  assert.deepEqual(promptWords('a b'), ['a', 'b']);
  assert.throws(() => promptWords('two  spaces'), /cannot be passed word by word/);
  assert.throws(() => promptWords('say --help'), /cannot be passed word by word/);
  assert.throws(() => promptWords('tab\there'), /cannot be passed word by word/);
});

test('interactive mode starts the terminal interface with --prompt in a pseudo-terminal, arguments after it', () => {
  const inv = opencode.invoke(context({ mode: 'interactive', args: ['--agent', 'plan'] }));
  assert.equal(inv.command, '/usr/bin/script');
  assert.deepEqual(inv.input, { kind: 'pty' });
  const shell = inv.args[inv.args.indexOf('-c') + 1]!;
  assert.equal(shell, `${BINARY} --prompt '${PROMPT}' --agent plan`);
  assert.equal(inv.env['COLUMNS'], '120');
});

test('a mode OpenCode does not have is refused', () => {
  assert.throws(() => opencode.invoke(context({ mode: 'exec' })), /opencode has no mode exec/);
  assert.throws(() => opencode.invoke(context({ mode: 'sdk' })), /opencode has no mode sdk/);
});

test("the environment: the fixed base, models fetch and autoupdate off, then the configuration's variables", () => {
  const inv = opencode.invoke(context({ env: { OPENCODE_EXPERIMENTAL: '1' } }));
  assert.equal(inv.env['HOME'], PATHS.home);
  assert.equal(inv.env['OPENCODE_DISABLE_MODELS_FETCH'], '1');
  assert.equal(inv.env['OPENCODE_DISABLE_AUTOUPDATE'], '1');
  assert.equal(inv.env['OPENCODE_EXPERIMENTAL'], '1');
});

test('opencode.json declares the stub provider and makes stub-model the main and small model; settings merge over it', () => {
  const base = settingsOf(opencode.invoke(context()).files);
  assert.deepEqual(base, {
    provider: {
      stub: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Stub',
        options: { baseURL: `${URL}/v1`, apiKey: DUMMY_KEY },
        models: { [STUB_MODEL]: { name: 'Stub model' } },
      },
    },
    model: `stub/${STUB_MODEL}`,
    small_model: `stub/${STUB_MODEL}`,
  });
  const merged = settingsOf(
    opencode.invoke(
      context({ settings: { provider: { stub: { models: { 'gpt-5': { name: 'G' } } } }, model: 'stub/gpt-5' } }),
    ).files,
  );
  assert.deepEqual(Object.keys((merged['provider'] as { stub: { models: object } }).stub.models), [
    STUB_MODEL,
    'gpt-5',
  ]);
  assert.equal(merged['model'], 'stub/gpt-5');
  assert.equal(merged['small_model'], `stub/${STUB_MODEL}`);
});

test('the matrix configurations: flags, settings and the stub MCP server under its name', () => {
  const configurations = loadMatrix(ROOT).agents.opencode.configurations;
  const byId = new Map(configurations.map((c) => [c.id, c]));
  const run = (id: string) => buildInvocation('opencode', byId.get(id)!, BINARY, PATHS, URL);
  const mcp = { [STUB_MCP_SERVER]: { type: 'local', command: [PATHS.node, PATHS.mcpServer] } };
  assert.deepEqual(settingsOf(run('mcp-server').files)['mcp'], mcp);
  assert.deepEqual(settingsOf(run('code-mode').files)['mcp'], mcp);
  assert.equal(run('code-mode').env['OPENCODE_EXPERIMENTAL_CODE_MODE'], '1');
  assert.equal(settingsOf(run('gpt-5-model').files)['model'], 'stub/gpt-5');
  assert.deepEqual(settingsOf(run('permissions-denied').files)['permission'], {
    edit: 'deny',
    bash: 'deny',
    webfetch: 'deny',
    task: 'deny',
    todowrite: 'deny',
    skill: 'deny',
  });
  assert.deepEqual(run('plan-agent').args.slice(0, 3), ['run', '--agent', 'plan']);
  for (const id of ['interactive', 'interactive-plan-mode']) {
    assert.equal(byId.get(id)!.mode, 'interactive');
    assert.deepEqual(
      settingsOf(run(id).files)['agent'] as object,
      { title: { disable: true } },
      `${id}: no title request before the main one`,
    );
  }
  assert.deepEqual(settingsOf(run('interactive-plan-mode').files)['permission'] as object, { plan_exit: 'allow' });
  for (const c of configurations) assert.ok(opencode.modes.includes(c.mode), c.id);
});

test('MCP tools are named <server>_<tool>', () => {
  assert.equal(mcpNamingOf('opencode')!.family, '<server>_<tool>');
  assert.equal(mcpNamingOf('opencode')!.isStubServerTool('capture_echo'), true);
  assert.equal(mcpNamingOf('opencode')!.isStubServerTool('other_echo'), false);
  assert.equal(mcpNamingOf('opencode')!.isStubServerTool('read_mcp_resource'), false);
  assert.equal(mcpNamingOf('opencode')!.isStubServerTool('list_mcp_resources'), false);
});

// Shapes of the requests a run sends (recorded with --raw): the title request
// (small model, no tools, the prompt as the last user message) and the main turn.
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
const chat = (json: object): WireRequest => ({
  method: 'POST',
  url: '/v1/chat/completions',
  headers: {},
  json: { model: STUB_MODEL, stream: true, ...json },
});
const title = chat({
  messages: [
    { role: 'system', content: 'title' },
    { role: 'user', content: 'Generate a title for this conversation:\n' },
    { role: 'user', content: PROMPT },
  ],
});
const main = chat({
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: PROMPT },
  ],
  tools: [tool('bash'), tool('read')],
  tool_choice: 'auto',
});
const planMain = chat({
  messages: [
    { role: 'system', content: 'sys' },
    {
      role: 'user',
      content: [
        { type: 'text', text: PROMPT },
        { type: 'text', text: '<system-reminder>\nPlan mode\n</system-reminder>' },
      ],
    },
  ],
  tools: [tool('bash'), tool('read')],
});

test('the main request is the one with tools, not the title request, whatever their order', () => {
  assert.equal(opencode.mainRequest([title, main], PROMPT), main);
  assert.equal(opencode.mainRequest([main, title], PROMPT), main);
  assert.equal(opencode.mainRequest([main], PROMPT), main);
});

test('with the plan agent the prompt is followed by a reminder, and the request with tools is still chosen', () => {
  assert.equal(opencode.mainRequest([title, planMain], PROMPT), planMain);
});

// ---------------------------------------------------------------------------
// Hooks: the recorder plugin (payload runs)

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { callIdOf, DEPENDENCIES_LOCK, HOOK_EVENTS, recorderPlugin } from '../../src/lib/agents/opencode.ts';
import { hookEventOf, hookMember, type HookMechanism } from '../../src/lib/agents/types.ts';
import { parseHookLog, recordCalls, untagHookLog } from '../../scripts/lib/payloads/record.ts';
import { payloadPaths, runAdditions } from '../../scripts/lib/payloads/drivers.ts';
import { openaiChatCompletions } from '../../src/lib/wire/openai-chat-completions.ts';

const ocHooks = opencode.hooks as HookMechanism;

test('the recorder plugin, loaded as OpenCode loads it, writes a tag naming the function and the two arguments it received', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oc-plugin-'));
  try {
    const log = join(dir, 'hooks.log');
    const file = join(dir, 'record-hooks.js');
    writeFileSync(file, recorderPlugin(log));
    const mod = (await import(pathToFileURL(file).href)) as Record<
      string,
      () => Promise<Record<string, (i: unknown, o: unknown) => Promise<void>>>
    >;
    const plugin = await Object.values(mod)[0]!();
    assert.deepEqual(Object.keys(plugin), [...HOOK_EVENTS]);
    const before = { tool: 'bash', sessionID: 's', callID: 'call_1' };
    const args = { args: { command: 'echo "quoted" \u2028 é' } };
    const after = { ...before, args: args.args };
    const result = { title: 't', output: 'x\n', metadata: { exit: 0 } };
    await plugin['tool.execute.before']!(before, args);
    await plugin['tool.execute.after']!(after, result);
    const { payloads, events } = untagHookLog(parseHookLog(readFileSync(log, 'utf8')));
    assert.deepEqual(events, ['tool.execute.before', 'tool.execute.after']);
    assert.deepEqual(payloads, [
      { input: before, output: args },
      { input: after, output: result },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a payload run adds --auto, a TMPDIR, the plugin and a lockfile that keeps OpenCode from installing its plugin package', () => {
  const paths = payloadPaths('/c/payload-run');
  const add = runAdditions(ocHooks, paths, []);
  assert.deepEqual(add.args, ['--auto']);
  assert.deepEqual(add.env, { TMPDIR: '/c/payload-run/tmp' });
  const config = '/c/payload-run/home/.config/opencode';
  assert.deepEqual(
    [...add.files.keys()],
    [`${config}/plugin/record-hooks.js`, `${config}/package-lock.json`, `${config}/node_modules/.package-lock.json`],
  );
  assert.ok(add.files.get(`${config}/plugin/record-hooks.js`)!.includes(JSON.stringify(paths.hookLog)));
  const lock = JSON.parse(DEPENDENCIES_LOCK) as { packages: Record<string, { dependencies: Record<string, string> }> };
  assert.ok('@opencode-ai/plugin' in lock.packages['']!.dependencies);
});

test('hook records go to the call whose id they carry; a call without tool.execute.after failed; the shape reads nested members', () => {
  const rec = (id: string, after: boolean) => ({
    input: { tool: 'read', sessionID: 's', callID: id, ...(after ? { args: { filePath: '/f' } } : {}) },
    output: after ? { title: '', output: 'x', metadata: {} } : { args: { filePath: '/f' } },
  });
  const payloads = [rec('call_stub_1', false), rec('call_stub_1', true), rec('call_stub_2', false)];
  const calls = [
    { id: 'call_stub_1', tool: 'read', input: {} },
    { id: 'call_stub_2', tool: 'read', input: {} },
  ];
  const per = ocHooks.hooksOfCalls!(payloads, calls, []);
  assert.deepEqual(per, [[payloads[0], payloads[1]], [payloads[2]]]);
  assert.equal(ocHooks.outcome({}, '', per[0]!), 'success');
  assert.equal(ocHooks.outcome({}, '', per[1]!), 'failure');
  assert.equal(callIdOf({ input: 'x' }), undefined);
  const { shape } = ocHooks;
  assert.equal(shape.eventField, undefined, 'the records do not name their event: hookEvents does');
  assert.equal(hookMember(payloads[0], shape.toolNameField), 'read');
  assert.deepEqual(hookMember(payloads[0], shape.inputField), { filePath: '/f' });
  assert.deepEqual(hookMember(payloads[1], shape.afterInputField!), { filePath: '/f' });
  assert.equal(hookMember(payloads[1], 'input.nope.deeper'), undefined);
  assert.equal(
    hookEventOf(
      { hooks: payloads, hookEvents: ['tool.execute.before', 'tool.execute.after', 'tool.execute.before'] },
      1,
      shape,
    ),
    'tool.execute.after',
  );
});

test('recordCalls keeps the events the tags named beside the payloads, which it keeps as written', () => {
  const tag = (e: string) => JSON.stringify({ $hookEvent: e }) + '\x1e';
  const before = {
    input: { tool: 'bash', sessionID: 's', callID: 'call_stub_1' },
    output: { args: { command: 'echo hi' } },
  };
  const after = {
    input: { ...before.input, args: before.output.args },
    output: { title: 'echo hi', output: 'hi\n', metadata: { exit: 0 } },
  };
  const hookLog =
    tag('tool.execute.before') +
    JSON.stringify(before) +
    '\x1e' +
    tag('tool.execute.after') +
    JSON.stringify(after) +
    '\x1e';
  const body = { messages: [{ role: 'tool', tool_call_id: 'call_stub_1', content: 'hi\n' }] };
  const { calls } = recordCalls(
    ocHooks,
    openaiChatCompletions.toolCalls,
    [{ id: 'call_stub_1', tool: 'bash', kind: 'function', input: { command: 'echo hi' } }],
    { bodies: [body], stdout: '', hookLog, logs: [] },
  );
  assert.deepEqual(calls[0]!.hooks, [before, after]);
  assert.deepEqual(calls[0]!.hookEvents, ['tool.execute.before', 'tool.execute.after']);
  assert.equal(calls[0]!.outcome, 'success');
});
