import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemaAjv } from '../../scripts/lib/capture/ajv.ts';
import { loadMatrix } from '../../scripts/lib/capture/matrix.ts';
import {
  answerFile,
  caseScenario,
  HookCaseError,
  hookReturn,
  loadHookCases,
  selectHookCases,
  validateHookCases,
} from '../../scripts/lib/hook-behaviour/cases.ts';
import { messagesFromResult, otherTexts, textsUnder } from '../../scripts/lib/hook-behaviour/model-saw.ts';
import { CLAUDE_STYLE_HOOKS } from '../../src/lib/agents/types.ts';
import { HOOK_EVENT_TAG, HOOK_SEPARATOR } from '../../scripts/lib/payloads/drivers.ts';
import { parseHookLog, untagHookLog } from '../../scripts/lib/payloads/record.ts';

const ROOT = join(import.meta.dirname, '../..');
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'schemas/hook-cases.schema.json'), 'utf8'));
const matrix = loadMatrix(ROOT);
const ANSWER_HOOK = join(ROOT, 'scripts/lib/hook-behaviour/answer-hook.mjs');

const CASE = {
  id: 'deny',
  kind: 'pre-deny',
  toolRole: 'shell',
  description: 'denies',
  call: { tool: 'Bash', input: { command: 'true' } },
  hook: { event: 'PreToolUse', stdout: { decision: 'block' } },
};
const file = (cases: unknown[], configuration = 'print') => ({ agents: { 'claude-code': { configuration, cases } } });

test('the committed hook cases are valid and each has one record file', () => {
  const selected = selectHookCases(loadHookCases(ROOT, matrix), []);
  assert.ok(selected.length > 0);
  assert.equal(new Set(selected.map((s) => s.file)).size, selected.length);
});

test('every committed record matches schemas/hook-case.schema.json and answers a declared case of the same event', () => {
  const validate = schemaAjv().compile(JSON.parse(readFileSync(join(ROOT, 'schemas/hook-case.schema.json'), 'utf8')));
  const declared = new Map(selectHookCases(loadHookCases(ROOT, matrix), []).map((s) => [s.file, s]));
  const dir = join(ROOT, 'content/hook-behaviour');
  for (const agent of existsSync(dir) ? readdirSync(dir) : []) {
    for (const name of readdirSync(join(dir, agent))) {
      const record = JSON.parse(readFileSync(join(dir, agent, name), 'utf8')) as { event: string; answered: string[] };
      assert.ok(validate(record), `${agent}/${name}: ${JSON.stringify(validate.errors)}`);
      const selected = declared.get(`${agent}/${name}`);
      assert.ok(selected, `${agent}/${name} belongs to no case of content/hook-cases.json`);
      assert.equal(record.event, selected.case.hook.event);
      // the hook answered at most the one event it was told to
      for (const e of record.answered) assert.equal(e, selected.case.hook.event);
    }
  }
});

test('validateHookCases names the pointer and rule of a schema problem, and refuses unknown agents, configurations, events and twice-declared ids', () => {
  assert.throws(
    () => validateHookCases(file([{ ...CASE, hook: {} }]), SCHEMA, matrix),
    (e: Error) => e instanceof HookCaseError && /\/agents\/claude-code\/cases\/0\/hook.*event/.test(e.message),
  );
  assert.throws(
    () => validateHookCases(file([CASE], 'no-such-configuration'), SCHEMA, matrix),
    /no configuration claude-code\/no-such-configuration/,
  );
  assert.throws(
    () => validateHookCases(file([{ ...CASE, hook: { event: 'BeforeTool' } }]), SCHEMA, matrix),
    /BeforeTool is not an event the run configures for claude-code/,
  );
  assert.throws(() => validateHookCases(file([CASE, CASE]), SCHEMA, matrix), /case deny is declared twice/);
  assert.throws(() => validateHookCases(file([{ ...CASE, sideEffect: '../outside' }]), SCHEMA, matrix), /sideEffect/);
});

test('selectHookCases takes agents and agent/case, and refuses what matches nothing', () => {
  const cases = validateHookCases(file([CASE, { ...CASE, id: 'other' }]), SCHEMA, matrix);
  assert.deepEqual(
    selectHookCases(cases, ['claude-code/other']).map((s) => s.key),
    ['claude-code/other'],
  );
  assert.equal(selectHookCases(cases, ['claude-code']).length, 2);
  assert.throws(() => selectHookCases(cases, ['claude-code/none']), /--only claude-code\/none: no such agent or case/);
});

test("a case becomes a one-call scenario in its own or the agent's configuration", () => {
  const cases = validateHookCases(
    file([{ ...CASE, call: { ...CASE.call, configuration: 'mcp-no-tool-search', allowedTools: ['Read'] } }]),
    SCHEMA,
    matrix,
  );
  const s = caseScenario(selectHookCases(cases, [])[0]!);
  assert.equal(s.configuration, 'mcp-no-tool-search');
  assert.deepEqual(s.scenario.allowedTools, ['Read']);
  assert.equal(s.scenario.followUp, undefined);
});

test('answerFile prints a JSON answer as its JSON text; a crash is recorded as exit 1', () => {
  const answer = JSON.parse(answerFile({ event: 'PreToolUse', stdout: { a: 1 }, exitCode: 2 }, CLAUDE_STYLE_HOOKS));
  assert.deepEqual(answer, {
    event: 'PreToolUse',
    eventField: 'hook_event_name',
    stdout: '{"a":1}',
    stderr: '',
    exitCode: 2,
  });
  assert.equal(hookReturn({ event: 'PreToolUse', crash: 'boom' }).exitCode, 1);
  assert.equal(hookReturn({ event: 'PreToolUse', stdout: 'plain' }).stdout, 'plain');
});

function runHook(
  payload: string,
  answer: object,
  event?: string,
): { status: number | null; stdout: string; stderr: string; log: string; answered: string } {
  const dir = mkdtempSync(join(tmpdir(), 'answer-hook-'));
  try {
    const log = join(dir, 'hooks.log');
    writeFileSync(join(dir, 'answer.json'), JSON.stringify(answer));
    const r = spawnSync(process.execPath, [ANSWER_HOOK, log, join(dir, 'answer.json'), ...(event ? [event] : [])], {
      input: payload,
      encoding: 'utf8',
    });
    return {
      status: r.status,
      stdout: r.stdout,
      stderr: r.stderr,
      log: existsSync(log) ? readFileSync(log, 'utf8') : '',
      answered: existsSync(`${log}.answered`) ? readFileSync(`${log}.answered`, 'utf8') : '',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the answering hook logs every payload as the payload runs do, and answers only its event', () => {
  const pre = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' });
  const post = JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' });
  const answer = JSON.parse(
    answerFile({ event: 'PreToolUse', stdout: { decision: 'block' }, stderr: 'why', exitCode: 2 }, CLAUDE_STYLE_HOOKS),
  );
  const hit = runHook(pre, answer);
  assert.deepEqual(
    [hit.status, hit.stdout, hit.stderr, hit.answered],
    [2, '{"decision":"block"}', 'why', 'PreToolUse\n'],
  );
  assert.deepEqual(parseHookLog(hit.log), [JSON.parse(pre)]);
  const miss = runHook(post, answer);
  assert.deepEqual([miss.status, miss.stdout, miss.stderr, miss.answered], [0, '', '', '']);
  assert.equal(miss.log, post + HOOK_SEPARATOR);
});

test('the answering hook takes a tagged event from its argument and writes the tag record the recorder reads', () => {
  const payload = JSON.stringify({ toolName: 'bash' });
  const r = runHook(payload, { event: 'preToolUse', stdout: '{"permissionDecision":"deny"}' }, 'preToolUse');
  assert.equal(r.stdout, '{"permissionDecision":"deny"}');
  const { payloads, events } = untagHookLog(parseHookLog(r.log));
  assert.deepEqual(payloads, [JSON.parse(payload)]);
  assert.deepEqual(events, ['preToolUse']);
  assert.ok(r.log.includes(HOOK_EVENT_TAG));
});

test('a crashing answer exits 1 with the error on standard error, after printing', () => {
  const r = runHook(JSON.stringify({ hook_event_name: 'PreToolUse' }), {
    event: 'PreToolUse',
    eventField: 'hook_event_name',
    stdout: 'partial',
    crash: 'the hook broke',
  });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, 'partial');
  assert.match(r.stderr, /Error: the hook broke/);
});

test('otherTexts finds what came with a result: the rest of its message and later messages, in Anthropic and Gemini bodies', () => {
  const result = { type: 'tool_result', tool_use_id: 't1', content: 'made' };
  const anthropic = {
    messages: [
      { role: 'user', content: 'prompt' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', input: { text: "the call's own input" } }] },
      { role: 'user', content: [result, { type: 'text', text: 'hook context' }] },
      { role: 'user', content: 'later' },
    ],
  };
  assert.deepEqual(otherTexts(anthropic, result), ['hook context', 'later']);
  // a copy of the result (equal JSON) is found too
  assert.deepEqual(otherTexts(anthropic, structuredClone(result)), ['hook context', 'later']);
  const response = { functionResponse: { name: 'x', response: { output: 'made' } } };
  const gemini = {
    contents: [
      { role: 'user', parts: [{ text: 'prompt' }] },
      { role: 'user', parts: [response, { text: 'ctx' }] },
    ],
  };
  assert.deepEqual(otherTexts(gemini, response), ['ctx']);
  assert.deepEqual(messagesFromResult(gemini, { not: 'there' }), []);
});

test('otherTexts, given the request the call answered, finds every new message, even one placed before the result (Codex developer context)', () => {
  const call = { type: 'function_call', call_id: 'c1', arguments: '{}' };
  const output = { type: 'function_call_output', call_id: 'c1', output: 'made' };
  const previous = { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'prompt' }] }] };
  const body = {
    input: [
      ...previous.input,
      call,
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'hook context' }] },
      output,
    ],
  };
  assert.deepEqual(otherTexts(body, output, previous), ['hook context']);
  // Without the previous request, only the result's message and what follows it.
  assert.deepEqual(otherTexts(body, output), []);
  // A text the previous request had is not new, even in another message.
  const moved = {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'prompt' }] },
      { role: 'user', content: [{ type: 'text', text: 'environment' }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't', content: 'made' },
          { type: 'text', text: 'ctx' },
        ],
      },
    ],
  };
  const asked = {
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'environment' },
          { type: 'text', text: 'prompt' },
        ],
      },
    ],
  };
  assert.deepEqual(otherTexts(moved, moved.messages[2]!.content[0], asked), ['ctx']);
});

test("textsUnder leaves out what a tool call was asked to do (input, args, arguments): the model's own call, not text it was sent", () => {
  assert.deepEqual(
    textsUnder([
      { type: 'tool_use', input: { text: 'hello' } },
      { functionCall: { args: { content: 'x' } } },
      { arguments: '{"a":1}' },
      { type: 'text', text: 'sent' },
    ]),
    ['sent'],
  );
});

test('a plugin agent answers with a script, a command agent with its output: each refuses the other form', () => {
  const plugin = {
    agents: {
      opencode: {
        configuration: 'print',
        cases: [
          {
            ...CASE,
            call: { tool: 'bash', input: {} },
            hook: { event: 'tool.execute.before', script: 'throw new Error("no")' },
          },
        ],
      },
    },
  };
  assert.equal(validateHookCases(plugin, SCHEMA, matrix).agents.opencode!.cases.length, 1);
  const printed = structuredClone(plugin);
  printed.agents.opencode.cases[0]!.hook = { event: 'tool.execute.before', stdout: 'x' } as never;
  assert.throws(
    () => validateHookCases(printed, SCHEMA, matrix),
    /opencode's hooks are plugin functions: the answer is a script/,
  );
  assert.throws(
    () => validateHookCases(file([{ ...CASE, hook: { event: 'PreToolUse', script: 'x' } }]), SCHEMA, matrix),
    /claude-code's hooks are commands/,
  );
  assert.equal(hookReturn({ event: 'tool.execute.before', script: 'x' }).script, 'x');
});

test('the OpenCode recorder plugin with an answer records, notes the answer, then runs the script: a throw refuses, a change to the arguments object stays', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-'));
  try {
    const log = join(dir, 'hooks.log');
    const { recorderPlugin } = await import('../../src/lib/agents/opencode.ts');
    const load = async (name: string, script: string) => {
      writeFileSync(join(dir, name), recorderPlugin(log, { event: 'tool.execute.before', script }));
      return (
        (await import(join(dir, name))) as {
          RecordHooks: () => Promise<Record<string, (i: unknown, o: Record<string, any>) => Promise<void>>>;
        }
      ).RecordHooks();
    };
    const refusing = await load('a.mjs', "throw new Error('Policy: no');");
    await assert.rejects(refusing['tool.execute.before']!({ tool: 'bash' }, { args: { command: 'x' } }), /Policy: no/);
    const rewriting = await load('b.mjs', "output.args.command = 'y';");
    const output = { args: { command: 'x' } };
    await rewriting['tool.execute.before']!({ tool: 'bash' }, output);
    assert.equal(output.args.command, 'y');
    // The after function only records.
    await rewriting['tool.execute.after']!({ tool: 'bash' }, { output: 'z' });
    assert.equal(readFileSync(`${log}.answered`, 'utf8'), 'tool.execute.before\ntool.execute.before\n');
    const { events } = untagHookLog(parseHookLog(readFileSync(log, 'utf8')));
    assert.deepEqual(events, ['tool.execute.before', 'tool.execute.before', 'tool.execute.after']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('textsUnder skips empty texts (a Chat Completions tool call message has content "")', () => {
  assert.deepEqual(
    textsUnder([
      { role: 'assistant', content: '', tool_calls: [] },
      { role: 'tool', content: ' ' },
      { role: 'user', content: 'ctx' },
    ]),
    ['ctx'],
  );
});
