/**
 * The SDK history over two package lines (scripts/lib/history/lines.ts and
 * document.ts): where the agent SDK takes over from the CLI's own package,
 * the order of releases, the package named per release, the numbers never
 * published per line, the order of events across lines, and a release whose
 * declaration file has no result types. Release numbers are made up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planLines, statedFromView } from '../../scripts/lib/history/lines.ts';
import { historyDocument, orderReleases, unpublishedOfLines } from '../../scripts/lib/history/document.ts';
import { sortEvents, type HistoryEvent } from '../../scripts/lib/history/events.ts';
import { releaseSnapshot } from '../../scripts/lib/history/sdk-snapshot.ts';

const SDK = 'fixture-agent-sdk';
const CLI = 'fixture-cli';

test('the line switch: the agent SDK from its first release that states its CLI release, the CLI package before that release', () => {
  const stated = new Map([
    ['0.2.6', '2.1.6'],
    ['0.2.8', '2.1.8'],
  ]);
  const plan = planLines({
    sdkVersions: ['0.1.0', '0.2.5', '0.2.6', '0.2.7', '0.2.8', '0.2.9-beta.1', '0.2.9'],
    stated,
    to: '0.2.8',
    cliVersions: ['1.0.1', '1.0.2', '2.0.0', '2.1.5', '2.1.6-beta.0', '2.1.6', '2.1.7'],
    cliFrom: '1.0.2',
  });
  assert.deepEqual(plan.switchAt, { release: '0.2.6', cliVersion: '2.1.6' });
  // 0.2.7 states nothing but comes after the switch: it stays in its line.
  assert.deepEqual(plan.sdk, ['0.2.6', '0.2.7', '0.2.8']);
  // From cliFrom, prereleases left out, up to and without 2.1.6.
  assert.deepEqual(plan.cli, ['1.0.2', '2.0.0', '2.1.5']);
  // Without the CLI line: the agent SDK alone.
  assert.deepEqual(planLines({ sdkVersions: ['0.2.6', '0.2.8'], stated, to: '0.2.8', cliFrom: '1.0.2' }).cli, []);
  assert.throws(
    () => planLines({ sdkVersions: ['0.2.5'], stated, to: '0.2.5', cliFrom: '1.0.2' }),
    /states the Claude Code release/,
  );
  assert.throws(
    () => planLines({ sdkVersions: ['0.2.6'], stated, to: '0.2.6', cliVersions: ['2.1.6'], cliFrom: '2.1.6' }),
    /not older than Claude Code 2\.1\.6/,
  );
});

test('the stated CLI releases as npm view prints them: one object per release, or a single object', () => {
  const stated = statedFromView(
    [
      { version: '0.2.5', name: SDK },
      { claudeCodeVersion: '2.1.6', version: '0.2.6', name: SDK },
      { claudeCodeVersion: 'latest', version: '0.2.7', name: SDK },
    ],
    'view',
  );
  assert.deepEqual([...stated], [['0.2.6', '2.1.6']]);
  assert.deepEqual(
    [...statedFromView({ claudeCodeVersion: '2.1.9', version: '0.2.9', name: SDK }, 'view')],
    [['0.2.9', '2.1.9']],
  );
  // What npm prints with fewer fields when some releases lack one: bare strings, which say nothing about the field.
  assert.throws(() => statedFromView(['0.2.5', '0.2.6'], 'view'), /one object with a version per release/);
});

test("releases line by line, each naming its package when it is not the file's; the numbers never published per line", () => {
  const ordered = orderReleases(
    [
      { version: '0.2.8', cliVersion: '2.1.8' },
      { version: '2.1.5', package: CLI, cliVersion: '2.1.5' },
      { version: '0.2.6', package: SDK, cliVersion: '2.1.6' },
      { version: '1.0.3', package: CLI, cliVersion: '1.0.3', read: false },
      { version: '1.0.1', package: CLI, cliVersion: '1.0.1' },
    ],
    SDK,
    [CLI, SDK],
  );
  assert.deepEqual(ordered, [
    { version: '1.0.1', package: CLI, cliVersion: '1.0.1' },
    { version: '1.0.3', package: CLI, cliVersion: '1.0.3', read: false },
    { version: '2.1.5', package: CLI, cliVersion: '2.1.5' },
    { version: '0.2.6', cliVersion: '2.1.6' },
    { version: '0.2.8', cliVersion: '2.1.8' },
  ]);
  assert.deepEqual(Object.keys(ordered[1]!), ['version', 'package', 'cliVersion', 'read'], 'keys in one order');
  // Each line on its own (releases.ts's rule): the CLI's 1.0.2, its new major's numbers up to
  // 2.1.5 (2.0.0, where no 2.0.x was published, and 2.1.0 … 2.1.4), the agent SDK's 0.2.7;
  // nothing across lines (2.1.5 → 0.2.6).
  assert.deepEqual(unpublishedOfLines(ordered, SDK), [
    '1.0.2',
    '2.0.0',
    '2.1.0',
    '2.1.1',
    '2.1.2',
    '2.1.3',
    '2.1.4',
    '0.2.7',
  ]);
  assert.throws(
    () => orderReleases([{ version: '0.2.6' }, { version: '0.2.6', package: CLI }], SDK, [CLI, SDK]),
    /listed twice/,
  );
  assert.throws(() => orderReleases([{ version: '0.2.6', package: 'other' }], SDK, [CLI, SDK]), /not one of the lines/);
});

test("events across lines follow the history's order, not release numbers", () => {
  const ev = (release: string, previous: string, tool: string): HistoryEvent => ({
    release,
    previous,
    tool,
    kind: 'tool-added',
  });
  const events = [ev('0.2.8', '0.2.6', 'A'), ev('0.2.6', '2.1.5', 'B'), ev('2.1.5', '1.0.1', 'C')];
  // Numerically 0.2.x comes before 2.1.5; in the history 2.1.5 (CLI) comes first.
  assert.deepEqual(
    sortEvents(events, { releases: ['1.0.1', '2.1.5', '0.2.6', '0.2.8'] }).map((e) => e.tool),
    ['C', 'B', 'A'],
  );
  assert.deepEqual(
    sortEvents(events).map((e) => e.tool),
    ['B', 'A', 'C'],
  );
  const doc = historyDocument(
    { agent: 'claude-code', package: SDK, method: 'm', file: 'sdk-tools.d.ts' },
    [
      { version: '0.2.6' },
      { version: '0.2.8' },
      { version: '2.1.5', package: CLI },
      { version: '1.0.1', package: CLI },
    ],
    events,
    [CLI, SDK],
  );
  assert.deepEqual(
    doc.releases.map((r) => r.version),
    ['1.0.1', '2.1.5', '0.2.6', '0.2.8'],
  );
  assert.deepEqual(
    doc.events.map((e) => e.tool),
    ['C', 'B', 'A'],
  );
  assert.deepEqual(doc.unpublished, ['2.0.0', '2.1.0', '2.1.1', '2.1.2', '2.1.3', '2.1.4', '0.2.7']);
});

test('a declaration file without result types (the CLI package before 2.0): every tool has no result rows', () => {
  const dts = `export type ToolInputSchemas = BashInput | FileMultiEditInput;
export interface BashInput { command: string; timeout?: number }
export interface FileMultiEditInput { file_path: string }
`;
  const names = { types: { Bash: { name: 'Bash', group: 'built-in' as const, evidence: 'fixture' } }, aliases: {} };
  const snap = releaseSnapshot(dts, names, { package: CLI, version: '1.0.1', file: 'sdk-tools.d.ts' });
  assert.deepEqual(Object.keys(snap.tools), ['Bash', 'FileMultiEdit']);
  assert.equal(snap.tools.Bash!.output, null);
  assert.deepEqual(
    snap.tools.Bash!.input.map((r) => r.id),
    ['input.command', 'input.timeout'],
  );
  assert.deepEqual(snap.derived, ['FileMultiEdit']);
});
