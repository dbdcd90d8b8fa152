/**
 * The Letta Code module: how a configuration is run (the local backend, the provider file at the
 * stub, the model handle) and how its hook payloads are read. The expected values are written from
 * Letta Code's own formats (the provider records `letta connect` writes to
 * ~/.letta/lc-local-backend/providers/auth.json; hooks under `hooks` in ~/.letta/settings.json; the
 * payloads 0.25.9 sent), not from the module.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENTS, type InvocationContext } from '../../src/lib/agents/index.ts';
import { baseEnv, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';

const PATHS: RunPaths = { home: '/d/home', workdir: '/d/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const letta = AGENTS['letta-code'];

function context(over: Partial<InvocationContext> = {}): InvocationContext {
  return {
    mode: 'print',
    args: [],
    env: {},
    baseEnv: baseEnv(PATHS.home),
    binary: '/pkg/letta.js',
    node: PATHS.node,
    home: PATHS.home,
    workdir: PATHS.workdir,
    stubUrl: URL,
    prompt: PROMPT,
    apiKey: DUMMY_KEY,
    ...over,
  };
}

test('headless on the local backend: the Ollama model unless the configuration names one, its arguments, then -p and the prompt', () => {
  const inv = letta.invoke(context({ args: ['--yolo'] }));
  assert.equal(inv.command, PATHS.node);
  assert.deepEqual(inv.args, [
    '/pkg/letta.js',
    '--backend',
    'local',
    '-m',
    'ollama/stub-model',
    '--yolo',
    '-p',
    PROMPT,
  ]);
  assert.deepEqual(letta.invoke(context({ args: ['-m', 'openai/gpt-5.5'] })).args, [
    '/pkg/letta.js',
    '--backend',
    'local',
    '-m',
    'openai/gpt-5.5',
    '-p',
    PROMPT,
  ]);
  assert.deepEqual(inv.input, { kind: 'argument' });
  assert.equal(inv.env['OLLAMA_BASE_URL'], `${URL}/v1`);
  assert.equal(inv.env['LETTA_CODE_TELEM'], '0');
  assert.ok(inv.stubReplies?.['GET /v1/models']);
  assert.throws(() => letta.invoke(context({ mode: 'interactive' })), /no mode interactive/);
});

test('the provider file declares Ollama and OpenAI at <stub>/v1 and Anthropic at the stub origin, each with the stand-in key', () => {
  const inv = letta.invoke(context());
  const file = JSON.parse(inv.files.get(join(PATHS.home, '.letta/lc-local-backend/providers/auth.json'))!) as {
    version: number;
    providers: Record<string, { name: string; provider_type: string; base_url: string; auth: unknown }>;
  };
  assert.equal(file.version, 1);
  const byName = Object.fromEntries(
    Object.entries(file.providers).map(([k, p]) => [k, [p.name, p.provider_type, p.base_url]]),
  );
  assert.deepEqual(byName, {
    'lc-ollama': ['lc-ollama', 'ollama', `${URL}/v1`],
    'lc-openai': ['lc-openai', 'openai', `${URL}/v1`],
    'lc-anthropic': ['lc-anthropic', 'anthropic', URL],
  });
  for (const p of Object.values(file.providers)) assert.deepEqual(p.auth, { type: 'api', key: DUMMY_KEY });
});

test('a payload run adds --yolo and hooks in ~/.letta/settings.json with no timeout (it reads one in milliseconds)', () => {
  const hooks = letta.hooks;
  assert.ok(!('none' in hooks));
  const add = hooks.runAdditions({
    home: PATHS.home,
    tmp: '/d/tmp',
    hookCommand: 'record',
    taggedHookCommand: () => 'record',
    hookLog: '/d/log',
    allowedTools: [],
  });
  assert.deepEqual(add.args, ['--yolo']);
  const settings = JSON.parse(add.files.get(join(PATHS.home, '.letta/settings.json'))!) as {
    hooks: Record<string, unknown>;
  };
  const entry = [{ matcher: '*', hooks: [{ type: 'command', command: 'record' }] }];
  assert.deepEqual(settings.hooks, { PreToolUse: entry, PostToolUse: entry, PostToolUseFailure: entry });
});

test('outcome: a PostToolUse whose status is success, and no PostToolUseFailure; payloads go to their call id, also as <id>|<item>', () => {
  const hooks = letta.hooks;
  assert.ok(!('none' in hooks));
  const pre = { event_type: 'PreToolUse', tool_name: 'Bash', tool_call_id: 'call_stub_1' };
  const ok = {
    event_type: 'PostToolUse',
    tool_call_id: 'call_stub_1',
    tool_result: { status: 'success', output: 'hi' },
  };
  const bad = {
    event_type: 'PostToolUse',
    tool_call_id: 'call_stub_1',
    tool_result: { status: 'error', output: 'no' },
  };
  const failure = { event_type: 'PostToolUseFailure', tool_call_id: 'call_stub_1', error_message: 'no' };
  assert.equal(hooks.outcome({}, '', [pre, ok]), 'success');
  assert.equal(hooks.outcome({}, '', [pre, bad, failure]), 'failure');
  assert.equal(hooks.outcome({}, '', [pre, bad]), 'failure');
  assert.equal(hooks.outcome({}, '', [pre]), 'failure');
  const responses = { event_type: 'PreToolUse', tool_call_id: 'call_stub_2|fc_stub' };
  const other = { event_type: 'PreToolUse', tool_call_id: 'call_stub_20' };
  assert.deepEqual(
    hooks.hooksOfCalls!(
      [pre, responses, other],
      [
        { id: 'call_stub_1', tool: 'Bash', input: {} },
        { id: 'call_stub_2', tool: 'UpdatePlan', input: {} },
      ],
    ),
    [[pre], [responses]],
  );
});
