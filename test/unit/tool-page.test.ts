/**
 * Tool page decisions: section order and presence, condensed availability,
 * which definitions are inlined, and where long names may break.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import {
  availabilitySummary,
  definitionFiles,
  INLINE_DEFINITION_LIMIT,
  toolSections,
} from '../../src/lib/views/tool-page.ts';
import { breakableParts, inlineParts } from '../../src/lib/core/inline-text.ts';
import type { MatrixAgent } from '../../src/lib/model/captures.ts';
import type { ToolModel } from '../../src/lib/model/model.ts';
import { advertised, readCapture, readMatrix, standInPrefix } from '../helpers/captured-entries.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = loadContent({ root: ROOT, contentDir: join(ROOT, 'test/fixtures/content') });
const real = realContent();

/** Raw facts of a content folder, read without the loader. */
function rawFacts(content: string) {
  const matrix = readMatrix(content);
  const entries = Object.entries(matrix.agents).flatMap(([agent, m]) =>
    m.configurations
      .filter((c) => existsSync(join(content, 'captures', agent, `${c.id}.json`)))
      .flatMap((c) =>
        advertised(readCapture(agent, c.id, content).body, standInPrefix(agent)).map((e) => ({ agent, ...e })),
      ),
  );
  return {
    /** The definition file of content/tools for a tool, if its agent publishes types. */
    published(
      tool: ToolModel,
    ): { input: { kind: string; source?: string }; output: { kind: string; source?: string } } | undefined {
      const path = join(content, 'tools', tool.agent, `${tool.slug}.json`);
      return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
    },
    entries: (tool: ToolModel) => entries.filter((e) => e.agent === tool.agent && e.fullName === tool.fullName),
    jobs(tool: ToolModel): number {
      const path = join(content, 'editorial', tool.agent, `${tool.slug}.json`);
      return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')).jobs ?? []).length : 0;
    },
    /** A recorded payload of the tool (`payloads/<agent>/<slug>.<scenario>.json`). */
    hasPayload(tool: ToolModel): boolean {
      const dir = join(content, 'payloads', tool.agent);
      return (
        existsSync(dir) &&
        readdirSync(dir).some(
          (f) => f.startsWith(`${tool.slug}.`) && f.slice(tool.slug.length + 1).split('.').length === 2,
        )
      );
    },
  };
}
const SITES = [
  { model: real, facts: rawFacts(join(ROOT, 'content')) },
  { model: site, facts: rawFacts(join(ROOT, 'test/fixtures/content')) },
];

test('each section is on the page exactly when the content has what it shows', () => {
  const misses: string[] = [];
  for (const { model, facts } of SITES)
    for (const tool of model.tools) {
      const jobs = facts.jobs(tool);
      const ids: string[] = toolSections(tool, { jobCount: jobs }).map((s) => s.id);
      const where = `${tool.agent}/${tool.slug}: ${ids.join(' ')}`;
      const has = (id: string) => ids.includes(id);
      const published = facts.published(tool);
      const captured = facts.entries(tool);
      const schemaSent = captured.some((e) => e.input === 'json-schema');
      // Input first, then the payload checker when there is a schema to check against, then Result.
      if (ids[0] !== 'input' || ids[has('check-payload') ? 2 : 1] !== 'result')
        misses.push(`${where}: Input, (Check a payload,) Result do not come first`);
      if (published || captured.length > 0) {
        const checkable =
          schemaSent || published?.input.kind === 'typescript' || published?.input.kind === 'json-schema';
        if (has('check-payload') !== checkable)
          misses.push(
            `${where}: check-payload ${has('check-payload')}, the content ${checkable ? 'has' : 'has no'} schema`,
          );
      }
      // The model-facing input only beside a published type, when a capture sent a schema.
      if (has('model-input') !== (published !== undefined && schemaSent))
        misses.push(`${where}: model-input ${has('model-input')}`);
      if (captured.length > 0 && !has('model-description')) misses.push(`${where}: captured, but no model-description`);
      if (has('jobs') !== jobs > 0) misses.push(`${where}: ${jobs} job(s) in its editorial file`);
      if (facts.hasPayload(tool) && !has('examples')) misses.push(`${where}: has a recorded payload, but no examples`);
    }
  assert.deepEqual(misses, []);
});

test('sections come in one order on every page (no two pages order two sections differently)', () => {
  const before = new Map<string, string>(); // "a b" → a tool that shows a before b
  const contradictions: string[] = [];
  for (const { model, facts } of SITES)
    for (const tool of model.tools) {
      const ids = toolSections(tool, { jobCount: facts.jobs(tool) }).map((s) => s.id);
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) {
          const other = before.get(`${ids[j]} ${ids[i]}`);
          if (other)
            contradictions.push(`${tool.agent}/${tool.slug} has ${ids[i]} before ${ids[j]}, ${other} the other way`);
          before.set(`${ids[i]} ${ids[j]}`, `${tool.agent}/${tool.slug}`);
        }
      }
    }
  assert.deepEqual(contradictions, []);
  assert.ok(before.size > 0);
  // A freeform tool's input is a grammar: nothing to check a payload against.
  const facts = SITES[0]!.facts;
  for (const tool of real.tools.filter(
    (t) => !facts.published(t) && facts.entries(t).length > 0 && facts.entries(t).every((e) => e.input === 'grammar'),
  )) {
    assert.ok(!toolSections(tool, { jobCount: 0 }).some((s) => s.id === 'check-payload'), tool.fullName);
  }
});

test('availability groups configurations by outcome, in matrix order, with "not advertised" last', () => {
  const matrix: MatrixAgent = {
    package: 'p',
    version: '1',
    checked: '2026-01-01',
    configurations: ['a', 'b', 'c', 'd', 'e'].map((id) => ({
      id,
      label: id.toUpperCase(),
      description: '',
      mode: 'print' as const,
      args: [],
      env: {},
    })),
  };
  const seen = (delivery: string) => ({ delivery }) as never;
  const tool = {
    captured: {
      byConfig: new Map([
        ['b', seen('deferred')],
        ['c', seen('function')],
        ['e', seen('deferred')],
      ]),
    },
  } as unknown as ToolModel;
  const summary = availabilitySummary(tool, matrix);
  assert.equal(summary.advertisedIn, 3);
  assert.equal(summary.total, 5);
  assert.deepEqual(
    summary.groups.map((g) => [g.outcome, g.configurations.map((c) => c.id)]),
    [
      ['deferred', ['b', 'e']],
      ['function', ['c']],
      ['absent', ['a', 'd']],
    ],
  );
  const never = availabilitySummary({} as ToolModel, matrix);
  assert.deepEqual(
    never.groups.map((g) => g.label),
    ['not advertised'],
  );
});

test('definitions above the limit are published as files and not inlined; grammars are neither', () => {
  for (const tool of real.tools) {
    const files = definitionFiles(tool);
    for (const f of files) {
      assert.equal(f.inline, f.text.length <= INLINE_DEFINITION_LIMIT, `${tool.fullName} ${f.fileName}`);
      assert.match(f.fileName, /^(input|result|model-input)\.(d\.ts\.txt|json)$/);
    }
    assert.equal(new Set(files.map((f) => f.fileName)).size, files.length);
    if (tool.input.definition.kind === 'grammar') assert.ok(!files.some((f) => f.section === 'input'), tool.fullName);
  }
  // Published TypeScript is shown as written in content/tools.
  for (const tool of real.tools) {
    const published = SITES[0]!.facts.published(tool);
    const files = definitionFiles(tool);
    if (published?.input.kind === 'typescript')
      assert.equal(files.find((f) => f.section === 'input')?.text, published.input.source, `${tool.fullName} input`);
    if (published?.output.kind === 'typescript')
      assert.equal(files.find((f) => f.section === 'result')?.text, published.output.source, `${tool.fullName} result`);
  }
});

test('long names break after . _ | / , before brackets and between camelCase words, and join back unchanged', () => {
  assert.deepEqual(breakableParts('multi_agent_v1.spawn_agent'), ['multi_', 'agent_', 'v1.', 'spawn_', 'agent']);
  assert.deepEqual(breakableParts('mcp__server__tool'), ['mcp__', 'server__', 'tool']);
  assert.deepEqual(breakableParts('structuredPatch[].lines'), ['structured', 'Patch', '[].', 'lines']);
  assert.deepEqual(breakableParts('dangerouslyDisableSandbox'), ['dangerously', 'Disable', 'Sandbox']);
  assert.deepEqual(breakableParts('TaskStop'), ['Task', 'Stop']);
  assert.deepEqual(breakableParts('ListConnectors', { camelCase: false }), ['ListConnectors']);
  assert.deepEqual(breakableParts('multi_agent_v1.spawn_agent', { camelCase: false }), [
    'multi_',
    'agent_',
    'v1.',
    'spawn_',
    'agent',
  ]);
  assert.deepEqual(breakableParts('"a" | "b"'), ['"a" |', ' "b"']);
  assert.deepEqual(breakableParts('plain'), ['plain']);
  for (const text of ['(status: "completed").agentId', 'a..b', '.x', 'x.', '', 'a[0][1]'])
    assert.equal(breakableParts(text).join(''), text);
});

test('inline text keeps text that looks like HTML as text parts', () => {
  assert.deepEqual(inlineParts('a `<b>` c'), [
    { code: false, text: 'a ' },
    { code: true, text: '<b>' },
    { code: false, text: ' c' },
  ]);
});

test('configurations are grouped by the tools they add to and drop from the first one', async () => {
  const { configurationEffects } = await import('../../src/lib/views/configuration-effects.ts');
  const tool = (fullName: string, configs: string[]) =>
    ({ fullName, captured: { byConfig: new Map(configs.map((c) => [c, {}])) } }) as unknown as ToolModel;
  const tools = [
    tool('A', ['base', 'same', 'more', 'fewer']),
    tool('B', ['base', 'same', 'more']),
    tool('C', ['more', 'more2']),
    tool('D', []),
  ];
  const matrix = {
    package: 'p',
    version: '1',
    checked: 'c',
    configurations: ['base', 'same', 'more', 'fewer', 'more2'].map((id) => ({
      id,
      label: id,
      description: '',
      mode: 'print' as const,
      args: [],
      env: {},
    })),
  };
  const result = configurationEffects(tools, matrix)!;
  assert.equal(result.baseline.id, 'base');
  assert.deepEqual(
    result.effects.map((e) => [e.added, e.removed, e.configurations.map((c) => c.id)]),
    [
      [[], [], ['same']],
      [['C'], [], ['more']],
      [[], ['B'], ['fewer']],
      [['C'], ['A', 'B'], ['more2']],
    ],
  );
});
