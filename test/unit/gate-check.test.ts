/**
 * Availability gates against captured configurations (src/lib/check/gate-check.ts):
 * conditions, necessity, sufficiency, the named exceptions and the models a
 * model gate is established for. The fixtures are contrasting configurations
 * written here; what each should give is worked out by hand beside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkGates, satisfies, type ConfigurationFacts } from '../../src/lib/check/gate-check.ts';
import type { Gate } from '../../src/lib/core/content-types.ts';

const base = { wire: 'openai-chat-completions', mode: 'print', env: {}, args: [] } as const;
/** Four configurations: two models, two wire formats, one with a flag, one interactive with a setting. */
const CONFIGS: ConfigurationFacts[] = [
  { ...base, id: 'small', model: 'model-a' },
  { ...base, id: 'big-chat', model: 'model-b' },
  { ...base, id: 'big-responses', model: 'model-b', wire: 'openai-responses', env: { OFFLINE: 'true' } },
  {
    ...base,
    id: 'tui',
    model: 'model-a',
    mode: 'interactive',
    args: ['--plan', '--excluded-tools', 'x,y'],
    settings: { tools: { search: { enabled: false } } },
  },
];
const ids = (...list: string[]) => new Set(list);

test('a condition holds when every member it gives holds', () => {
  const [small, , responses, tui] = CONFIGS as [
    ConfigurationFacts,
    ConfigurationFacts,
    ConfigurationFacts,
    ConfigurationFacts,
  ];
  assert.equal(satisfies({}, small), true);
  assert.equal(satisfies({ model: ['model-b'] }, small), false);
  assert.equal(satisfies({ model: ['model-b'], wire: ['openai-responses'] }, responses), true);
  assert.equal(satisfies({ model: ['model-b'], wire: ['anthropic-messages'] }, responses), false);
  assert.equal(satisfies({ env: { OFFLINE: 'true' } }, responses), true);
  assert.equal(satisfies({ env: { OFFLINE: null } }, responses), false);
  assert.equal(satisfies({ env: { OFFLINE: null } }, small), true);
  assert.equal(satisfies({ args: ['--plan'] }, tui), true);
  // Arguments are a run: `--excluded-tools x,y` is not `--plan x,y`.
  assert.equal(satisfies({ args: ['--plan', 'x,y'] }, tui), false);
  assert.equal(satisfies({ withoutArgs: ['--plan'] }, tui), false);
  assert.equal(satisfies({ argsListing: { flag: '--excluded-tools', item: 'y' } }, tui), true);
  assert.equal(satisfies({ argsListing: { flag: '--excluded-tools', item: 'z' } }, tui), false);
  assert.equal(satisfies({ argsMention: 'exclude' }, tui), true);
  assert.equal(satisfies({ settings: { 'tools.search.enabled': false } }, tui), true);
  assert.equal(satisfies({ settings: { 'tools.search.enabled': true } }, tui), false);
  assert.equal(satisfies({ settings: { 'tools.search': null } }, small), true);
  assert.equal(satisfies({ mode: ['interactive'] }, tui), true);
});

test('catalog conditions read the entry of the model the request names; a model without one satisfies none of them', () => {
  const listed: ConfigurationFacts = {
    ...base,
    id: 'listed',
    model: 'model-a',
    catalog: { tool_mode: 'code_mode_only', extra: { tools: ['clock', 'notes'] }, web: null },
  };
  const missing: ConfigurationFacts = { ...base, id: 'missing', model: 'model-x', catalog: null };
  const noCatalog: ConfigurationFacts = { ...base, id: 'no-catalog', model: 'model-a' };
  assert.equal(satisfies({ catalogEntry: true }, listed), true);
  assert.equal(satisfies({ catalogEntry: false }, listed), false);
  assert.equal(satisfies({ catalogEntry: false }, missing), true);
  // An agent without a catalog says nothing either way.
  assert.equal(satisfies({ catalogEntry: false }, noCatalog), false);
  assert.equal(satisfies({ catalogEntry: true }, noCatalog), false);
  assert.equal(satisfies({ catalog: { tool_mode: 'code_mode_only' } }, listed), true);
  assert.equal(satisfies({ catalog: { tool_mode: 'default' } }, listed), false);
  // null: absent or null.
  assert.equal(satisfies({ catalog: { web: null, absent: null } }, listed), true);
  assert.equal(satisfies({ catalog: { tool_mode: null } }, listed), false);
  assert.equal(satisfies({ catalog: { tool_mode: null } }, missing), false);
  assert.equal(satisfies({ catalogLists: { 'extra.tools': 'notes' } }, listed), true);
  assert.equal(satisfies({ catalogLists: { 'extra.tools': 'web' } }, listed), false);
  assert.equal(satisfies({ catalogLists: { 'extra.tools': ['web', 'notes'] } }, listed), true);
  assert.equal(satisfies({ catalogLists: { 'extra.tools': ['web', 'mail'] } }, listed), false);
  // Two ways in: listed in the entry, or no entry (fallback settings).
  const imageOrFallback = { anyOf: [{ catalogLists: { 'extra.tools': 'clock' } }, { catalogEntry: false }] };
  assert.equal(satisfies(imageOrFallback, listed), true);
  assert.equal(satisfies(imageOrFallback, missing), true);
  assert.equal(satisfies(imageOrFallback, { ...listed, catalog: { extra: { tools: [] } } }), false);
  assert.equal(
    satisfies({ anyOf: [{ catalogEntry: false }, { model: ['model-x'] }], wire: ['openai-responses'] }, missing),
    false,
  );
  assert.equal(satisfies({ catalogLists: { tool_mode: 'code_mode_only' } }, listed), false);
  assert.equal(satisfies({ catalogLists: { 'extra.tools': 'clock' } }, missing), false);
});

const modelGate = (effect: Gate['effect'], models: string[]): Gate => ({
  kind: 'model',
  name: models.join(', '),
  effect,
  when: { model: models },
  modelsCompared: ['model-a', 'model-b'],
});

test('a model requirement holds when every advertising configuration asks that model and every other one does not', () => {
  const { problems, statuses } = checkGates(
    [modelGate('requires', ['model-b'])],
    CONFIGS,
    ids('big-chat', 'big-responses'),
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(statuses, [
    { kind: 'checked', satisfiedBy: ['big-chat', 'big-responses'], total: 4, modelsCompared: ['model-a', 'model-b'] },
  ]);
});

test('necessity: a configuration that advertises the tool without what the gate requires contradicts it', () => {
  // "requires model-b", but the small model's configuration has the tool too (the gpt-5.4 case of issue 19).
  const { problems } = checkGates(
    [modelGate('requires', ['model-b'])],
    CONFIGS,
    ids('small', 'big-chat', 'big-responses'),
  );
  assert.deepEqual(
    problems.map((p) => [p.pointer, p.rule]),
    [['/availability/gates/0', 'gate-necessary']],
  );
  assert.match(problems[0]!.message, /small/);
});

test('sufficiency: a configuration that satisfies the gate and lacks the tool contradicts it, unless it is named with a reason', () => {
  // "gpt-5.5 over Responses requires": stated as model only, the Chat Completions configuration lacks it.
  const gates = [modelGate('requires', ['model-b'])];
  const { problems } = checkGates(gates, CONFIGS, ids('big-responses'));
  assert.deepEqual(
    problems.map((p) => [p.pointer, p.rule]),
    [['/availability/gates/0', 'gate-sufficient']],
  );
  assert.match(problems[0]!.message, /big-chat/);
  assert.deepEqual(
    checkGates(gates, CONFIGS, ids('big-responses'), [{ configuration: 'big-chat', reason: 'checked by hand' }])
      .problems,
    [],
  );
  // Naming the wire format makes the gate agree with the captures.
  const precise: Gate[] = [{ ...gates[0]!, when: { model: ['model-b'], wire: ['openai-responses'] } }];
  assert.deepEqual(checkGates(precise, CONFIGS, ids('big-responses')).problems, []);
});

test('a gate that disables the tool is contradicted where it holds and the tool is advertised', () => {
  const gates: Gate[] = [
    { kind: 'always', name: 'default', effect: 'enables', when: {} },
    { kind: 'env', name: 'OFFLINE', value: 'true', effect: 'disables', when: { env: { OFFLINE: 'true' } } },
  ];
  assert.deepEqual(checkGates(gates, CONFIGS, ids('small', 'big-chat', 'tui')).problems, []);
  const advertisedOffline = checkGates(gates, CONFIGS, ids('small', 'big-chat', 'big-responses', 'tui')).problems;
  assert.deepEqual(
    advertisedOffline.map((p) => [p.pointer, p.rule]),
    [['/availability/gates/1', 'gate-necessary']],
  );
  // Missing from a configuration no disabling gate covers: "always" is not true there.
  const missing = checkGates(gates, CONFIGS, ids('small', 'tui')).problems;
  assert.deepEqual(
    missing.map((p) => [p.pointer, p.rule]),
    [['/availability/gates/0', 'gate-sufficient']],
  );
  assert.match(missing[0]!.message, /big-chat/);
});

test('an advertising configuration that no enabling gate covers contradicts them, unless a requirement holds there', () => {
  const enables: Gate = { kind: 'flag', name: '--plan', effect: 'enables', when: { args: ['--plan'] } };
  assert.deepEqual(checkGates([enables], CONFIGS, ids('tui')).problems, []);
  assert.deepEqual(
    checkGates([enables], CONFIGS, ids('tui', 'small')).problems.map((p) => p.rule),
    ['gate-necessary'],
  );
  const requires: Gate = { kind: 'mode', name: 'print', effect: 'requires', when: { mode: ['print'] } };
  // With a requirement that holds in `small`, the tool may be on there for a reason not checked.
  assert.deepEqual(checkGates([enables, { ...requires, when: {} }], CONFIGS, ids('tui', 'small')).problems, []);
});

test('a gate without a condition is not checked, and keeps a gate that might disable the tool from being called sufficient', () => {
  const gates: Gate[] = [
    { kind: 'always', name: 'default', effect: 'enables', when: {} },
    { kind: 'host', name: 'a host the captures do not vary', effect: 'disables' },
  ];
  const { problems, statuses } = checkGates(gates, CONFIGS, ids('small'));
  assert.deepEqual(problems, []);
  assert.deepEqual(statuses[1], { kind: 'unchecked' });
});

test('a gate on the model must list the models the captures ask for, and no others', () => {
  const gate = modelGate('requires', ['model-b']);
  const advertised = ids('big-chat', 'big-responses');
  const without = checkGates([{ ...gate, modelsCompared: undefined } as unknown as Gate], CONFIGS, advertised).problems;
  assert.deepEqual(
    without.map((p) => [p.pointer, p.rule]),
    [['/availability/gates/0', 'gate-models-compared']],
  );
  assert.match(without[0]!.message, /\["model-a","model-b"\]/);
  const stale = checkGates([{ ...gate, modelsCompared: ['model-b'] }], CONFIGS, advertised).problems;
  assert.deepEqual(
    stale.map((p) => [p.pointer, p.rule]),
    [['/availability/gates/0/modelsCompared', 'gate-models-compared']],
  );
});

test('an exception must name a captured configuration that lacks the tool', () => {
  const gates = [modelGate('requires', ['model-b'])];
  const { problems } = checkGates(gates, CONFIGS, ids('big-chat', 'big-responses'), [
    { configuration: 'nowhere', reason: 'x' },
    { configuration: 'big-chat', reason: 'y' },
  ]);
  assert.deepEqual(
    problems.map((p) => [p.pointer, p.rule]),
    [
      ['/availability/notAdvertisedIn/0/configuration', 'gate-exception-known'],
      ['/availability/notAdvertisedIn/1/configuration', 'gate-exception-known'],
    ],
  );
});

test('the page says how each gate fares against the captures', async () => {
  const { gateStatusText } = await import('../../src/lib/check/gate-check.ts');
  assert.equal(gateStatusText({ kind: 'unchecked' }), 'not checked against the captures');
  assert.equal(
    gateStatusText({ kind: 'checked', satisfiedBy: [], total: 4 }),
    'checked against the captures: no captured configuration satisfies it',
  );
  assert.equal(
    gateStatusText({ kind: 'checked', satisfiedBy: ['a', 'b'], total: 4, modelsCompared: ['m1', 'm2'] }),
    'checked against the captures: holds in 2 of 4 captured configurations; established for the captured models only (m1, m2)',
  );
});
