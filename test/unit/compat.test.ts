/**
 * Support facts (src/lib/views/support.ts) and a job's compatibility table
 * (src/lib/views/compat-table.ts), from a site model and a history written by hand:
 * which release added what, which agent has no history, which gates turn a
 * tool on and which names its hooks gave it are all known in advance.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_IDS, AGENT_PRODUCTS } from '../../src/lib/agents/index.ts';
import { buildComparison } from '../../src/lib/model/comparison.ts';
import { compatTable } from '../../src/lib/views/compat-table.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';
import type { SiteModel, ToolModel } from '../../src/lib/model/model.ts';
import { gateParts, supportStrip, turnedOnBy } from '../../src/lib/views/support.ts';
import { toolHistory } from '../../src/lib/history/tool-history.ts';
import { attachToolFacts } from '../../src/lib/content/tool-facts.ts';
import { hookToolNames } from '../../src/lib/behaviour/tool-hook-payloads.ts';
import { agent, row, site, tool, view } from '../helpers/model-fixtures.ts';

/** A field row of the input table (`row` leaves out the table, which the history's "since" reads). */
const inputRow = (id: string) => ({ ...row(id), root: 'input', stableId: id }) as ReturnType<typeof row>;

const [A, B, C] = AGENT_IDS as [(typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number]];

/**
 * A's SDK history: releases 1.0.0 → 1.1.0 → 1.2.0 (bundling CLI 5.0.0, 5.1.0, 5.2.0); Run added in 1.1.0, its `timeout`
 * in 1.2.0; Gone removed in 1.2.0.
 */
const HISTORY: HistoryFile = {
  agent: A,
  source: 'sdk',
  package: 'fixture-sdk',
  method: 'fixture',
  releases: [
    { version: '1.0.0', cliVersion: '5.0.0' },
    { version: '1.1.0', cliVersion: '5.1.0' },
    { version: '1.2.0', cliVersion: '5.2.0' },
  ],
  events: [
    { release: '1.1.0', previous: '1.0.0', tool: 'Run', kind: 'tool-added' },
    {
      release: '1.1.0',
      previous: '1.0.0',
      tool: 'Run',
      kind: 'field-added',
      side: 'input',
      field: '.command',
      path: 'command',
      to: 'string',
    },
    {
      release: '1.2.0',
      previous: '1.1.0',
      tool: 'Run',
      kind: 'field-added',
      side: 'input',
      field: '.timeout',
      path: 'timeout',
      to: 'number',
    },
    { release: '1.2.0', previous: '1.1.0', tool: 'Gone', kind: 'tool-removed' },
  ],
};

/** The fixture site, with each tool's facts computed from it as the loader's last stage does. */
function fixture(): SiteModel {
  const model = site({
    agents: [agent(A), agent(B), agent(C)],
    tools: [
      tool(A, 'Run', {
        source: 'sdk',
        input: view('typescript', [inputRow('input.command'), inputRow('input.timeout')]),
        aliases: [
          { name: 'Execute', kind: 'former-name', evidence: 'fixture' },
          { name: 'RunInput', kind: 'sdk-type', evidence: 'fixture' },
        ],
        editorial: {
          jobs: ['shell'],
          availability: {
            prose: '',
            gates: [
              { kind: 'always', name: 'default', effect: 'enables' },
              { kind: 'flag', name: '--no-run', effect: 'disables' },
              { kind: 'env', name: 'RUN_MORE', value: '1', effect: 'enables' },
              { kind: 'feature', name: 'shell', effect: 'requires' },
            ],
          },
        },
        captured: { print: 'function' },
      }),
      tool(A, 'Old', { source: 'sdk', input: view('typescript', [row('input.path')]), editorial: { jobs: ['shell'] } }),
      tool(A, 'Captured', { source: 'capture', input: view('json-schema', [row('input.x')]) }),
      tool(B, 'sh', { input: view('json-schema', [row('input.cmd')]), editorial: { jobs: ['shell'] } }),
    ],
    jobs: [{ id: 'shell', title: 'Run a shell command', description: 'Run one.' }],
    comparisons: [
      {
        job: 'shell',
        concepts: [
          {
            id: 'command',
            label: 'The command',
            fields: [
              { agent: A, tool: 'Run', field: 'input.command' },
              { agent: B, tool: 'sh', field: 'input.cmd' },
            ],
          },
          { id: 'timeout', label: 'Time limit', fields: [{ agent: A, tool: 'Run', field: 'input.timeout' }] },
        ],
      },
    ] as never,
    histories: [HISTORY],
  });
  attachToolFacts(model);
  return model;
}

const named = (model: SiteModel, name: string): ToolModel => model.tools.find((t) => t.fullName === name)!;

test('a gate in a few words, and the gates that turn a tool on (not those that turn it off)', () => {
  assert.deepEqual(gateParts({ kind: 'always', name: 'default', effect: 'enables' }), { words: 'on by default' });
  assert.deepEqual(gateParts({ kind: 'always', name: 'never', effect: 'disables' }), { words: 'always off' });
  assert.deepEqual(gateParts({ kind: 'env', name: 'X', value: '1', effect: 'enables' }), {
    words: 'on with env',
    setting: 'X=1',
  });
  assert.deepEqual(gateParts({ kind: 'feature', name: 'f', effect: 'requires' }), {
    words: 'needs feature',
    setting: 'f',
  });
  assert.deepEqual(gateParts({ kind: 'host', name: 'Windows without Git Bash', effect: 'disables' }), {
    words: 'off with host',
    setting: 'Windows without Git Bash',
  });
  assert.deepEqual(gateParts({ kind: 'flag', name: '--disallowedTools', value: 'Bash', effect: 'disables' }), {
    words: 'off with flag',
    setting: '--disallowedTools=Bash',
  });
  const model = fixture();
  assert.deepEqual(turnedOnBy(named(model, 'Run')), [
    { words: 'on by default' },
    { words: 'on with env', setting: 'RUN_MORE=1' },
    { words: 'needs feature', setting: 'shell' },
  ]);
  assert.deepEqual(turnedOnBy(named(model, 'Old')), []);
  assert.equal(turnedOnBy(named(model, 'Captured')), undefined);
});

test("a tool's place in its histories: added in a CLI release, before the first release compared, uncovered, or no history", () => {
  const model = fixture();
  assert.deepEqual(toolHistory(named(model, 'Run'), model.histories), {
    kind: 'lines',
    lines: [{ source: 'sdk', state: 'added', release: '5.1.0', href: `/${A}/changelog/#5.1.0` }],
  });
  assert.deepEqual(toolHistory(named(model, 'Old'), model.histories), {
    kind: 'lines',
    lines: [{ source: 'sdk', state: 'before', release: '5.0.0' }],
  });
  // A tool known from captures only, and no capture history: the SDK history does not speak about it.
  assert.deepEqual(toolHistory(named(model, 'Captured'), model.histories), { kind: 'uncovered', followed: [] });
  assert.deepEqual(toolHistory(named(model, 'sh'), model.histories), { kind: 'none' });
});

test('the support strip: releases, former names, every gate, names in hooks and for the model', () => {
  const model = fixture();
  const run = named(model, 'Run');
  run.examples = [
    {
      file: 'f',
      scenario: 's',
      description: 'd',
      expect: 'success',
      configuration: 'print',
      cli: { package: 'p', version: '5.2.0' },
      calls: [
        {
          tool: 'Run',
          own: true,
          input: {},
          hooks: [
            { hook_event_name: 'PreToolUse', tool_name: 'Shell', tool_input: {} },
            { hook_event_name: 'PostToolUse', tool_name: 'Shell' },
          ],
        },
        { tool: 'Other', own: false, input: {}, hooks: [{ tool_name: 'NotThisTool', tool_input: {} }] },
      ],
      findings: [],
    },
  ] as never;
  // The names its hooks gave it, as the loader computes them once its examples are read.
  run.facts.hooks.names = hookToolNames(run.agent, run.examples);
  const strip = supportStrip(run, toolHistory(run, model.histories));
  assert.deepEqual(strip.history, {
    lines: [
      {
        source: 'sdk',
        state: 'added',
        release: '5.1.0',
        href: `/${A}/changelog/#5.1.0`,
        label: 'SDK types',
        text: 'added in 5.1.0',
      },
    ],
  });
  assert.deepEqual(strip.renamedFrom, ['Execute']);
  assert.deepEqual(strip.gates, [
    { words: 'on by default' },
    { words: 'off with flag', setting: '--no-run' },
    { words: 'on with env', setting: 'RUN_MORE=1' },
    { words: 'needs feature', setting: 'shell' },
  ]);
  assert.deepEqual(strip.hookNames, ['Shell']);
  assert.equal(strip.modelName, 'Run');

  const sh = supportStrip(named(model, 'sh'), toolHistory(named(model, 'sh'), model.histories));
  assert.deepEqual(sh.history, { text: `no history for ${AGENT_PRODUCTS[B]} yet` });
  assert.deepEqual([sh.hookNames, sh.modelName, sh.gates], [[], undefined, []]);
  assert.deepEqual(
    supportStrip(named(model, 'Captured'), toolHistory(named(model, 'Captured'), model.histories)).history,
    {
      text: 'not covered by the release history',
    },
  );
});

test('a capture history none of whose configurations advertises the tool claims no release, and says what it follows', () => {
  const model = fixture();
  const captured = named(model, 'Captured');
  const followed = ['cfg-one', 'cfg-two'];
  assert.ok(
    followed.every((c) => !captured.captured?.byConfig.has(c)),
    'the fixture tool is advertised in other configurations',
  );
  const capture: HistoryFile = {
    agent: A,
    source: 'capture',
    package: 'fixture-cli',
    method: 'fixture',
    configurations: followed,
    releases: [{ version: '5.0.0' }, { version: '5.2.0' }],
    events: [],
  };
  const histories = [...model.histories, capture];
  assert.deepEqual(toolHistory(captured, histories), { kind: 'uncovered', followed: [followed] });
  const text = (supportStrip(captured, toolHistory(captured, histories)).history as { text: string }).text;
  assert.equal(
    text,
    'captures: the history follows the configurations cfg-one and cfg-two, and none of them advertises this tool',
  );
  assert.doesNotMatch(text, /since|before|added|in \d/);
});

test("a job's compatibility table: agents as columns, tools with releases and gates, each meaning's fields with their since", () => {
  const model = fixture();
  const job = model.jobs[0]!;
  const table = compatTable(
    model,
    buildComparison(
      job,
      model.tools,
      model.agents.map((a) => a.id),
      model.comparisons[0],
    ),
    (id) => `concept-${id}`,
  );
  assert.deepEqual(
    table.agents.map((a) => a.label),
    [AGENT_PRODUCTS[A], AGENT_PRODUCTS[B], AGENT_PRODUCTS[C]],
  );
  assert.match(table.caption, /^Run a shell command: /);
  assert.deepEqual(table.tools, [
    [
      {
        tool: { name: 'Old', href: `/${A}/old/` },
        since: [{ text: 'already there in 5.0.0' }],
        gates: { shown: [], more: 0, href: `/${A}/old/#availability` },
      },
      {
        tool: { name: 'Run', href: `/${A}/run/` },
        since: [{ text: 'added in 5.1.0', href: `/${A}/changelog/#5.1.0` }],
        gates: {
          shown: [{ words: 'on by default' }, { words: 'on with env', setting: 'RUN_MORE=1' }],
          more: 1,
          href: `/${A}/run/#availability`,
        },
      },
    ],
    [
      {
        tool: { name: 'sh', href: `/${B}/sh/` },
        since: [{ text: 'no history yet' }],
        gates: { shown: [], more: 0, href: `/${B}/sh/#availability` },
      },
    ],
    [],
  ]);
  assert.deepEqual(table.rows, [
    {
      label: 'The command',
      href: '#concept-command',
      cells: [
        // A has two tools for the job, so the field names its tool; `command` came with Run.
        [
          {
            tool: { name: 'Run', href: `/${A}/run/` },
            field: { name: 'command', href: `/${A}/run/#input.command` },
            since: { text: 'since 5.1.0', href: `/${A}/run/#since-tool-sdk` },
          },
        ],
        [{ tool: undefined, field: { name: 'cmd', href: `/${B}/sh/#input.cmd` }, since: { text: 'no history yet' } }],
        [],
      ],
    },
    {
      label: 'Time limit',
      href: '#concept-timeout',
      cells: [
        [
          {
            tool: { name: 'Run', href: `/${A}/run/` },
            field: { name: 'timeout', href: `/${A}/run/#input.timeout` },
            since: { text: 'since 5.2.0', href: `/${A}/run/#since-input.timeout` },
          },
        ],
        [],
        [],
      ],
    },
  ]);
});
