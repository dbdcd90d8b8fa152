/**
 * Tool page decisions: section order and presence, condensed availability,
 * which definitions are inlined, and where long names may break.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import { availabilitySummary, definitionFiles, INLINE_DEFINITION_LIMIT, toolSections } from '../../src/lib/tool-page.ts';
import { breakableParts, inlineParts } from '../../src/lib/inline-text.ts';
import type { MatrixAgent } from '../../src/lib/captures.ts';
import type { ToolModel } from '../../src/lib/model.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = loadContent({ root: ROOT, contentDir: join(ROOT, 'test/fixtures/content') });
const real = loadContent({ root: ROOT });

test('Input and Result come first; optional sections appear only when the page has them', () => {
  const plain = site.tools.find((t) => !t.captured && !t.modelInput)!;
  assert.deepEqual(
    toolSections(plain, { jobCount: 0 }).map((s) => s.id),
    ['input', 'check-payload', 'result', 'availability', 'aliases', 'lifecycle', 'version-notes', 'provenance'],
  );
  assert.deepEqual(toolSections(plain, { jobCount: 2 }).map((s) => s.id).slice(-2), ['jobs', 'provenance']);
  const compared = real.tools.find((t) => t.modelInput && t.captured)!;
  const ids = toolSections(compared, { jobCount: 0 }).map((s) => s.id);
  assert.deepEqual(ids.slice(0, 3), ['input', 'check-payload', 'result']);
  const modelSections = ['model-description', 'model-input', 'sdk-differences'];
  assert.deepEqual(ids.filter((id) => modelSections.includes(id)), modelSections);
  // A freeform tool's input is a grammar: nothing to check a payload against.
  const freeform = real.tools.find((t) => t.input.definition.kind === 'grammar')!;
  assert.ok(!toolSections(freeform, { jobCount: 0 }).some((s) => s.id === 'check-payload'), freeform.fullName);
});

test('every section id is unique and every heading has text', () => {
  for (const tool of real.tools) {
    const sections = toolSections(tool, { jobCount: 1 });
    assert.equal(new Set(sections.map((s) => s.id)).size, sections.length, tool.fullName);
    for (const s of sections) assert.ok(s.title.length > 0);
  }
});

test('availability groups configurations by outcome, in matrix order, with "not advertised" last', () => {
  const matrix: MatrixAgent = {
    package: 'p',
    version: '1',
    checked: '2026-01-01',
    configurations: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, label: id.toUpperCase(), description: '', mode: 'print' as const, args: [], env: {} })),
  };
  const seen = (delivery: string) => ({ delivery }) as never;
  const tool = {
    captured: { byConfig: new Map([['b', seen('deferred')], ['c', seen('function')], ['e', seen('deferred')]]) },
  } as unknown as ToolModel;
  const summary = availabilitySummary(tool, matrix);
  assert.equal(summary.advertisedIn, 3);
  assert.equal(summary.total, 5);
  assert.deepEqual(
    summary.groups.map((g) => [g.outcome, g.configurations.map((c) => c.id)]),
    [['deferred', ['b', 'e']], ['function', ['c']], ['absent', ['a', 'd']]],
  );
  const never = availabilitySummary({} as ToolModel, matrix);
  assert.deepEqual(never.groups.map((g) => g.label), ['not advertised']);
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
  const ask = real.tools.find((t) => t.fullName === 'AskUserQuestion')!;
  assert.equal(definitionFiles(ask).find((f) => f.section === 'input')!.inline, false, 'the 85 KB AskUserQuestion types are not inlined');
});

test('long names break after . _ | / , before brackets and between camelCase words, and join back unchanged', () => {
  assert.deepEqual(breakableParts('multi_agent_v1.spawn_agent'), ['multi_', 'agent_', 'v1.', 'spawn_', 'agent']);
  assert.deepEqual(breakableParts('mcp__server__tool'), ['mcp__', 'server__', 'tool']);
  assert.deepEqual(breakableParts('structuredPatch[].lines'), ['structured', 'Patch', '[].', 'lines']);
  assert.deepEqual(breakableParts('dangerouslyDisableSandbox'), ['dangerously', 'Disable', 'Sandbox']);
  assert.deepEqual(breakableParts('TaskStop'), ['Task', 'Stop']);
  assert.deepEqual(breakableParts('ListConnectors', { camelCase: false }), ['ListConnectors']);
  assert.deepEqual(breakableParts('multi_agent_v1.spawn_agent', { camelCase: false }), ['multi_', 'agent_', 'v1.', 'spawn_', 'agent']);
  assert.deepEqual(breakableParts('"a" | "b"'), ['"a" |', ' "b"']);
  assert.deepEqual(breakableParts('plain'), ['plain']);
  for (const text of ['(status: "completed").agentId', 'a..b', '.x', 'x.', '', 'a[0][1]']) assert.equal(breakableParts(text).join(''), text);
});

test('inline text keeps text that looks like HTML as text parts', () => {
  assert.deepEqual(inlineParts('a `<b>` c'), [
    { code: false, text: 'a ' },
    { code: true, text: '<b>' },
    { code: false, text: ' c' },
  ]);
});

test('configurations are grouped by the tools they add to and drop from the first one', async () => {
  const { configurationEffects } = await import('../../src/lib/configuration-effects.ts');
  const tool = (fullName: string, configs: string[]) => ({ fullName, captured: { byConfig: new Map(configs.map((c) => [c, {}])) } }) as unknown as ToolModel;
  const tools = [tool('A', ['base', 'same', 'more', 'fewer']), tool('B', ['base', 'same', 'more']), tool('C', ['more', 'more2']), tool('D', [])];
  const matrix = { package: 'p', version: '1', checked: 'c', configurations: ['base', 'same', 'more', 'fewer', 'more2'].map((id) => ({ id, label: id, description: '', mode: 'print' as const, args: [], env: {} })) };
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
