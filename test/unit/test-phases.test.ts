/**
 * `npm test` (scripts/test.ts) runs every test file of the repository exactly once;
 * the files run together in one process start no browser or build; every file that
 * builds or serves the project in its own folder holds the `project` lock; every test
 * that narrows its pages or items unless SWEEP=all is in the sweep; and the schedule
 * (scripts/lib/test-schedule.ts) keeps the locks, the needs and the lanes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob, sep } from 'node:path';
import {
  allJobs,
  BUILDS_IN_PROJECT,
  READS_FIXTURE_SITE,
  readArguments,
  SWEEPS,
  sweepJobs,
} from '../../scripts/test.ts';
import { blockedByFailure, jobsToStart, type Job, type Lock } from '../../scripts/lib/test-schedule.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Every *.test.ts under test/, as a path from the root, read from the tree. */
const testFiles = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/${f.split(sep).join('/')}`)
  .sort();

const jobs = allJobs();
/** The files each job's `node --test` arguments select. */
const selected = jobs.map((job) => {
  const globs = job.command.includes('--test') ? job.command.filter((a) => a.endsWith('.test.ts')) : [];
  return { job, files: testFiles.filter((f) => globs.some((g) => matchesGlob(f, g))) };
});
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

test('every test file is run by exactly one job', () => {
  assert.ok(testFiles.length > 0);
  for (const file of testFiles) {
    const by = selected.filter((s) => s.files.includes(file)).map((s) => s.job.name);
    assert.equal(by.length, 1, `${file} is run by ${by.length === 0 ? 'no job' : by.join(' and ')}`);
  }
});

test('the files run together in one process start no browser and no build', () => {
  const shared = selected.filter((s) => s.job.command.includes('--test-isolation=none'));
  assert.ok(
    shared.some((s) => s.files.length > 1),
    'some job runs several files in one process',
  );
  for (const { job, files } of shared) {
    for (const file of files.filter((f) => join(ROOT, f) !== import.meta.filename)) {
      assert.doesNotMatch(
        text(file),
        /serveAndLaunch|chromium\.launch|buildSite\(|buildFixtureSite\(|runBuild\(/,
        `${file} (job ${job.name}) starts a browser or a build`,
      );
    }
  }
});

test('a file that builds or serves the project in its own folder holds the project lock; one that reads the fixture site waits for it', () => {
  const builds = /runBuild\(|join\(ROOT, 'scripts\/(?:build|start)\.ts'\)|join\(ROOT, 'node_modules\/astro/;
  for (const { job, files } of selected) {
    for (const file of files.filter((f) => f.startsWith('test/e2e/'))) {
      if (builds.test(text(file)))
        assert.ok(
          job.locks.includes('project'),
          `${file} builds in the project folder but does not hold the project lock`,
        );
      if (/buildFixtureSite\(/.test(text(file)))
        assert.ok(job.needs.includes('fixture site'), `${file} reads the fixture site but does not wait for it`);
    }
  }
  const stems = testFiles.map((f) => f.replace(/^.*\//, '').replace(/\.test\.ts$/, ''));
  for (const name of [...BUILDS_IN_PROJECT, ...READS_FIXTURE_SITE])
    assert.ok(stems.includes(name), `${name} names no test file`);
});

const job = (name: string, locks: Lock[] = [], needs: string[] = []): Job => ({
  name,
  phase: 'p',
  command: [],
  needs,
  locks,
});
const start = (waiting: Job[], running: Job[] = [], finished: [string, boolean][] = [], lanes = 2) =>
  jobsToStart({ waiting, running, finished: new Map(finished), lanes }).map((j) => j.name);

test('two lanes: the first two jobs that can start do, in list order', () => {
  assert.deepEqual(start([job('a'), job('b'), job('c')]), ['a', 'b']);
  assert.deepEqual(start([job('a'), job('b')], [job('r')]), ['a']);
  assert.deepEqual(start([job('a')], [job('r'), job('s')]), []);
  assert.deepEqual(start([job('a'), job('b')], [], [], 1), ['a']);
});

test('two jobs holding the project lock never overlap; a job that cannot start does not hold back the next', () => {
  assert.deepEqual(start([job('build', ['project']), job('check', ['project']), job('unit')]), ['build', 'unit']);
  assert.deepEqual(start([job('check', ['project']), job('unit')], [job('build', ['project'])]), ['unit']);
});

test('a job that runs alone starts only on an idle machine, and nothing starts beside it', () => {
  assert.deepEqual(start([job('timed', ['alone']), job('b')], [job('r')]), ['b']);
  assert.deepEqual(start([job('timed', ['alone']), job('b')]), ['timed']);
  assert.deepEqual(start([job('b')], [job('timed', ['alone'])]), []);
});

test('a job waits for what it needs; a need outside the run counts as met; a failed need blocks it', () => {
  const e2e = job('e2e', [], ['build']);
  assert.deepEqual(start([job('build', ['project']), e2e]), ['build']);
  assert.deepEqual(start([e2e], [job('build', ['project'])]), []);
  assert.deepEqual(start([e2e], [], [['build', true]]), ['e2e']);
  assert.deepEqual(start([e2e]), ['e2e'], 'no build in this run: dist/ is read as it is');
  assert.deepEqual(start([e2e], [], [['build', false]]), []);
  assert.equal(blockedByFailure(e2e, new Map([['build', false]])), 'build');
  assert.equal(blockedByFailure(e2e, new Map([['build', true]])), undefined);
});

test('the full run offers the checks and builds first and the timed files last', () => {
  const phases = jobs.map((j) => j.phase);
  const firstOther = phases.findIndex((p) => p !== 'check' && p !== 'build');
  assert.ok(firstOther > 0 && phases.slice(firstOther).every((p) => p !== 'check' && p !== 'build'), phases.join(' '));
  assert.ok(phases.indexOf('build') > phases.lastIndexOf('check'), 'the checks come before the builds');
  const alone = jobs.findIndex((j) => j.locks.includes('alone'));
  assert.ok(alone > 0 && jobs.slice(alone).every((j) => j.locks.includes('alone')));
});

test('the sweep runs, with SWEEP=all, every test that narrows its pages or items without it, as the full run does but for the phase', () => {
  // A file narrows every test when it reads SWEEP itself, the tests SWEEPS names when it calls atScale.
  const importsOf = (f: string) => /import \{([^}]*)\} from '\.\.\/helpers\/sweep\.ts'/.exec(text(f))?.[1] ?? '';
  // The helpers' own test gives every call its share: it narrows nothing.
  const narrows = testFiles.filter((f) => f !== 'test/unit/sweep.test.ts' && /\b(SWEEP|atScale)\b/.test(importsOf(f)));
  assert.deepEqual(SWEEPS.map((s) => s.file).sort(), narrows, 'the files the sweep runs are those that narrow');
  const swept = sweepJobs();
  assert.deepEqual(
    swept.flatMap((j) => j.command.filter((a) => a.endsWith('.test.ts'))).sort(),
    narrows,
    'each sweep job runs its file',
  );
  for (const [i, sweep] of swept.entries()) {
    const { file, tests } = SWEEPS[i]!;
    assert.equal(sweep.phase, 'sweep');
    assert.deepEqual(sweep.env, { SWEEP: 'all' });
    if (tests === undefined) {
      assert.match(importsOf(file), /\bSWEEP\b/, `${file}: every test narrows, so it reads SWEEP`);
    } else {
      // The pattern names tests that exist, and those call atScale.
      const names = [...text(file).matchAll(/\btest\(\s*(['"`])((?:(?!\1).)+)\1/g)].map((m) => m[2]!);
      const named = names.filter((n) => new RegExp(tests).test(n));
      assert.ok(named.length > 0, `${file}: no test name matches ${tests}`);
      assert.ok(sweep.command.includes(`--test-name-pattern=${tests}`), sweep.name);
    }
    const command = sweep.command.filter((a) => !a.startsWith('--test-name-pattern='));
    const everyday = jobs.find((j) => j.command.join(' ') === command.join(' '));
    if (file.startsWith('test/unit/')) {
      assert.deepEqual(command.slice(1), ['--test', file], `${sweep.name}: the unit file alone`);
      assert.deepEqual([sweep.needs, sweep.locks], [[], []], sweep.name);
    } else {
      assert.ok(everyday, `${sweep.name} runs a file of the full run`);
      assert.deepEqual([sweep.needs, sweep.locks], [everyday.needs, everyday.locks], sweep.name);
    }
  }
  assert.ok(!jobs.some((j) => j.phase === 'sweep' || j.env?.['SWEEP']), 'the full run sweeps nothing');
});

test('the sweep takes a share of the pages on the command line (--share K/N), and refuses one that is not a share', () => {
  assert.deepEqual(readArguments(['build', 'sweep']), { phases: ['build', 'sweep'], share: 'all' });
  assert.deepEqual(readArguments(['build', '--share', '3/8', 'sweep']), { phases: ['build', 'sweep'], share: '3/8' });
  for (const job of sweepJobs('3/8')) assert.deepEqual(job.env, { SWEEP: '3/8' });
  for (const bad of [['--share'], ['--share', '0/8'], ['--share', '9/8'], ['--share', 'all'], ['--share', '1/0']])
    assert.throws(() => readArguments(bad), /--share takes K\/N/, bad.join(' '));
});
