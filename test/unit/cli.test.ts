/**
 * The `agent-tools` command (src/cli/) over a small snapshot written here: lookups by any
 * spelling, exit codes, the changes filters, release comparison and the package's file choice.
 * The packed command against the real build is test/e2e/package.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closest, editDistance, findAgent, findTool, type NotFound } from '../../src/cli/lookup.ts';
import { EXIT, main, type Io } from '../../src/cli/main.ts';
import type { Snapshot } from '../../src/cli/snapshot.ts';
import { changes, sinceTime } from '../../src/cli/changes.ts';
import { diffText } from '../../src/cli/format.ts';
import { compareReleases, type Timeline } from '../../src/lib/history/release-compare.ts';
import { textDiff } from '../../src/lib/history/text-diff.ts';
import { isCarried } from '../../scripts/lib/package/package-files.ts';

const hookSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.test/alpha/hooks/PreToolUse.schema.json',
  type: 'object',
  properties: { tool_name: { type: 'string' }, hook_event_name: { const: 'PreToolUse' } },
  required: ['tool_name'],
};

const FILES: Record<string, unknown> = {
  '/alpha/hooks/PreToolUse.schema.json': hookSchema,
};

const CATALOG = {
  $schema: 'https://example.test/catalog.schema.json',
  agents: [
    {
      id: 'alpha',
      product: 'Alpha CLI',
      version: '1.2.0',
      checked: '2026-12-01',
      configurations: [{ id: 'print', label: 'print' }],
      hooks: {
        page: '/alpha/hooks/',
        recorded: 1,
        schemas: [{ event: 'PreToolUse', schema: '/alpha/hooks/PreToolUse.schema.json' }],
      },
      permissions: [],
      behaviour: [],
    },
  ],
  tools: [
    {
      agent: 'alpha',
      product: 'Alpha CLI',
      version: '1.2.0',
      name: 'run_shell',
      fullName: 'run_shell',
      slug: 'run_shell',
      aliases: [{ name: 'Shell', kind: 'accepted-alias' }],
      hookNames: ['Bash'],
      group: 'built-in',
      source: 'capture',
      summary: 'Runs a command.',
      availability: { others: 'function' },
      jobs: ['run-shell-command'],
      links: { page: '/alpha/run_shell/', schemas: {}, declarations: {}, definitionFiles: {} },
    },
  ],
  jobs: [{ id: 'run-shell-command', title: 'Run a shell command', description: '', page: '/jobs/run-shell-command/' }],
};

const CHANGES = {
  rules: [],
  texts: { a: 'old words', b: 'new words' },
  releases: ['2026-12-03T10:00:00Z', '2026-11-20T10:00:00Z'].map((published, i) => ({
    agent: 'alpha',
    product: 'Alpha CLI',
    release: `1.${2 - i}.0`,
    published,
    url: `/alpha/changelog/#1.${2 - i}.0`,
    id: `alpha-1.${2 - i}.0`,
    changes: 2,
    breaking: 1,
    groups: [
      {
        evidence: 'captures',
        tools: [
          {
            name: 'run_shell',
            changes: [
              { kind: 'field-removed', words: 'field removed timeout', breaking: 'always' },
              { kind: 'description-changed', words: 'description changed', before: 'a', after: 'b', by: 'words' },
            ],
          },
        ],
      },
    ],
  })),
};

const snapshot: Snapshot = {
  info: { version: '0.0.0', site: 'https://example.test', base: '/', agents: [] },
  catalog: () => CATALOG as never,
  changes: () => CHANGES as never,
  fields: () => ({}),
  json: <T>(path: string) => FILES[path] as T | undefined,
  text: (path: string) => (FILES[path] === undefined ? undefined : JSON.stringify(FILES[path])),
  releaseFolders: () => [],
};

async function runCli(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => (out += t),
    err: (t) => (err += t),
    readStdin: async () => stdin,
    colour: false,
    serveMcp: async () => {},
  };
  const code = await main(args, () => snapshot, io);
  return { code, out, err };
}

test('an agent and a tool are found by any spelling; a miss names what is close', () => {
  const catalog = snapshot.catalog();
  assert.equal(findAgent(catalog, 'Alpha CLI').id, 'alpha');
  const agent = findAgent(catalog, 'ALPHA');
  assert.equal(findTool(catalog, agent, 'RUN-SHELL').fullName, 'run_shell');
  assert.equal(findTool(catalog, agent, 'shell').fullName, 'run_shell');
  assert.equal(findTool(catalog, agent, 'bash').fullName, 'run_shell', 'the name its hooks give it');
  assert.throws(
    () => findTool(catalog, agent, 'run_shel'),
    (e: NotFound) => e.suggestions.includes('run_shell'),
  );
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.deepEqual(closest('zzzz', ['run_shell']), []);
});

test('exit codes: 0 answered, 1 refused, 2 usage, 3 not found, 4 unreadable', async () => {
  assert.equal((await runCli(['show', 'alpha', 'run_shell'])).code, EXIT.ok);
  assert.equal((await runCli([])).code, EXIT.usage);
  assert.equal((await runCli(['show', 'alpha'])).code, EXIT.usage);
  assert.equal((await runCli(['show', 'alpha', 'run_shell', '--bogus'])).code, EXIT.usage);
  assert.equal((await runCli(['show', 'beta', 'x'])).code, EXIT.notFound);
  const valid = await runCli(['check', 'alpha', 'PreToolUse', '-'], '{"tool_name":"Bash"}');
  assert.equal(valid.code, EXIT.ok, valid.out + valid.err);
  const refused = await runCli(['check', 'alpha', 'pretooluse', '-', '--json'], '{"tool_name":5}');
  assert.equal(refused.code, EXIT.refused);
  const answer = JSON.parse(refused.out) as { errors: { pointer: string; rule: string; text: string }[] };
  assert.deepEqual(
    answer.errors.map((e) => [e.pointer, e.rule, e.text]),
    [['/tool_name', 'type', 'must be string, not integer (5)']],
  );
  const missing = JSON.parse((await runCli(['check', 'alpha', 'PreToolUse', '--json'], '{}')).out) as typeof answer;
  assert.deepEqual(
    missing.errors.map((e) => [e.pointer, e.rule]),
    [['/tool_name', 'required']],
  );
  assert.equal((await runCli(['check', 'alpha', 'PreToolUse', '-'], '{"tool_name":')).code, EXIT.unreadable);
  // The event is looked up before any input is read: a wrong event is "not found", not "unreadable".
  assert.equal((await runCli(['check', 'alpha', 'Nope', '/no/such/file'])).code, EXIT.notFound);
  assert.equal((await runCli(['check', 'alpha', 'PreToolUse', '--answer'], '{}')).code, EXIT.notFound);
  assert.equal((await runCli(['changes', '--since', 'last week'])).code, EXIT.usage);
});

test('changes: by agent, since a day, and breaking only', () => {
  assert.equal(changes(snapshot).releases.length, 2);
  assert.deepEqual(
    changes(snapshot, { since: '2026-12-01' }).releases.map((r) => r.id),
    ['alpha-1.2.0'],
  );
  const breaking = changes(snapshot, { breaking: true });
  assert.equal(breaking.changes, 2);
  assert.deepEqual(breaking.texts, {}, 'the texts of changes left out are left out');
  assert.deepEqual(changes(snapshot).texts, { a: 'old words', b: 'new words' });
  assert.equal(sinceTime('2026-12-01'), Date.UTC(2026, 11, 1));
  assert.throws(() => sinceTime('soon'), RangeError);
});

test('a text changed twice between two releases is one item, from its first text to its last', () => {
  const timeline: Timeline = {
    tool: 'run_shell',
    texts: { t1: 'one', t2: 'two', t3: 'three' },
    sources: [
      {
        source: 'capture',
        package: 'alpha',
        releases: ['1.0.0', '1.1.0', '1.2.0', '1.3.0'].map((v) => ({ version: v, label: v })),
        changes: [
          {
            release: '1.1.0',
            previous: '1.0.0',
            kind: 'description-changed',
            line: { kind: 'd' },
            fromText: 't1',
            toText: 't2',
            by: 'words',
          },
          {
            release: '1.2.0',
            previous: '1.1.0',
            kind: 'field-added',
            field: '.x',
            line: { kind: 'field added', path: 'x', to: 'string' },
          },
          {
            release: '1.3.0',
            previous: '1.2.0',
            kind: 'description-changed',
            line: { kind: 'd' },
            fromText: 't2',
            toText: 't3',
            by: 'words',
          },
        ],
      },
    ],
  };
  const c = compareReleases(timeline, timeline.sources[0]!, '1.3.0', '1.0.0');
  assert.deepEqual([c.older, c.newer], ['1.0.0', '1.3.0']);
  assert.equal(c.items.length, 2);
  assert.deepEqual(c.items[0], {
    kind: 'text',
    changes: [timeline.sources[0]!.changes[0], timeline.sources[0]!.changes[2]],
    before: 'one',
    after: 'three',
    by: 'words',
  });
  assert.equal(compareReleases(timeline, timeline.sources[0]!, '1.1.0', '1.2.0').items.length, 1);
});

test('a diff marks removed and added words as git --word-diff does', () => {
  assert.match(
    diffText(textDiff('run the old command', 'run the new command'), { colour: false }),
    /\[-old-\]\{\+new\+\}/,
  );
});

test('the package carries the exports the command reads, and not the pages', () => {
  const agents = new Set(['alpha']);
  for (const path of [
    'catalog.json',
    'changes.json',
    'alpha/history.json',
    'alpha/hooks/PreToolUse.schema.json',
    'alpha/hooks/PreToolUse.output.schema.json',
    'alpha/run_shell/input.schema.json',
    'alpha/run_shell/1.2.0/input.schema.json',
    'alpha/run_shell/timeline.json',
    'alpha/run_shell/hooks.schema.json',
  ])
    assert.ok(isCarried(path, agents), path);
  for (const path of [
    'index.html',
    'alpha/index.html',
    'alpha/run_shell/index.html',
    'alpha/hooks/PreToolUse.output.validate.js',
    'beta/history.json',
    'alpha/run_shell/1.2.0/timeline.json',
    'pagefind/pagefind.js',
  ])
    assert.ok(!isCarried(path, agents), path);
});

test("with --breaking, a release's counts are those of the changes kept", () => {
  for (const release of changes(snapshot, { breaking: true }).releases) {
    assert.equal(release.changes, 1);
    assert.equal(release.breaking, 1);
  }
  assert.deepEqual(
    changes(snapshot).releases.map((r) => r.changes),
    [2, 2],
  );
});
