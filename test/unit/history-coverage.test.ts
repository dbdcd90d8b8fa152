import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, AGENTS, capturedTools, mcpNamingOf } from '../../src/lib/agents/index.ts';
import { loadSiteContent } from '../../src/lib/content/cached.ts';
import { fewestConfigurations, historyCoverage, type CoverageInput } from '../../src/lib/history/history-coverage.ts';
import type { CaptureFile } from '../../src/lib/wire/index.ts';

const ROOT = join(import.meta.dirname, '../..');

function input(overrides: Partial<CoverageInput>): CoverageInput {
  return {
    pages: [],
    advertised: new Map(),
    isFamilyInstance: (name) => name.startsWith('mcp__stub__'),
    followed: [],
    ...overrides,
  };
}

test('each page is tracked, proposed, declared, not captured, a family or untracked, by the configurations that advertise one of its names', () => {
  const advertised = new Map<string, string[]>([
    ['base', ['Read', 'Task']],
    ['extra', ['Read', 'Grep', 'mcp__stub__echo']],
    ['login', ['Imagine']],
    ['later', ['Plan']],
  ]);
  const page = (fullName: string, names: string[] = [fullName], family = false) => ({ fullName, names, family });
  const result = historyCoverage(
    input({
      pages: [
        page('Read'),
        page('Agent', ['Agent', 'Task']),
        page('Grep'),
        page('Imagine'),
        page('Plan'),
        page('Docs'),
        page('mcp__<server>__<tool>', ['mcp__<server>__<tool>'], true),
      ],
      advertised,
      followed: ['base'],
      proposed: ['later'],
      declared: { Imagine: 'needs a login' },
    }),
  );
  assert.deepEqual(result, [
    { tool: 'Read', by: ['base', 'extra'], status: 'tracked' },
    // Advertised under a name it answers to (a former name), in a followed configuration.
    { tool: 'Agent', by: ['base'], status: 'tracked' },
    { tool: 'Grep', by: ['extra'], status: 'untracked' },
    { tool: 'Imagine', by: ['login'], status: 'declared', reason: 'needs a login' },
    { tool: 'Plan', by: ['later'], status: 'proposed' },
    { tool: 'Docs', by: [], status: 'not-captured' },
    { tool: 'mcp__<server>__<tool>', by: ['extra'], status: 'family' },
  ]);
});

test('a declared reason does not hide a tool a followed configuration advertises, and a proposal does not outrank a declared reason', () => {
  const advertised = new Map([
    ['a', ['X']],
    ['b', ['Y']],
  ]);
  const pages = [
    { fullName: 'X', names: ['X'], family: false },
    { fullName: 'Y', names: ['Y'], family: false },
  ];
  const [x, y] = historyCoverage(
    input({ pages, advertised, followed: ['a'], proposed: ['b'], declared: { X: 'stale', Y: 'cannot run' } }),
  );
  assert.equal(x!.status, 'tracked');
  assert.equal(y!.status, 'declared');
});

test('fewestConfigurations finds a smallest cover where taking the largest configuration first would not', () => {
  // Greedy takes C (four tools), then needs two more; A and B cover all six.
  const by: Record<string, string[]> = {
    t1: ['A', 'C'],
    t2: ['A', 'C'],
    t3: ['A', 'D'],
    t4: ['B', 'C'],
    t5: ['B', 'C'],
    t6: ['B', 'E'],
  };
  const tools = Object.entries(by).map(([tool, configs]) => ({ tool, by: configs }));
  assert.deepEqual(fewestConfigurations(tools, ['C', 'D', 'E', 'A', 'B']), ['A', 'B']);
});

test('fewestConfigurations takes what only one configuration advertises, breaks ties by matrix order and returns matrix order', () => {
  const tools = [
    { tool: 'only-z', by: ['z'] },
    { tool: 'either', by: ['y', 'x'] },
  ];
  assert.deepEqual(fewestConfigurations(tools, ['x', 'y', 'z']), ['x', 'z']);
  assert.deepEqual(fewestConfigurations(tools, ['z', 'y', 'x']), ['z', 'y']);
  // Already covered by the forced configuration: nothing more.
  assert.deepEqual(
    fewestConfigurations(
      [
        { tool: 'a', by: ['z'] },
        { tool: 'b', by: ['y', 'z'] },
      ],
      ['y', 'z'],
    ),
    ['z'],
  );
  assert.deepEqual(fewestConfigurations([], ['x']), []);
  assert.throws(() => fewestConfigurations([{ tool: 'gone', by: [] }], ['x']), /no configuration advertises gone/);
});

/**
 * The committed state, read without the module above: the names each configuration's pinned
 * capture advertises (the wire modules' extraction), the plans, and the site's tool pages.
 */
test('every tool with a page is advertised by a configuration its history follows or proposes, or its plan says why not, or no capture advertises it', () => {
  const matrix = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as {
    agents: Record<string, { configurations: { id: string }[] }>;
  };
  const { model } = loadSiteContent(ROOT);
  const problems: string[] = [];
  for (const agent of AGENT_IDS) {
    const plan = AGENTS[agent].captureHistory;
    if ('none' in plan) continue;
    const naming = mcpNamingOf(agent);
    const ids = matrix.agents[agent]!.configurations.map((c) => c.id);
    const names = new Map<string, Set<string>>();
    for (const id of ids) {
      const capture = JSON.parse(
        readFileSync(join(ROOT, 'content/captures', agent, `${id}.json`), 'utf8'),
      ) as CaptureFile;
      names.set(id, new Set(capturedTools(capture).map((t) => naming?.unnamespaced?.(t) ?? t.fullName)));
    }
    const advertisedIn = (
      configs: readonly string[],
      tool: { fullName: string; generated: { aliases: { name: string }[] } },
    ): boolean =>
      configs.some((c) =>
        [tool.fullName, ...tool.generated.aliases.map((a) => a.name)].some((n) => names.get(c)!.has(n)),
      );
    for (const c of plan.proposed ?? []) {
      assert.ok(ids.includes(c), `${agent}: proposed configuration ${c} is not in the capture matrix`);
      assert.ok(!plan.configurations.includes(c), `${agent}: proposed configuration ${c} is already followed`);
    }
    const pages = model.tools.filter((t) => t.agent === agent);
    for (const [tool, reason] of Object.entries(plan.untracked ?? {})) {
      const page = pages.find((p) => p.fullName === tool);
      assert.ok(page, `${agent}: captureHistory.untracked names ${tool}, which has no page`);
      assert.ok(reason.length > 40, `${agent}: the reason ${tool} is not tracked is said`);
      assert.ok(!advertisedIn(plan.configurations, page), `${agent}: ${tool} is tracked; its declared reason is stale`);
      assert.ok(advertisedIn(ids, page), `${agent}: no configuration advertises ${tool}; no reason is needed`);
    }
    for (const tool of pages) {
      if (tool.fullName === naming?.family) continue; // the MCP family: its instances are our stub server's tools
      if (!advertisedIn(ids, tool)) continue; // no capture advertises it: documented or typed only
      if (advertisedIn([...plan.configurations, ...(plan.proposed ?? [])], tool)) continue;
      if (plan.untracked?.[tool.fullName] !== undefined) continue;
      problems.push(
        `${agent}: ${tool.fullName} is advertised only by ${ids.filter((c) => advertisedIn([c], tool)).join(', ')}`,
      );
    }
  }
  assert.deepEqual(problems, [], 'tools with a page that no capture history follows and no plan explains');
});

test('a proposed configuration tracks some tool that nothing followed or proposed before it does', () => {
  const { model } = loadSiteContent(ROOT);
  for (const agent of AGENT_IDS) {
    const plan = AGENTS[agent].captureHistory;
    if ('none' in plan) continue;
    for (const c of plan.proposed ?? []) {
      const others = [...plan.configurations, ...(plan.proposed ?? []).filter((p) => p !== c)];
      const advertisedBy = (id: string): Set<string> => {
        const capture = JSON.parse(
          readFileSync(join(ROOT, 'content/captures', agent, `${id}.json`), 'utf8'),
        ) as CaptureFile;
        return new Set(capturedTools(capture).map((t) => mcpNamingOf(agent)?.unnamespaced?.(t) ?? t.fullName));
      };
      const rest = new Set(others.flatMap((o) => [...advertisedBy(o)]));
      const own = [...advertisedBy(c)].filter(
        (n) => !rest.has(n) && model.tools.some((t) => t.agent === agent && t.fullName === n),
      );
      assert.ok(own.length > 0, `${agent}: proposed configuration ${c} tracks no tool the others do not`);
    }
  }
});
