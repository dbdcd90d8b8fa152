/**
 * `npm test`: every check and test file of the repository as jobs in two lanes
 * (scripts/lib/test-schedule.ts decides what starts when), with the wall time
 * and the processor time (the job's descendants included, scripts/lib/system/child-cpu.ts)
 * of each job and each phase printed at the end.
 *
 *   check        astro check (it type-checks every .ts file tsconfig includes too, so tsc --noEmit would
 *                repeat it); biome check (format and lint) beside it
 *   build        scripts/build.ts → dist/ (the end-to-end tests read it: SITE_BUILT=1),
 *                and the fixture site of the layout and accessibility tests, built once
 *                into a temporary folder (FIXTURE_SITE)
 *   unit         test/unit in one process (`--test-isolation=none`: the files share one
 *                load of the modules and of the real content), and each test/integration file
 *   end-to-end   each test/e2e file (Chromium, builds of fixture content)
 *   sweep        only when named (`npm run test:sweep` = `node scripts/test.ts build sweep`: over half an hour
 *                on two cores): the tests that check one page per template or a sample (SWEEPS) again with
 *                SWEEP=all, on every page or item; with `--share K/N`, on the K-th of N shares of them (CI
 *                runs one share per commit, .ci/run)
 *
 * Jobs that write in the project folder (an Astro build, check or dev server rewrites
 * `.astro/`) never overlap; a file that measures time runs alone, at the end. A failed
 * check or build starts nothing more (the tests would only repeat it); a failed test
 * job stops nothing, so one run reports every failing test. Each job's output is
 * printed whole when it ends. The exit status is 1 when any job failed or did not run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { childCpuSeconds, measuredCommand } from './lib/system/child-cpu.ts';
import { blockedByFailure, jobsToStart, type Job, type Lock } from './lib/test-schedule.ts';

const ROOT = resolve(import.meta.dirname, '..');
const node = process.execPath;
const bin = (name: string) => resolve(ROOT, 'node_modules/.bin', name);
/** Two lanes, or one on a one-core machine. */
const LANES = Math.min(2, availableParallelism());

/** End-to-end files that build or serve the project in its own folder (they rewrite `.astro/`). */
export const BUILDS_IN_PROJECT = [
  'build-errors',
  'build-hygiene',
  'dev-reload',
  'hostile-text',
  'served-exports',
  'start-stop',
];
/** End-to-end files that measure time: nothing runs beside them. */
export const MEASURES_TIME = ['payload-check-timing'];
/** End-to-end files that read the fixture site the build phase makes. */
export const READS_FIXTURE_SITE = ['accessibility', 'build-errors', 'build-hygiene', 'layout'];
/** A test file the sweep runs again with SWEEP set, whole or only the tests whose names match `tests`. */
export interface Sweep {
  file: string;
  /** A --test-name-pattern: the tests of the file that take more with SWEEP (test/helpers/sweep.ts). */
  tests?: string;
}

/**
 * The tests that check one page per template or a sample everyday, and every page or item with SWEEP=all: the sweep
 * runs them so (sweepJobs). The layout and accessibility files narrow every test; the others narrow the tests named,
 * each a check over every item of the content.
 */
export const SWEEPS: readonly Sweep[] = [
  { file: 'test/e2e/accessibility.test.ts' },
  { file: 'test/e2e/layout.test.ts' },
  { file: 'test/e2e/tool-page-first.test.ts', tests: "^(field names break only between words|a gate's setting)" },
  { file: 'test/e2e/site.test.ts', tests: '^names typed exactly give the pages' },
  { file: 'test/e2e/changes.test.ts', tests: '^each sampled description or definition change' },
  { file: 'test/e2e/permissions.test.ts', tests: '^tool pages have "Allow or block it"' },
  { file: 'test/e2e/package.test.ts', tests: '^(at scale, over MCP|check over MCP: recorded payloads)' },
  { file: 'test/unit/payload-check-ui.test.ts', tests: '^precompiled validators are self-contained' },
  { file: 'test/unit/payload-validator.test.ts', tests: '^the validators the site publishes' },
];
/**
 * The longest jobs start first, so that the two lanes end together (seconds in a full run on this two-core machine,
 * before the refresh cases shared their scratch copy and axe and layout checked one page per template: new-agent 174,
 * refresh-rollback 151, unit 100, accessibility 99, site 60, layout 59; measured alone on a loaded machine since,
 * accessibility takes about a third of its time, layout four fifths, refresh-rollback seven eighths).
 * Only the order depends on it.
 */
const STARTS_FIRST = [
  'test/e2e/new-agent.test.ts',
  'test/integration/refresh-rollback.test.ts',
  'unit',
  'test/e2e/site.test.ts',
  'test/e2e/layout.test.ts',
  'test/e2e/accessibility.test.ts',
];

const testFilesIn = (folder: string): string[] =>
  readdirSync(join(ROOT, folder))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `${folder}/${f}`);

const stem = (file: string) => file.replace(/^.*\//, '').replace(/\.test\.ts$/, '');

function endToEndJob(file: string): Job {
  const locks: Lock[] = [];
  if (BUILDS_IN_PROJECT.includes(stem(file))) locks.push('project');
  if (MEASURES_TIME.includes(stem(file))) locks.push('alone');
  const needs = READS_FIXTURE_SITE.includes(stem(file)) ? ['build', 'fixture site'] : ['build'];
  return { name: file, phase: 'end-to-end', command: [node, '--test', '--test-concurrency=1', file], needs, locks };
}

/**
 * The checks, neither needing the other's result. No `tsc --noEmit`: astro check type-checks every file tsconfig.json
 * includes (src/, scripts/, test/, the .astro templates), so tsc would report the same errors again, and it held the
 * project lock on the build's path.
 */
function checkJobs(): Job[] {
  const check = (name: string, command: string[], needs: string[], locks: Lock[]): Job => ({
    name,
    phase: 'check',
    command,
    needs,
    locks,
    stopsTheRun: true,
  });
  return [
    check('astro check', [bin('astro'), 'check'], [], ['project']),
    // Biome reads the sources only: it needs no lock.
    check('biome', [bin('biome'), 'check', '--error-on-warnings', '.'], [], []),
  ];
}

/** The site into dist/, and the fixture site of the layout and accessibility tests into FIXTURE_SITE. */
function buildJobs(): Job[] {
  const build = (name: string, script: string): Job => ({
    name,
    phase: 'build',
    command: [node, script],
    needs: ['astro check'],
    locks: ['project'],
    stopsTheRun: true,
  });
  return [build('build', 'scripts/build.ts'), build('fixture site', 'test/helpers/fixture-site.ts')];
}

/** A unit or integration file in a process of its own. */
const processOfItsOwn = (file: string): Job => ({
  name: file,
  phase: 'unit',
  command: [node, '--test', file],
  needs: [],
  locks: [],
});

/** The unit files in one process, each integration file, each end-to-end file. */
function testJobs(): Job[] {
  return [
    {
      name: 'unit',
      phase: 'unit',
      command: [node, '--test', '--test-isolation=none', 'test/unit/*.test.ts'],
      needs: [],
      locks: [],
    },
    ...testFilesIn('test/integration').map(processOfItsOwn),
    ...testFilesIn('test/e2e').map(endToEndJob),
  ];
}

/**
 * Checks and builds first, then the longest jobs (STARTS_FIRST), then the rest in file order, what measures time last.
 */
function inStartingOrder(jobs: readonly Job[]): Job[] {
  const rank = (job: Job) => {
    if (job.phase === 'check' || job.phase === 'build') return -1;
    if (job.locks.includes('alone')) return STARTS_FIRST.length + 1;
    const at = STARTS_FIRST.indexOf(job.name);
    return at === -1 ? STARTS_FIRST.length : at;
  };
  return jobs
    .map((job, index) => ({ job, index }))
    .sort((a, b) => rank(a.job) - rank(b.job) || a.index - b.index)
    .map(({ job }) => job);
}

/** Every job of a full run, in the order they are offered to the lanes. */
export function allJobs(): Job[] {
  return inStartingOrder([...checkJobs(), ...buildJobs(), ...testJobs()]);
}

/**
 * The sweep (`npm run test:sweep`: `node scripts/test.ts build sweep`: over half an hour here): the tests of SWEEPS
 * again with SWEEP=all, on every page or item instead of one per template or a sample, or with SWEEP=K/N on the K-th
 * of N shares of them (test/helpers/sweep.ts). Not part of a full run.
 */
export function sweepJobs(share = 'all'): Job[] {
  return SWEEPS.map(({ file, tests }) => {
    const everyday = file.startsWith('test/e2e/') ? endToEndJob(file) : processOfItsOwn(file);
    const [run, ...rest] = everyday.command;
    const command = tests === undefined ? everyday.command : [run!, `--test-name-pattern=${tests}`, ...rest];
    return { ...everyday, name: `${file} (SWEEP=${share})`, phase: 'sweep', command, env: { SWEEP: share } };
  });
}

/** The phases named on the command line, and the sweep's share (`--share K/N`, else every page). */
export function readArguments(argv: readonly string[]): { phases: string[]; share: string } {
  const at = argv.indexOf('--share');
  if (at === -1) return { phases: [...argv], share: 'all' };
  const share = argv[at + 1] ?? '';
  if (
    !/^\d+\/\d+$/.test(share) ||
    Number(share.split('/')[0]) < 1 ||
    Number(share.split('/')[0]) > Number(share.split('/')[1])
  )
    throw new Error(`--share takes K/N with 1 ≤ K ≤ N, not ${JSON.stringify(share)}`);
  return { phases: argv.filter((_, i) => i !== at && i !== at + 1), share };
}

interface Outcome {
  job: Job;
  ok: boolean;
  seconds: number;
  /** Processor seconds of the job and its descendants, when the shell reported them (child-cpu.ts). */
  cpuSeconds?: number | undefined;
  /** Why it did not run, when it did not. */
  skipped?: string;
}

function runJob(job: Job, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const start = performance.now();
  return new Promise((done) => {
    const command = job.command[0]!;
    const [shell, ...args] = measuredCommand(job.command);
    const child = spawn(shell!, args, {
      cwd: ROOT,
      env: { ...env, ...job.env },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let times = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (d: string) => (times += d));
    let ended = false;
    // A command that cannot start emits 'error' and may still emit 'close': reported once.
    const finish = (ok: boolean, why?: string) => {
      if (ended) return;
      ended = true;
      const seconds = (performance.now() - start) / 1000;
      const cpuSeconds = childCpuSeconds(times);
      const cpu = cpuSeconds === undefined ? '' : `, ${cpuSeconds.toFixed(0)} s of processor`;
      process.stdout.write(
        `\n── ${job.name} (${seconds.toFixed(0)} s${cpu}, ${ok ? 'passed' : 'FAILED'})\n${output}` +
          `${why ? `${why}\n` : ''}`,
      );
      done({ job, ok, seconds, cpuSeconds });
    };
    child.on('error', (error) =>
      finish(false, `${job.name}: sh, which runs ${command}, could not start: ${error.message}`),
    );
    child.on('close', (code) => finish(code === 0));
  });
}

async function runAll(jobs: Job[], env: NodeJS.ProcessEnv): Promise<Outcome[]> {
  let waiting = [...jobs];
  const running = new Map<Job, Promise<Outcome>>();
  const finished = new Map<string, boolean>();
  const outcomes: Outcome[] = [];
  let stopped = false;
  while (waiting.length > 0 || running.size > 0) {
    if (!stopped) {
      for (const job of waiting.filter((j) => blockedByFailure(j, finished))) {
        outcomes.push({ job, ok: false, seconds: 0, skipped: `${blockedByFailure(job, finished)} failed` });
        finished.set(job.name, false);
      }
      waiting = waiting.filter((j) => !finished.has(j.name));
      for (const job of jobsToStart({ waiting, running: [...running.keys()], finished, lanes: LANES })) {
        running.set(job, runJob(job, env));
        waiting = waiting.filter((j) => j !== job);
      }
    }
    if (running.size === 0) break;
    const outcome = await Promise.race(running.values());
    running.delete(outcome.job);
    finished.set(outcome.job.name, outcome.ok);
    outcomes.push(outcome);
    if (!outcome.ok && outcome.job.stopsTheRun) stopped = true;
  }
  for (const job of waiting)
    outcomes.push({ job, ok: false, seconds: 0, skipped: 'not started: a check or build failed' });
  return outcomes;
}

/** Seconds as a table cell: whole seconds, or a dash when unknown. */
const cell = (seconds: number | undefined, width: number) =>
  (seconds === undefined ? '-' : `${seconds.toFixed(0)} s`).padStart(width);

function report(outcomes: Outcome[], wall: number): void {
  // Wall time grows with what the other lane runs; processor time (the job and its descendants) does not.
  console.log('\njob                                                 wall  processor  result');
  for (const o of outcomes)
    console.log(
      `${o.job.name.padEnd(48)} ${cell(o.seconds, 7)} ${cell(o.cpuSeconds, 10)}  ` +
        `${o.skipped ? `not run (${o.skipped})` : o.ok ? 'passed' : 'FAILED'}`,
    );
  const sum = (of: Outcome[], key: 'seconds' | 'cpuSeconds') => of.reduce((total, o) => total + (o[key] ?? 0), 0);
  console.log('\nphase       job wall  processor  result');
  for (const phase of [...new Set(outcomes.map((o) => o.job.phase))]) {
    const of = outcomes.filter((o) => o.job.phase === phase);
    console.log(
      `${phase.padEnd(12)}${cell(sum(of, 'seconds'), 8)} ${cell(sum(of, 'cpuSeconds'), 10)}  ` +
        `${of.every((o) => o.ok) ? 'passed' : 'FAILED'}`,
    );
  }
  console.log(`all jobs    ${cell(sum(outcomes, 'seconds'), 8)} ${cell(sum(outcomes, 'cpuSeconds'), 10)}`);
  console.log(`wall time   ${cell(wall, 8)}             (${LANES} lanes)`);
}

async function main(): Promise<void> {
  let args: ReturnType<typeof readArguments>;
  try {
    args = readArguments(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const jobs = [...allJobs(), ...sweepJobs(args.share)];
  const phases = [...new Set(jobs.map((j) => j.phase))];
  const only = args.phases;
  const unknown = only.filter((name) => !phases.includes(name));
  if (unknown.length > 0) {
    console.error(`no such phase: ${unknown.join(', ')} (phases: ${phases.join(', ')})`);
    process.exit(2);
  }
  const fixtureSite = mkdtempSync(join(tmpdir(), 'fixture-site-'));
  const env = {
    ...process.env,
    SITE_BUILT: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
    FIXTURE_SITE: join(fixtureSite, 'out'),
  };
  // Ctrl-C reaches the jobs too (one process group); the shared fixture site goes with the run.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      rmSync(fixtureSite, { recursive: true, force: true });
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  const start = performance.now();
  try {
    // A full run is every phase but the sweep, which runs when named.
    const outcomes = await runAll(
      jobs.filter((j) => (only.length === 0 ? j.phase !== 'sweep' : only.includes(j.phase))),
      env,
    );
    report(outcomes, (performance.now() - start) / 1000);
    process.exitCode = outcomes.every((o) => o.ok) ? 0 : 1;
  } finally {
    rmSync(fixtureSite, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
