/**
 * The fresh captures `npm run verify` checks history events against: per release, a fresh install (a throwaway
 * folder, verify's own npm cache), then every configuration the sampled events need, captured the way the history
 * does (same runner, same capture file, one retry) by scripts/verify.ts re-run with `--inside` under `unshare -n`, in
 * a network namespace that has only loopback.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { AgentId } from '../../../src/lib/agents/index.ts';
import type { CaptureFile } from '../../../src/lib/wire/index.ts';
import { buildCapture } from '../capture/capture-file.ts';
import { ensureInstalled, InstallError } from '../capture/install.ts';
import { limitFactor, scaledLimit } from '../capture/limits.ts';
import { loadMatrix, type Matrix } from '../capture/matrix.ts';
import { lockRunFolder, prepareNamespace } from '../capture/namespace.ts';
import { RequiredCommandError } from '../capture/required-commands.ts';
import { DEFAULT_TIMEOUT_SECONDS, runConfiguration, type RunPaths } from '../capture/runner.ts';
import { jsonText } from '../system/atomic-write.ts';
import { firstLines, runBounded, type Bounded } from './bounded.ts';
import type { InsideOptions } from './options.ts';
import type { Blame } from './report.ts';

/** Where a verify run keeps what it needs: the project, the cache root, its evidence folder, and its time budget. */
export interface VerifyRun {
  root: string;
  cacheRoot: string;
  folder: string;
  /** When the time budget (--minutes) is spent, in ms since the epoch. */
  deadline: number;
}

/** One release to install, and the configurations to capture at it. */
export interface ReleasePlan {
  agent: AgentId;
  version: string;
  pkg: string;
  configs: Set<string>;
}

export interface Capture {
  file?: string;
  error?: string;
  /** Whose failure `error` is, where that is known when it is made (an install); else read from its words (blameOf). */
  blame?: Blame;
}

const captureFile = (into: string, config: string): string => join(into, `${config}.json`);
const errorFile = (into: string, config: string): string => join(into, `${config}.error.txt`);

/** Inside the namespace: captures configurations of one installed release, as the history does. */
export async function captureInside(o: InsideOptions, root: string): Promise<void> {
  prepareNamespace();
  const matrix = loadMatrix(root);
  const { package: pkg } = matrix.agents[o.agent];
  const runRoot = join(o.into, '..', '..', '..', 'run', o.agent);
  const paths: RunPaths = {
    home: join(runRoot, 'home'),
    workdir: join(runRoot, 'work'),
    node: process.execPath,
    mcpServer: join(root, 'scripts/lib/capture/mcp-server.ts'),
  };
  const unlock = lockRunFolder(runRoot, 'another verify run');
  mkdirSync(o.into, { recursive: true });
  try {
    for (const id of o.configurations) {
      const configuration = matrix.agents[o.agent].configurations.find((c) => c.id === id)!;
      let capture: CaptureFile | undefined;
      let error = '';
      // One retry, as the history does; the limit scales with the machine's load (limits.ts) and doubles for the retry.
      for (let attempt = 1; attempt <= 2 && !capture; attempt++) {
        const t0 = Date.now();
        const limited = {
          ...configuration,
          timeoutSeconds: scaledLimit(configuration.timeoutSeconds, o.limitFactor, attempt),
        };
        try {
          const outcome = await runConfiguration(o.agent, limited, o.binary, paths, { release: o.version });
          capture = buildCapture(o.agent, pkg, o.version, configuration, outcome) as CaptureFile;
          console.log(`    ${o.version} ${id.padEnd(22)} ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        } catch (e) {
          // A program the CLI needs is missing here: this machine's failure, not a result of the release.
          if (e instanceof RequiredCommandError) throw e;
          error = (e as Error).message;
          console.log(`    ${o.version} ${id.padEnd(22)} FAILED (attempt ${attempt}): ${error.split('\n')[0]}`);
        }
      }
      if (capture) writeFileSync(captureFile(o.into, id), jsonText(capture));
      else writeFileSync(errorFile(o.into, id), error + '\n');
    }
  } finally {
    rmSync(paths.home, { recursive: true, force: true });
    rmSync(paths.workdir, { recursive: true, force: true });
    unlock();
  }
}

/**
 * Installs and captures, per release, every configuration the sampled events need; returns each result by
 * `agent@version/config`.
 */
export async function captureReleases(
  plan: Map<string, ReleasePlan>,
  matrix: Matrix,
  run: VerifyRun,
): Promise<Map<string, Capture>> {
  const results = new Map<string, Capture>();
  const scratch = mkdtempSync(join(run.cacheRoot, 'verify-scratch-'));
  // Every install is fresh, into its own folder; the tarballs come from verify's own npm cache, kept
  // between runs and facts (npm checks each against its integrity), never from the history's installs,
  // so that the time budget goes on facts rather than downloads.
  const restoreCache = useNpmCache(join(run.cacheRoot, 'verify', 'npm-cache'));
  try {
    for (const [key, release] of plan)
      for (const [c, capture] of await captureRelease(release, matrix, run, scratch))
        results.set(`${key}/${c}`, capture);
  } finally {
    restoreCache();
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}

/** Points npm at `cache` until the returned function puts the previous setting back. */
function useNpmCache(cache: string): () => void {
  const previous = process.env['npm_config_cache'];
  process.env['npm_config_cache'] = cache;
  return () => {
    if (previous === undefined) delete process.env['npm_config_cache'];
    else process.env['npm_config_cache'] = previous;
  };
}

/** One release's results by configuration: within the budget and the matrix, installed, then captured. */
async function captureRelease(
  release: ReleasePlan,
  matrix: Matrix,
  run: VerifyRun,
  scratch: string,
): Promise<Map<string, Capture>> {
  const { agent, version, pkg, configs } = release;
  const results = new Map<string, Capture>();
  if (Date.now() > run.deadline) {
    for (const c of configs)
      results.set(c, { error: 'the time budget (--minutes) was spent before this release was installed' });
    return results;
  }
  const missing = [...configs].filter((c) => !matrix.agents[agent].configurations.some((x) => x.id === c));
  for (const c of missing)
    results.set(c, { error: `content/capture-matrix.json has no ${agent} configuration ${c} any more` });
  const toRun = [...configs].filter((c) => !missing.includes(c));
  if (toRun.length === 0) return results;
  console.log(`\n${agent} ${version}: installing ${pkg}@${version} from scratch; capturing ${toRun.join(', ')}`);
  const installRoot = join(scratch, `${agent}-${version}`);
  const installed = installFresh(release, installRoot);
  if ('error' in installed) {
    // npm's or the release's words, blamed as the install decided.
    const { error } = installed;
    for (const c of toRun)
      results.set(c, { error: `cannot install: ${error.message}`, blame: error.ours ? 'ours' : 'release' });
    return results;
  }
  try {
    for (const [c, capture] of await captureInNamespace(release, toRun, installed.binary, matrix, run))
      results.set(c, capture);
  } finally {
    rmSync(installRoot, { recursive: true, force: true });
  }
  return results;
}

/** Installs the release into a fresh folder: its binary, or the install's failure. */
function installFresh(release: ReleasePlan, installRoot: string): { binary: string } | { error: InstallError } {
  const { agent, version, pkg } = release;
  try {
    return { binary: ensureInstalled(agent, installRoot, pkg, version, (line) => console.log(`  ${line}`)) };
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    console.log(`  cannot install: ${error.message}`);
    return { error };
  }
}

/** Captures the configurations by re-running verify with `--inside` under `unshare -n`; each one's result. */
async function captureInNamespace(
  release: ReleasePlan,
  configs: readonly string[],
  binary: string,
  matrix: Matrix,
  run: VerifyRun,
): Promise<Map<string, Capture>> {
  const { agent, version } = release;
  const into = join(run.folder, 'captures', agent, version);
  const factor = limitFactor(loadavg()[0]!, availableParallelism());
  const timeoutMs = namespaceLimitMs(configs, matrix.agents[agent].configurations, factor);
  if (factor > 1)
    console.log(`  limits × ${factor} (load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
  const args = ['--agent', agent, '--version', version, '--binary', binary, '--into', into];
  const inner = await runBounded(
    'unshare',
    [
      '-n',
      process.execPath,
      join(run.root, 'scripts/verify.ts'),
      '--inside',
      ...args,
      '--limit-factor',
      String(factor),
      ...configs.flatMap((c) => ['--config', c]),
    ],
    { cwd: run.root, timeoutMs, echo: true },
  );
  return new Map(configs.map((c) => [c, insideResult(into, c, inner, timeoutMs)]));
}

/** Both attempts of every configuration at their scaled limits, with room to start each. */
function namespaceLimitMs(
  configs: readonly string[],
  known: Matrix['agents'][AgentId]['configurations'],
  factor: number,
): number {
  const perConfig = Math.max(
    ...configs.map((c) => known.find((x) => x.id === c)!.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
  );
  return (configs.length * (scaledLimit(perConfig, factor, 1) + scaledLimit(perConfig, factor, 2) + 30) + 60) * 1000;
}

/** What the inside run left for one configuration: its capture, its error, or why it left neither. */
function insideResult(into: string, c: string, inner: Bounded, timeoutMs: number): Capture {
  if (existsSync(captureFile(into, c))) return { file: captureFile(into, c) };
  if (existsSync(errorFile(into, c)))
    return { error: readFileSync(errorFile(into, c), 'utf8'), file: errorFile(into, c) };
  return {
    error: inner.timedOut
      ? `the capture inside the namespace did not finish within ${Math.round(timeoutMs / 1000)} s`
      : `the capture inside the namespace ended (${inner.status ?? inner.signal}) without a result: ` +
        `${firstLines(inner.stderr)}`,
  };
}
