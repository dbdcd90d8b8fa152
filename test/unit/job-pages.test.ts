/**
 * The job index and a job's comparison page (src/lib/views/job-pages.ts), from a
 * site model written by hand: which tools do which job, which fields a
 * comparison names, and what each page lists are known in advance.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_IDS, AGENT_PRODUCTS } from '../../src/lib/agents/index.ts';
import { jobIndex, jobPage } from '../../src/lib/views/job-pages.ts';
import { HOME_SECTIONS, homePage } from '../../src/lib/views/home-page.ts';
import { pageHeadings } from '../../src/lib/core/page-sections.ts';
import { agent, row, site, tool, view } from '../helpers/model-fixtures.ts';

const [A, B, C] = AGENT_IDS as [(typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number], (typeof AGENT_IDS)[number]];

/**
 * Agents A, B, C; job `shell` done by A's Run and Exec and B's Sh, job `read` by nobody; a comparison of `shell` naming
 * `command`.
 */
function fixture() {
  return site({
    agents: [agent(A), agent(B), agent(C)],
    tools: [
      tool(A, 'Run', {
        input: view('json-schema', [
          row('input.command', { required: true }),
          row('input.timeout', { type: 'number' }),
        ]),
        output: view('json-schema', [row('output.stdout')]),
        editorial: { jobs: ['shell'] },
      }),
      tool(A, 'Exec', {
        input: view('json-schema', [row('input.cmd')]),
        editorial: { jobs: ['shell'], summary: 'Runs `cmd`.' },
      }),
      tool(A, 'Unrelated', { editorial: { jobs: [] } }),
      tool(B, 'Sh', { input: view('json-schema', [row('input.command')]), editorial: { jobs: ['shell'] } }),
    ],
    jobs: [
      { id: 'shell', title: 'Run a shell command', description: 'Run `sh`.' },
      { id: 'read', title: 'Read a file', description: 'Read one.' },
    ],
    comparisons: [
      {
        job: 'shell',
        concepts: [
          {
            id: 'command',
            label: 'The command',
            note: 'A note.',
            fields: [
              { agent: A, tool: 'Run', field: 'input.command' },
              { agent: B, tool: 'Sh', field: 'input.command' },
            ],
          },
          { id: 'timeout', label: 'Time limit', fields: [{ agent: A, tool: 'Run', field: 'input.timeout' }] },
        ],
      },
    ] as never,
  });
}

test('job index: one heading per job in content order, every agent with its tools or none', () => {
  const entries = jobIndex(fixture());
  assert.deepEqual(
    entries.map((e) => [e.section.id, e.section.title, e.section.depth, e.url]),
    [
      ['shell', 'Run a shell command', 2, '/jobs/shell/'],
      ['read', 'Read a file', 2, '/jobs/read/'],
    ],
  );
  assert.deepEqual(entries[0]!.agents, [
    {
      label: AGENT_PRODUCTS[A],
      tools: [
        { url: `/${A}/run/`, name: 'Run' },
        { url: `/${A}/exec/`, name: 'Exec' },
      ],
    },
    { label: AGENT_PRODUCTS[B], tools: [{ url: `/${B}/sh/`, name: 'Sh' }] },
    { label: AGENT_PRODUCTS[C], tools: [] },
  ]);
  assert.deepEqual(
    entries[1]!.agents.map((a) => a.tools.length),
    [0, 0, 0],
  );
  assert.equal(jobIndex(fixture(), 3)[0]!.section.depth, 3);
  assert.deepEqual(pageHeadings(entries.map((e) => e.section)), [
    { depth: 2, slug: 'shell', text: 'Run a shell command' },
    { depth: 2, slug: 'read', text: 'Read a file' },
  ]);
});

test('job page with a comparison: the three sections, tools in agent order then by name, agents without a tool', () => {
  const page = jobPage(fixture(), 'shell');
  assert.deepEqual(
    page.sections.map((s) => [s.id, s.title]),
    [
      ['tools', 'The tools'],
      ['compat', 'Compatibility'],
      ['same-fields', 'Fields that mean the same'],
      ['own-fields', 'Fields only one tool has'],
    ],
  );
  assert.deepEqual(
    [page.tools.section, page.compat.section, page.sameFields?.section, page.ownFields.section],
    page.sections,
  );
  assert.equal(page.description, 'Run `sh`. The tools of every agent that do it, side by side.');
  assert.deepEqual(
    page.tools.list.map((t) => [t.agent, t.name, t.url, t.summary]),
    [
      [AGENT_PRODUCTS[A], 'Exec', `/${A}/exec/`, 'Runs `cmd`.'],
      [AGENT_PRODUCTS[A], 'Run', `/${A}/run/`, 'Run summary'],
      [AGENT_PRODUCTS[B], 'Sh', `/${B}/sh/`, 'Sh summary'],
    ],
  );
  assert.deepEqual([page.agentsWithTools, page.agentCount, page.agentsWithout], [2, 3, [AGENT_PRODUCTS[C]]]);
});

test('concepts list the tools that have the field, with links to their rows, and those that lack it', () => {
  const [command, timeout] = jobPage(fixture(), 'shell').sameFields!.concepts;
  assert.deepEqual(
    [command!.id, command!.titleId, command!.label, command!.note],
    ['concept-command', 'concept-command-title', 'The command', 'A note.'],
  );
  assert.deepEqual(
    command!.tools.map(({ tool: t, fields }) => [t.name, fields.map((f) => [f.href, f.path, f.type, f.required])]),
    [
      ['Run', [[`/${A}/run/#input.command`, 'command', 'string', true]]],
      ['Sh', [[`/${B}/sh/#input.command`, 'command', 'string', false]]],
    ],
  );
  assert.deepEqual(
    command!.missing.map((t) => t.name),
    ['Exec'],
  );
  assert.deepEqual(
    timeout!.tools.map(({ tool: t }) => t.name),
    ['Run'],
  );
  assert.equal(timeout!.note, undefined);
  assert.deepEqual(
    timeout!.missing.map((t) => t.name),
    ['Exec', 'Sh'],
  );
});

test("each tool's own fields: top-level fields no concept names, results named as such", () => {
  const own = jobPage(fixture(), 'shell').ownFields;
  assert.equal(own.unmatched, false);
  assert.deepEqual(
    own.tools.map(({ tool: t, fields }) => [t.name, fields.map((f) => [f.sidePath, f.href])]),
    [
      ['Exec', [['input.cmd', `/${A}/exec/#input.cmd`]]],
      ['Run', [['result.stdout', `/${A}/run/#output.stdout`]]],
      ['Sh', []],
    ],
  );
});

test('a job without a comparison lists every field of each tool under one heading', () => {
  const model = fixture();
  model.comparisons = [];
  const page = jobPage(model, 'shell');
  assert.deepEqual(
    page.sections.map((s) => [s.id, s.title]),
    [
      ['tools', 'The tools'],
      ['compat', 'Compatibility'],
      ['own-fields', 'Fields of each tool'],
    ],
  );
  assert.equal(page.sameFields, undefined);
  assert.equal(page.ownFields.unmatched, true);
  assert.deepEqual(
    page.ownFields.tools[1]!.fields.map((f) => f.sidePath),
    ['input.command', 'input.timeout', 'result.stdout'],
  );
  const nobody = jobPage(model, 'read');
  assert.deepEqual([nobody.tools.list.length, nobody.agentsWithTools, nobody.agentsWithout.length], [0, 0, 3]);
  assert.throws(() => jobPage(model, 'missing'), /no job missing/);
});

test('home page: each agent with its tool count, and the jobs', () => {
  const home = homePage(fixture());
  assert.deepEqual(
    home.agents.map((a) => [a.label, a.url, a.version, a.checked, a.tools]),
    [
      [AGENT_PRODUCTS[A], `/${A}/`, '1.2.3', '2026-01-02', 3],
      [AGENT_PRODUCTS[B], `/${B}/`, '1.2.3', '2026-01-02', 1],
      [AGENT_PRODUCTS[C], `/${C}/`, '1.2.3', '2026-01-02', 0],
    ],
  );
  assert.deepEqual(home.jobs, [
    { url: '/jobs/shell/', title: 'Run a shell command' },
    { url: '/jobs/read/', title: 'Read a file' },
  ]);
});

test('home page: "On this page" lists its sections in page order, Latest changes and Not covered only when they list some', () => {
  const home = homePage(fixture());
  assert.deepEqual(home.latest, []);
  assert.deepEqual(home.notCovered, []);
  const all = Object.values(HOME_SECTIONS);
  const listed = (...left: (typeof all)[number][]) =>
    all.filter((h) => !left.includes(h)).map((h) => ({ depth: 2, ...h }));
  assert.deepEqual(home.headings, listed(HOME_SECTIONS.latest, HOME_SECTIONS.notCovered));
  const entry = { product: 'Some agent', why: 'Its reason, long enough.', checked: '2026-12-06' };
  const withList = homePage({ ...fixture(), notDocumented: [entry] });
  assert.deepEqual(withList.headings, listed(HOME_SECTIONS.latest));
  assert.deepEqual(withList.notCovered, [{ ...entry, package: undefined }]);
  assert.equal(new Set(all.map((h) => h.slug)).size, all.length, 'ids are unique');
});
