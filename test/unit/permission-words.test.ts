import { test } from 'node:test';
import assert from 'node:assert/strict';
import { permissionPlain, permissionRulesOfThumb, ruleWhere } from '../../src/lib/behaviour/permission-words.ts';
import type { PermissionRecord } from '../../src/lib/model/model.ts';

type Facts = Parameters<typeof permissionPlain>[0];
function facts(over: Partial<Facts>): Facts {
  return {
    rule: { form: 'permissions.deny', text: 'Bash(touch:*)', says: 'deny' },
    offered: true,
    outcome: 'did-not-run',
    modelSaw: { result: 'Permission denied.', isError: true, otherTexts: [] },
    configuration: 'print',
    cliExit: { code: 0 },
    ...over,
  } as Facts;
}

test('an offered tool: refused, ran, or waited, with a warning where the rule did not do what it says', () => {
  assert.deepEqual(permissionPlain(facts({}), ['print']), {
    verdict: 'refused',
    sentence: 'Refused; the model read “Permission denied.”.',
    mark: 'refused',
    surprise: undefined,
  });
  const ranPastDeny = permissionPlain(
    facts({ outcome: 'ran', modelSaw: { result: 'done', isError: false, otherTexts: [] } }),
    ['print'],
  );
  assert.equal(ranPastDeny.verdict, 'ran');
  assert.equal(ranPastDeny.surprise, 'This deny rule did not stop the call.');
  const allowRefused = permissionPlain(
    facts({ rule: { form: 'permissions.allow', text: 'Bash(echo:*)', says: 'allow' } }),
    ['print'],
  );
  assert.equal(allowRefused.surprise, 'This allow rule did not cover the call.');
  const noResult = {
    outcome: 'no-result',
    modelSaw: { result: null, isError: false, otherTexts: [] },
  } as const satisfies Partial<Facts>;
  const waited = permissionPlain(
    facts({
      ...noResult,
      rule: { form: 'permission.bash', text: 'touch *', says: 'ask' },
      cliExit: { code: null, killedAfterSeconds: 30 },
    }),
    ['print'],
  );
  assert.equal(waited.verdict, 'waited');
  assert.match(waited.sentence, /still waiting after 30 s/);
  assert.match(waited.surprise ?? '', /waits for ever/);
  // A CLI that ended by itself without a result: the run stopped, in its own words.
  const stopped = permissionPlain(
    facts({ ...noResult, cliExit: { code: 1, said: 'Exec ended early: insufficient permission to proceed.' } }),
    ['print'],
  );
  assert.equal(stopped.verdict, 'stopped');
  assert.equal(
    stopped.sentence,
    'Stopped the run: the call did not run, and the CLI exited 1 without sending the model a result; it said “Exec ended early: insufficient permission to proceed.”.',
  );
});

test('a tool not offered: taken away by the rule, never offered in the configuration, or not brought in by an allow', () => {
  const notOffered: Partial<Facts> = {
    offered: false,
    modelSaw: { result: "Tool 'bash' not found", isError: true, otherTexts: [] },
  };
  assert.equal(
    permissionPlain(facts({ ...notOffered, rule: { form: 'tools', text: '"bash":false', says: 'exclude' } }), ['print'])
      .verdict,
    'removed',
  );
  const nothing = permissionPlain(facts({ ...notOffered }), ['yolo']);
  assert.equal(nothing.verdict, 'tested-nothing');
  assert.match(
    nothing.sentence,
    /^Tested nothing: this configuration \(`print`\) does not give the model the tool, rule or not \(it is offered in `yolo`\)/,
  );
  const allow = permissionPlain(
    facts({ ...notOffered, rule: { form: 'permissions.allow', text: 'Bash(touch *)', says: 'allow' } }),
    ['yolo'],
  );
  assert.equal(allow.verdict, 'not-offered');
  assert.match(allow.sentence, /this rule did not bring it in/);
  assert.ok(allow.surprise);
  assert.equal(permissionPlain(facts({ ...notOffered, rule: { form: 'none', says: 'none' } }), []).mark, 'not offered');
});

test("where a rule is written: its flag, the file whose text holds it, or the agent's settings file", () => {
  const record = (over: Partial<PermissionRecord>) =>
    ({
      rule: { form: '--allow-tool', text: 'shell(touch)', says: 'allow' },
      args: ['--allow-tool', 'shell(touch)'],
      configurationFiles: [],
      ...over,
    }) as unknown as PermissionRecord;
  assert.equal(ruleWhere(record({}), undefined), 'the --allow-tool flag');
  const inFile = record({
    rule: { form: 'permissions.deny', text: 'Bash(touch:*)', says: 'deny' },
    args: [],
    configurationFiles: [
      { where: '$HOME/.claude/settings.json', content: { hooks: {} } },
      { where: '$WORKDIR/.claude/settings.json', content: { permissions: { deny: ['Bash(touch:*)'] } } },
    ],
  } as Partial<PermissionRecord>);
  assert.equal(ruleWhere(inFile, '.claude/settings.json'), '$WORKDIR/.claude/settings.json');
  const inSettings = record({
    rule: { form: 'permission.edit', text: '"edit":"deny"', says: 'deny' },
    args: [],
    configurationFiles: [{ where: 'settings', content: { permission: { edit: 'deny' } } }],
  } as Partial<PermissionRecord>);
  assert.equal(ruleWhere(inSettings, '.config/opencode/opencode.json'), '$HOME/.config/opencode/opencode.json');
  assert.equal(
    ruleWhere(record({ rule: { form: 'none', says: 'none' } } as Partial<PermissionRecord>), undefined),
    undefined,
  );
});

test('rules of thumb group the cases of each kind of rule by what they came to', () => {
  const row = (id: string, says: 'deny' | 'allow', verdict: 'ran' | 'refused', surprise?: string) => ({
    case: id,
    anchor: `case-${id}`,
    tool: 'bash',
    rule: { form: 'f', text: 't', says },
    plain: { verdict, sentence: '', mark: '', surprise },
  });
  const rules = permissionRulesOfThumb([
    row('a', 'allow', 'ran'),
    row('d1', 'deny', 'refused'),
    row('d2', 'deny', 'refused'),
    row('p', 'allow', 'refused', 'This allow rule did not cover the call.'),
  ]);
  assert.deepEqual(
    rules.map((r) => r.topic),
    ['Deny rules', 'Allow rules'],
  );
  assert.deepEqual(
    rules[0]!.clauses.map((c) => [c.says, c.cases.map((x) => x.case)]),
    [['the call was refused', ['d1', 'd2']]],
  );
  assert.deepEqual(
    rules[1]!.clauses.map((c) => c.cases.map((x) => x.case)),
    [['a'], ['p']],
  );
  assert.deepEqual(rules[1]!.warnings, ['This allow rule did not cover the call.']);
});
