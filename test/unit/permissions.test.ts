/**
 * Permission cases: the checks on content/permission-cases.json, the runner's pure parts
 * (leaving the bypass flags out, the outcome), and the view model of the pages and the
 * catalog, against hand-written records; then every committed record against its own JSON,
 * read independently of the loader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMatrix } from '../../scripts/lib/capture/matrix.ts';
import { withoutSequences } from '../../scripts/lib/payloads/scenario-run.ts';
import {
  caseConfigurationText,
  permissionCaseProblems,
  permissionOutcome,
  permissionScenario,
  validatePermissionCases,
  PermissionCaseError,
} from '../../scripts/lib/permissions/cases.ts';
import { payloadDriver, PAYLOAD_AGENTS } from '../../src/lib/agents/index.ts';
import type { PermissionCasesFile } from '../../src/lib/core/content-types.ts';
import type { PermissionRecord, SiteModel, ToolModel } from '../../src/lib/model/model.ts';
import {
  permissionEntries,
  permissionRows,
  permissionsComparison,
  permissionsPage,
  ruleForms,
  sideEffectWords,
  agentToolPermissions,
  permissionCasesOf,
  type ToolPermissions,
} from '../../src/lib/behaviour/permissions.ts';
import { agent, site, tool } from '../helpers/model-fixtures.ts';
import { mcpNaming, readingWords } from '../../src/lib/behaviour/mcp-naming.ts';

const ROOT = join(import.meta.dirname, '../..');

test('withoutSequences leaves out each whole sequence, wherever it is, and nothing else', () => {
  assert.deepEqual(withoutSequences(['--verbose', '--allowedTools', '', '-p'], [['--allowedTools', '']]), [
    '--verbose',
    '-p',
  ]);
  // A sequence counts only whole: the flag with another value stays.
  assert.deepEqual(withoutSequences(['--allowedTools', 'Bash', '-p'], [['--allowedTools', '']]), [
    '--allowedTools',
    'Bash',
    '-p',
  ]);
  assert.deepEqual(withoutSequences(['--auto', 'run', '--auto'], [['--auto']]), ['run']);
  assert.deepEqual(withoutSequences(['a'], []), ['a']);
});

test('every agent whose payload runs let every call through declares the flags that do it, and they are in its run additions', () => {
  for (const id of PAYLOAD_AGENTS) {
    const driver = payloadDriver(id);
    if ('none' in driver) continue;
    const additions = driver.hooks.runAdditions({
      home: '/h',
      tmp: '/t',
      hookCommand: 'x',
      taggedHookCommand: () => 'x',
      hookLog: '/l',
      allowedTools: [],
    });
    for (const seq of driver.hooks.bypass ?? []) {
      const at = additions.args.findIndex((_a, i) => seq.every((w, j) => additions.args[i + j] === w));
      assert.ok(
        at >= 0,
        `${id}: bypass ${JSON.stringify(seq)} is not in its run additions ${JSON.stringify(additions.args)}`,
      );
    }
  }
});

test('the outcome is ran only when the side effect happened, and no-result only when nothing reached the model', () => {
  assert.equal(permissionOutcome(true, false), 'ran');
  assert.equal(permissionOutcome(true, true), 'ran');
  assert.equal(permissionOutcome(false, true), 'did-not-run');
  assert.equal(permissionOutcome(false, false), 'no-result');
});

function casesFile(edit: (c: any) => void = () => {}): PermissionCasesFile {
  const c = {
    id: 'bash-deny',
    toolRole: 'shell',
    description: 'A deny rule names Bash(touch:*).',
    rule: { form: 'permissions.deny', text: 'Bash(touch:*)', says: 'deny' },
    call: {
      tool: 'Bash',
      input: { command: 'touch marker.txt' },
      files: { '.claude/settings.json': '{"permissions":{"deny":["Bash(touch:*)"]}}' },
    },
    sideEffect: { file: 'marker.txt' },
  };
  edit(c);
  return { agents: { 'claude-code': { configuration: 'print', cases: [c as any] } } };
}

test('a case must write the rule it names, say none only without a rule, and give a probe its address', () => {
  const matrix = loadMatrix(ROOT);
  assert.deepEqual(permissionCaseProblems(casesFile(), matrix), []);
  assert.deepEqual(
    permissionCaseProblems(
      casesFile((c) => (c.rule.text = 'Bash(rm:*)')),
      matrix,
    ),
    [
      '/agents/claude-code/cases/0/rule/text: "Bash(rm:*)" is not written by the case (call.args, files, homeFiles, settings or env)',
    ],
  );
  // A flag's value counts as written, unescaped.
  assert.deepEqual(
    permissionCaseProblems(
      casesFile(
        (c) => ((c.call.files = undefined), (c.call.args = ['-c', 'x=["echo"]']), (c.rule.text = 'x=["echo"]')),
      ),
      matrix,
    ),
    [],
  );
  assert.match(
    permissionCaseProblems(
      casesFile((c) => (c.rule = { form: 'none', text: 'Bash', says: 'none' })),
      matrix,
    ).join('\n'),
    /rule\/text: a case without a rule/,
  );
  assert.match(
    permissionCaseProblems(
      casesFile((c) => (c.rule.says = 'none')),
      matrix,
    ).join('\n'),
    /form none goes with says none/,
  );
  assert.match(
    permissionCaseProblems(
      casesFile((c) => ((c.toolRole = 'fetch'), (c.sideEffect = { probe: true }))),
      matrix,
    ).join('\n'),
    /needs \$PROBE_URL in call.input/,
  );
  assert.match(
    permissionCaseProblems(
      casesFile((c) => (c.call.configuration = 'no-such')),
      matrix,
    ).join('\n'),
    /call\/configuration: no configuration claude-code\/no-such/,
  );
  const twice = casesFile();
  twice.agents['claude-code']!.cases.push(twice.agents['claude-code']!.cases[0]!);
  assert.match(permissionCaseProblems(twice, matrix).join('\n'), /cases\/1\/id: case bash-deny is declared twice/);
  assert.equal(caseConfigurationText(casesFile().agents['claude-code']!.cases[0]!).includes('Bash(touch:*)'), true);
});

test('the committed case file is valid, and its scenarios allow nothing themselves', () => {
  const matrix = loadMatrix(ROOT);
  const file = validatePermissionCases(
    JSON.parse(readFileSync(join(ROOT, 'content/permission-cases.json'), 'utf8')),
    JSON.parse(readFileSync(join(ROOT, 'schemas/permission-cases.schema.json'), 'utf8')),
    matrix,
  );
  for (const [id, entry] of Object.entries(file.agents)) {
    for (const c of entry!.cases) {
      const s = permissionScenario({
        agent: id as any,
        case: c,
        configuration: c.call.configuration ?? entry!.configuration,
        key: `${id}/${c.id}`,
        file: `${id}/${c.id}.json`,
      });
      assert.deepEqual(s.scenario.allowedTools, [], `${id}/${c.id}`);
    }
  }
  assert.throws(
    () =>
      validatePermissionCases(
        { agents: { 'claude-code': { configuration: 'print', cases: [{ id: 'x' }] } } },
        JSON.parse(readFileSync(join(ROOT, 'schemas/permission-cases.schema.json'), 'utf8')),
        matrix,
      ),
    PermissionCaseError,
  );
});

function record(id: string, edit: Partial<PermissionRecord> = {}): PermissionRecord {
  return {
    agent: 'claude-code',
    cli: { package: '@anthropic-ai/claude-code', version: '2.0.0' },
    case: id,
    toolRole: 'shell',
    description: `Case ${id}.`,
    configuration: 'print',
    mode: 'print',
    tool: 'Bash',
    input: { command: 'touch marker.txt' },
    rule: { form: 'none', says: 'none' },
    args: ['--output-format', 'stream-json'],
    env: {},
    configurationFiles: [],
    offered: true,
    sideEffect: { kind: 'file', target: 'marker.txt', happened: false },
    outcome: 'did-not-run',
    modelSaw: { result: 'needs approval', isError: true, otherTexts: [] },
    cliExit: { code: 0 },
    file: `content/permissions/claude-code/${id}.json`,
    toolSlug: 'bash',
    ...edit,
  };
}

const bash = tool('claude-code', 'Bash', { slug: 'bash' });
// Write is offered in the print configuration (its captures), so a case where it is not was the rule's doing.
const write = tool('claude-code', 'Write', { slug: 'write', captured: { print: 'function' } });
const fixture = () =>
  site({
    agents: [agent('claude-code'), agent('codex')],
    tools: [bash, write],
    permissions: [
      record('no-rule'),
      record('allow-flag', {
        rule: { form: '--allowedTools', text: 'Bash(touch:*)', says: 'allow' },
        args: ['--output-format', 'stream-json', '--allowedTools', 'Bash(touch:*)'],
        sideEffect: { kind: 'file', target: 'marker.txt', happened: true },
        outcome: 'ran',
        modelSaw: { result: '', isError: false, otherTexts: [] },
      }),
      record('deny-flag', {
        rule: { form: '--disallowedTools', text: 'Write', says: 'deny' },
        tool: 'Write',
        toolRole: 'file-write',
        offered: false,
        args: ['--output-format', 'stream-json', '--disallowedTools', 'Write'],
        toolSlug: 'write',
      }),
    ],
  });

test('rows say the flags each case added beside the ones every run shares, and link the tool', () => {
  const rows = permissionRows(fixture(), 'claude-code');
  assert.deepEqual(
    rows.map((r) => [r.anchor, r.caseArgs, r.outcomeLabel, r.toolUrl !== undefined]),
    [
      ['case-no-rule', [], 'did not run', true],
      ['case-allow-flag', ['--allowedTools', 'Bash(touch:*)'], 'ran', true],
      ['case-deny-flag', ['--disallowedTools', 'Write'], 'did not run', true],
    ],
  );
  assert.equal(rows[1]!.evidence, 'marker.txt was created');
  // A rule written as a flag is not repeated as an extra flag.
  assert.deepEqual(rows[1]!.otherArgs, []);
  assert.equal(
    sideEffectWords({ sideEffect: { kind: 'probe', target: 'probe', happened: false } }),
    'the loopback probe server was not asked for the page',
  );
  assert.deepEqual(
    ruleForms(rows).map((f) => [f.form, f.examples.map((e) => e.text)]),
    [
      ['--allowedTools', ['Bash(touch:*)']],
      ['--disallowedTools', ['Write']],
    ],
  );
});

test("an agent's page lists its defaults and the tools its rules took away; an agent without cases says so by having no sections", () => {
  const page = permissionsPage(fixture(), 'claude-code');
  assert.deepEqual(
    page.defaults.map((r) => r.case),
    ['no-rule'],
  );
  assert.deepEqual(
    page.notOffered.map((r) => r.case),
    ['deny-flag'],
  );
  assert.deepEqual(page.sharedArgs, ['--output-format', 'stream-json']);
  assert.deepEqual(page.releases, ['@anthropic-ai/claude-code@2.0.0']);
  assert.deepEqual(permissionsPage(fixture(), 'codex').sections, []);
});

/** A tool page's "Allow or block it": the agent's cases, the rows of those that called the tool kept. */
function toolPermissions(site: SiteModel, t: ToolModel): ToolPermissions {
  const agentWide = agentToolPermissions(site, t.agent);
  const cases = permissionCasesOf(site, t);
  return { ...agentWide, rows: agentWide.rows.filter((r) => cases.includes(r.case)) };
}

test("a tool page gets the cases that called it, and otherwise the agent's forms and removals", () => {
  const onBash = toolPermissions(fixture(), bash);
  assert.deepEqual(
    onBash.rows.map((r) => r.case),
    ['no-rule', 'allow-flag'],
  );
  assert.equal(onBash.agentCases, 3);
  assert.deepEqual(onBash.removal, [{ form: '--disallowedTools', text: 'Write', tool: 'Write', case: 'deny-flag' }]);
  const other = toolPermissions(fixture(), tool('claude-code', 'Read', { slug: 'read' }));
  assert.deepEqual(other.rows, []);
  assert.deepEqual(other.forms, ['--allowedTools', '--disallowedTools']);
  assert.equal(toolPermissions(fixture(), tool('codex', 'shell', { slug: 'shell' })).agentCases, 0);
});

test('catalog entries carry the rule, the call, the outcome, the words and the evidence; the comparison groups by role and rule', () => {
  const entries = permissionEntries(fixture(), 'claude-code');
  assert.deepEqual(entries[1], {
    case: 'allow-flag',
    tool: 'Bash',
    toolRole: 'shell',
    rule: { form: '--allowedTools', text: 'Bash(touch:*)', says: 'allow' },
    call: {
      input: { command: 'touch marker.txt' },
      configuration: 'print',
      mode: 'print',
      args: ['--allowedTools', 'Bash(touch:*)'],
    },
    offered: true,
    outcome: 'ran',
    sideEffect: { kind: 'file', target: 'marker.txt', happened: true },
    modelSaw: { result: '', isError: false },
    release: '@anthropic-ai/claude-code@2.0.0',
    evidence: 'content/permissions/claude-code/allow-flag.json',
    page: entries[1]!.page,
  });
  assert.match(entries[1]!.page, /\/claude-code\/permissions\/#case-allow-flag$/);
  const comparison = permissionsComparison(fixture());
  assert.deepEqual(
    comparison.rows.map((r) => [r.role, r.says, r.cells.map((c) => c.cases.length)]),
    [
      ['runs a command', 'no rule', [1, 0]],
      ['runs a command', 'allows', [1, 0]],
      ['writes a file', 'denies', [1, 0]],
    ],
  );
  const denied = comparison.rows[2]!.cells[0]!.cases[0]!;
  assert.deepEqual(
    [denied.outcome, denied.verdict, denied.where],
    ['taken away', 'removed', 'the --disallowedTools flag'],
  );
});

test('every committed record: its outcome is what its own side effect and result say, and it names a declared case', () => {
  const dir = join(ROOT, 'content/permissions');
  if (!existsSync(dir)) return;
  const declared = JSON.parse(readFileSync(join(ROOT, 'content/permission-cases.json'), 'utf8')) as PermissionCasesFile;
  for (const agentId of readdirSync(dir)) {
    for (const f of readdirSync(join(dir, agentId))) {
      const r = JSON.parse(readFileSync(join(dir, agentId, f), 'utf8'));
      const expected = r.sideEffect.happened ? 'ran' : r.modelSaw.result === null ? 'no-result' : 'did-not-run';
      assert.equal(r.outcome, expected, `${agentId}/${f}`);
      const c = declared.agents[agentId as 'claude-code']?.cases.find((x) => x.id === r.case);
      assert.ok(c, `${agentId}/${f}: not declared`);
      assert.deepEqual(r.rule, c!.rule, `${agentId}/${f}: the rule differs from the declared case's`);
    }
  }
});

test('MCP naming: the name to hooks comes from a recorded payload, rules from permission cases, and the history says each change in words', () => {
  const m = fixture();
  m.permissions.push(
    record('mcp-allow', {
      toolRole: 'mcp',
      tool: 'mcp__capture__echo',
      rule: { form: '--allowedTools', text: 'mcp__capture', says: 'allow' },
      sideEffect: { kind: 'mcpCall', target: 'echo', happened: true },
      outcome: 'ran',
    }),
  );
  m.hookBehaviour = [
    {
      agent: 'claude-code',
      toolRole: 'mcp',
      file: 'content/hook-behaviour/claude-code/mcp.json',
      cli: { package: 'p', version: '2.0.0' },
      call: { hooks: [{ hook_event_name: 'PreToolUse', tool_name: 'mcp__capture__echo', tool_input: {} }] },
    } as any,
  ];
  m.mcpNaming = [
    {
      agent: 'claude-code',
      package: 'p',
      configuration: 'mcp',
      listed: 9,
      from: '1.0.0',
      to: '2.0.0',
      step: 4,
      file: 'content/mcp-naming/claude-code.json',
      readings: [
        { version: '1.0.0', failed: 'exited 1' },
        { version: '1.5.0', names: [] },
        { version: '2.0.0', names: ['mcp__capture__echo'] },
      ],
      changes: [
        { before: { version: '1.5.0', names: [] }, after: { version: '2.0.0', names: ['mcp__capture__echo'] } },
      ],
    },
  ];
  const [claude, codex] = mcpNaming(m);
  assert.deepEqual(claude!.toHooks, {
    name: 'mcp__capture__echo',
    field: 'tool_name',
    file: 'content/hook-behaviour/claude-code/mcp.json',
    release: 'p@2.0.0',
  });
  assert.deepEqual(
    claude!.inRules.map((r) => [r.text, r.outcome]),
    [['mcp__capture', 'ran']],
  );
  assert.deepEqual(claude!.overReleases!.changes, [
    {
      before: '1.5.0',
      after: '2.0.0',
      was: 'not offered by name',
      became: 'mcp__capture__echo',
      wasName: false,
      becameName: true,
    },
  ]);
  assert.equal(claude!.overReleases!.read, 3);
  assert.equal(readingWords({ version: '1.0.0', failed: 'exited 1' }), 'the capture failed (exited 1)');
  assert.equal(codex!.overReleases, undefined);
  assert.deepEqual(codex!.inRules, []);
});
