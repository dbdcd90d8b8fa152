/**
 * The agent page's view model (src/lib/views/agent-page.ts): built from small site
 * models written by hand, whose every count, mark and link is known in
 * advance; and, for the real content, the configuration list read straight
 * from content/capture-matrix.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentPage, configurationCommand } from '../../src/lib/views/agent-page.ts';
import { AGENT_IDS, AGENT_PRODUCTS, AGENTS } from '../../src/lib/agents/index.ts';
import type { AgentInventory } from '../../src/lib/model/model.ts';
import { pageHeadings } from '../../src/lib/core/page-sections.ts';
import { agent, configuration, matrix, site, tool, view } from '../helpers/model-fixtures.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const [A, B] = AGENT_IDS as [(typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number]];

const inventory: AgentInventory = {
  agent: A,
  file: 'content/inventory/a.json',
  version: '1.2.3',
  names: ['Alpha', 'Hidden', 'Gone'],
  aliases: [],
  structuredAliases: [{ alias: 'OldAlpha', tool: 'Alpha' }],
  unadvertised: [
    { name: 'Hidden', aliases: ['Peek'], gate: { gate: 'flag_x', source: 'binary' } },
    { name: 'Gone', aliases: [] },
  ],
  counts: { names: 3, captured: 1, sdk: 0, onlyRegistered: 2 },
};

/** Agent A: four tools in two groups, three configurations, an inventory; agent B: one tool, nothing else. */
function fixture() {
  return site({
    agents: [agent(A, { sources: [{ package: 'pkg', version: '9.9.9', files: ['a.js'], role: 'the CLI' }] }), agent(B)],
    tools: [
      tool(A, 'Alpha', {
        source: 'sdk',
        input: view('typescript'),
        output: view('typescript'),
        captured: { base: 'function', extra: 'function', lean: 'deferred' },
        editorial: { summary: 'Does `alpha`.' },
      }),
      tool(A, 'Beta', { captured: { extra: 'code-mode' } }),
      tool(A, 'Gamma', { source: 'documented', input: view('unavailable') }),
      tool(A, 'mcp__x', { group: 'mcp', captured: { base: 'defer-loading' } }),
      tool(B, 'Other'),
    ],
    matrix: {
      agents: {
        [A]: matrix([
          configuration('base'),
          configuration('extra', { env: { X: '1' }, args: ['--more'] }),
          configuration('lean', { args: ['--lean'] }),
        ]),
      },
    },
    inventory: [inventory],
    removedTools: [
      {
        agent: A,
        name: 'Gone',
        slug: 'gone',
        source: 'sdk',
        lastSeen: '1.0.0',
        removedIn: '1.1.0',
        removedExactly: true,
        firstCompared: '0.9.0',
        file: 'content/history/a.json',
      },
    ],
  });
}

test('sections: tools, one per group with its count, the matrix and configurations, registered names, sources, kinds', () => {
  const page = agentPage(fixture(), A);
  assert.deepEqual(
    page.sections.map((s) => [s.id, s.title, s.depth]),
    [
      ['tools', 'Tools', 2],
      ['group-built-in', 'Built in (3)', 3],
      ['group-mcp', 'MCP and dynamic tools (1)', 3],
      ['matrix', 'Which tools each configuration advertises', 2],
      ['configurations', 'Captured configurations', 2],
      ['registered-not-advertised', 'Registered but never advertised', 2],
      ['sources', 'Sources', 2],
      ['definition-kinds', 'Definitions by kind', 2],
    ],
  );
  // Every heading the page renders is an entry of that one list, so "On this page" cannot disagree with it.
  const rendered = [
    page.tools.section,
    ...page.tools.groups.map((g) => g.section),
    page.matrix?.section,
    page.configurations?.section,
    page.registered?.section,
    page.sources.section,
    page.definitionKinds.section,
  ];
  assert.deepEqual(rendered, page.sections);
  assert.deepEqual(pageHeadings(page.sections)[1], { depth: 3, slug: 'group-built-in', text: 'Built in (3)' });
});

test('an agent without captures or inventory has neither matrix nor registered names', () => {
  const page = agentPage(fixture(), B);
  assert.deepEqual(
    page.sections.map((s) => s.id),
    ['tools', 'group-built-in', 'sources', 'definition-kinds'],
  );
  assert.equal(page.matrix, undefined);
  assert.equal(page.configurations, undefined);
  assert.equal(page.registered, undefined);
  assert.equal(page.facts.registered, undefined);
  assert.equal(page.title, AGENT_PRODUCTS[B]);
  assert.equal(page.description, `1 tools of Product ${B} 1.2.3`);
});

test('facts count tools by source, and the binary counts come from the inventory', () => {
  const page = agentPage(fixture(), A);
  assert.deepEqual(page.facts.tools, { total: 4, sdk: 1, capture: 2, documented: 1 });
  assert.deepEqual(page.facts.registered, { names: 3, captured: 1, sdk: 0, onlyRegistered: 2 });
  assert.equal(page.facts.features, undefined);
  const withFeatures = fixture();
  withFeatures.inventory = [
    { ...inventory, names: [], features: 224, featuresCommand: 'x features list', handlerModules: ['a.rs', 'b.rs'] },
  ];
  const other = agentPage(withFeatures, A);
  assert.deepEqual(other.facts.features, {
    count: 224,
    command: 'x features list',
    handlerFiles: 2,
    file: 'content/inventory/a.json',
  });
  // An inventory without names lists none.
  assert.equal(other.registered, undefined);
  assert.ok(!other.sections.some((s) => s.id === 'registered-not-advertised'));
});

test('tool index rows: link, summary when written, kinds of input and result', () => {
  const [builtIn, mcp] = agentPage(fixture(), A).tools.groups;
  assert.deepEqual(builtIn!.tools, [
    { url: `/${A}/alpha/`, name: 'Alpha', summary: 'Does `alpha`.', input: 'TypeScript', result: 'TypeScript' },
    { url: `/${A}/beta/`, name: 'Beta', summary: undefined, input: 'JSON Schema', result: 'Unavailable' },
    { url: `/${A}/gamma/`, name: 'Gamma', summary: undefined, input: 'Unavailable', result: 'Unavailable' },
  ]);
  assert.deepEqual(
    mcp!.tools.map((t) => t.name),
    ['mcp__x'],
  );
});

test('matrix: advertised tools first, then the others; one mark per configuration', () => {
  const m = agentPage(fixture(), A).matrix!;
  assert.deepEqual([m.advertised, m.total, m.nowhere], [3, 4, 1]);
  assert.deepEqual(
    m.configurations.map((c) => c.id),
    ['base', 'extra', 'lean'],
  );
  assert.deepEqual(
    m.rows.map((r) => [r.name, r.nowhere, r.cells.map((c) => c.mark).join('')]),
    [
      ['Alpha', false, '●●○'],
      ['Beta', false, '–◆–'],
      ['mcp__x', false, '◐––'],
      ['Gamma', true, '–––'],
    ],
  );
  assert.deepEqual(
    m.rows[0]!.cells.map((c) => c.title),
    ['function (JSON Schema)', 'function (JSON Schema)', 'deferred (name only)'],
  );
  // Not advertised: the legend names the mark once; its cells carry no title.
  assert.equal(m.rows[3]!.cells[0]!.title, undefined);
});

test('configurations: capture folder, command lines, and what each changes against the first', () => {
  const c = agentPage(fixture(), A).configurations!;
  assert.equal(c.captureFolder, `content/captures/${A}/`);
  assert.deepEqual(
    c.list.map((x) => [x.id, x.label, x.command]),
    [
      ['base', 'BASE', undefined],
      ['extra', 'EXTRA', 'X=1 --more'],
      ['lean', 'LEAN', '--lean'],
    ],
  );
  assert.deepEqual(c.effects, {
    baseline: { id: 'base', label: 'BASE' },
    lines: [
      { configurations: [{ id: 'extra', label: 'EXTRA' }], added: ['Beta'], removed: ['mcp__x'] },
      { configurations: [{ id: 'lean', label: 'LEAN' }], added: [], removed: ['mcp__x'] },
    ],
  });
});

test('configurationCommand: environment first, then arguments; nothing when neither is set', () => {
  assert.equal(
    configurationCommand({ env: { A: '1', B: 'two words' }, args: ['-x', '--y'] }),
    'A=1 B=two words -x --y',
  );
  assert.equal(configurationCommand({ args: [], env: {} }), undefined);
});

test('registered names: anchor, aliases, gate, and the page of a removed tool of that name', () => {
  const r = agentPage(fixture(), A).registered!;
  assert.deepEqual(r.names, [
    {
      id: 'registered-hidden',
      name: 'Hidden',
      aliases: ['Peek'],
      gate: { gate: 'flag_x', source: 'binary' },
      removedUrl: undefined,
    },
    { id: 'registered-gone', name: 'Gone', aliases: [], gate: undefined, removedUrl: `/${A}/gone/` },
  ]);
  assert.deepEqual(r.structuredAliases, [{ alias: 'OldAlpha', tool: 'Alpha' }]);
});

test('definitions by kind count inputs and results of every kind, zeros included', () => {
  assert.deepEqual(agentPage(fixture(), A).definitionKinds.rows, [
    { label: 'TypeScript', inputs: 1, results: 1 },
    { label: 'JSON Schema', inputs: 2, results: 0 },
    { label: 'Freeform grammar', inputs: 0, results: 0 },
    { label: 'Unavailable', inputs: 1, results: 3 },
  ]);
});

test('real content: every configuration of content/capture-matrix.json, in order, with its command line', () => {
  const model = realContent();
  const raw = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as {
    agents: Record<string, { configurations: { id: string; args?: string[]; env?: Record<string, string> }[] }>;
  };
  for (const a of model.agents) {
    const page = agentPage(model, a.id);
    const declared = raw.agents[a.id]?.configurations ?? [];
    assert.deepEqual(
      page.configurations?.list.map((c) => c.id) ?? [],
      declared.map((c) => c.id),
      a.id,
    );
    for (const [i, c] of declared.entries()) {
      const words = [...Object.keys(c.env ?? {}).map((k) => `${k}=${c.env![k]}`), ...(c.args ?? [])];
      assert.equal(
        page.configurations!.list[i]!.command,
        words.length > 0 ? words.join(' ') : undefined,
        `${a.id} ${c.id}`,
      );
    }
    // The matrix has a row for every tool of the agent, once.
    const names = model.tools
      .filter((t) => t.agent === a.id)
      .map((t) => t.fullName)
      .sort();
    if (page.matrix) assert.deepEqual(page.matrix.rows.map((r) => r.name).sort(), names, a.id);
  }
});

test('facts: each history of the agent with its package, count and range, the releases that could not run, and the changelog link', () => {
  const capture = {
    agent: A,
    source: 'capture' as const,
    package: 'cli-pkg',
    method: 'm',
    configurations: ['base', 'extra'],
    releases: [
      { version: '1.0.0', read: true, failed: { base: 'cannot run: no program', extra: 'cannot run: no program' } },
      { version: '1.0.1', read: false },
      { version: '1.0.2', read: true, failed: { extra: 'unknown flag --more' } },
      { version: '1.1.0', read: true },
    ],
    events: [],
  };
  // Its oldest release was read from the CLI's own package.
  const sdk = {
    agent: A,
    source: 'sdk' as const,
    package: 'sdk-pkg',
    method: 'm',
    releases: [
      { version: '1.9.9', package: 'cli-pkg', cliVersion: '1.9.9' },
      { version: '0.3.1', cliVersion: '2.0.1' },
      { version: '0.3.4', cliVersion: '2.0.4' },
    ],
    events: [],
  };
  const other = { ...capture, agent: B, package: 'b-pkg' };
  const page = agentPage({ ...fixture(), histories: [sdk, capture, other] }, A);
  assert.deepEqual(page.facts.history, {
    changelog: `/${A}/changelog/`,
    lines: [
      { label: 'SDK types', packages: ['cli-pkg', 'sdk-pkg'], count: 3, first: '1.9.9', last: '2.0.4', notRun: [] },
      // 1.0.2 ran in one configuration: it was compared, so it is not "could not be run".
      { label: 'Captures', packages: ['cli-pkg'], count: 4, first: '1.0.0', last: '1.1.0', notRun: ['1.0.0'] },
    ],
  });
  assert.equal(agentPage(fixture(), A).facts.history, undefined, 'no history, no fact');
});

test('facts, real content: a capture history whose plan says why it starts where it does shows that reason on its line, and only there', () => {
  const model = realContent();
  let shown = 0;
  for (const id of AGENT_IDS) {
    const plan = AGENTS[id].captureHistory;
    const reason = 'configurations' in plan ? plan.startsAt : undefined;
    const lines = agentPage(model, id).facts.history?.lines ?? [];
    for (const line of lines)
      assert.equal(line.startsAt, line.label === 'Captures' ? reason : undefined, `${id}: ${line.label}`);
    if (reason !== undefined && lines.some((l) => l.startsAt === reason)) shown++;
  }
  assert.ok(shown > 0, 'some agent states why its history starts where it does');
});

test('a release after the capture pin that ran in no configuration is named with its own words; one that ran in some, or one before the pin, is not', async () => {
  const { newerCannotRun } = await import('../../src/lib/views/agent-page.ts');
  const said =
    'the CLI exited with code 1 (no request reached the stub); the CLI said: “install the right version for your platform”';
  const history = {
    agent: 'kilo-code',
    source: 'capture',
    package: '@kilocode/cli',
    configurations: ['print', 'plan-agent'],
    releases: [
      { version: '7.7.5', read: true, failed: { print: said, 'plan-agent': said } },
      { version: '7.7.9', read: true },
      { version: '7.8.0', read: true, failed: { print: 'the CLI exited with code 2' } },
      { version: '7.8.1', read: true, failed: { print: said, 'plan-agent': said } },
    ],
    events: [],
  } as unknown as Parameters<typeof newerCannotRun>[0][number];
  assert.deepEqual(newerCannotRun([history], '7.7.9'), [{ release: '7.8.1', pin: '7.7.9', said }]);
  assert.deepEqual(newerCannotRun([history], '7.8.1'), []);
  assert.deepEqual(
    newerCannotRun([{ ...history, source: 'sdk' } as typeof history], '7.7.9'),
    [],
    'only the capture history says why captures stay',
  );
});
