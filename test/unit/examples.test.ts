import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleParts, inputFieldLinks } from '../../src/lib/views/examples.ts';
import type { PayloadFile } from '../../src/lib/core/content-types.ts';
import { hookEvent, hookShapeOf, type HookShape } from '../../src/lib/agents/hook-shape.ts';

const ROOT = join(import.meta.dirname, '../..');
const payload = (file: string) => JSON.parse(readFileSync(join(ROOT, 'content/payloads', file), 'utf8')) as PayloadFile;

test('a recorded call shows its input, its result, every hook payload, and the structured result only where it adds something', () => {
  const call = payload('claude-code/bash.foreground.json').calls[0]!;
  const shape = hookShapeOf('claude-code')!;
  const titles = exampleParts(call, shape).map((p) => p.title);
  // Read from the file: one block per hook the CLI ran, in order.
  assert.deepEqual(titles, [
    'Input the model sent',
    'Result the model got',
    ...call.hooks.map((h, i) => `${hookEvent(h, shape, call.hookEvents?.[i])} hook, standard input`),
  ]);
  // The stream-json result equals the after-event hook's response in this file, so it is not repeated.
  const post = call.hooks.find((h, i) => hookEvent(h, shape, call.hookEvents?.[i]) === shape.after)!;
  assert.deepEqual(post[shape.responseField], call.toolUseResult);
  const different = { ...call, toolUseResult: { stdout: 'other' } };
  assert.equal(exampleParts(different, shape).at(-1)!.title, 'Structured result (stream-json tool_use_result)');
  const { result: _result, ...noResult } = call;
  assert.match(String(exampleParts(noResult, shape)[1]!.value), /no result/);
  // Without a hook shape the payloads are still shown, titled plainly.
  assert.deepEqual(
    exampleParts(call, undefined)
      .slice(2, 2 + call.hooks.length)
      .map((p) => p.title),
    call.hooks.map(() => 'Hook, standard input'),
  );
});

test('hook payloads are read through the shape: other member names, a payload without its event named', () => {
  const shape: HookShape = {
    eventField: 'kind',
    toolNameField: 'toolName',
    inputField: 'toolArgs',
    inputEncoding: 'json-string',
    responseField: 'toolResult',
    before: 'preToolUse',
    after: 'postToolUse',
  };
  const call = {
    tool: 'view',
    input: { path: '/x' },
    outcome: 'success' as const,
    result: { content: 'x' },
    toolUseResult: { text: 'x' },
    hooks: [
      { kind: 'preToolUse', toolName: 'view', toolArgs: '{"path":"/x"}' },
      { toolName: 'view', toolArgs: '{"path":"/x"}', toolResult: { text: 'x' } },
    ],
  } as unknown as PayloadFile['calls'][number];
  const titles = exampleParts(call, shape).map((p) => p.title);
  // The second payload names no event: it carries a response, so it is the after-event; equal to it, the structured
  // result is not repeated.
  assert.deepEqual(titles, [
    'Input the model sent',
    'Result the model got',
    'preToolUse hook, standard input',
    'postToolUse hook, standard input',
  ]);
});

test("an input's fields link to the Input row, else the model-facing row, else to nothing", () => {
  const anchors = new Set(['input.command', 'model-input.description']);
  assert.deepEqual(inputFieldLinks({ command: 'ls', description: 'x', extra: 1 }, anchors), [
    { name: 'command', anchor: 'input.command' },
    { name: 'description', anchor: 'model-input.description' },
    { name: 'extra' },
  ]);
  // A key that is not a plain name links to its escaped anchor, not to a nested path that reads alike.
  const escaped = new Set(['input.a~2Eb', 'input.a.b']);
  assert.deepEqual(inputFieldLinks({ 'a.b': 1 }, escaped), [{ name: 'a.b', anchor: 'input.a~2Eb' }]);
});

test('long strings are shortened for the page, saying how much was left out; nothing else changes', async () => {
  const { shortened } = await import('../../src/lib/views/examples.ts');
  const long = 'x'.repeat(250);
  assert.deepEqual(shortened({ a: long, b: [long, 3, null], c: 'short' }, 240), {
    a: `${'x'.repeat(240)}… [10 more characters]`,
    b: [`${'x'.repeat(240)}… [10 more characters]`, 3, null],
    c: 'short',
  });
});

test('a payload that does not name its event is titled with the event recorded beside it, in the words its agent module gives', async () => {
  const { AGENTS } = await import('../../src/lib/agents/index.ts');
  const call = {
    tool: 't',
    input: {},
    outcome: 'success' as const,
    hooks: [{ toolName: 't' }, { hook_event_name: 'PostToolUse' }],
    hookEvents: ['preToolUse', 'PostToolUse'],
  };
  const copilot = AGENTS['copilot-cli'].hooks;
  assert.ok(!('none' in copilot));
  assert.deepEqual(
    exampleParts(call, copilot.shape)
      .slice(2)
      .map((p) => p.title),
    ['preToolUse hook, standard input', 'PostToolUse hook, standard input'],
  );
  assert.deepEqual(
    exampleParts(call, undefined)
      .slice(2)
      .map((p) => p.title),
    ['preToolUse hook, standard input', 'PostToolUse hook, standard input'],
    'without the mechanism too',
  );
  const opencode = AGENTS.opencode.hooks;
  assert.ok(!('none' in opencode) && opencode.recordTitle);
  const titles = exampleParts(
    { ...call, hookEvents: ['tool.execute.before', 'tool.execute.after'] },
    opencode.shape,
    opencode.recordTitle,
  )
    .slice(2)
    .map((p) => p.title);
  assert.deepEqual(
    titles,
    ['tool.execute.before', 'tool.execute.after'].map((e) => opencode.recordTitle!.replace('{event}', e)),
  );
  assert.match(titles[0]!, /plugin/);
});
