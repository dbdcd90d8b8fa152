import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS_FILE, generateContentTypes, TYPES_FILE } from '../../scripts/generate-content-types.ts';
import { AGENT_IDS } from '../../src/lib/agents/index.ts';
import { contentAjv, sharedSchemas } from '../../src/lib/content/read.ts';
import type {
  Binding,
  Outcome,
  PayloadCall,
  PayloadFile,
  Scenario,
  ScenariosFile,
} from '../../src/lib/core/content-types.ts';

const ROOT = join(import.meta.dirname, '../..');

test('the content types are the ones generated from schemas/ (npm run generate:types)', async () => {
  assert.equal(
    readFileSync(join(ROOT, TYPES_FILE), 'utf8'),
    await generateContentTypes(ROOT),
    `${TYPES_FILE} is stale: run npm run generate:types`,
  );
});

test("the generated AgentId union lists the registry's ids, in its order (npm run generate:types)", () => {
  const text = readFileSync(join(ROOT, AGENT_IDS_FILE), 'utf8');
  const union = /export type AgentId =([^;]*);/.exec(text)?.[1] ?? '';
  assert.deepEqual(
    [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]),
    [...AGENT_IDS],
    `${AGENT_IDS_FILE} is stale: run npm run generate:types`,
  );
});

test('no schema lists agent ids: agent fields refer to agent-id.schema.json, whose format is the registry', () => {
  const listed: string[] = [];
  let refs = 0;
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    for (const v of [...(Array.isArray(o['enum']) ? o['enum'] : []), ...('const' in o ? [o['const']] : [])]) {
      if (typeof v === 'string' && (AGENT_IDS as readonly string[]).includes(v)) listed.push(`${at}: ${v}`);
    }
    if (o['$ref'] === 'agent-id.schema.json') refs++;
    for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
  };
  for (const file of readdirSync(join(ROOT, 'schemas')))
    walk(JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8')), file);
  assert.deepEqual(listed, []);
  assert.ok(refs > 0);
  const validate = contentAjv(sharedSchemas(ROOT).values()).getSchema(
    'https://agent-tools.invalid/schemas/agent-id.schema.json',
  )!;
  for (const id of AGENT_IDS) assert.equal(validate(id), true, id);
  for (const other of ['', 'not-registered', AGENT_IDS[0]!.toUpperCase(), `${AGENT_IDS[0]} `])
    assert.equal(validate(other), false, JSON.stringify(other));
});

test('the generated payload and scenario types take what recorded payloads and scenarios hold, and refuse what their schemas refuse', () => {
  // Checked by tsc (npm run check): each value below is shaped as a file of content/payloads/ or content/scenarios.json
  // is.
  const call: PayloadCall = {
    tool: 'T',
    input: { command: 'ls', nested: { a: [1] } },
    outcome: 'failure',
    result: { type: 'tool_result', content: 'x' },
    hooks: [{ hook_event_name: 'PreToolUse', tool_input: { command: 'ls' } }],
    // stream-json's tool_use_result is an object, a string (an error text) or an array.
    toolUseResult: 'Error: exit code 1',
    toolResultMeta: { decision: 'allow' },
    sessionLog: [{ type: 'item_started' }],
  };
  const texts: PayloadCall[] = [{ ...call, input: '*** Begin Patch', toolUseResult: [{ type: 'text' }] }];
  const payload: PayloadFile = {
    agent: AGENT_IDS[0]!,
    cli: { package: 'p', version: '1' },
    tool: 'T',
    scenario: 's',
    description: 'd',
    configuration: 'c',
    args: [],
    expect: 'success',
    calls: [call, ...texts],
    execEvents: [{ type: 'item.started' }],
  };
  const binding: Binding = { name: 'ID', pattern: 'id (\\d+)', type: 'number', volatile: true };
  const scenario: Scenario = {
    id: 's',
    tool: 'T',
    description: 'd',
    input: { a: 1 },
    expect: 'success',
    followUp: { tool: 'U', input: { id: '$ID' }, expect: 'success', bind: [binding] },
  };
  const scenarios: ScenariosFile = {
    agents: { [AGENT_IDS[0]!]: { configuration: 'c', scenarios: [scenario], cannotRun: [] } },
  };
  const outcome: Outcome = scenario.expect;
  // @ts-expect-error an input is an object or a string
  const badInput: PayloadCall['input'] = 1;
  // @ts-expect-error a hook payload's event, when it names one, is a string
  const badHook: PayloadCall['hooks'][number] = { hook_event_name: 1 };
  // @ts-expect-error an outcome is success or failure
  const badOutcome: Outcome = 'error';
  // The same values against the schemas: what the types take, the schemas accept.
  const ajv = contentAjv(sharedSchemas(ROOT).values());
  const schema = (file: string) => ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8')));
  const payloadSchema = schema('payload.schema.json');
  const scenariosSchema = schema('scenarios.schema.json');
  assert.equal(payloadSchema(payload), true, JSON.stringify(payloadSchema.errors));
  assert.equal(scenariosSchema(scenarios), true, JSON.stringify(scenariosSchema.errors));
  assert.equal(payloadSchema({ ...payload, calls: [{ ...call, input: badInput }] }), false);
  assert.equal(payloadSchema({ ...payload, calls: [{ ...call, hooks: [badHook] }] }), false);
  assert.equal(payloadSchema({ ...payload, expect: badOutcome }), false);
  assert.equal(outcome, 'success');
});
