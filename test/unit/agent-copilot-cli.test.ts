import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInvocation, DUMMY_KEY, PROMPT, type RunPaths } from '../../scripts/lib/capture/runner.ts';
import { loadMatrix, type Configuration } from '../../scripts/lib/capture/matrix.ts';
import { AGENTS, mcpNamingOf } from '../../src/lib/agents/index.ts';
import {
  CONFIG_FILE,
  DEFAULT_MODEL,
  isStubServerTool,
  mainRequest,
  trustedFolderConfig,
  userTexts,
} from '../../src/lib/agents/copilot-cli.ts';
import type { WireRequest } from '../../src/lib/wire/types.ts';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const PATHS: RunPaths = { home: '/c/home', workdir: '/c/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const BIN = '/bin/copilot';
const cfg = (over: Partial<Configuration>): Configuration => ({
  id: 'x',
  label: 'x',
  description: 'x',
  mode: 'print',
  args: [],
  env: {},
  ...over,
});
const DATED = `<current_datetime>2026-11-30T08:00:00.000+00:00</current_datetime>\n\n${PROMPT}`;

test('print: `copilot -p <prompt>` then the configuration args, bring-your-own-key env at the stub, offline, nothing inherited', () => {
  const inv = buildInvocation('copilot-cli', cfg({ args: ['--plan'] }), BIN, PATHS, URL);
  assert.equal(inv.command, BIN);
  assert.deepEqual(inv.args, ['-p', PROMPT, '--plan']);
  assert.deepEqual(inv.input, { kind: 'argument' });
  assert.equal(inv.files.size, 0, 'print mode writes no file');
  assert.equal(inv.env['COPILOT_PROVIDER_BASE_URL'], `${URL}/v1`);
  assert.equal(inv.env['COPILOT_PROVIDER_API_KEY'], DUMMY_KEY);
  assert.equal(inv.env['COPILOT_MODEL'], DEFAULT_MODEL);
  assert.equal(inv.env['COPILOT_OFFLINE'], 'true');
  assert.equal(inv.env['COPILOT_AUTO_UPDATE'], 'false');
  assert.equal(inv.env['HOME'], PATHS.home);
  assert.equal(inv.env['GH_TOKEN'], undefined);
  assert.equal(inv.env['COPILOT_PROVIDER_WIRE_API'], undefined, 'Chat Completions by default');
});

test('configuration env overrides the defaults; the Anthropic provider gets the stub origin without /v1', () => {
  const anthropic = buildInvocation(
    'copilot-cli',
    cfg({ env: { COPILOT_PROVIDER_TYPE: 'anthropic', COPILOT_MODEL: 'claude-sonnet-4.5' } }),
    BIN,
    PATHS,
    URL,
  );
  assert.equal(anthropic.env['COPILOT_PROVIDER_BASE_URL'], URL);
  assert.equal(anthropic.env['COPILOT_MODEL'], 'claude-sonnet-4.5');
  const responses = buildInvocation(
    'copilot-cli',
    cfg({ env: { COPILOT_PROVIDER_WIRE_API: 'responses', COPILOT_OFFLINE: 'false' } }),
    BIN,
    PATHS,
    URL,
  );
  assert.equal(responses.env['COPILOT_PROVIDER_BASE_URL'], `${URL}/v1`);
  assert.equal(responses.env['COPILOT_PROVIDER_WIRE_API'], 'responses');
  assert.equal(responses.env['COPILOT_OFFLINE'], 'false');
});

test('interactive: `copilot -i <prompt>` in a script(1) pseudo-terminal sized with stty, and the working directory trusted in ~/.copilot/config.json', () => {
  const inv = buildInvocation('copilot-cli', cfg({ mode: 'interactive', args: ['--experimental'] }), BIN, PATHS, URL);
  assert.equal(inv.command, '/usr/bin/script');
  assert.deepEqual(inv.input, { kind: 'pty' });
  assert.deepEqual(inv.args, [
    '-q',
    '-e',
    '-c',
    `stty rows 40 cols 120 && exec /bin/copilot -i 'Reply with the single word: ok' --experimental`,
    '/dev/null',
  ]);
  assert.deepEqual([inv.env['COLUMNS'], inv.env['LINES']], ['120', '40']);
  assert.equal(inv.env['COPILOT_PROVIDER_BASE_URL'], `${URL}/v1`);
  assert.deepEqual([...inv.files.keys()], [join(PATHS.home, CONFIG_FILE)]);
  assert.deepEqual(JSON.parse(inv.files.get('/c/home/.copilot/config.json')!), { trustedFolders: ['/c/work'] });
  assert.equal(inv.files.get('/c/home/.copilot/config.json'), trustedFolderConfig('/c/work'));
});

test('the MCP server of the matrix is declared under the name `capture`, its placeholders expanded', () => {
  const matrix = loadMatrix(ROOT);
  const mcp = matrix.agents['copilot-cli'].configurations.filter((c) => c.args.includes('--additional-mcp-config'));
  assert.ok(mcp.length >= 2);
  for (const c of mcp) {
    const inv = buildInvocation('copilot-cli', c, BIN, PATHS, URL);
    const json = JSON.parse(inv.args[inv.args.indexOf('--additional-mcp-config') + 1]!);
    assert.deepEqual(Object.keys(json.mcpServers), ['capture'], c.id);
    assert.equal(json.mcpServers.capture.command, '/bin/node');
    assert.deepEqual(json.mcpServers.capture.args, ['/repo/mcp.ts']);
  }
});

test('MCP tools are `<server>-<tool>`, also inside a namespace named after the server', () => {
  assert.equal(isStubServerTool('capture-echo'), true);
  assert.equal(isStubServerTool('capture.capture-tool_01'), true);
  assert.equal(isStubServerTool('capture'), false);
  assert.equal(isStubServerTool('capture_echo'), false);
  assert.equal(isStubServerTool('other-echo'), false);
  assert.equal(isStubServerTool('other.capture-echo'), false);
  assert.equal(mcpNamingOf('copilot-cli')!.isStubServerTool, isStubServerTool);
  assert.equal(mcpNamingOf('copilot-cli')!.family, '<server>-<tool>');
});

const chat = (
  messages: unknown[],
  tools: unknown[] = [{ type: 'function', function: { name: 'bash' } }],
  stream = true,
): WireRequest => ({
  method: 'POST',
  url: '/v1/chat/completions',
  headers: {},
  json: { model: 'gpt-4.1', stream, messages, tools },
});

test('user texts: string content and text parts of user messages (Chat Completions, Messages) or input items (Responses)', () => {
  assert.deepEqual(
    userTexts({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: [{ type: 'text', text: 'c' }, { type: 'image' }, { type: 'text', text: 'd' }] },
      ],
    }),
    ['a', 'c', 'd'],
  );
  assert.deepEqual(
    userTexts({
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] },
        { type: 'function_call_output' },
      ],
    }),
    ['x'],
  );
  assert.deepEqual(userTexts(null), []);
  assert.deepEqual(userTexts({ messages: 'no' }), []);
});

test('main request: the first prompted streaming request with tools, even when a reminder follows the prompt or continuations follow it', () => {
  const system = { role: 'system', content: 'You are the GitHub Copilot CLI' };
  // Print and interactive: one request, the prompt after the date.
  const only = chat([system, { role: 'user', content: DATED }]);
  assert.equal(mainRequest([only], PROMPT), only);
  assert.equal(AGENTS['copilot-cli'].mainRequest([only], PROMPT), only);
  // Autopilot: continuation turns come after the first and end with their own text.
  const first = chat([
    system,
    { role: 'user', content: `<mode_changed_notice>autopilot</mode_changed_notice>\n\n${DATED}` },
  ]);
  const continuation = chat([
    system,
    { role: 'user', content: DATED },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: 'You have not yet marked the task as complete using the task_complete tool.' },
  ]);
  assert.equal(mainRequest([first, continuation, continuation], PROMPT), first);
  // Deferred MCP tools (Anthropic Messages): a <system_reminder> part follows the prompt in the same message.
  const deferred: WireRequest = {
    method: 'POST',
    url: '/v1/messages',
    headers: {},
    json: {
      model: 'claude-sonnet-4.5',
      stream: true,
      tools: [{ name: 'bash' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: DATED },
            {
              type: 'text',
              text: '<system_reminder>\nIMPORTANT: The tools listed below are deferred\n</system_reminder>',
            },
          ],
        },
      ],
    },
  };
  const subagent: WireRequest = {
    ...deferred,
    json: { ...(deferred.json as object), messages: [{ role: 'user', content: 'explore the repo' }] },
  };
  assert.equal(mainRequest([subagent, deferred], PROMPT), deferred);
  // Over Responses the reminder is a separate input item.
  const responses: WireRequest = {
    method: 'POST',
    url: '/v1/responses',
    headers: {},
    json: {
      model: 'gpt-5.5',
      stream: true,
      tools: [{ type: 'tool_search' }],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: DATED }] },
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<system_reminder>…</system_reminder>' }],
        },
      ],
    },
  };
  assert.equal(mainRequest([responses], PROMPT), responses);
});

test('main request: requests without tools, not streamed, or without the prompt are passed over; the shared rule is the fallback', () => {
  const noTools = chat([{ role: 'user', content: DATED }], []);
  const notStreamed = chat([{ role: 'user', content: DATED }], undefined, false);
  const main = chat([{ role: 'user', content: DATED }]);
  assert.equal(mainRequest([noTools, notStreamed, main], PROMPT), main);
  const unprompted = chat([{ role: 'user', content: 'something else' }]);
  assert.equal(
    mainRequest([notStreamed, unprompted], PROMPT),
    unprompted,
    'falls back to the first streaming request with tools',
  );
  assert.equal(mainRequest([notStreamed], PROMPT), notStreamed, 'and finally to the first request');
  assert.equal(mainRequest([notStreamed, main]), main, 'without a prompt: the first streaming request with tools');
});

// ---------------------------------------------------------------------------
// Hooks (payload runs)

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import {
  CAMEL_EVENTS,
  HOOKS_FILE,
  hooksOfCalls,
  PASCAL_EVENTS,
  payloadInput,
} from '../../src/lib/agents/copilot-cli.ts';
import { shapeOfEvent, type HookMechanism } from '../../src/lib/agents/types.ts';
import { parseHookLog, untagHookLog } from '../../scripts/lib/payloads/record.ts';
import { payloadPaths, runAdditions } from '../../scripts/lib/payloads/drivers.ts';

const cpHooks = AGENTS['copilot-cli'].hooks as HookMechanism;

test('a payload run writes ~/.copilot/hooks/ with both forms of each event; each entry, run by a real shell, tags the payload it copies unchanged', () => {
  const dir = mkdtempSync(joinPath(tmpdir(), 'copilot-hooks-'));
  try {
    const paths = payloadPaths(dir);
    const add = runAdditions(cpHooks, paths, []);
    assert.deepEqual(add.args, ['--allow-all-tools']);
    const file = add.files.get(joinPath(paths.home, HOOKS_FILE));
    assert.ok(file, 'the hook file is written under HOME');
    const config = JSON.parse(file) as { version: number; hooks: Record<string, { type: string; bash: string }[]> };
    assert.equal(config.version, 1);
    assert.deepEqual(Object.keys(config.hooks), [...CAMEL_EVENTS, ...PASCAL_EVENTS]);
    // What the CLI would write on the hook's standard input, byte for byte (no newline at the end, a quote, non-ASCII).
    const stdin = '{"sessionId":"s","toolName":"bash","toolArgs":{"command":"echo \'é\'"}}';
    for (const event of ['preToolUse', 'PostToolUse'])
      execFileSync('/bin/sh', ['-c', config.hooks[event]![0]!.bash], { input: stdin });
    const text = readFileSync(paths.hookLog, 'utf8');
    assert.ok(text.includes(`${stdin}\x1e`), 'the payload is kept as sent');
    const { payloads, events } = untagHookLog(parseHookLog(text));
    assert.deepEqual(events, ['preToolUse', 'PostToolUse']);
    assert.deepEqual(payloads, [JSON.parse(stdin), JSON.parse(stdin)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('payloads without a call id go to the call whose input they carry, in order, each form closing a call on its own', () => {
  const first = { command: 'echo one', description: 'd' };
  const second = { command: 'echo one', description: 'd' }; // the same input twice: order decides
  const pre = { sessionId: 's', toolName: 'bash', toolArgs: first };
  const post = { ...pre, toolResult: { resultType: 'success', textResultForLlm: 'one' } };
  const Pre = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: first };
  const Post = { ...Pre, hook_event_name: 'PostToolUse', tool_result: { result_type: 'success' } };
  const stringArgs = { ...pre, toolArgs: JSON.stringify(second) };
  const payloads = [pre, Pre, post, Post, stringArgs, { ...Pre }, { toolName: 'view', toolArgs: { path: '/x' } }];
  const events = ['preToolUse', 'PreToolUse', 'postToolUse', 'PostToolUse', 'preToolUse', 'PreToolUse', 'preToolUse'];
  const per = hooksOfCalls(
    payloads,
    [
      { id: 'a', input: first },
      { id: 'b', input: second },
    ],
    events,
  );
  assert.deepEqual(
    per,
    [
      [pre, Pre, post, Post],
      [stringArgs, payloads[5]],
    ],
    'a payload no call matches is left out',
  );
  assert.deepEqual(payloadInput(stringArgs), second, 'toolArgs as a JSON text is read as what it encodes');
  assert.equal(payloadInput({ toolArgs: '{not json' }), '{not json');
});

test('outcome: postToolUseFailure (error) or a non-success resultType is a failure; shapes are told apart by event name', () => {
  const pre = { toolName: 'view', toolArgs: { path: '/x' } };
  assert.equal(cpHooks.outcome({}, '', [pre, { ...pre, toolResult: { resultType: 'success' } }]), 'success');
  assert.equal(cpHooks.outcome({}, '', [pre, { ...pre, error: 'no such file' }]), 'failure');
  assert.equal(cpHooks.outcome({}, '', [pre, { ...pre, toolResult: { resultType: 'failure' } }]), 'failure');
  assert.equal(cpHooks.outcome({}, '', [pre]), 'failure', 'no after-event at all');
  assert.equal(shapeOfEvent(cpHooks, 'preToolUse').inputField, 'toolArgs');
  assert.equal(shapeOfEvent(cpHooks, 'PostToolUseFailure').inputField, 'tool_input');
  assert.equal(shapeOfEvent(cpHooks, 'PostToolUse').eventField, 'hook_event_name');
  assert.equal(
    shapeOfEvent(cpHooks, 'postToolUse').eventField,
    undefined,
    'camelCase payloads do not name their event',
  );
});

import { AUTOPILOT_FLAG, answersPrompt, programArgv } from '../../src/lib/agents/copilot-cli.ts';

test("a release whose launcher falls back to its index.js runs that script with the run's Node.js; the platform program runs itself", () => {
  // npm-loader.js of 1.0.42 imports ./index.js itself, in the Node.js that runs the launcher.
  const script = '/i/node_modules/@github/copilot/index.js';
  assert.deepEqual(programArgv({ binary: script, node: PATHS.node }), [PATHS.node, script]);
  assert.deepEqual(programArgv({ binary: BIN, node: PATHS.node }), [BIN]);
  const inv = buildInvocation('copilot-cli', cfg({}), script, PATHS, URL);
  assert.equal(inv.command, PATHS.node);
  assert.deepEqual(inv.args, [script, '-p', PROMPT]);
  const interactive = buildInvocation('copilot-cli', cfg({ mode: 'interactive' }), script, PATHS, URL);
  assert.match(interactive.args.at(-2)!, new RegExp(`exec '?${PATHS.node}'? '?${script}'? -i `));
});

test('autopilot runs end once the first turn is answered; other print runs wait for the CLI to exit', () => {
  const matrix = loadMatrix(ROOT).agents['copilot-cli'].configurations;
  const autopilot = matrix.find((c) => c.args.includes(AUTOPILOT_FLAG));
  assert.ok(autopilot, 'the matrix has an autopilot configuration');
  assert.equal(buildInvocation('copilot-cli', autopilot, BIN, PATHS, URL).endAfterTurn, true);
  assert.equal(buildInvocation('copilot-cli', cfg({}), BIN, PATHS, URL).endAfterTurn, undefined);
});

test('the turn that answers the prompt, as autopilot 1.0.11 sends it: a reminder after the prompt in the same user text; its continuations are not', () => {
  // The user texts of the first two requests of @github/copilot 1.0.11 in autopilot (recorded here).
  const reminder =
    '<reminder>\n<sql_tables>No tables currently exist. Default tables (todos, todo_deps) will be created automatically when you first use the SQL tool.</sql_tables>\n</reminder>';
  const first = chat([
    { role: 'system', content: 'You are the GitHub Copilot CLI' },
    { role: 'user', content: `${DATED}\n\n${reminder}` },
  ]);
  const continuation = chat([
    {
      role: 'user',
      content: `You have not yet marked the task as complete. When it is, call task_complete.\n\n${reminder}`,
    },
  ]);
  assert.equal(answersPrompt(first, PROMPT), true);
  assert.equal(answersPrompt(continuation, PROMPT), false);
  assert.equal(
    answersPrompt(chat([{ role: 'user', content: `${DATED}\n\n${reminder}` }], []), PROMPT),
    false,
    'no tools: not the turn',
  );
  assert.equal(mainRequest([first, continuation], PROMPT), first);
  // 1.0.39 names the block <system_reminder> (recorded here).
  const system = '<system_reminder>\n<sql_tables>No tables currently exist.</sql_tables>\n</system_reminder>';
  assert.equal(answersPrompt(chat([{ role: 'user', content: `${DATED}\n\n${system}` }]), PROMPT), true);
  assert.equal(
    answersPrompt(
      chat([{ role: 'user', content: `You have not yet marked the task as complete.\n\n${system}` }]),
      PROMPT,
    ),
    false,
  );
  assert.equal(
    answersPrompt(chat([{ role: 'user', content: `${DATED}\n\n<reminder>x</system_reminder>` }]), PROMPT),
    false,
    'tags that do not pair',
  );
});
