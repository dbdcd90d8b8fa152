/**
 * The Pi module: how a configuration is run (command line, the models.json its custom providers
 * are declared in) and the recording extension, run here as pi would run it: its default export
 * is called with an object whose `on` registers handlers, which are then handed events. Expected
 * values come from pi's own formats (docs/models.md `providers.<name>.{baseUrl, api, apiKey,
 * models}`; docs/extensions.md `pi.on(event, handler)`), not from the module.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AGENTS, type InvocationContext } from '../../src/lib/agents/index.ts';
import { recorderExtension } from '../../src/lib/agents/pi.ts';
import { baseEnv, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';

const PATHS: RunPaths = { home: '/p/home', workdir: '/p/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const pi = AGENTS.pi;

function context(over: Partial<InvocationContext> = {}): InvocationContext {
  return {
    mode: 'print',
    args: [],
    env: {},
    baseEnv: baseEnv(PATHS.home),
    binary: '/pkg/dist/cli.js',
    node: PATHS.node,
    home: PATHS.home,
    workdir: PATHS.workdir,
    stubUrl: URL,
    prompt: PROMPT,
    apiKey: DUMMY_KEY,
    ...over,
  };
}

test('`node cli.js`, the Chat Completions provider unless the configuration names a model, its arguments, then -p and the prompt', () => {
  const inv = pi.invoke(context({ args: ['--tools', 'read,ls'] }));
  assert.equal(inv.command, PATHS.node);
  assert.deepEqual(inv.args, ['/pkg/dist/cli.js', '--model', 'stub/stub-model', '--tools', 'read,ls', '-p', PROMPT]);
  assert.deepEqual(pi.invoke(context({ args: ['--model', 'stub-anthropic/stub-model'] })).args, [
    '/pkg/dist/cli.js',
    '--model',
    'stub-anthropic/stub-model',
    '-p',
    PROMPT,
  ]);
});

test('models.json declares a provider per API pi takes, each at the stub where its client sends requests', () => {
  const models = JSON.parse(pi.invoke(context()).files.get(join(PATHS.home, '.pi/agent/models.json'))!) as {
    providers: Record<string, { baseUrl: string; api: string; apiKey: string; models: { id: string }[] }>;
  };
  const byApi = Object.fromEntries(Object.entries(models.providers).map(([name, p]) => [p.api, { name, ...p }]));
  // The four values of `api` pi's docs/models.md lists.
  assert.deepEqual(Object.keys(byApi).sort(), [
    'anthropic-messages',
    'google-generative-ai',
    'openai-completions',
    'openai-responses',
  ]);
  assert.equal(byApi['openai-completions']!.name, 'stub');
  assert.equal(byApi['openai-completions']!.baseUrl, `${URL}/v1`);
  assert.equal(byApi['anthropic-messages']!.baseUrl, URL);
  assert.equal(byApi['google-generative-ai']!.baseUrl, `${URL}/v1beta`);
  for (const p of Object.values(byApi))
    assert.deepEqual([p.apiKey, p.models.map((m) => m.id)], [DUMMY_KEY, ['stub-model']]);
});

test('the recording extension registers a handler for each tool event, logs each event it is handed, and runs an answer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pi-ext-'));
  const log = join(dir, 'hooks.log');
  const file = join(dir, 'record-hooks.mjs');
  writeFileSync(file, recorderExtension(log, { event: 'tool_call', script: "return { block: true, reason: 'no' };" }));
  const handlers = new Map<string, (event: unknown) => Promise<unknown>>();
  const mod = (await import(pathToFileURL(file).href)) as {
    default: (api: { on(event: string, handler: (event: unknown) => Promise<unknown>): void }) => void;
  };
  mod.default({ on: (event, handler) => handlers.set(event, handler) });
  assert.deepEqual([...handlers.keys()], ['tool_call', 'tool_result']);
  const call = { type: 'tool_call', toolName: 'bash', toolCallId: 'call_1', input: { command: 'ls' } };
  assert.deepEqual(await handlers.get('tool_call')!(call), { block: true, reason: 'no' });
  assert.equal(
    await handlers.get('tool_result')!({ type: 'tool_result', toolName: 'bash', toolCallId: 'call_1', isError: false }),
    undefined,
  );
  const records = readFileSync(log, 'utf8')
    .split('\x1e')
    .filter((r) => r !== '')
    .map((r) => JSON.parse(r) as { type: string });
  assert.deepEqual(
    records.map((r) => r.type),
    ['tool_call', 'tool_result'],
  );
  assert.deepEqual(records[0], call);
  assert.equal(readFileSync(`${log}.answered`, 'utf8'), 'tool_call\n');
  // Without an answer nothing is answered.
  const plain = join(dir, 'plain.mjs');
  writeFileSync(plain, recorderExtension(join(dir, 'plain.log')));
  const quiet = new Map<string, (event: unknown) => Promise<unknown>>();
  (
    (await import(pathToFileURL(plain).href)) as {
      default: (api: { on(e: string, h: (event: unknown) => Promise<unknown>): void }) => void;
    }
  ).default({ on: (e, h) => quiet.set(e, h) });
  assert.equal(await quiet.get('tool_call')!(call), undefined);
  assert.equal(existsSync(join(dir, 'plain.log.answered')), false);
});
