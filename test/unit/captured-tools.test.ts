import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CaptureFormatError, type CaptureFile } from '../../src/lib/wire/index.ts';
import { capturedNamespaces, capturedTools } from '../../src/lib/agents/index.ts';
import { indexCaptured } from '../../src/lib/model/captures.ts';
import { parseCodeModeDescription } from '../../src/lib/wire/code-mode.ts';
import { QUIRKS } from '../helpers/quirks.ts';
import { fieldRows } from '../../src/lib/shapes/field-rows.ts';
import { shapeFromTypeScript } from '../../src/lib/shapes/ts-shape.ts';

const capture = (agent: string, path: string, body: Record<string, unknown>): CaptureFile => ({
  agent,
  cli: { package: 'fixture-cli', version: '1.0.0' },
  configuration: 'fixture',
  request: { method: 'POST', path },
  body,
});

const EXEC_DESCRIPTION = [
  'Run JavaScript.',
  '',
  'Shared MCP Types:',
  '```ts',
  'type Role = "user" | "assistant";',
  'type TextContent = { type: "text"; text: string; role?: Role };',
  '```',
  '',
  '### `exec_command`',
  'Runs a command.',
  '',
  'exec tool declaration:',
  '```ts',
  'declare const tools: { exec_command(args: {',
  '  // Shell command to execute.',
  '  cmd: string;',
  '  yield_time_ms?: number;',
  '}): Promise<{',
  '  // Command output text.',
  '  output: string;',
  '  content?: TextContent[];',
  '}>; };',
  '```',
  '',
  '### `clock__curr_time`',
  'Return the current time.',
  '',
  'exec tool declaration:',
  '```ts',
  'declare const tools: { clock__curr_time(args: {}): Promise<{ current_time: string }>; };',
  '```',
].join('\n');

test('Responses: function, custom grammar, client built-in and hosted tools at the top level', () => {
  const tools = capturedTools(
    capture('codex', '/v1/responses', {
      model: 'm',
      tools: [
        {
          type: 'function',
          name: 'write_stdin',
          description: 'Writes.',
          strict: false,
          parameters: { type: 'object', properties: { session_id: { type: 'number' } }, required: ['session_id'] },
        },
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Patch.',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
        },
        {
          type: 'tool_search',
          execution: 'client',
          description: 'Find tools.',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
        },
        { type: 'web_search', external_web_access: false, search_content_types: ['text'] },
      ],
    }),
  );
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery, t.input.kind]),
    [
      ['write_stdin', 'function', 'json-schema'],
      ['apply_patch', 'custom', 'grammar'],
      ['tool_search', 'client-builtin', 'json-schema'],
      ['web_search', 'hosted', 'unavailable'],
    ],
  );
  assert.deepEqual(tools[0]!.settings, { strict: false });
  assert.deepEqual(tools[3]!.settings, {
    type: 'web_search',
    external_web_access: false,
    search_content_types: ['text'],
  });
  assert.equal(tools[1]!.input.kind === 'grammar' && tools[1]!.input.syntax, 'lark');
});

test('Responses: namespaces in an additional_tools item keep their name, except the default `functions`', () => {
  const tools = capturedTools(
    capture('codex', '/v1/responses', {
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [] },
        {
          type: 'additional_tools',
          id: 'at_x',
          tools: [
            {
              type: 'namespace',
              name: 'functions',
              description: '',
              tools: [
                {
                  type: 'function',
                  name: 'wait',
                  description: 'Wait.',
                  parameters: { type: 'object', properties: {} },
                },
              ],
            },
            {
              type: 'namespace',
              name: 'multi_agent_v1',
              description: 'Agents.',
              tools: [
                {
                  type: 'function',
                  name: 'spawn_agent',
                  description: 'Spawn.',
                  parameters: { type: 'object', properties: { message: { type: 'string' } } },
                },
              ],
            },
          ],
        },
      ],
    }),
  );
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.name, t.namespace]),
    [
      ['wait', 'wait', undefined],
      ['multi_agent_v1.spawn_agent', 'spawn_agent', 'multi_agent_v1'],
    ],
  );
});

test('code mode: nested tools come from the TypeScript in exec, with their results', () => {
  const tools = capturedTools(
    capture('codex', '/v1/responses', {
      model: 'm',
      input: [
        {
          type: 'additional_tools',
          tools: [
            {
              type: 'namespace',
              name: 'functions',
              tools: [
                {
                  type: 'custom',
                  name: 'exec',
                  description: EXEC_DESCRIPTION,
                  format: { type: 'grammar', syntax: 'lark', definition: 'start: SOURCE' },
                },
              ],
            },
          ],
        },
      ],
    }),
  );
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery]),
    [
      ['exec', 'custom'],
      ['exec_command', 'code-mode'],
      ['clock.curr_time', 'code-mode'],
    ],
  );
  const exec = tools[1]!;
  assert.equal(exec.description, 'Runs a command.');
  assert.ok(exec.input.kind === 'typescript' && exec.output.kind === 'typescript');
  const input = fieldRows(shapeFromTypeScript(exec.input.source, exec.input.typeName), { root: 'input' });
  assert.deepEqual(
    input.map((r) => [r.id, r.required, r.description]),
    [
      ['input.cmd', true, 'Shell command to execute.'],
      ['input.yield_time_ms', false, undefined],
    ],
  );
  const output = fieldRows(shapeFromTypeScript(exec.output.source, exec.output.typeName), { root: 'output' });
  assert.deepEqual(
    output.map((r) => r.id),
    ['output.output', 'output.content', 'output.content.type', 'output.content.text', 'output.content.role'],
  );
  assert.match(exec.output.source, /type TextContent/, 'shared declarations the result refers to are included');
  assert.doesNotMatch(exec.input.source, /TextContent/, 'and only those');
});

test("code mode in Qwen Code's form: `tools.name(` lines after shared types, names and descriptions from ALL_TOOLS", () => {
  const description = [
    'Execute JavaScript.',
    '',
    "type ImageContent = { type: 'image'; data: string };",
    'type CodeModeToolResult = { callId: string; output: string; content?: ImageContent[] };',
    'type Hit = { file: string; line: number };',
    'tools.grep_search(args: { "pattern": string; "limit"?: number /* min 1 */ }): Promise<CodeModeToolResult>;',
    'tools.find_hits(args: { "query": string }): Promise<Hit[]>;',
    '',
    'const ALL_TOOLS = [{"name":"grep_search","jsName":"grep_search","description":"Searches.","deferred":false},{"name":"find-hits","jsName":"find_hits","description":"Finds.","deferred":true}] as const;',
  ].join('\n');
  const nested = parseCodeModeDescription(description, QUIRKS.qwen.codeMode!);
  assert.deepEqual(
    nested.map((t) => [t.identifier, t.name, t.description, t.input.typeName]),
    [
      ['grep_search', undefined, 'Searches.', 'GrepSearchInput'],
      ['find_hits', 'find-hits', 'Finds.', 'FindHitsInput'],
    ],
  );
  assert.equal(nested[0]!.result, undefined, 'the CodeModeToolResult envelope is not a result type');
  assert.deepEqual(nested[1]!.result, {
    typeName: 'FindHitsResult',
    source: 'type Hit = { file: string; line: number };\ntype FindHitsResult = Hit[];\n',
  });
  const input = fieldRows(shapeFromTypeScript(nested[0]!.input.source, nested[0]!.input.typeName), { root: 'input' });
  assert.deepEqual(
    input.map((r) => [r.id, r.required]),
    [
      ['input.pattern', true],
      ['input.limit', false],
    ],
  );
  assert.doesNotMatch(nested[0]!.input.source, /ImageContent|Hit/, 'only the declarations the input refers to');
  const tools = capturedTools(
    capture('qwen-code', '/v1/chat/completions', {
      model: 'm',
      tools: [{ type: 'function', function: { name: 'exec', description, parameters: { type: 'object' } } }],
    }),
  );
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery, t.output.kind]),
    [
      ['exec', 'function', 'unavailable'],
      ['grep_search', 'code-mode', 'unavailable'],
      ['find-hits', 'code-mode', 'typescript'],
    ],
  );
  assert.throws(
    () =>
      parseCodeModeDescription(
        `${description}\nMore prose.\ntools.late(args: {}): Promise<CodeModeToolResult>;`,
        QUIRKS.qwen.codeMode!,
      ),
    /apart from the others/,
  );
});

test('code mode declarations that do not parse are refused', () => {
  assert.throws(
    () =>
      parseCodeModeDescription(
        '```ts\ndeclare const tools: { x(args: {): Promise<unknown>; };\n```',
        QUIRKS.codex.codeMode!,
      ),
    /does not parse/,
  );
});

test('Messages: tools with input_schema, server tools, and deferred tools named in a system message', () => {
  const tools = capturedTools(
    capture('claude-code', '/v1/messages', {
      model: 'm',
      tools: [
        {
          name: 'Read',
          description: 'Reads.',
          input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
        },
        {
          name: 'DeferredToolPlaceholder',
          description: 'never call',
          input_schema: { type: 'object' },
          defer_loading: true,
        },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
      ],
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: 'The following deferred tools are now available via ToolSearch. Use ToolSearch:\nCronCreate\nTaskStop\n\nOther text',
            },
          ],
        },
      ],
    }),
  );
  assert.deepEqual(
    tools.map((t) => [t.fullName, t.delivery, t.input.kind]),
    [
      ['Read', 'function', 'json-schema'],
      ['web_search', 'hosted', 'unavailable'],
      ['CronCreate', 'deferred', 'unavailable'],
      ['TaskStop', 'deferred', 'unavailable'],
    ],
  );
});

test('an unknown wire format or a malformed tool is a clear error', () => {
  assert.throws(
    () => capturedTools(capture('codex', '/v1/embeddings', {})),
    (e: Error) =>
      e instanceof CaptureFormatError && /unknown wire format/.test(e.message) && e.pointer === '/request/path',
  );
  assert.throws(
    () => capturedTools(capture('codex', '/v1/responses', { tools: [{ type: 'function' }] })),
    (e: Error) =>
      e instanceof CaptureFormatError && /function tool has no name/.test(e.message) && e.pointer === '/body/tools/0',
  );
  assert.throws(
    () => capturedTools(capture('codex', '/v1/responses', { tools: {} })),
    (e: Error) => e instanceof CaptureFormatError && /not an array/.test(e.message) && e.pointer === '/body/tools',
  );
  assert.throws(
    () => capturedTools(capture('claude-code', '/v1/messages', { tools: [{ name: 'Read', input_schema: [] }] })),
    (e: Error) => e instanceof CaptureFormatError && e.pointer === '/body/tools/0/input_schema' && e.tool === 'Read',
  );
});

// Real request bodies recorded from the pinned CLIs (see scripts/capture.ts).
const RAW = join(import.meta.dirname, '../fixtures/captures/raw');
/** The agent a raw fixture's name begins with, and the path its request was sent to. */
const RAW_PATHS: [string, string][] = [
  ['codex', '/v1/responses'],
  ['claude-code', '/v1/messages'],
  ['qwen-code-responses', '/v1/responses'],
  ['qwen-code', '/v1/chat/completions'],
  ['opencode', '/v1/chat/completions'],
  ['copilot-cli', '/v1/chat/completions'],
  ['gemini-cli', '/v1beta/models/gemini-3.8-flash:streamGenerateContent'],
];
const rawFixtures = existsSync(RAW) ? readdirSync(RAW).filter((f) => f.endsWith('.json')) : [];

test('real request bodies of every wire format yield their tools', () => {
  assert.ok(
    rawFixtures.some((f) => f.startsWith('codex')) && rawFixtures.some((f) => f.startsWith('claude-code')),
    'raw fixtures of both agents',
  );
  const byFile = new Map<string, string[]>();
  for (const file of rawFixtures) {
    const [agent, path] =
      RAW_PATHS.find(([prefix]) => file.startsWith(`${prefix}-`)) ??
      assert.fail(`${file}: no request path for its agent`);
    const body = JSON.parse(readFileSync(join(RAW, file), 'utf8'));
    // Gemini CLI's routing call carries no tools: it is a fixture of the stub's replies, not of extraction.
    if (file.endsWith('-routing.json')) continue;
    // The agent whose quirks read it: `qwen-code-responses-…` is Qwen Code's.
    const tools = capturedTools(capture(agent.replace(/-responses$/, ''), path, body.body ?? body));
    assert.ok(tools.length >= 3, `${file}: only ${tools.length} tools`);
    assert.equal(new Set(tools.map((t) => t.fullName)).size, tools.length, `${file}: a tool is listed twice`);
    byFile.set(
      file,
      tools.map((t) => `${t.fullName}:${t.delivery}`),
    );
  }
  // Top-level tools (gpt-5.5), additional_tools with code mode (default model), namespaces (unknown model), deferred names (print).
  assert.ok(byFile.get('codex-gpt-5-5.json')!.includes('write_stdin:function'));
  assert.ok(byFile.get('codex-gpt-5-5.json')!.includes('apply_patch:custom'));
  assert.ok(byFile.get('codex-gpt-5-5.json')!.includes('web_search:hosted'));
  assert.ok(byFile.get('codex-default-model.json')!.includes('exec:custom'));
  assert.ok(byFile.get('codex-default-model.json')!.includes('exec_command:code-mode'));
  assert.ok(byFile.get('codex-default-model.json')!.includes('clock.sleep:function'));
  assert.ok(byFile.get('codex-unknown-model.json')!.includes('multi_agent_v1.spawn_agent:function'));
  assert.ok(byFile.get('claude-code-print.json')!.includes('TaskStop:deferred'));
  assert.ok(byFile.get('claude-code-print-no-tool-search.json')!.includes('TaskStop:function'));
  // Qwen Code names its deferred tools in the same reminder over Chat Completions and over Responses.
  assert.deepEqual(byFile.get('qwen-code-responses-print.json'), byFile.get('qwen-code-default.json'));
  assert.ok(byFile.get('qwen-code-responses-print.json')!.includes('web_fetch:deferred'));
});

test('Codex namespaces named only in a developer message count as deferred for their known tools', () => {
  const named = capture('codex', '/v1/responses', {
    model: 'm',
    input: [
      {
        type: 'message',
        role: 'developer',
        content: [
          {
            type: 'input_text',
            text: '<tools>\nDeferred tool namespaces:\n- mcp__capture\n- multi_agent_v1: Tools for agents.\n</tools>',
          },
        ],
      },
    ],
    tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: {} } }],
  });
  assert.deepEqual(
    capturedNamespaces(named).map((d) => [d.name, d.pointer]),
    [
      ['mcp__capture', '/body/input/0/content/0/text'],
      ['multi_agent_v1', '/body/input/0/content/0/text'],
    ],
  );
  const inline = capture('codex', '/v1/responses', {
    model: 'm',
    tools: [
      {
        type: 'namespace',
        name: 'multi_agent_v1',
        tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: {} } }],
      },
    ],
  });
  const index = indexCaptured('codex', [
    { configuration: 'a', tools: capturedTools(named), deferredNamespaces: capturedNamespaces(named) },
    { configuration: 'b', tools: capturedTools(inline), deferredNamespaces: capturedNamespaces(inline) },
  ]);
  const spawn = index.get('multi_agent_v1.spawn_agent')!;
  assert.deepEqual([...spawn.byConfig.keys()], ['a', 'b'], 'in matrix order');
  assert.equal(spawn.byConfig.get('a')!.delivery, 'deferred');
  assert.equal(
    spawn.byConfig.get('a')!.pointer,
    '/body/input/0/content/0/text',
    'the stand-in points at the text that names its namespace',
  );
  assert.equal(spawn.byConfig.get('b')!.pointer, '/body/tools/0/tools/0/parameters');
  assert.equal(spawn.byConfig.get('b')!.delivery, 'function');
  assert.equal(index.get('exec_command')!.byConfig.size, 1, 'tools outside the namespace are untouched');
});

test('configurations that send the same definition are grouped, wherever it was recorded', async () => {
  const { distinctInputs } = await import('../../src/lib/model/captures.ts');
  const body = (description: string) => ({
    model: 'm',
    tools: [
      {
        type: 'custom',
        name: 'apply_patch',
        description,
        format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
      },
    ],
  });
  const a = { ...capture('codex', '/v1/responses', body('Patch.')), configuration: 'a' };
  const b = { ...capture('codex', '/v1/responses', body('Patch.')), configuration: 'b' };
  const c = { ...capture('codex', '/v1/responses', body('Patch files.')), configuration: 'c' };
  const index = indexCaptured(
    'codex',
    [a, b, c].map((x) => ({ configuration: x.configuration, tools: capturedTools(x) })),
  );
  assert.deepEqual(
    distinctInputs(index.get('apply_patch')!).map((g) => g.configs),
    [['a', 'b'], ['c']],
  );
});
