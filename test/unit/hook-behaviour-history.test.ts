/**
 * Hook behaviour over releases (scripts/lib/hook-behaviour/history.ts) and how a hooks page
 * words it (src/lib/behaviour/hook-behaviour.ts): outcomes written here by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  behaviourHistory,
  caseOutcome,
  failedOutcome,
  releasesBehaveAlike,
  sameOutcome,
  type CaseOutcome,
} from '../../scripts/lib/hook-behaviour/history.ts';
import {
  behaviourChangelog,
  behaviourEntries,
  behaviourHistorySummary,
  caseOverReleases,
} from '../../src/lib/behaviour/hook-behaviour.ts';
import type { HookBehaviourHistory, HookBehaviourRecord } from '../../src/lib/model/model.ts';

const ran: CaseOutcome = {
  answered: ['PreToolUse'],
  ran: true,
  modelSaw: { result: 'made', isError: false, otherTexts: [] },
  cliExit: { code: 0 },
};
const refused: CaseOutcome = {
  answered: ['PreToolUse'],
  ran: false,
  modelSaw: { result: 'Policy: refused', isError: true, otherTexts: [] },
  cliExit: { code: 0 },
};
const release = (version: string, cases: Record<string, CaseOutcome>) => ({
  version,
  cases: new Map(Object.entries(cases)),
});

test("a case's outcome is its behaviour, not its payloads; key order is no difference", () => {
  const record = {
    answered: ['PreToolUse'],
    sideEffect: { happened: false },
    modelSaw: refused.modelSaw,
    cliExit: { code: 0 },
    call: { hooks: [{ a: 1 }] },
  };
  assert.deepEqual(caseOutcome(record), refused);
  assert.ok(
    sameOutcome(refused, {
      cliExit: { code: 0 },
      modelSaw: { otherTexts: [], isError: true, result: 'Policy: refused' },
      ran: false,
      answered: ['PreToolUse'],
    } as CaseOutcome),
  );
  assert.ok(!sameOutcome(ran, refused));
  assert.deepEqual(failedOutcome('cannot run: npm install x failed\nmore lines'), {
    failed: 'cannot run: npm install x failed',
  });
  assert.ok(
    !releasesBehaveAlike(release('1', { a: ran }), release('2', { a: ran, b: ran })),
    'a case one release lacks is a difference',
  );
});

test('spans of identical outcome per case, and each change between the last reading before it and the first after', () => {
  const listed = ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4'];
  const read = [
    release('1.0.0', { deny: ran, ask: ran }),
    release('1.0.2', { deny: ran, ask: ran }),
    release('1.0.3', { deny: refused, ask: ran }),
    release('1.0.4', { deny: refused, ask: failedOutcome('cannot run') }),
  ];
  const { spans, changes } = behaviourHistory(read, listed);
  assert.deepEqual(
    spans['deny']!.map((s) => [s.from, s.to, s.read]),
    [
      ['1.0.0', '1.0.2', ['1.0.0', '1.0.2']],
      ['1.0.3', '1.0.4', ['1.0.3', '1.0.4']],
    ],
  );
  assert.deepEqual(
    changes.map((c) => [c.case, c.between, c.unread]),
    [
      ['ask', ['1.0.3', '1.0.4'], []],
      ['deny', ['1.0.2', '1.0.3'], []],
    ],
  );
  // Between two readings that are not adjacent, the releases not read are named.
  const gap = behaviourHistory([release('1.0.0', { deny: ran }), release('1.0.3', { deny: refused })], listed);
  assert.deepEqual(gap.changes[0]!.unread, ['1.0.1', '1.0.2']);
});

test('a hooks page says what the history covers, and per case when it changed', () => {
  const history = {
    agent: 'claude-code',
    package: 'p',
    pin: '1.0.4',
    method: 'm',
    file: 'content/hook-behaviour-history/claude-code.json',
    releases: ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4'],
    read: ['1.0.0', '1.0.2', '1.0.3', '1.0.4'],
    unpublished: [],
    ...behaviourHistory(
      [
        release('1.0.0', { deny: ran, ask: ran }),
        release('1.0.2', { deny: ran, ask: ran }),
        release('1.0.3', { deny: refused, ask: ran }),
        release('1.0.4', { deny: refused, ask: ran }),
      ],
      ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4'],
    ),
  } as unknown as HookBehaviourHistory;
  (history as unknown as { cases: unknown }).cases = (history as unknown as { spans: unknown }).spans;
  const summary = behaviourHistorySummary(history);
  assert.equal(
    summary.sentence,
    'The 2 cases were also run at 4 of its 5 stable releases from 1.0.0 to 1.0.4. 1 case behaved differently at some release; the rows say between which releases.',
  );
  const record = (id: string) =>
    ({
      case: id,
      kind: 'pre-deny',
      toolRole: 'shell',
      event: 'PreToolUse',
      hookReturn: { stdout: '', stderr: '', exitCode: 0 },
      sideEffect: { path: 'marker.txt', happened: true },
    }) as unknown as HookBehaviourRecord;
  assert.equal(
    caseOverReleases(record('ask'), history)!.sentence,
    'The same at each of the 4 releases read, 1.0.0 to 1.0.4.',
  );
  const deny = caseOverReleases(record('deny'), history)!;
  assert.equal(deny.sentence, 'Changed 1 time over the 4 releases read, 1.0.0 to 1.0.4: between 1.0.2 and 1.0.3.');
  assert.deepEqual(
    deny.spans.map((s) => [s.from, s.to, s.read, s.summary]),
    [
      ['1.0.3', '1.0.4', 2, 'Refused; the model read “Policy: refused”.'],
      ['1.0.0', '1.0.2', 2, "Ran anyway: the hook's deny was not obeyed; the model read “made”."],
    ],
  );
  assert.equal(caseOverReleases(record('other'), history), undefined);
});

test("an agent's changelog lists each behaviour change, newest first, with both outcomes in words", () => {
  const spans = behaviourHistory(
    [release('1.0.0', { deny: ran }), release('1.0.1', { deny: refused }), release('1.0.2', { deny: ran })],
    ['1.0.0', '1.0.1', '1.0.2'],
  );
  const history = {
    agent: 'codex',
    package: 'p',
    pin: '1.0.2',
    method: 'm',
    file: 'f',
    releases: ['1.0.0', '1.0.1', '1.0.2'],
    read: ['1.0.0', '1.0.1', '1.0.2'],
    unpublished: [],
    cases: spans.spans,
    changes: spans.changes,
  } as unknown as HookBehaviourHistory;
  const record = {
    agent: 'codex',
    case: 'deny',
    kind: 'pre-deny',
    toolRole: 'shell',
    tool: 'shell',
    event: 'PreToolUse',
    hookReturn: { stdout: '', stderr: '', exitCode: 0 },
    sideEffect: { path: 'm', happened: true },
  } as unknown as HookBehaviourRecord;
  const log = behaviourChangelog(
    { hookBehaviour: [record], hookBehaviourHistories: [history] },
    'codex',
    '/codex/hooks/',
  )!;
  assert.equal(log.url, '/codex/hooks/#behaviour');
  assert.deepEqual(
    log.changes.map((c) => [c.between, c.url, c.label, c.before, c.after]),
    [
      [
        ['1.0.1', '1.0.2'],
        '/codex/hooks/#case-deny',
        'PreToolUse denies, with a reason on shell',
        'Refused; the model read “Policy: refused”.',
        "Ran anyway: the hook's deny was not obeyed; the model read “made”.",
      ],
      [
        ['1.0.0', '1.0.1'],
        '/codex/hooks/#case-deny',
        'PreToolUse denies, with a reason on shell',
        "Ran anyway: the hook's deny was not obeyed; the model read “made”.",
        'Refused; the model read “Policy: refused”.',
      ],
    ],
  );
  assert.equal(
    behaviourChangelog({ hookBehaviour: [record], hookBehaviourHistories: [] }, 'codex', '/codex/hooks/'),
    undefined,
  );
});

test('a catalog behaviour entry carries the case over releases: the range read, how many, and each change', () => {
  const spans = behaviourHistory(
    [release('1.0.0', { deny: ran }), release('1.0.1', { deny: refused }), release('1.0.2', { deny: refused })],
    ['1.0.0', '1.0.1', '1.0.2'],
  );
  const history = {
    agent: 'codex',
    file: 'content/hook-behaviour-history/codex.json',
    releases: ['1.0.0', '1.0.1', '1.0.2'],
    read: ['1.0.0', '1.0.1', '1.0.2'],
    cases: spans.spans,
    changes: spans.changes,
  } as unknown as HookBehaviourHistory;
  const record = {
    agent: 'codex',
    case: 'deny',
    kind: 'pre-deny',
    toolRole: 'shell',
    tool: 'shell',
    event: 'PreToolUse',
    file: 'content/hook-behaviour/codex/deny.json',
    cli: { package: 'p', version: '1.0.2' },
    answered: ['PreToolUse'],
    modelSaw: { result: 'x', isError: true, otherTexts: [] },
    cliExit: { code: 0 },
    hookReturn: { stdout: '', stderr: '', exitCode: 0 },
    sideEffect: { path: 'm', happened: false },
  } as unknown as HookBehaviourRecord;
  const [entry] = behaviourEntries([record], history);
  assert.deepEqual(entry!.overReleases, {
    from: '1.0.0',
    to: '1.0.2',
    read: 3,
    changes: [['1.0.0', '1.0.1']],
    evidence: 'content/hook-behaviour-history/codex.json',
  });
  assert.equal(behaviourEntries([record])[0]!.overReleases, undefined);
});

test('many cases changing between the same two releases are suspects to confirm; a few, or a minority, are not', async () => {
  const { massChanges } = await import('../../scripts/lib/hook-behaviour/history.ts');
  const change = (id: string, a: string, b: string) => ({
    case: id,
    between: [a, b] as [string, string],
    unread: [],
    before: { failed: 'x' },
    after: { failed: 'y' },
  });
  const all = ['a', 'b', 'c', 'd', 'e'].map((id) => change(id, '2.1.317', '2.1.318'));
  assert.deepEqual(massChanges(all, 19), [], 'five of nineteen is not half');
  assert.deepEqual(massChanges(all, 10), [['2.1.317', '2.1.318']]);
  assert.deepEqual(
    massChanges([...all.slice(0, 2), change('c', '2.1.318', '2.1.319')], 4),
    [],
    'two at once is below the minimum',
  );
});

test("an install's failure is this machine's for npm's network, disk and time-limit errors and for a dependency the registry does not serve, and the release's otherwise", async () => {
  const { npmFailureIsOurs } = await import('../../scripts/lib/capture/install.ts');
  assert.equal(npmFailureIsOurs('npm error code ETIMEDOUT\nnpm error network request failed'), true);
  assert.equal(npmFailureIsOurs('npm error code EAI_AGAIN'), true);
  assert.equal(npmFailureIsOurs('npm error code ENOSPC'), true);
  assert.equal(npmFailureIsOurs('', { code: 'ETIMEDOUT' }), true, 'our own time limit');
  assert.equal(npmFailureIsOurs('', { signal: 'SIGTERM' }), true, 'killed');
  assert.equal(
    npmFailureIsOurs(
      'npm error code ETARGET\nnpm error notarget No matching version found for @kilocode/cli-linux-x64@7.8.1.',
    ),
    false,
  );
  assert.equal(npmFailureIsOurs('npm error code E404\nnpm error 404 Not Found'), false);
  // A dependency the registry does not serve: absence of another package says nothing about the release.
  const own = ['@scope/cli', '@scope/cli-linux-x64'];
  const notFound = (spec: string) => `npm error code E404\nnpm error 404  '${spec}' could not be found`;
  assert.equal(npmFailureIsOurs(notFound('@scope/dependency@0.2.0'), {}, own), true);
  assert.equal(npmFailureIsOurs(notFound('plain-dependency@1.0.0'), {}, own), true);
  assert.equal(npmFailureIsOurs(notFound('@scope/cli@9.9.9'), {}, own), false, 'the release itself is missing');
  const noVersion = (spec: string) =>
    `npm error code ETARGET\nnpm error notarget No matching version found for ${spec}.`;
  assert.equal(npmFailureIsOurs(noVersion('sharp-fork@0.35.3-electron.1'), {}, own), true);
  assert.equal(npmFailureIsOurs(noVersion('@scope/cli-linux-x64@9.9.9'), {}, own), false, 'its platform package');
});
