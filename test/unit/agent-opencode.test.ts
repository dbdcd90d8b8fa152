/**
 * OpenCode's agent module: how a configuration is run (command line, environment,
 * settings file) and which recorded request is the main one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENTS, type InvocationContext } from '../../src/lib/agents/index.ts';
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
    mode: 'print', args: [], env: {}, baseEnv: baseEnv(PATHS.home), binary: BINARY, node: PATHS.node,
    home: PATHS.home, workdir: PATHS.workdir, stubUrl: URL, prompt: PROMPT, apiKey: DUMMY_KEY, ...over,
  };
}

const settingsOf = (files: Map<string, string>): Record<string, unknown> => JSON.parse(files.get(SETTINGS)!) as Record<string, unknown>;

test('print mode runs `run`, the configuration\'s arguments, then the prompt word by word (run quotes an argument with spaces)', () => {
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

test('the environment: the fixed base, models fetch and autoupdate off, then the configuration\'s variables', () => {
  const inv = opencode.invoke(context({ env: { OPENCODE_EXPERIMENTAL: '1' } }));
  assert.equal(inv.env['HOME'], PATHS.home);
  assert.equal(inv.env['OPENCODE_DISABLE_MODELS_FETCH'], '1');
  assert.equal(inv.env['OPENCODE_DISABLE_AUTOUPDATE'], '1');
  assert.equal(inv.env['OPENCODE_EXPERIMENTAL'], '1');
});

test('opencode.json declares the stub provider and makes stub-model the main and small model; settings merge over it', () => {
  const base = settingsOf(opencode.invoke(context()).files);
  assert.deepEqual(base, {
    provider: { stub: { npm: '@ai-sdk/openai-compatible', name: 'Stub', options: { baseURL: `${URL}/v1`, apiKey: DUMMY_KEY }, models: { [STUB_MODEL]: { name: 'Stub model' } } } },
    model: `stub/${STUB_MODEL}`,
    small_model: `stub/${STUB_MODEL}`,
  });
  const merged = settingsOf(opencode.invoke(context({ settings: { provider: { stub: { models: { 'gpt-5': { name: 'G' } } } }, model: 'stub/gpt-5' } })).files);
  assert.deepEqual(Object.keys((merged['provider'] as { stub: { models: object } }).stub.models), [STUB_MODEL, 'gpt-5']);
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
  assert.deepEqual(settingsOf(run('permissions-denied').files)['permission'], { edit: 'deny', bash: 'deny', webfetch: 'deny', task: 'deny', todowrite: 'deny', skill: 'deny' });
  assert.deepEqual(run('plan-agent').args.slice(0, 3), ['run', '--agent', 'plan']);
  for (const id of ['interactive', 'interactive-plan-mode']) {
    assert.equal(byId.get(id)!.mode, 'interactive');
    assert.deepEqual((settingsOf(run(id).files)['agent'] as object), { title: { disable: true } }, `${id}: no title request before the main one`);
  }
  assert.deepEqual((settingsOf(run('interactive-plan-mode').files)['permission'] as object), { plan_exit: 'allow' });
  for (const c of configurations) assert.ok(opencode.modes.includes(c.mode), c.id);
});

test('MCP tools are named <server>_<tool>', () => {
  assert.equal(opencode.mcpNaming.family, '<server>_<tool>');
  assert.equal(opencode.mcpNaming.isStubServerTool('capture_echo'), true);
  assert.equal(opencode.mcpNaming.isStubServerTool('other_echo'), false);
  assert.equal(opencode.mcpNaming.isStubServerTool('read_mcp_resource'), false);
  assert.equal(opencode.mcpNaming.isStubServerTool('list_mcp_resources'), false);
});

// Shapes of the requests a run sends (recorded with --raw): the title request
// (small model, no tools, the prompt as the last user message) and the main turn.
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
const chat = (json: object): WireRequest => ({ method: 'POST', url: '/v1/chat/completions', headers: {}, json: { model: STUB_MODEL, stream: true, ...json } });
const title = chat({ messages: [{ role: 'system', content: 'title' }, { role: 'user', content: 'Generate a title for this conversation:\n' }, { role: 'user', content: PROMPT }] });
const main = chat({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: PROMPT }], tools: [tool('bash'), tool('read')], tool_choice: 'auto' });
const planMain = chat({
  messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: [{ type: 'text', text: PROMPT }, { type: 'text', text: '<system-reminder>\nPlan mode\n</system-reminder>' }] }],
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
