/**
 * The agent modules of Cline CLI and Kilo Code CLI: how a configuration is run (command line,
 * files, environment) and which recorded request is the main one. Expected values are written
 * from what each CLI's own setup leaves (Cline's `cline auth`, Kilo's kilo.json), not from the
 * modules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENTS, type InvocationContext } from '../../src/lib/agents/index.ts';
import { baseEnv, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';
import type { WireRequest } from '../../src/lib/wire/types.ts';

const PATHS: RunPaths = { home: '/c/home', workdir: '/c/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';

function context(binary: string, over: Partial<InvocationContext> = {}): InvocationContext {
  return {
    mode: 'print',
    args: [],
    env: {},
    baseEnv: baseEnv(PATHS.home),
    binary,
    node: PATHS.node,
    home: PATHS.home,
    workdir: PATHS.workdir,
    stubUrl: URL,
    prompt: PROMPT,
    apiKey: DUMMY_KEY,
    ...over,
  };
}

const chat = (json: unknown): WireRequest => ({ method: 'POST', url: '/v1/chat/completions', headers: {}, json });
const tool = { type: 'function', function: { name: 'read_files', parameters: { type: 'object' } } };

test("Cline: the prompt is its one positional argument, after the configuration's; the providers file is what `cline auth -p openai` writes", () => {
  const inv = AGENTS.cline.invoke(context('/pkg/node_modules/cline/bin/cline', { args: ['--plan'] }));
  assert.equal(inv.command, '/pkg/node_modules/cline/bin/cline');
  assert.deepEqual(inv.args, ['--plan', PROMPT]);
  assert.deepEqual(inv.input, { kind: 'argument' });
  const providers = JSON.parse(inv.files.get(join(PATHS.home, '.cline/data/settings/providers.json'))!) as Record<
    string,
    unknown
  >;
  // The keys `cline auth -p openai -k <key> -m stub-model -b <url>/v1` wrote in 3.0.65 (its time aside).
  assert.deepEqual(providers['lastUsedProvider'], 'openai-compatible');
  assert.deepEqual((providers['providers'] as Record<string, { settings: unknown }>)['openai-compatible']!.settings, {
    provider: 'openai-compatible',
    apiKey: DUMMY_KEY,
    model: 'stub-model',
    baseUrl: `${URL}/v1`,
  });
  assert.deepEqual(JSON.parse(inv.files.get(join(PATHS.home, '.cline/data/settings/cline_mcp_settings.json'))!), {
    mcpServers: {},
  });
  const withServer = AGENTS.cline.invoke(
    context('/b', { settings: { mcpServers: { capture: { command: '$NODE' } } } }),
  );
  assert.deepEqual(
    JSON.parse(withServer.files.get(join(PATHS.home, '.cline/data/settings/cline_mcp_settings.json'))!),
    { mcpServers: { capture: { command: '$NODE' } } },
  );
});

test("Kilo Code: `kilo run`, the configuration's arguments, the prompt word by word; kilo.json points a provider at the stub; no catalogue fetch, no update", () => {
  const inv = AGENTS['kilo-code'].invoke(context('/pkg/kilo', { args: ['--agent', 'plan'] }));
  assert.deepEqual(inv.args.slice(0, 3), ['run', '--agent', 'plan']);
  assert.equal(inv.args.slice(3).join(' '), PROMPT);
  const settings = JSON.parse(inv.files.get(join(PATHS.home, '.config/kilo/kilo.json'))!) as {
    model: string;
    provider: Record<string, { options: { baseURL: string } }>;
  };
  assert.equal(settings.model, 'stub/stub-model');
  assert.equal(settings.provider['stub']!.options.baseURL, `${URL}/v1`);
  assert.equal(inv.env['KILO_DISABLE_MODELS_FETCH'], '1');
  assert.equal(inv.env['KILO_DISABLE_AUTOUPDATE'], '1');
  assert.equal(inv.endAfterTurn, true);
});

test('both: the main request is the one with tools whose last user text holds the prompt, wrapped as each CLI wraps it', () => {
  const title = chat({ stream: true, messages: [{ role: 'user', content: `Generate a title for: ${PROMPT}` }] });
  const wrapped = chat({
    stream: true,
    tools: [tool],
    messages: [
      { role: 'system', content: 's' },
      { role: 'user', content: [{ type: 'text', text: `<user_input mode="act">${PROMPT}</user_input>` }] },
    ],
  });
  const withContext = chat({
    stream: true,
    tools: [tool],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: PROMPT },
          { type: 'text', text: '<environment_details>\nWorking directory: /w\n</environment_details>' },
        ],
      },
    ],
  });
  const other = chat({ stream: true, tools: [tool], messages: [{ role: 'user', content: 'something else' }] });
  for (const id of ['cline', 'kilo-code'] as const) {
    const agent = AGENTS[id];
    assert.equal(agent.answersPrompt!(title, PROMPT), false, `${id}: a request without tools is no turn`);
    assert.equal(agent.answersPrompt!(other, PROMPT), false, `${id}: a request without the prompt is no turn`);
    assert.equal(
      agent.answersPrompt!(chat({ ...(wrapped.json as object), stream: false }), PROMPT),
      false,
      `${id}: only a streaming request`,
    );
  }
  assert.equal(AGENTS.cline.mainRequest([title, other, wrapped], PROMPT), wrapped);
  assert.equal(AGENTS['kilo-code'].mainRequest([title, other, withContext], PROMPT), withContext);
});
