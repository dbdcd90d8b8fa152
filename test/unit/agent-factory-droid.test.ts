/**
 * The Factory Droid module: how a configuration is run (command line, the files a custom model
 * and an MCP server are declared in) and how its reminder of deferred tools is read. The
 * expected values are written from Factory's own formats (`customModels` entries with
 * `provider`, `baseUrl`; `droid exec -m custom:<model>`) and from a reminder as 0.225.2 sent
 * it, not from the module.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENTS, capturedTools, unannouncedTexts, type InvocationContext } from '../../src/lib/agents/index.ts';
import { baseEnv, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';
import type { CaptureFile } from '../../src/lib/wire/types.ts';

const PATHS: RunPaths = { home: '/d/home', workdir: '/d/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const droid = AGENTS['factory-droid'];

function context(over: Partial<InvocationContext> = {}): InvocationContext {
  return {
    mode: 'print',
    args: [],
    env: {},
    baseEnv: baseEnv(PATHS.home),
    binary: '/pkg/droid',
    node: PATHS.node,
    home: PATHS.home,
    workdir: PATHS.workdir,
    stubUrl: URL,
    prompt: PROMPT,
    apiKey: DUMMY_KEY,
    ...over,
  };
}

test('`droid exec`, the Chat Completions model unless the configuration names one, its arguments, then the prompt', () => {
  assert.deepEqual(droid.invoke(context({ args: ['--auto', 'high'] })).args, [
    'exec',
    '-m',
    'custom:stub-model',
    '--auto',
    'high',
    PROMPT,
  ]);
  assert.deepEqual(droid.invoke(context({ args: ['-m', 'custom:stub-model-anthropic'] })).args, [
    'exec',
    '-m',
    'custom:stub-model-anthropic',
    PROMPT,
  ]);
  assert.deepEqual(droid.invoke(context()).input, { kind: 'argument' });
  assert.throws(() => droid.invoke(context({ mode: 'interactive' })), /no mode interactive/);
});

test("settings.json declares one custom model per provider at the stub; mcp.json takes the configuration's servers", () => {
  const inv = droid.invoke(context({ settings: { mcpServers: { capture: { type: 'stdio', command: '$NODE' } } } }));
  const settings = JSON.parse(inv.files.get(join(PATHS.home, '.factory/settings.json'))!) as {
    customModels: Record<string, unknown>[];
  };
  const byProvider = Object.fromEntries(settings.customModels.map((m) => [m['provider'], m]));
  assert.deepEqual(Object.keys(byProvider).sort(), ['anthropic', 'generic-chat-completion-api']);
  assert.equal(byProvider['generic-chat-completion-api']!['baseUrl'], `${URL}/v1`);
  assert.equal(byProvider['generic-chat-completion-api']!['model'], 'stub-model');
  // The Anthropic client adds /v1/messages itself.
  assert.equal(byProvider['anthropic']!['baseUrl'], URL);
  for (const m of settings.customModels) assert.equal(m['apiKey'], DUMMY_KEY);
  assert.deepEqual(JSON.parse(inv.files.get(join(PATHS.home, '.factory/mcp.json'))!), {
    mcpServers: { capture: { type: 'stdio', command: '$NODE' } },
  });
  assert.deepEqual(JSON.parse(droid.invoke(context()).files.get(join(PATHS.home, '.factory/mcp.json'))!), {
    mcpServers: {},
  });
});

const REMINDER =
  '<system-reminder>\nThe tools listed below are available in this environment, but their schemas may be omitted from the current tool list to save context.\n' +
  'Load a listed tool with ToolSearch: pass query "select:<name>[,<name>...]" with the exact names listed below.\n\nDeferred tools:\nWebSearch\nFetchUrl\n</system-reminder>';
const CONNECTORS =
  "<system-reminder>\nConnector tools let you act on the user's connected external apps through the ConnectorSearch tool.\n</system-reminder>";

function capture(texts: string[]): CaptureFile {
  return {
    agent: 'factory-droid',
    cli: { package: '@factory/cli-linux-x64', version: '0.0.0' },
    configuration: 'exec',
    request: { method: 'POST', path: '/v1/chat/completions' },
    body: {
      model: 'stub-model',
      tools: [
        {
          type: 'function',
          function: {
            name: 'ToolSearch',
            description: 'Load schemas for deferred tools.',
            parameters: { type: 'object', properties: { query: { type: 'string' } } },
          },
        },
      ],
      messages: [{ role: 'user', content: texts.map((text) => ({ type: 'text', text })) }],
    },
  } as unknown as CaptureFile;
}

test('the tools its reminder names become deferred tools, pointing at the reminder; other texts are refused in a capture', () => {
  const file = capture([REMINDER]);
  const tools = capturedTools(file);
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery]),
    [
      ['ToolSearch', 'function'],
      ['WebSearch', 'deferred'],
      ['FetchUrl', 'deferred'],
    ],
  );
  assert.equal(tools[1]!.pointer, '/body/messages/0/content/0/text');
  assert.deepEqual(unannouncedTexts(file), []);
  assert.deepEqual(
    unannouncedTexts(capture([REMINDER, CONNECTORS])).map((t) => t.at),
    ['/body/messages/0/content/1/text'],
  );
  // A reminder cut short is no whole passage either.
  assert.equal(unannouncedTexts(capture([REMINDER.slice(0, -20)])).length, 1);
});
