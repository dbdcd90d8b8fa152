/**
 * `npm test`: the checks, the build, then the test files in two lanes of work,
 * with the time of each phase printed at the end.
 *
 *   check        astro check, then tsc --noEmit
 *   build        scripts/build.ts → dist/ (the end-to-end tests read it: SITE_BUILT=1)
 *   unit         test/unit and test/integration, two files at a time (each file is
 *                its own process; none starts a browser or a build of the project)
 *   end-to-end   test/e2e, one file at a time (they start Chromium and builds, and
 *                some measure time: two at once on two cores made them flaky)
 *
 * A failed check or build stops the run (the tests would only repeat it); a failed
 * test phase does not stop the next one, so one run reports every failing test.
 * The exit status is 1 when any phase failed.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

interface Phase {
  name: string;
  /** Commands run one after the other; the phase fails at the first that fails. */
  commands: string[][];
  /** A failure here makes the later phases pointless. */
  stopsTheRun: boolean;
}

const node = process.execPath;
const bin = (name: string) => resolve(ROOT, 'node_modules/.bin', name);
/** Two lanes, or one on a one-core machine. */
const LANES = String(Math.min(2, availableParallelism()));

export const PHASES: readonly Phase[] = [
  { name: 'check', commands: [[bin('astro'), 'check'], [bin('tsc'), '--noEmit']], stopsTheRun: true },
  { name: 'build', commands: [[node, 'scripts/build.ts']], stopsTheRun: true },
  { name: 'unit', commands: [[node, '--test', `--test-concurrency=${LANES}`, 'test/unit/*.test.ts', 'test/integration/*.test.ts']], stopsTheRun: false },
  { name: 'end-to-end', commands: [[node, '--test', '--test-concurrency=1', 'test/e2e/*.test.ts']], stopsTheRun: false },
];

function runPhase(phase: Phase): boolean {
  for (const [command, ...args] of phase.commands) {
    const result = spawnSync(command!, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, SITE_BUILT: '1', ASTRO_TELEMETRY_DISABLED: '1' } });
    if (result.error) console.error(`${phase.name}: ${command} could not start: ${result.error.message}`);
    if (result.status !== 0) return false;
  }
  return true;
}

function main(): void {
  const only = process.argv.slice(2);
  const unknown = only.filter((name) => !PHASES.some((p) => p.name === name));
  if (unknown.length > 0) {
    console.error(`no such phase: ${unknown.join(', ')} (phases: ${PHASES.map((p) => p.name).join(', ')})`);
    process.exit(2);
  }
  const results: { name: string; ok: boolean; seconds: number }[] = [];
  for (const phase of PHASES.filter((p) => only.length === 0 || only.includes(p.name))) {
    const start = performance.now();
    const ok = runPhase(phase);
    results.push({ name: phase.name, ok, seconds: (performance.now() - start) / 1000 });
    if (!ok && phase.stopsTheRun) break;
  }
  const total = results.reduce((sum, r) => sum + r.seconds, 0);
  console.log('\nphase        time    result');
  for (const r of results) console.log(`${r.name.padEnd(12)} ${r.seconds.toFixed(0).padStart(5)} s  ${r.ok ? 'passed' : 'FAILED'}`);
  console.log(`${'total'.padEnd(12)} ${total.toFixed(0).padStart(5)} s`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}

if (import.meta.main) main();
