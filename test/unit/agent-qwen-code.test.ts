/**
 * Qwen Code's agent module: how a configuration is run (command line, environment,
 * settings file) and which recorded request is the main one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENTS, mcpNamingOf, type InvocationContext } from '../../src/lib/agents/index.ts';
import { DEFAULT_MODEL } from '../../src/lib/agents/qwen-code.ts';
import { STUB_MCP_SERVER } from '../../src/lib/agents/types.ts';
import { baseEnv, buildInvocation, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';
import { loadMatrix } from '../../scripts/lib/capture/matrix.ts';
import type { WireRequest } from '../../src/lib/wire/types.ts';

const ROOT = join(import.meta.dirname, '../..');
const qwen = AGENTS['qwen-code'];
const PATHS: RunPaths = { home: '/c/home', workdir: '/c/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const SETTINGS = join(PATHS.home, '.qwen/settings.json');

function context(over: Partial<InvocationContext> = {}): InvocationContext {
  return {
    mode: 'print',
    args: [],
    env: {},
    baseEnv: baseEnv(PATHS.home),
    binary: '/pkg/cli-entry.js',
    node: PATHS.node,
    home: PATHS.home,
    workdir: PATHS.workdir,
    stubUrl: URL,
    prompt: PROMPT,
    apiKey: DUMMY_KEY,
    ...over,
  };
}

test("print mode runs cli-entry.js with Node, -p and the prompt, then the configuration's arguments", () => {
  const inv = qwen.invoke(context({ args: ['--approval-mode', 'yolo'] }));
  assert.equal(inv.command, PATHS.node);
  assert.deepEqual(inv.args, ['/pkg/cli-entry.js', '-p', PROMPT, '--approval-mode', 'yolo']);
  assert.deepEqual(inv.input, { kind: 'argument' });
});

test('the stub is reached through the OpenAI variables, with the default model unless the configuration names another', () => {
  const inv = qwen.invoke(context());
  assert.equal(inv.env['OPENAI_BASE_URL'], `${URL}/v1`);
  assert.equal(inv.env['OPENAI_API_KEY'], DUMMY_KEY);
  assert.equal(inv.env['OPENAI_MODEL'], DEFAULT_MODEL);
  assert.equal(DEFAULT_MODEL, 'qwen3-coder-plus');
  assert.equal(inv.env['HOME'], PATHS.home);
  assert.equal(qwen.invoke(context({ env: { OPENAI_MODEL: 'other' } })).env['OPENAI_MODEL'], 'other');
});

test('interactive mode starts `-i <prompt>` in a pseudo-terminal through script', () => {
  const inv = qwen.invoke(context({ mode: 'interactive' }));
  assert.equal(inv.command, '/usr/bin/script');
  assert.deepEqual(inv.input, { kind: 'pty' });
  const shell = inv.args[inv.args.indexOf('-c') + 1]!;
  assert.ok(shell.startsWith(`${PATHS.node} /pkg/cli-entry.js -i '${PROMPT}'`), shell);
  assert.equal(inv.env['COLUMNS'], '120');
});

test("the terminal interface starts with OpenAI-compatible authentication chosen, as after the first-run dialog; a configuration's settings merge over it", () => {
  // Qwen Code 0.1.3 to 0.5.x open the "Get started" authentication dialog, and wait, while security.auth.selectedType
  // is unset.
  const settings = (over: Partial<InvocationContext>) =>
    JSON.parse(qwen.invoke(context(over)).files.get(SETTINGS)!) as Record<string, unknown>;
  assert.deepEqual(settings({ mode: 'interactive' }), { security: { auth: { selectedType: 'openai' } } });
  assert.deepEqual(
    settings({
      mode: 'interactive',
      settings: { tools: { toolSearch: { enabled: false } }, security: { folderTrust: { enabled: false } } },
    }),
    {
      security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
      tools: { toolSearch: { enabled: false } },
    },
  );
  // Headless runs take the key from the environment in every release: nothing is added.
  assert.deepEqual(settings({ mode: 'print' }), {});
});

test('a mode Qwen Code does not have is refused', () => {
  assert.throws(() => qwen.invoke(context({ mode: 'exec' })), /qwen-code has no mode exec/);
});

test('settings go to ~/.qwen/settings.json, an empty object without any', () => {
  assert.equal(qwen.invoke(context()).files.get(SETTINGS), '{}\n');
  const inv = qwen.invoke(context({ settings: { tools: { toolSearch: { enabled: false } } } }));
  assert.deepEqual(JSON.parse(inv.files.get(SETTINGS)!), { tools: { toolSearch: { enabled: false } } });
  assert.equal(inv.files.size, 1);
});

test('the matrix configurations: tool search off and code mode through settings, the stub MCP server under its name', () => {
  const configurations = loadMatrix(ROOT).agents['qwen-code'].configurations;
  const byId = new Map(configurations.map((c) => [c.id, c]));
  const settingsOf = (id: string) =>
    JSON.parse(buildInvocation('qwen-code', byId.get(id)!, '/pkg/cli-entry.js', PATHS, URL).files.get(SETTINGS)!);
  assert.deepEqual(settingsOf('no-tool-search'), { tools: { toolSearch: { enabled: false } } });
  assert.deepEqual(settingsOf('interactive-no-tool-search'), {
    security: { auth: { selectedType: 'openai' } },
    tools: { toolSearch: { enabled: false } },
  });
  assert.deepEqual(settingsOf('code-mode-only'), { tools: { codeModeOnly: true } });
  assert.deepEqual(settingsOf('mcp-server'), {
    mcpServers: { [STUB_MCP_SERVER]: { command: PATHS.node, args: [PATHS.mcpServer] } },
  });
  assert.deepEqual(buildInvocation('qwen-code', byId.get('bare')!, '/pkg/cli-entry.js', PATHS, URL).args.slice(-1), [
    '--bare',
  ]);
  assert.deepEqual(
    buildInvocation('qwen-code', byId.get('auto-edit')!, '/pkg/cli-entry.js', PATHS, URL).args.slice(-2),
    ['--approval-mode', 'auto-edit'],
  );
  for (const c of configurations) assert.ok(qwen.modes.includes(c.mode), c.id);
});

test('MCP tools are named mcp__<server>__<tool>', () => {
  assert.equal(mcpNamingOf('qwen-code')!.family, 'mcp__<server>__<tool>');
  assert.equal(mcpNamingOf('qwen-code')!.isStubServerTool('mcp__capture__echo'), true);
  assert.equal(mcpNamingOf('qwen-code')!.isStubServerTool('mcp__other__echo'), false);
  assert.equal(mcpNamingOf('qwen-code')!.isStubServerTool('read_mcp_resource'), false);
});

// Shapes of the two requests a run sends (recorded with --raw): the main turn, whose
// last user message ends with the prompt, and the memory-extraction side request.
const reminder = { type: 'text', text: '<system-reminder>\ncontext\n</system-reminder>' };
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
const chat = (json: object): WireRequest => ({
  method: 'POST',
  url: '/v1/chat/completions',
  headers: {},
  json: { model: DEFAULT_MODEL, stream: true, ...json },
});
const chatMain = chat({
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: [reminder, { type: 'text', text: PROMPT }] },
  ],
  tools: [tool('agent'), tool('read_file'), tool('tool_search')],
});
const chatMemory = chat({
  messages: [
    { role: 'user', content: [{ type: 'text', text: `${PROMPT}` }] },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: [{ type: 'text', text: '## Existing memory files\n\n(none yet)' }] },
  ],
  tools: ['read_file', 'grep_search', 'glob', 'run_shell_command', 'write_file', 'edit'].map(tool),
});

test('the main request is the prompted one with tools, not the memory-extraction request, whatever their order', () => {
  assert.equal(qwen.mainRequest([chatMain, chatMemory], PROMPT), chatMain);
  assert.equal(qwen.mainRequest([chatMemory, chatMain], PROMPT), chatMain);
  assert.equal(qwen.mainRequest([chatMain], PROMPT), chatMain);
});

test('the same choice over the Responses wire (--auth-type openai-responses)', () => {
  const responses = (input: object[], tools: string[]): WireRequest => ({
    method: 'POST',
    url: '/v1/responses',
    headers: {},
    json: {
      model: DEFAULT_MODEL,
      stream: true,
      input,
      tools: tools.map((name) => ({ type: 'function', name, parameters: { type: 'object' } })),
    },
  });
  const main = responses(
    [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: reminder.text },
          { type: 'input_text', text: PROMPT },
        ],
      },
    ],
    ['agent', 'read_file'],
  );
  const memory = responses(
    [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: '(none yet)' }] }],
    ['read_file', 'edit'],
  );
  assert.deepEqual(qwen.wires, ['openai-chat-completions', 'openai-responses']);
  assert.equal(qwen.mainRequest([memory, main], PROMPT), main);
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
  const h = qwen.hooks;
  assert.ok(!('none' in h), 'Qwen Code declares a hook mechanism');
  return h;
};

test('hooks: PreToolUse, PostToolUse and PostToolUseFailure, matcher "*", a command hook in the settings the configuration\'s are merged with', () => {
  const h = hooks();
  assert.deepEqual(h.events, ['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
  assert.deepEqual(
    [h.shape.before, h.shape.after, h.shape.afterFailure],
    ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
  );
  assert.deepEqual(
    [h.shape.toolNameField, h.shape.inputField, h.shape.responseField],
    ['tool_name', 'tool_input', 'tool_response'],
  );
  const additions = h.runAdditions(HOOK_CONTEXT);
  const group = [{ matcher: '*', hooks: [{ type: 'command', command: HOOK_CONTEXT.hookCommand, timeout: 10 }] }];
  assert.deepEqual(additions.settings, { hooks: { PreToolUse: group, PostToolUse: group, PostToolUseFailure: group } });
  assert.equal(additions.args.includes('--approval-mode'), false);
  assert.equal(additions.files.size, 0);
});

test('hooks: a call succeeded when PostToolUse fired for it; PostToolUseFailure, or no hook at all (an input the schema rejects), is a failure', () => {
  const h = hooks();
  const result = { role: 'tool', tool_call_id: 'call_stub_1', content: 'Exit Code: 3' };
  assert.equal(
    h.outcome(result, 'Exit Code: 3', [{ hook_event_name: 'PreToolUse' }, { hook_event_name: 'PostToolUseFailure' }]),
    'failure',
  );
  assert.equal(
    h.outcome(result, 'ok', [{ hook_event_name: 'PreToolUse' }, { hook_event_name: 'PostToolUse' }]),
    'success',
  );
  assert.equal(h.outcome(result, "params/findings/0 must have required property 'severity'", []), 'failure');
});

test("hooks: payloads go to calls by tool_call_id (the model's call id), not by tool_use_id (an id the CLI makes)", () => {
  const h = hooks();
  assert.ok(h.hooksOfCalls);
  const p = (event: string, call: string) => ({
    hook_event_name: event,
    tool_name: 'cron_list',
    tool_input: {},
    tool_use_id: `toolu_1796176874541_${call}`,
    tool_call_id: call,
  });
  const payloads = [
    p('PreToolUse', 'call_stub_1'),
    p('PreToolUse', 'call_nested'),
    p('PostToolUse', 'call_stub_1'),
    p('PostToolUse', 'call_nested'),
  ];
  assert.deepEqual(
    h.hooksOfCalls(payloads, [
      { id: 'call_stub_1', tool: 'cron_list', input: {} },
      { id: 'call_stub_2', tool: 'cron_list', input: {} },
    ]),
    [[payloads[0], payloads[2]], []],
  );
});
