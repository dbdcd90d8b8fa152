import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  extraToolCount,
  handle,
  MAX_EXTRA_TOOLS,
  numberedTool,
  toolList,
} from '../../scripts/lib/capture/mcp-server.ts';

const SERVER = join(import.meta.dirname, '../../scripts/lib/capture/mcp-server.ts');

const listed = (reply: unknown): string[] =>
  (reply as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);

/** Runs the real server over stdio with `env`, sends `lines`, and returns its replies. */
function talk(env: Record<string, string>, lines: object[]): { status: number | null; replies: any[]; stderr: string } {
  const run = spawnSync(process.execPath, [SERVER], {
    input: lines.map((l) => JSON.stringify(l) + '\n').join(''),
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  const replies = run.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return { status: run.status, replies, stderr: run.stderr };
}

test('without CAPTURE_MCP_TOOLS the server offers exactly `echo`, byte for byte as before', () => {
  const reply = handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.deepEqual(listed(reply), ['echo']);
  assert.deepEqual(reply, handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 0));
  assert.deepEqual(toolList(), toolList(0));
  assert.equal(
    JSON.stringify(toolList()[0]),
    JSON.stringify({
      name: 'echo',
      title: 'Echo',
      description: 'Returns the given text unchanged.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'Text to return.' } },
        required: ['text'],
        additionalProperties: false,
      },
    }),
  );
  for (const unset of [undefined, '', '  ', '0']) assert.equal(extraToolCount(unset), 0, JSON.stringify(unset));
});

test("CAPTURE_MCP_TOOLS=N adds N numbered tools after `echo`, each with echo's input schema", () => {
  assert.equal(extraToolCount('20'), 20);
  assert.equal(extraToolCount(' 3 '), 3);
  const tools = toolList(12);
  assert.equal(tools.length, 13);
  assert.deepEqual(
    tools.map((t) => t.name),
    ['echo', ...Array.from({ length: 12 }, (_, i) => `tool_${String(i + 1).padStart(2, '0')}`)],
  );
  assert.equal(new Set(tools.map((t) => t.description)).size, 13, 'descriptions tell the tools apart');
  for (const t of tools.slice(1)) assert.deepEqual(t.inputSchema, tools[0]!.inputSchema);
  assert.equal(
    numberedTool(7).description,
    'Numbered extra tool 7 of the capture stub; returns the given text unchanged.',
  );
  assert.equal(numberedTool(MAX_EXTRA_TOOLS).name, `tool_${MAX_EXTRA_TOOLS}`);
  assert.deepEqual(listed(handle({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, 2)), ['echo', 'tool_01', 'tool_02']);
  // A numbered tool answers like echo.
  assert.equal(
    (
      handle(
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'tool_02', arguments: { text: 'hi' } } },
        2,
      ) as any
    ).result.content[0].text,
    'hi',
  );
});

test('a CAPTURE_MCP_TOOLS that is not an integer from 0 to the maximum is refused', () => {
  for (const bad of ['-1', '1.5', 'ten', '0x10', String(MAX_EXTRA_TOOLS + 1)]) {
    assert.throws(() => extraToolCount(bad), /CAPTURE_MCP_TOOLS must be an integer from 0 to 99/, bad);
  }
});

test('the server process reads CAPTURE_MCP_TOOLS from its environment, and exits with a message on a bad value', () => {
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  const plain = talk({}, messages);
  assert.equal(plain.status, 0, plain.stderr);
  assert.deepEqual(listed(plain.replies.find((r) => r.id === 2)), ['echo']);
  const many = talk({ CAPTURE_MCP_TOOLS: '15' }, messages);
  assert.equal(many.status, 0, many.stderr);
  const names = listed(many.replies.find((r) => r.id === 2));
  assert.equal(names.length, 16);
  assert.deepEqual([names[0], names[15]], ['echo', 'tool_15']);
  const bad = talk({ CAPTURE_MCP_TOOLS: 'many' }, messages);
  assert.equal(bad.status, 2);
  assert.deepEqual(bad.replies, []);
  assert.match(bad.stderr, /capture MCP server: CAPTURE_MCP_TOOLS must be an integer/);
});
