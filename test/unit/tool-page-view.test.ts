/**
 * A tool page's view model (src/lib/views/tool-page-view.ts) and its routes
 * (src/lib/routes/tool-routes.ts), from tools written by hand: names, links, the
 * payload checker's labels, definition sizes, "since" legends, examples and
 * what the model is told are known in advance. Over the fixture and the real
 * content: every heading the page renders is an entry of its one list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENT_IDS, AGENT_PRODUCTS, AGENTS } from '../../src/lib/agents/index.ts';

/** The hook fields the checker is given: the registry module's hook shape, when it has one. */
function hookFieldsOf(id: (typeof AGENT_IDS)[number]): {
  fields?: { event: string | undefined; toolName: string; input: string; inputEncoding: string };
} {
  const { hooks } = AGENTS[id];
  if ('none' in hooks) return {};
  const s = hooks.shape;
  return {
    fields: { event: s.eventField, toolName: s.toolNameField, input: s.inputField, inputEncoding: s.inputEncoding },
  };
}
import { loadContent } from '../../src/lib/content/load.ts';
import type { Since } from '../../src/lib/history/history.ts';
import type { SiteModel, ToolExample, ToolModel } from '../../src/lib/model/model.ts';
import { agentBundle } from '../../src/lib/model/bundles.ts';
import { hookMechanismOf, hookShapeOf } from '../../src/lib/agents/hook-shape.ts';
import { toolFacts } from '../../src/lib/content/tool-facts.ts';
import type { PageSection } from '../../src/lib/core/page-sections.ts';
import {
  COUNTERPARTS_OPEN,
  definitionSection,
  examplesView,
  fileSize,
  hookText,
  modelFacingView,
  toolPageView,
  type ToolPageView,
} from '../../src/lib/views/tool-page-view.ts';
import { toolRoutes } from '../../src/lib/routes/tool-routes.ts';
import { agent, configuration, matrix, row, site, tool, view } from '../helpers/model-fixtures.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');

/**
 * A tool's page, its facts computed from its agent's bundle as the loader does (a tool written here has none yet, or
 * stale ones). A tool of the real content's model, frozen (test/helpers/real-content.ts), has the loader's own.
 */
function pageView(model: SiteModel, t: ToolModel): ToolPageView {
  const bundle = agentBundle(model, t.agent);
  if (!Object.isFrozen(t)) t.facts = toolFacts(t, bundle);
  return toolPageView(t, bundle, model);
}
const [A, B, C] = AGENT_IDS as [(typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number]];

/** Every section a view renders a heading for, wherever it sits in the view. */
function renderedSections(v: ToolPageView): PageSection[] {
  const m = v.modelFacing;
  return [
    v.input.section,
    v.hooks?.section,
    v.payloadCheck?.section,
    v.result.section,
    v.examples?.section,
    m.description?.section,
    m.modelInput?.definition.section,
    m.modelInput?.differencesSection,
    m.byConfiguration?.section,
    v.availability.section,
    v.subagents?.section,
    v.permissions.section,
    v.aliases.section,
    v.lifecycle.section,
    v.history.section,
    v.jobs?.section,
    v.provenance.section,
  ].filter((s) => s !== undefined);
}

test('every heading a tool page renders is an entry of its one list, in the same order (fixture and real content)', () => {
  for (const model of [loadContent({ root: ROOT, contentDir: join(ROOT, 'test/fixtures/content') }), realContent()]) {
    for (const t of model.tools) {
      const v = pageView(model, t);
      assert.deepEqual(renderedSections(v), v.sections, `${t.agent}/${t.slug}`);
    }
  }
});

function fixture(): SiteModel {
  return site({
    agents: [agent(A), agent(B), agent(C)],
    tools: [
      tool(A, 'Bash', {
        aliases: [
          { name: 'KillShell', kind: 'former-name', evidence: 'renamed' },
          { name: 'BashInput', kind: 'sdk-type', evidence: 'type' },
          { name: 'Sh', kind: 'accepted-alias', evidence: 'alias' },
        ],
        editorial: { jobs: ['shell', 'stop'] },
        captured: { base: 'function' },
        input: view('json-schema', [row('input.command')], { lang: 'json', text: '{\n  "type": "object"\n}' }),
      }),
      tool(B, 'exec', { editorial: { jobs: ['shell'] } }),
      tool(B, 'run', { editorial: { jobs: ['shell'] } }),
      tool(C, 'shell', { editorial: { jobs: ['shell'] } }),
      tool(A, 'Stop', { editorial: { jobs: ['stop'] } }),
    ],
    jobs: [
      { id: 'stop', title: 'Stop a task', description: '' },
      { id: 'shell', title: 'Run a Shell Command', description: '' },
    ],
    matrix: { agents: { [A]: matrix([configuration('base'), configuration('other')]) } },
  });
}

test('fact line: release, group, accepted names, the names search indexes, and how many configurations advertise it', () => {
  const v = pageView(fixture(), fixture().tools[0]!);
  assert.equal(v.release, `${AGENT_PRODUCTS[A]} 1.2.3`);
  assert.equal(v.title, 'Bash');
  assert.equal(v.description, `${AGENT_PRODUCTS[A]} tool Bash: Bash summary`);
  assert.deepEqual(v.facts, {
    group: 'Built in',
    calledAs: [
      { name: 'Bash', indexed: 'bash', after: '' },
      { name: 'KillShell', indexed: 'killshell', after: ',' },
      { name: 'Sh', indexed: 'sh', after: ')' },
    ],
    searchNames: 'bash killshell sh',
    availability: { advertisedIn: 1, total: 2 },
  });
  // Search: the result's title names the release the fact line shows; the names as spelled, SDK type names included.
  assert.equal(v.search.title, `Bash — ${v.release}`);
  // The filter value: the product name with no-break spaces (a checkbox id is made from it).
  assert.equal(v.search.agent, AGENT_PRODUCTS[A].replaceAll(' ', '\u00a0'));
  assert.deepEqual(JSON.parse(v.search.spelled), ['Bash', 'KillShell', 'BashInput', 'Sh']);
  assert.deepEqual(
    v.aliases.list.map((a) => [a.name, a.indexed, a.kind]),
    [
      ['KillShell', false, 'former name, still accepted'],
      ['BashInput', true, 'SDK type name'],
      ['Sh', false, 'accepted alias'],
    ],
  );
  const bare = pageView(fixture(), tool(A, 'Bare'));
  assert.equal(bare.description, `${AGENT_PRODUCTS[A]} tool Bare: input and result`);
  assert.equal(bare.facts.availability?.advertisedIn, 0);
});

test('the same job in other agents: the main job first, tools grouped by agent in registry order', () => {
  const v = pageView(fixture(), fixture().tools[0]!);
  assert.deepEqual(v.counterparts, {
    job: 'run a shell command',
    url: '/jobs/shell/',
    agents: [
      {
        label: AGENT_PRODUCTS[B],
        tools: [
          { url: `/${B}/exec/`, name: 'exec' },
          { url: `/${B}/run/`, name: 'run' },
        ],
      },
      { label: AGENT_PRODUCTS[C], tools: [{ url: `/${C}/shell/`, name: 'shell' }] },
    ],
    folded: false,
  });
  assert.deepEqual(
    v.jobs?.list.map((j) => [j.title, j.url, j.agents.length]),
    [
      ['Run a Shell Command', '/jobs/shell/', 2],
      ['Stop a task', '/jobs/stop/', 0],
    ],
  );
  // Its main job done by no other agent: no counterparts line, but the job is listed.
  const stop = pageView(fixture(), fixture().tools[4]!);
  assert.equal(stop.counterparts, undefined);
  assert.deepEqual(
    stop.jobs?.list.map((j) => j.title),
    ['Stop a task'],
  );
  assert.equal(pageView(fixture(), tool(A, 'Lonely')).jobs, undefined);
  // More counterparts than are listed open: folded, every one still there.
  const many = fixture();
  const extra = Array.from({ length: COUNTERPARTS_OPEN }, (_, i) =>
    tool(C, `extra${i}`, { editorial: { jobs: ['shell'] } }),
  );
  many.tools.push(...extra);
  const folded = pageView(many, many.tools[0]!).counterparts!;
  assert.equal(folded.folded, true);
  assert.equal(folded.agents.flatMap((g) => g.tools).length, 3 + COUNTERPARTS_OPEN);
});

test('payload checker: the schema checked, the names it accepts, and what the verdict names', () => {
  const v = pageView(fixture(), fixture().tools[0]!);
  assert.deepEqual(v.payloadCheck && { ...v.payloadCheck, section: v.payloadCheck.section.id }, {
    section: 'check-payload',
    name: 'Bash',
    names: ['Bash', 'KillShell', 'Sh'],
    schemaFile: 'input.schema.json',
    validatorFile: 'validate-input.js',
    root: 'input',
    modelFacing: false,
    release: `${AGENT_PRODUCTS[A]} 1.2.3`,
    schemaLabel: `the input schema of Bash (${AGENT_PRODUCTS[A]} 1.2.3)`,
    checkerUrl: '/payload-check/scripts/payload-check.js',
    // No recorded payload: the form says its tool_input is checked against the same schema, unproven;
    // it reads hook payloads through the members the agent's registry module names, when it names them.
    hook: { names: [], count: 0, ...hookFieldsOf(A) },
    examples: undefined,
    hookText:
      "A hook payload (an object with tool_input) works too: its tool_input is checked against the same schema, though the site has no recorded hook payload of Bash to show that its hooks receive the model's input unchanged.",
  });
  assert.match(
    hookText('Bash', { names: ['Bash'], count: 4, release: 'Agent 1' }),
    /as the 4 recorded hook payloads \(Agent 1\) carry the model's input/,
  );
  const own = hookText('run', {
    names: ['Shell'],
    count: 1,
    form: { types: ['object'], fields: [{ name: 'command', types: ['string'], always: true }] },
  });
  assert.match(
    own,
    /run's hooks do not receive the model's input: the 1 recorded hook payload names it Shell, with a tool_input that is an object with command \(string\)\. Its tool_input is compared with those, not with the schema\./,
  );
  const typed = tool(A, 'Typed', {
    source: 'sdk',
    input: view('typescript'),
    modelInput: { view: view('json-schema'), config: 'base' },
  });
  const check = pageView(fixture(), typed).payloadCheck!;
  assert.deepEqual(
    [check.root, check.modelFacing, check.schemaFile, check.schemaLabel],
    ['model-input', true, 'model-input.schema.json', `the model-facing schema of Typed (${AGENT_PRODUCTS[A]} 1.2.3)`],
  );
  assert.equal(pageView(fixture(), tool(A, 'Free', { input: view('grammar') })).payloadCheck, undefined);
});

test('definition files: size in KB of UTF-8 bytes and lines; provenance names each by its section', () => {
  assert.equal(fileSize('a\nb'), '0.0 KB, 2 lines');
  assert.equal(fileSize('é'.repeat(1024)), '2.0 KB, 1 lines');
  const v = pageView(fixture(), fixture().tools[0]!);
  assert.equal(v.input.size, '0.0 KB, 3 lines');
  assert.equal(v.input.file?.fileName, 'input.json');
  assert.equal(v.result.file, undefined);
  assert.equal(v.result.size, undefined);
  assert.deepEqual(v.provenance.files, [{ title: 'input', fileName: 'input.json' }]);
});

test('the "since" legend: only when a row of the table has an entry; what rows without a badge date from', () => {
  const section = { id: 'input' as const, title: 'Input', depth: 2 as const };
  const rows = view('json-schema', [row('input.a'), row('input.b')]);
  const since = (entries: [string, Since][]) => new Map(entries);
  assert.equal(
    definitionSection(section, rows, undefined, since([['output.x', { kind: 'field', release: '2' }]])).sinceLegend,
    undefined,
  );
  assert.deepEqual(
    definitionSection(section, rows, undefined, since([['input.a', { kind: 'field', release: '2', note: 'n' }]]))
      .sinceLegend,
    { base: undefined, explains: true },
  );
  assert.deepEqual(
    definitionSection(
      section,
      rows,
      undefined,
      since([
        ['input.a', { kind: 'field', release: '2' }],
        ['input.b', { kind: 'tool', release: '1', note: 'since-tool-sdk' }],
      ]),
    ).sinceLegend,
    { base: { kind: 'tool', release: '1', note: 'since-tool-sdk' }, explains: true },
  );
});

test('the "since" badge is explained above the first table that has one; later tables only say what rows without one date from', () => {
  const model = realContent();
  let pages = 0;
  for (const t of model.tools) {
    const v = pageView(model, t);
    const legends = [v.input, v.result, v.modelFacing.modelInput?.definition].flatMap((d) =>
      d?.sinceLegend ? [d.sinceLegend] : [],
    );
    if (legends.length < 2) continue;
    pages++;
    assert.deepEqual(
      legends.map((l) => l.explains),
      legends.map((_, i) => i === 0),
      `${t.agent}/${t.slug}`,
    );
  }
  assert.ok(pages > 0, 'some page has two tables with badges');
});

test('what the model is told: description of the first full definition, settings, definitions that differ by configuration', () => {
  const captured = tool(A, 'Search', {
    captured: {
      deferred: { delivery: 'deferred', description: 'short' },
      full: { delivery: 'hosted', description: 'a description', settings: { max: 3 } },
      other: { delivery: 'function', description: 'another', input: { kind: 'typescript' } as never },
    },
  });
  const sections = [
    { id: 'model-description' as const, title: 'What the model is told', depth: 2 as const },
    {
      id: 'definition-by-configuration' as const,
      title: 'Definitions that differ by configuration',
      depth: 3 as const,
    },
  ];
  const labels: Record<string, string> = { deferred: 'Deferred', full: 'Full' };
  const v = modelFacingView(captured, sections, (id) => labels[id] ?? id, undefined, new Map());
  // The most complete delivery wins: a function tool before a hosted one, both before a deferred one.
  assert.deepEqual(
    { ...v.description, section: v.description?.section.id },
    {
      section: 'model-description',
      configuration: 'other',
      length: '7 characters',
      text: 'another',
      segments: [{ text: 'another' }],
      settings: undefined,
      placeholders: [],
      hosted: false,
      standIn: undefined,
    },
  );
  assert.deepEqual(v.byConfiguration?.groups, [
    { configurations: ['Deferred'], kind: 'JSON Schema', otherDescription: true, input: undefined },
    { configurations: ['Full'], kind: 'JSON Schema', otherDescription: true, input: undefined },
    { configurations: ['other'], kind: 'TypeScript declaration', otherDescription: false, input: undefined },
  ]);
  assert.equal(v.modelInput, undefined);
  // A configuration that sends other fields gets its table, row ids prefixed with its first configuration.
  const withOther = {
    ...captured,
    otherInputs: [{ configs: ['full'], view: view('json-schema', [row('input.message')]) }],
  } as typeof captured;
  const groups = modelFacingView(withOther, sections, (id) => labels[id] ?? id, undefined, new Map()).byConfiguration
    ?.groups;
  assert.deepEqual(
    groups?.map((g) => [g.configurations, g.input?.label, g.input?.rows.map((r) => r.id)]),
    [
      [['Deferred'], undefined, undefined],
      [['Full'], 'Input fields in Full', ['config-full.input.message']],
      [['other'], undefined, undefined],
    ],
  );
  const hosted = modelFacingView(
    tool(A, 'Web', { captured: { full: { delivery: 'hosted', settings: { max: 3 } } } }),
    sections,
    (id) => id,
    undefined,
    new Map(),
  );
  assert.deepEqual(
    [hosted.description?.length, hosted.description?.settings, hosted.description?.hosted, hosted.byConfiguration],
    ['none', '{\n  "max": 3\n}', true, undefined],
  );
});

test("what the model is told marks the capture's placeholders in the description and lists them once", () => {
  const captured = tool(A, 'WebSearch', {
    captured: {
      only: {
        delivery: 'function',
        description: 'The year is $YEAR, not $LAST_YEAR; see $YEAR.',
        settings: { path: '$HOME/x' },
      },
    },
  });
  const sections = [{ id: 'model-description' as const, title: 'What the model is told', depth: 2 as const }];
  const v = modelFacingView(captured, sections, (id) => id, undefined, new Map());
  assert.deepEqual(
    v.description?.segments.map((s) => ('placeholder' in s ? `[${s.text}]` : s.text)).join(''),
    'The year is [$YEAR], not [$LAST_YEAR]; see [$YEAR].',
  );
  assert.deepEqual(
    v.description?.placeholders.map((p) => p.token),
    ['$YEAR', '$LAST_YEAR', '$HOME'],
  );
});

test('the model-facing input: its definition and the differences from the published type, in words', () => {
  const sections = [
    { id: 'model-input' as const, title: 'Model-facing input', depth: 2 as const },
    { id: 'sdk-differences' as const, title: 'Published type versus model-facing schema', depth: 3 as const },
  ];
  const differences = [
    { path: 'a', kind: 'only-in-first' },
    { path: 'b', kind: 'type', first: 'string', second: 'number' },
  ] as never;
  const typed = tool(A, 'Typed', {
    source: 'sdk',
    modelInput: { view: view('json-schema', [row('model-input.a')]), config: 'base', differences },
  });
  const v = modelFacingView(typed, sections, (id) => id.toUpperCase(), undefined, new Map());
  assert.equal(v.modelInput?.configuration, 'BASE');
  assert.equal(v.modelInput?.definition.section.id, 'model-input');
  assert.deepEqual(v.modelInput?.differences, [
    { path: 'a', text: 'only in the published type', first: undefined, second: undefined },
    { path: 'b', text: 'type differs', first: 'string', second: 'number' },
  ]);
  const uncompared = tool(A, 'U', { source: 'sdk', modelInput: { view: view('json-schema'), config: 'base' } });
  assert.equal(
    modelFacingView(uncompared, sections, (id) => id, undefined, new Map()).modelInput?.differences,
    undefined,
  );
});

test('examples: input and result highlighted, hook payloads folded, long strings cut, fields and findings linked', () => {
  const long = 'x'.repeat(250);
  const example: ToolExample = {
    file: 'content/payloads/a/bash.run.json',
    scenario: 'run',
    description: 'Runs.',
    cli: { package: 'pkg', version: '9.9.9' },
    expect: 'success',
    configuration: 'base',
    calls: [
      {
        tool: 'Bash',
        own: true,
        input: { command: long, extra: 1 },
        outcome: 'success',
        result: { stdout: 'ok' },
        hooks: [{ hook_event_name: 'PreToolUse', tool_input: { command: 'ls' } }],
      } as never,
      { tool: 'Other', own: false, input: 'raw text', outcome: 'success', hooks: [] } as never,
      {
        tool: 'Bash',
        own: false,
        inSubagent: true,
        input: { command: 'echo sub' },
        outcome: 'success',
        hooks: [],
      } as never,
    ],
    findings: [
      {
        call: 0,
        tool: 'Bash',
        parts: ['input'],
        kind: 'undeclared',
        anchor: 'input.extra',
        pointer: '/extra',
        message: 'not declared',
      },
      {
        call: 0,
        tool: 'Bash',
        parts: ['result'],
        kind: 'undeclared',
        anchor: 'input.command',
        pointer: '',
        message: 'm',
      },
    ] as never,
  };
  const t = tool(A, 'Bash', { input: view('json-schema', [row('input.command')]) });
  t.examples = [example];
  const [v] = examplesView(t, { hookShape: hookShapeOf(A), hookMechanism: hookMechanismOf(A) });
  const [own, other, inSubagent] = v!.calls;
  // A call made inside a subagent says so; the others do not.
  assert.deepEqual(
    v!.calls.map((c) => c.inSubagent),
    [false, false, true],
  );
  assert.equal(inSubagent!.tool, 'Bash');
  assert.deepEqual(
    own!.parts.map((p) => [p.title, p.lang, p.highlighted]),
    [
      ['Input the model sent', 'json', true],
      ['Result the model got', 'json', true],
      ['PreToolUse hook, standard input', 'json', false],
    ],
  );
  assert.equal(JSON.parse(own!.parts[0]!.text).command, `${'x'.repeat(240)}… [10 more characters]`);
  assert.equal(
    own!.parts[2]!.text,
    JSON.stringify({ hook_event_name: 'PreToolUse', tool_input: { command: 'ls' } }, null, 2),
  );
  assert.deepEqual(own!.fields, [{ name: 'command', anchor: 'input.command' }, { name: 'extra' }]);
  // Another tool's call shows no field list; a text input is shown as text.
  assert.equal(other!.fields, undefined);
  assert.deepEqual(
    other!.parts.map((p) => [p.lang, p.text]),
    [
      ['text', 'raw text'],
      ['text', 'The CLI sent the model no result for this call.'],
    ],
  );
  assert.deepEqual(
    v!.findings.map((f) => [f.anchor, f.href]),
    [
      ['input.extra', undefined],
      ['input.command', '#input.command'],
    ],
  );
});

test('routes: a page per tool, a redirect per alias slug, a page per removed tool, each with its content files', () => {
  const s = fixture();
  s.tools[0]!.redirectSlugs = ['killshell', 'sh'];
  s.tools[0]!.files.editorial = `content/editorial/${A}/bash.json`;
  s.removedTools = [
    {
      agent: A,
      name: 'Gone',
      slug: 'gone',
      source: 'sdk',
      lastSeen: '1',
      removedIn: '2',
      removedExactly: true,
      firstCompared: '0',
      file: 'content/history/x.json',
    },
  ];
  const routes = toolRoutes(s);
  assert.equal(routes.length, s.tools.length + 2 + 1);
  const at = (agentId: string, name: string) =>
    routes.find((r) => r.params.agent === agentId && r.params.tool === name)!.props;
  assert.deepEqual(at(A, 'killshell'), { page: 'alias', to: `/${A}/bash/` });
  assert.deepEqual(at(A, 'sh'), { page: 'alias', to: `/${A}/bash/` });
  const bash = at(A, 'bash');
  assert.equal(bash.page, 'tool');
  assert.deepEqual(bash.page === 'tool' && bash.sources, [
    `content/tools/${A}/bash.json`,
    `content/editorial/${A}/bash.json`,
  ]);
  const exec = at(B, 'exec');
  assert.deepEqual(exec.page === 'tool' && exec.sources, [`content/tools/${B}/exec.json`]);
  assert.deepEqual(at(A, 'gone'), { page: 'removed', removed: s.removedTools[0], sources: ['content/history/x.json'] });
});

test('the payload checker of every agent names the members its hook payloads carry, from the agent’s declared shapes, not tool_input everywhere', () => {
  const model = realContent();
  let checked = 0;
  for (const id of AGENT_IDS) {
    const hooks = AGENTS[id].hooks;
    if ('none' in hooks) continue;
    const shapes = [hooks.shape, ...(hooks.otherShapes ?? [])];
    const inputs = new Set(shapes.flatMap((s) => [s.inputField, ...(s.afterInputField ? [s.afterInputField] : [])]));
    const names = new Set(shapes.map((s) => s.toolNameField));
    const t = model.tools.find((x) => x.agent === id && pageView(model, x).payloadCheck?.hook.count);
    if (!t) continue;
    const check = pageView(model, t).payloadCheck!;
    for (const input of inputs) assert.ok(check.hookText.includes(input), `${id}: ${check.hookText}`);
    for (const name of names) assert.ok(check.hookText.includes(name), `${id}: ${check.hookText}`);
    if (!inputs.has('tool_input')) assert.ok(!check.hookText.includes('tool_input'), `${id}: ${check.hookText}`);
    if (!names.has('tool_name')) assert.ok(!check.hookText.includes('tool_name'), `${id}: ${check.hookText}`);
    // The form reads every form of the agent's payloads.
    assert.deepEqual(new Set([check.hook.fields!, ...(check.hook.otherFields ?? [])].map((f) => f.input)), inputs, id);
    checked++;
  }
  assert.ok(checked >= 2, 'agents with recorded hook payloads');
});
