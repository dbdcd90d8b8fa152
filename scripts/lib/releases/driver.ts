/**
 * The one release-reading driver: how the scripts that read an agent over its earlier releases (the capture
 * history, the MCP naming history, the hook behaviour history) list those releases, read each once, bisect
 * between them, and run one in isolation.
 *
 * - Listing: every stable release some package of the agent lists (its wrapper and its platform packages,
 *   runnable-release.ts), cut to a range (history/releases.ts); when each was published.
 * - Reading: each release is read at most once per run (`ReleaseReadings`); the plan reads a sample and bisects
 *   wherever two readings differ (planner.ts), and a script may forget readings it doubts and plan again
 *   (`locateSettled`) until nothing is left to doubt.
 * - Running: a release is installed into the history's cache folder (install-release.ts) and run inside a
 *   network namespace with only loopback (`unshare -n`), then its install is removed.
 * - Failing: a release that cannot run keeps why in its own words (`cannot run: …`, what npm or the CLI said);
 *   a failure of this machine (the network, the disk, a limit, a crash of our code) is run once more and then
 *   stops the run as ours (`OurFailure`): it is never recorded as the release's.
 *
 * The SDK history reads package files, not runs: its releases come through package-source.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { AgentId } from '../../../src/lib/agents/index.ts';
import { agentListings, agentPackages, InstallError } from '../capture/install.ts';
import { installRelease } from '../capture-history/install-release.ts';
import { locateChanges, type Plan } from '../capture-history/planner.ts';
import { selectReleases, type ReleaseRange } from '../history/releases.ts';
import { describeNpmFailure, DownloadError, type NpmFailure, npmRegistryFor } from './npm-package.ts';
import { releaseTimes, runnableVersions } from './runnable-release.ts';

/** The releases a plan read and the changes it located (planner.ts), for the scripts that settle it. */
export type { Plan };

/** The cache of runs over releases, outside the repository ($CAPTURE_CACHE_DIR, default /work/cache). */
export const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';
/** Where histories keep installs, captures and records of earlier releases. */
export const HISTORY_ROOT = join(CACHE_ROOT, 'history');

/** A failure of this machine, not of the release read: reported as ours, recorded nowhere. */
export class OurFailure extends Error {}

/** How a release's own failure is recorded: what npm or the CLI said, after `cannot run: `. */
export function cannotRun(said: string): string {
  return `cannot run: ${said}`;
}

// ---------------------------------------------------------------------------
// Listing

/** The stable releases in `range` of every package that runs the agent, oldest first. */
export function agentReleases(agent: AgentId, pkg: string, range: ReleaseRange): string[] {
  return selectReleases(runnableVersions(agentListings(agent, pkg)), range);
}

/** What `npm view <spec> <fields> --json` prints, read as JSON; a registry that cannot answer is a DownloadError. */
export function npmView(spec: string, fields: readonly string[]): unknown {
  let out: string;
  try {
    out = execFileSync('npm', ['view', spec, ...fields, '--json'], {
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const why = describeNpmFailure(error as NpmFailure, { registry: npmRegistryFor(spec), timeoutMs: 120_000 });
    throw new DownloadError(`could not read ${fields.join(', ')} of ${spec}: ${why}`);
  }
  try {
    return JSON.parse(out);
  } catch {
    throw new DownloadError(`npm view ${spec} printed no readable JSON: ${out.slice(0, 200)}`);
  }
}

/** When each release of the agent was published (the wrapper's time first, then its platform packages'). */
export function agentReleaseTimes(agent: AgentId, pkg: string): Record<string, string> {
  return releaseTimes(agentPackages(agent, pkg).map((p) => npmView(p, ['time']) as Record<string, string>));
}

// ---------------------------------------------------------------------------
// Reading and bisecting

/** Each listed release read at most once, by its index; a reading can be forgotten to read it afresh. */
export interface ReleaseReadings<T> {
  read(i: number): T;
  known(i: number): T | undefined;
  forget(i: number): void;
}

export function releaseReadings<T>(readOnce: (i: number) => T): ReleaseReadings<T> {
  const readings = new Map<number, T>();
  return {
    read(i) {
      const known = readings.get(i);
      if (known !== undefined) return known;
      const reading = readOnce(i);
      readings.set(i, reading);
      return reading;
    },
    known: (i) => readings.get(i),
    forget: (i) => void readings.delete(i),
  };
}

/**
 * Locates the changes over `count` releases (every `step`-th and both ends, then bisected: planner.ts), then lets
 * `doubt` look at the plan: when it forgot readings it doubts (a capture that lost its tools for one release, many
 * cases changing at once) and says so, the changes are located again, until it doubts nothing.
 */
export async function locateSettled(
  count: number,
  step: number,
  differs: (a: number, b: number) => boolean,
  doubt: (plan: Plan) => boolean = () => false,
): Promise<Plan> {
  let plan = await locateChanges(count, step, differs);
  while (doubt(plan)) plan = await locateChanges(count, step, differs);
  return plan;
}

// ---------------------------------------------------------------------------
// Running, and telling the release's failures from ours

/** How one run of a release ended: `release` when the failure is the release's own. */
export type RunOutcome = { ok: true } | { ok: false; release: boolean; said: string };

/**
 * Runs `node script args` (or under `unshare -n` when `isolated`) and tells how it ended: a failure is the
 * release's only when the script exits with `releaseExit` (it then said why on its last line of standard error).
 */
export function runScript(
  script: string,
  args: readonly string[],
  options: { timeoutMs: number; isolated: boolean; releaseExit?: number; prefix?: RegExp },
): RunOutcome {
  const command = options.isolated ? ['unshare', '-n', process.execPath] : [process.execPath];
  const run = spawnSync(command[0]!, [...command.slice(1), script, ...args], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
    timeout: options.timeoutMs,
    // Standard error is kept to tell the release's last words; a chatty run must not be cut off for it.
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!run.error && run.status === 0) return { ok: true };
  process.stderr.write(run.stderr ?? '');
  const lastLine = (run.stderr ?? '')
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .at(-1);
  const said = lastLine ?? run.error?.message ?? `exit ${run.status ?? run.signal}`;
  const release = options.releaseExit !== undefined && run.status === options.releaseExit;
  return { ok: false, release, said: options.prefix ? said.replace(options.prefix, '') : said };
}

/**
 * Runs a release, and once more when the first run failed for our reasons (a crash, a limit, the network on a
 * loaded machine); a second failure of ours is thrown as ours. The release's own failure is returned, to record.
 */
export function runUnlessOurs(
  what: string,
  run: () => RunOutcome,
  log: (line: string) => void,
): { ok: true } | { ok: false; said: string } {
  let result = run();
  if (!result.ok && !result.release) {
    log(`${what}: the run failed for our reasons (${result.said}); running it again`);
    result = run();
  }
  if (!result.ok && !result.release)
    throw new OurFailure(`${what}: the run failed twice for our reasons, not the release's: ${result.said}`);
  return result.ok ? result : { ok: false, said: result.said };
}

/** A release to install and run isolated: `script` gets the installed binary after `--binary`. */
export interface IsolatedRun {
  agent: AgentId;
  pkg: string;
  version: string;
  script: string;
  args: readonly string[];
  timeoutMs: number;
  log: (line: string) => void;
}

/** How an isolated run ended: ran (npm downloaded the release now, or not), or the release cannot run, and why. */
export type IsolatedOutcome = { ran: true; downloaded: boolean } | { ran: false; cannotRun: string };

/**
 * Installs the release into the history's folder (the pinned release reuses the capture's install), runs
 * `node script ...args --binary <its binary>` inside a network namespace with only loopback, and removes the
 * install. A release npm cannot install, or that does not run the way the pinned one does, cannot run (in npm's or
 * the CLI's words); a failure to install that is this machine's, or a run that fails twice, is ours.
 */
export function runIsolated(r: IsolatedRun): IsolatedOutcome {
  let installed: ReturnType<typeof installRelease>;
  try {
    installed = installRelease(r.agent, r.pkg, r.version, { cacheRoot: CACHE_ROOT, historyRoot: HISTORY_ROOT }, r.log);
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    if (error.ours)
      throw new OurFailure(
        `${r.agent} ${r.version}: ${error.message} (this machine's failure, not the release's: nothing recorded)`,
      );
    return { ran: false, cannotRun: cannotRun(error.message) };
  }
  try {
    const args = [...r.args, '--binary', installed.binary];
    runUnlessOurs(
      `${r.agent} ${r.version}`,
      () => runScript(r.script, args, { timeoutMs: r.timeoutMs, isolated: true }),
      r.log,
    );
  } finally {
    installed.remove();
  }
  return { ran: true, downloaded: installed.downloaded };
}
