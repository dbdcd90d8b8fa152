import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaAjv } from '../../scripts/lib/capture/ajv.ts';
import { AGENT_IDS, payloadDriver } from '../../src/lib/agents/index.ts';
import { loadMatrix, type Matrix } from '../../scripts/lib/capture/matrix.ts';
import {
  applyBindings,
  bindValues,
  loadScenarios,
  payloadFile,
  ScenarioError,
  scenarioCalls,
  scenarioTools,
  selectScenarios,
  validateScenarios,
} from '../../scripts/lib/payloads/scenarios.ts';
import type { ScenariosFile } from '../../src/lib/core/content-types.ts';
import { configurationWire, expandRunVariables, payloadSummary } from '../../scripts/lib/payloads/run.ts';

const ROOT = join(import.meta.dirname, '../..');
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'schemas/scenarios.schema.json'), 'utf8'));
const matrix: Matrix = loadMatrix(ROOT);

function file(scenarios: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { agents: { 'claude-code': { configuration: 'print', scenarios, cannotRun: [], ...extra } } };
}
const READ = {
  id: 'text-file',
  tool: 'Read',
  description: 'reads',
  input: { file_path: '$WORKDIR/a.txt' },
  expect: 'success' as const,
};

test('the committed content/scenarios.json is valid and every scenario has a unique payload file', () => {
  const scenarios = loadScenarios(ROOT, matrix);
  const selected = selectScenarios(scenarios, []);
  assert.ok(selected.length > 20);
  assert.equal(new Set(selected.map((s) => s.file)).size, selected.length);
  for (const agent of ['claude-code', 'codex'] as const) assert.ok(selected.some((s) => s.agent === agent));
});

test('every committed payload matches schemas/payload.schema.json and belongs to a declared scenario', () => {
  const validate = schemaAjv().compile(JSON.parse(readFileSync(join(ROOT, 'schemas/payload.schema.json'), 'utf8')));
  const declared = new Set(selectScenarios(loadScenarios(ROOT, matrix), []).map((s) => s.file));
  for (const agent of ['claude-code', 'codex']) {
    let names: string[] = [];
    try {
      names = readdirSync(join(ROOT, 'content/payloads', agent));
    } catch {
      continue; // not recorded yet
    }
    for (const name of names) {
      const payload = JSON.parse(readFileSync(join(ROOT, 'content/payloads', agent, name), 'utf8'));
      assert.ok(validate(payload), `${agent}/${name}: ${JSON.stringify(validate.errors)}`);
      assert.ok(declared.has(`${agent}/${name}`), `${agent}/${name} has no scenario in content/scenarios.json`);
    }
  }
});

test('validateScenarios refuses duplicates, unknown configurations, unused bindings and covered tools listed as not runnable', () => {
  assert.throws(() => validateScenarios(file([READ, READ]), SCHEMA, matrix), /declared twice/);
  assert.throws(
    () => validateScenarios(file([{ ...READ, configuration: 'no-such' }]), SCHEMA, matrix),
    /no configuration claude-code\/no-such/,
  );
  assert.throws(
    () =>
      validateScenarios(
        { agents: { 'claude-code': { configuration: 'nope', scenarios: [READ], cannotRun: [] } } },
        SCHEMA,
        matrix,
      ),
    /\/configuration/,
  );
  // Scenarios of an agent whose module declares no hook mechanism, or of no registered agent, are refused with the
  // reason.
  const withoutHooks = AGENT_IDS.find((id) => 'none' in payloadDriver(id));
  if (withoutHooks)
    assert.throws(
      () =>
        validateScenarios(
          { agents: { [withoutHooks]: { configuration: 'print', scenarios: [READ], cannotRun: [] } } },
          SCHEMA,
          matrix,
        ),
      /cannot be recorded/,
    );
  assert.throws(
    () =>
      validateScenarios(
        { agents: { 'not-registered': { configuration: 'print', scenarios: [READ], cannotRun: [] } } },
        SCHEMA,
        matrix,
      ),
    /\/agents: must match format "agent-id"/,
  );
  const unused = {
    ...READ,
    followUp: { tool: 'Read', input: { file_path: 'x' }, expect: 'success', bind: [{ name: 'ID', pattern: '(x)' }] },
  };
  assert.throws(
    () => validateScenarios(file([unused]), SCHEMA, matrix),
    /\$ID is bound but the follow-up input never uses it/,
  );
  assert.throws(
    () => validateScenarios(file([READ], { cannotRun: [{ tools: ['Read'], reason: 'r' }] }), SCHEMA, matrix),
    /Read has scenarios/,
  );
  assert.throws(
    () => validateScenarios(file([{ ...READ, expect: 'maybe' }]), SCHEMA, matrix),
    (e: unknown) => e instanceof ScenarioError && /does not match/.test(e.message),
  );
  assert.throws(
    () => validateScenarios(file([{ ...READ, files: { '../escape.txt': 'x' } }]), SCHEMA, matrix),
    /does not match/,
  );
  assert.ok(
    validateScenarios(file([READ, { ...READ, id: 'image', files: { 'a.png': { base64: 'AA==' } } }]), SCHEMA, matrix),
  );
});

test('selectScenarios takes agent, agent/tool (name or slug) and agent/tool/scenario, and names what it cannot find', () => {
  const f = validateScenarios(
    file([READ, { ...READ, id: 'missing' }, { ...READ, id: 'x', tool: 'Bash', input: { command: 'true' } }]),
    SCHEMA,
    matrix,
  ) as ScenariosFile;
  assert.deepEqual(
    selectScenarios(f, []).map((s) => s.key),
    ['claude-code/read/text-file', 'claude-code/read/missing', 'claude-code/bash/x'],
  );
  assert.deepEqual(
    selectScenarios(f, ['claude-code/Read']).map((s) => s.key),
    ['claude-code/read/text-file', 'claude-code/read/missing'],
  );
  assert.deepEqual(
    selectScenarios(f, ['claude-code/read/missing']).map((s) => s.file),
    ['claude-code/read.missing.json'],
  );
  assert.equal(selectScenarios(f, ['claude-code']).length, 3);
  assert.equal(selectScenarios(f, [])[0]!.configuration, 'print');
  assert.throws(() => selectScenarios(f, ['codex']), /--only codex: no such/);
  assert.throws(() => selectScenarios(f, ['claude-code/read/nope']), /no such/);
});

test('payload files are named by agent, tool slug and scenario id', () => {
  assert.equal(payloadFile('codex', 'clock.sleep', 'short'), 'codex/clock.sleep.short.json');
  assert.equal(
    payloadFile('claude-code', 'NotebookEdit', 'replace-cell'),
    'claude-code/notebookedit.replace-cell.json',
  );
});

test('a scenario calls its before call, its own, then its follow-up; its tools are listed once each', () => {
  const s = {
    ...READ,
    tool: 'NotebookEdit',
    before: { tool: 'Read', input: {}, expect: 'success' as const },
    followUp: { tool: 'Read', input: {}, expect: 'success' as const },
  };
  assert.deepEqual(
    scenarioCalls(s).map((c) => c.tool),
    ['Read', 'NotebookEdit', 'Read'],
  );
  assert.deepEqual(scenarioTools(s), ['Read', 'NotebookEdit']);
});

test('bindValues reads the first group of each pattern, as a number when asked, and says when nothing matches', () => {
  const values = bindValues(
    [
      { name: 'SESSION_ID', pattern: 'session ID (\\d+)', type: 'number' },
      { name: 'TASK_ID', pattern: 'with ID: (\\w+)' },
    ],
    'Process running with session ID 51904; with ID: b5cx10yj7.',
  );
  assert.deepEqual(
    [...values],
    [
      ['SESSION_ID', 51904],
      ['TASK_ID', 'b5cx10yj7'],
    ],
  );
  assert.throws(() => bindValues([{ name: 'X', pattern: 'id (\\d+)' }], 'nothing'), /\$X .* found nothing/);
  assert.throws(() => bindValues([{ name: 'X', pattern: 'id (\\w+)', type: 'number' }], 'id abc'), /not a number/);
});

test('applyBindings keeps a whole-value token typed and fills tokens inside text, leaving other $ text alone', () => {
  const values = new Map<string, string | number>([
    ['SESSION_ID', 7],
    ['TASK_ID', 'b1'],
  ]);
  assert.deepEqual(
    applyBindings({ session_id: '$SESSION_ID', note: 'task $TASK_ID of $OTHER', list: ['$TASK_ID'] }, values),
    { session_id: 7, note: 'task b1 of $OTHER', list: ['b1'] },
  );
  assert.equal(applyBindings('echo $SESSION_ID', values), 'echo 7');
});

test('expandRunVariables fills only the run variables, in strings at any depth, never in keys', () => {
  const vars = { WORKDIR: '/run/work', HOME: '/run/home' };
  assert.deepEqual(expandRunVariables({ file_path: '$WORKDIR/a', cmd: 'echo $line $HOME', $WORKDIR: 1, n: 3 }, vars), {
    file_path: '/run/work/a',
    cmd: 'echo $line /run/home',
    $WORKDIR: 1,
    n: 3,
  });
  assert.equal(expandRunVariables('*** Add File: $WORKDIR/x\n', vars), '*** Add File: /run/work/x\n');
});

test('payloadSummary names each call, its outcome, its hooks and its structured result', () => {
  const line = payloadSummary('claude-code/bash/background', {
    calls: [
      {
        tool: 'Bash',
        outcome: 'success',
        hooks: [{ hook_event_name: 'PreToolUse' }, { hook_event_name: 'PostToolUse' }],
        toolUseResult: {},
      },
      { tool: 'TaskStop', outcome: 'success', hooks: [] },
    ],
  });
  assert.match(line, /Bash success \(PreToolUse, PostToolUse; tool_use_result\) → TaskStop success \(no hooks\)$/); // An agent whose payloads name their event in another member (Pi's `type`) is read by that member.
  const pi = payloadSummary(
    'pi/bash/short',
    { calls: [{ tool: 'bash', outcome: 'success', hooks: [{ type: 'tool_call' }, { type: 'tool_result' }] }] },
    'type',
  );
  assert.match(pi, /bash success \(tool_call, tool_result\)$/);
});

test("a scenario's calls go over the wire format its configuration's capture recorded, when the stub can call through it", () => {
  const wire = (path: string, calls: boolean) => ({
    name: path,
    isToolRequestPath: (p: string) => p === path,
    ...(calls ? { toolCalls: {} } : {}),
  });
  const chat = wire('/v1/chat/completions', true);
  const messages = wire('/v1/messages', true);
  const gemini = wire('/v1beta/models', false);
  const wires = [chat, messages, gemini];
  assert.equal(
    configurationWire(wires, '/v1/messages', chat as typeof chat & { toolCalls: object }).name,
    '/v1/messages',
  );
  assert.equal(
    configurationWire(wires, '/v1/chat/completions', chat as typeof chat & { toolCalls: object }).name,
    '/v1/chat/completions',
  );
  // No capture, a path of no wire, a wire the stub cannot call through: the agent's first calling wire.
  assert.equal(
    configurationWire(wires, undefined, chat as typeof chat & { toolCalls: object }).name,
    '/v1/chat/completions',
  );
  assert.equal(
    configurationWire(wires, '/elsewhere', chat as typeof chat & { toolCalls: object }).name,
    '/v1/chat/completions',
  );
  assert.equal(
    configurationWire(wires, '/v1beta/models', chat as typeof chat & { toolCalls: object }).name,
    '/v1/chat/completions',
  );
});
