/**
 * node scripts/history-captures.ts — the history of what the real CLIs tell their models,
 * across releases: content/history/<agent>.capture.json.
 *
 *   node scripts/history-captures.ts [--agent ID]... [--step N]
 *        [--last N] [--from VERSION] [--to VERSION] [--retry-failed]
 *
 *   --agent         only this agent (repeatable; default: every agent whose registry module
 *                   declares a capture-history plan, in registry order)
 *   --step          read every N-th release before bisecting (default: the agent's plan)
 *   --last          for a plan that covers the newest releases: how many up to the pin
 *   --from          for a plan that covers from a release: the oldest release
 *   --to            the newest release to cover instead of the pin (refresh records this way why a
 *                   release newer than the pin could not be captured: each configuration's failure)
 *   --retry-failed  run again the configurations that failed in a release (the cache
 *                   remembers failures so that a rerun does not repeat them)
 *   --fill-texts    plan nothing: read (through the cache) only the releases on either side of
 *                   the file's tool-level description and definition changes that lack their
 *                   texts, and add those texts, exactly as a full run computes them; every other
 *                   byte of the file stays. A change the fresh reading does not show is reported
 *                   and left without texts (the content check then refuses it).
 *
 * Releases come from `npm view <package> versions --json` (prereleases left out; with every
 * standalone package the agent module declares, so that a release only its platform package
 * has is listed, and installed from it), up to the pin of content/capture-matrix.json. Every step-th release and both
 * ends are read;
 * wherever two releases read differ, the release halfway between them is read, until each
 * change lies between two adjacent published releases. Reading a release means: install
 * it with npm into a cache folder outside the repo, run the compared configurations of the
 * capture matrix (same mode, args and env as `npm run capture`) inside a network namespace
 * that has only loopback (`unshare -n`) against the recording stub, keep the masked
 * captures in $CAPTURE_CACHE_DIR/history/captures/<agent>/<version>/<configuration>.json,
 * and delete the install (the release driver, scripts/lib/releases/driver.ts). A rerun reads the cache and
 * installs only what it lacks. A release that cannot run keeps why, in npm's or the CLI's words, as each
 * configuration's failure; a failure of this machine (the network, a limit, a crash inside) is run once more, then
 * stops the run with nothing recorded.
 *
 * $HISTORY_NPM_CACHE: an npm cache folder that every install of the run shares and that is
 * kept (default: a throwaway one per install).
 *
 * Needs root (for the namespace). The history file is validated against
 * schemas/history.schema.json and replaced atomically.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, AGENTS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { CaptureHistoryPlan } from '../src/lib/agents/types.ts';
import type { HistoryFile } from '../src/lib/core/content-types.ts';
import { compareReleases } from '../src/lib/core/version-order.ts';
import type { CaptureFile } from '../src/lib/wire/index.ts';
import { buildCapture } from './lib/capture/capture-file.ts';
import { scaledLimit } from './lib/capture/limits.ts';
import { loadMatrix } from './lib/capture/matrix.ts';
import { lockRunFolder, NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { historyRunFolder } from './lib/capture/run-folders.ts';
import { RequiredCommandError } from './lib/capture/required-commands.ts';
import { type RunPaths, runConfiguration } from './lib/capture/runner.ts';
import { type CachedRun, readCached, removeCached, writeCached } from './lib/capture-history/cache.ts';
import { capturedDiffer, failedConfigurations } from './lib/capture-history/failures.ts';
import { vanishAndReturn, vanishReason } from './lib/capture-history/vanish.ts';
import { historyEvents, type ReleaseSnapshots, releasesDiffer } from './lib/history/capture-diff.ts';
import { type ConfigSnapshot, releaseSnapshots } from './lib/history/capture-snapshot.ts';
import { type CaptureRelease, captureHistoryDocument, countByKind } from './lib/history/document.ts';
import type { HistoryEvent } from './lib/history/events.ts';
import { type ReleaseRange, unpublishedNumbers } from './lib/history/releases.ts';
import { type ComputedEvent, internTexts } from './lib/history/text-store.ts';
import { writeHistory } from './lib/history/write.ts';
import {
  agentReleases,
  agentReleaseTimes,
  CACHE_ROOT,
  HISTORY_ROOT,
  locateSettled,
  OurFailure,
  type Plan,
  type ReleaseReadings,
  releaseReadings,
  runIsolated,
} from './lib/releases/driver.ts';
import { readJson } from './lib/script-files.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/history-captures.ts');
/**
 * Captures of a release and configuration that lost most of its tools for that release only, before it counts as
 * failed.
 */
const VANISH_RUNS = 3;

/** What an agent's history covers and compares: its registry module's plan (agents without one say why). */
function planOf(agent: AgentId): CaptureHistoryPlan | undefined {
  const plan = AGENTS[agent].captureHistory;
  return 'none' in plan ? undefined : plan;
}
const ORDER = AGENT_IDS.filter((a) => planOf(a) !== undefined);

interface Options {
  agents: AgentId[];
  step?: number;
  last?: number;
  from?: string;
  /**
   * The newest release to cover instead of the pin (refresh: a newer release that could not be captured, to record
   * why).
   */
  to?: string;
  retryFailed: boolean;
  fillTexts: boolean;
  inside?: { agent: AgentId; version: string; binary: string; configurations: string[] };
}

function fail(message: string): never {
  console.error(`history-captures: ${message}`);
  process.exit(1);
}

function parseArgs(argv: string[]): Options {
  const o: Options = { agents: [], retryFailed: false, fillTexts: false };
  const inside: Partial<NonNullable<Options['inside']>> & { configurations: string[] } = { configurations: [] };
  let isInside = false;
  const value = (i: number, flag: string): string => {
    const v = argv[i];
    if (v === undefined) fail(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--agent') {
      const v = value(++i, a);
      if (!isAgentId(v)) fail(`unknown agent ${v} (${AGENT_IDS.join(', ')})`);
      const plan = AGENTS[v].captureHistory;
      if ('none' in plan) fail(`${v} has no capture history plan: ${plan.none}`);
      o.agents.push(v);
    } else if (a === '--step') o.step = Number(value(++i, a));
    else if (a === '--last') o.last = Number(value(++i, a));
    else if (a === '--from') o.from = value(++i, a);
    else if (a === '--to') o.to = value(++i, a);
    else if (a === '--retry-failed') o.retryFailed = true;
    else if (a === '--fill-texts') o.fillTexts = true;
    else if (a === '--inside') isInside = true;
    else if (a === '--version') inside.version = value(++i, a);
    else if (a === '--binary') inside.binary = value(++i, a);
    else if (a === '--config') inside.configurations.push(value(++i, a));
    else if (a === '--help' || a === '-h') {
      console.log(
        `usage: node scripts/history-captures.ts [--agent ${ORDER.join('|')}]... [--step N] [--last N] [--from ` +
          `VERSION] [--to VERSION] [--retry-failed] [--fill-texts]`,
      );
      process.exit(0);
    } else fail(`unknown argument ${a}`);
  }
  if (o.step !== undefined && !(Number.isInteger(o.step) && o.step >= 1)) fail('--step needs a positive integer');
  if (o.last !== undefined && !(Number.isInteger(o.last) && o.last >= 2)) fail('--last needs an integer of at least 2');
  if (o.to !== undefined && o.agents.length !== 1) fail('--to covers one agent: name it with --agent');
  if (isInside) {
    if (o.agents.length !== 1 || !inside.version || !inside.binary)
      fail('--inside needs --agent, --version and --binary');
    o.inside = {
      agent: o.agents[0]!,
      version: inside.version,
      binary: inside.binary,
      configurations: inside.configurations,
    };
  }
  if (o.agents.length === 0) o.agents = ORDER;
  return o;
}

// ---------------------------------------------------------------------------
// Inside the namespace: run the configurations of one installed release, cache each result.

function firstLines(text: string, n: number): string {
  return text.split('\n').slice(0, n).join('\n');
}

/**
 * A failure kept in the cache: its first two lines (what failed) and its last four (a CLI names the bad argument after
 * its usage text).
 */
function failureExcerpt(text: string): string {
  const lines = text.split('\n');
  return lines.length <= 6 ? text : [...lines.slice(0, 2), ...lines.slice(-4)].join('\n');
}

async function inside(o: NonNullable<Options['inside']>): Promise<void> {
  prepareNamespace();
  const matrix = loadMatrix(ROOT);
  const { package: pkg } = matrix.agents[o.agent];
  const runRoot = historyRunFolder(CACHE_ROOT, o.agent);
  const paths: RunPaths = {
    home: join(runRoot, 'home'),
    workdir: join(runRoot, 'work'),
    node: process.execPath,
    mcpServer: join(ROOT, 'scripts/lib/capture/mcp-server.ts'),
  };
  const unlock = lockRunFolder(runRoot, 'another history run');
  try {
    for (const id of o.configurations) {
      const configuration = matrix.agents[o.agent].configurations.find((c) => c.id === id);
      if (!configuration) fail(`no configuration ${o.agent}/${id} in the matrix`);
      let result: CachedRun | undefined;
      // One retry, with twice the limit: a run can time out on a loaded machine, which is not the release's doing.
      for (let attempt = 1; attempt <= 2 && !result?.ok; attempt++) {
        const t0 = Date.now();
        const limited = { ...configuration, timeoutSeconds: scaledLimit(configuration.timeoutSeconds, 1, attempt) };
        try {
          const outcome = await runConfiguration(o.agent, limited, o.binary, paths, { release: o.version });
          const capture = buildCapture(o.agent, pkg, o.version, configuration, outcome) as CaptureFile;
          releaseSnapshots(new Map([[id, capture]])); // the site's extraction must read it
          result = { ok: true, capture };
          console.log(`    ${id.padEnd(22)} ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        } catch (error) {
          // A program the CLI needs is missing here: this machine's failure, never cached as the release's.
          if (error instanceof RequiredCommandError) throw error;
          result = { ok: false, error: failureExcerpt((error as Error).message) };
          console.log(`    ${id.padEnd(22)} FAILED (attempt ${attempt}): ${firstLines((error as Error).message, 1)}`);
        }
      }
      writeCached(HISTORY_ROOT, o.agent, o.version, id, result!);
    }
  } finally {
    rmSync(paths.home, { recursive: true, force: true });
    rmSync(paths.workdir, { recursive: true, force: true });
    unlock();
  }
}

// ---------------------------------------------------------------------------
// Outside: list releases, plan, install and run what the cache lacks, write the history.

interface AgentRun {
  agent: AgentId;
  listed: number;
  read: number;
  /** Releases whose captures were run this time. */
  installs: string[];
  /** Of those, the ones npm downloaded (the pin comes from `npm run capture`'s install). */
  downloads: string[];
  failures: string[];
  notes: string[];
  events: Record<string, number>;
  seconds: number;
}

function newRun(agent: AgentId, listed: number): AgentRun {
  return { agent, listed, read: 0, installs: [], downloads: [], failures: [], notes: [], events: {}, seconds: 0 };
}

/** The limit of one run inside the namespace: both attempts of each configuration (the retry's doubled), and room. */
function insideLimitMs(agent: AgentId, needed: readonly string[]): number {
  const configurations = loadMatrix(ROOT).agents[agent].configurations;
  const seconds = needed.reduce((sum, id) => {
    const configured = configurations.find((c) => c.id === id)?.timeoutSeconds;
    return sum + scaledLimit(configured, 1, 1) + scaledLimit(configured, 1, 2) + 30;
  }, 0);
  return (seconds + 60) * 1000;
}

/**
 * Installs a release and captures the configurations it lacks in the cache, inside the namespace (the release
 * driver). A release that does not install the way the pinned one does (another entry point, a missing platform
 * package) cannot run: every configuration then records why, in npm's or the CLI's words.
 */
function captureRelease(agent: AgentId, pkg: string, version: string, needed: readonly string[], run: AgentRun): void {
  console.log(`  ${version}: capturing ${needed.join(', ')}`);
  const outcome = runIsolated({
    agent,
    pkg,
    version,
    script: SCRIPT,
    args: ['--inside', '--agent', agent, '--version', version, ...needed.flatMap((id) => ['--config', id])],
    timeoutMs: insideLimitMs(agent, needed),
    log: (line) => console.log(`  ${line}`),
  });
  if (!outcome.ran) {
    for (const id of needed) writeCached(HISTORY_ROOT, agent, version, id, { ok: false, error: outcome.cannotRun });
    console.log(`    ${outcome.cannotRun}`);
    return;
  }
  run.installs.push(version);
  if (outcome.downloaded) run.downloads.push(version);
}

/** A release's snapshots from the cache, which holds every configuration's result; its failures go to the run. */
function cachedSnapshots(
  agent: AgentId,
  version: string,
  order: readonly string[],
  run: AgentRun,
): { snapshots: ReleaseSnapshots; errors: Map<string, string> } {
  const captures = new Map<string, CaptureFile>();
  const errors = new Map<string, string>();
  for (const id of order) {
    const cached = readCached(HISTORY_ROOT, agent, version, id);
    if (!cached) fail(`no cached result for ${agent} ${version} ${id} after running it`);
    if (cached.ok) captures.set(id, cached.capture);
    else {
      errors.set(id, cached.error);
      run.failures.push(`${version} ${id}: ${cached.error.split('\n')[0]}`);
    }
  }
  const snaps = releaseSnapshots(captures);
  for (const [id, s] of snaps) {
    if (s.unresolvedNamespaces.length > 0)
      run.notes.push(
        `${version} ${id}: names the namespace(s) ${s.unresolvedNamespaces.join(', ')} without their tools, which ` +
          `no compared configuration shows`,
      );
  }
  const configs = new Map<string, ConfigSnapshot | null>(order.map((id) => [id, snaps.get(id) ?? null]));
  return { snapshots: { version, configs }, errors };
}

/** What a run keeps of each release it read. */
interface ReleaseReader {
  /** By index into the listed releases: from the cache, or installed and captured now. */
  readings: ReleaseReadings<ReleaseSnapshots>;
  /** Per release read: the configurations that failed there and why. */
  failed: Map<string, Map<string, string>>;
}

/**
 * Reads releases of one agent in the compared configurations, through the cache (shared by a history run and
 * --fill-texts).
 */
function releaseReader(c: {
  agent: AgentId;
  pkg: string;
  versions: readonly string[];
  order: readonly string[];
  retryFailed: boolean;
  run: AgentRun;
}): ReleaseReader {
  const failed = new Map<string, Map<string, string>>();
  /** Releases run this time: --retry-failed runs a cached failure again once, not again after it fails anew. */
  const ranNow = new Set<string>();
  const readings = releaseReadings((i): ReleaseSnapshots => {
    const version = c.versions[i]!;
    const needed = c.order.filter((id) => {
      const cached = readCached(HISTORY_ROOT, c.agent, version, id);
      return cached === undefined || (c.retryFailed && !cached.ok && !ranNow.has(version));
    });
    ranNow.add(version);
    if (needed.length > 0) captureRelease(c.agent, c.pkg, version, needed, c.run);
    else console.log(`  ${version}: cached`);
    const { snapshots, errors } = cachedSnapshots(c.agent, version, c.order, c.run);
    failed.set(version, errors);
    return snapshots;
  });
  return { readings, failed };
}

/** What one agent's history compares (its plan, the options over it): configurations in matrix order, step, range. */
function historyPlan(agent: AgentId, o: Options): { pkg: string; order: string[]; step: number; range: ReleaseRange } {
  const matrix = loadMatrix(ROOT);
  const { package: pkg, version: pin } = matrix.agents[agent];
  const plan = planOf(agent);
  if (!plan) throw new Error(`no capture history is planned for ${agent}`);
  const order = matrix.agents[agent].configurations.map((c) => c.id).filter((id) => plan.configurations.includes(id));
  const missing = plan.configurations.filter((id) => !order.includes(id));
  if (missing.length > 0) fail(`content/capture-matrix.json has no ${agent} configuration ${missing.join(', ')}`);
  const range: ReleaseRange = {
    to: o.to ?? pin,
    ...plan.range,
    ...('from' in plan.range && o.from ? { from: o.from } : {}),
    ...('last' in plan.range && o.last ? { last: o.last } : {}),
  };
  return { pkg, order, step: o.step ?? plan.step, range };
}

/**
 * The doubt over a plan: a capture that lost most of its tools for one release only is forgotten, to be captured
 * again; if it persists after VANISH_RUNS captures it is a failed capture with its reason (vanish.ts).
 */
function vanishDoubt(
  agent: AgentId,
  versions: readonly string[],
  order: readonly string[],
  readings: ReleaseReadings<ReleaseSnapshots>,
  run: AgentRun,
): (plan: Plan) => boolean {
  const captures = new Map<string, number>();
  return (plan) => {
    const suspects = vanishAndReturn(
      plan.read.map((i) => readings.read(i)),
      order,
    );
    for (const s of suspects) {
      const key = `${s.version} ${s.configuration}`;
      const runs = captures.get(key) ?? 1;
      if (runs < VANISH_RUNS) {
        captures.set(key, runs + 1);
        removeCached(HISTORY_ROOT, agent, s.version, s.configuration);
        console.log(
          `  ${s.version} ${s.configuration}: ${s.count} tools where ${s.before.version} had ${s.before.count} and ` +
            `${s.after.version} ${s.after.count}; capturing it again`,
        );
      } else {
        writeCached(HISTORY_ROOT, agent, s.version, s.configuration, { ok: false, error: vanishReason(s, runs) });
        run.notes.push(`${s.version} ${s.configuration}: ${vanishReason(s, runs)}`);
      }
      readings.forget(versions.indexOf(s.version));
    }
    return suspects.length > 0;
  };
}

/** Each listed release: when it was published, whether it was read, and which configurations failed in it. */
function listedReleases(
  versions: readonly string[],
  located: Plan,
  failed: ReadonlyMap<string, ReadonlyMap<string, string>>,
  order: readonly string[],
  times: Readonly<Record<string, string>>,
): CaptureRelease[] {
  const readSet = new Set(located.read);
  return versions.map((v, i) => {
    const reasons = readSet.has(i) ? failedConfigurations(failed.get(v) ?? new Map(), order) : undefined;
    return {
      version: v,
      ...(times[v] ? { published: times[v] } : {}),
      read: readSet.has(i),
      ...(reasons ? { failed: reasons } : {}),
    };
  });
}

async function historyOf(agent: AgentId, o: Options): Promise<AgentRun> {
  const t0 = Date.now();
  const { pkg, order, step, range } = historyPlan(agent, o);
  // Every release some package of the agent lists: a release its own package lacks is read from its platform package
  // (install.ts).
  const versions = agentReleases(agent, pkg, range);
  const times = agentReleaseTimes(agent, pkg);
  console.log(
    `\n${agent}: ${versions.length} published releases ${versions[0]} … ${versions[versions.length - 1]} (step ` +
      `${step}; configurations ${order.join(', ')})`,
  );
  const run = newRun(agent, versions.length);
  const { readings, failed } = releaseReader({ agent, pkg, versions, order, retryFailed: o.retryFailed, run });
  // A configuration that runs in one release and not in the other is bisected like a change,
  // so that the first and last releases it runs in are exact (failures.ts).
  const differs = (a: number, b: number): boolean => {
    const [x, y] = [readings.read(a), readings.read(b)];
    return releasesDiffer(x, y, order) || capturedDiffer(x, y, order);
  };
  const doubt = vanishDoubt(agent, versions, order, readings, run);
  const located = await locateSettled(versions.length, step, differs, doubt);
  const file = captureHistoryDocument({
    agent,
    package: pkg,
    step,
    configurations: order,
    releases: listedReleases(versions, located, failed, order, times),
    unpublished: unpublishedNumbers(versions),
    events: historyEvents(
      located.read.map((i) => readings.read(i)),
      order,
    ),
  });
  writeHistory(join(ROOT, 'content/history', `${agent}.capture.json`), file, `the ${agent} history`);
  run.read = located.read.length;
  run.events = countByKind(file.events);
  run.seconds = Math.round((Date.now() - t0) / 1000);
  run.notes.sort((x, y) => compareReleases(x.split(' ')[0]!, y.split(' ')[0]!) || (x < y ? -1 : 1));
  for (const [a, b] of located.changes) run.notes.push(`change located between ${versions[a]} and ${versions[b]}`);
  return run;
}

/** A tool-level change whose texts the file should hold (the content check's rule `history-change-texts`). */
function lacksTexts(e: HistoryEvent): boolean {
  return (
    (e.kind === 'definition-changed' || (e.kind === 'description-changed' && e.field === undefined)) &&
    (e.fromText === undefined || e.toText === undefined)
  );
}

/**
 * One event of the file with its texts unfolded; one that lacks them gets them from a fresh reading of the releases
 * either side, as a full run computes them ('not seen' when that reading does not show the change).
 */
function eventWithTexts(
  e: HistoryEvent,
  texts: NonNullable<HistoryFile['texts']>,
  read: (version: string) => ReleaseSnapshots,
): { event: ComputedEvent; texts: 'kept' | 'filled' | 'not seen' } {
  const kept: ComputedEvent = {
    ...e,
    ...(e.fromText !== undefined ? { before: texts[e.fromText]! } : {}),
    ...(e.toText !== undefined ? { after: texts[e.toText]! } : {}),
  };
  delete kept.fromText;
  delete kept.toText;
  if (!lacksTexts(e)) return { event: kept, texts: 'kept' };
  // The events of this one configuration between the two releases, as a full run computes them.
  const only = (v: string): ReleaseSnapshots => ({
    version: v,
    configs: new Map([[e.configuration!, read(v).configs.get(e.configuration!) ?? null]]),
  });
  const fresh = historyEvents([only(e.previous), only(e.release)], [e.configuration!]).find(
    (x) => x.kind === e.kind && x.tool === e.tool && x.field === undefined,
  );
  if (fresh?.before === undefined || fresh.after === undefined) return { event: kept, texts: 'not seen' };
  return { event: { ...kept, before: fresh.before, after: fresh.after }, texts: 'filled' };
}

/**
 * --fill-texts: the texts of the file's changes that lack them, read from the releases either side (see the header).
 */
function fillTexts(agent: AgentId): AgentRun {
  const t0 = Date.now();
  const path = join(ROOT, 'content/history', `${agent}.capture.json`);
  const file = readJson<HistoryFile>(path, `the ${agent} capture history`);
  const run = newRun(agent, file.releases.length);
  const versions = file.releases.map((r) => r.version);
  const order = file.configurations ?? [];
  const { readings } = releaseReader({ agent, pkg: file.package, versions, order, retryFailed: false, run });
  const read = (v: string) => readings.read(versions.indexOf(v));
  const wanted = file.events.filter(lacksTexts);
  const needed = [...new Set(wanted.flatMap((e) => [e.previous, e.release]))].sort(compareReleases);
  console.log(`\n${agent}: ${wanted.length} change(s) without texts, ${needed.length} release(s) to read`);
  for (const v of needed) read(v);
  let filled = 0;
  const events = file.events.map((e): ComputedEvent => {
    const { event, texts } = eventWithTexts(e, file.texts ?? {}, read);
    if (texts === 'not seen')
      run.failures.push(
        `${e.release} ${e.configuration} ${e.tool}: the ${e.kind} between ${e.previous} and ${e.release} is not in ` +
          `a fresh reading of both; left without texts`,
      );
    if (texts === 'filled') filled++;
    return event;
  });
  const interned = internTexts(events);
  writeHistory(path, { ...file, events: interned.events, texts: interned.texts }, `the ${agent} history`);
  run.read = needed.length;
  run.notes.push(
    `texts added to ${filled} of ${wanted.length} change(s); ${Object.keys(interned.texts).length} ` +
      `distinct texts stored`,
  );
  run.seconds = Math.round((Date.now() - t0) / 1000);
  return run;
}

function printSummary(run: AgentRun): void {
  console.log(`\n== ${run.agent}: wrote content/history/${run.agent}.capture.json`);
  console.log(`  releases listed ${run.listed}, read ${run.read}, not read ${run.listed - run.read}`);
  console.log(
    `  captured this run: ${run.installs.length} ` +
      `release(s)${run.installs.length ? ` (${run.installs.join(', ')})` : ''}; downloaded ${run.downloads.length}; ` +
      `${run.seconds} s`,
  );
  console.log(
    `  events by kind: ${
      Object.entries(run.events)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  if (run.failures.length) {
    console.log(`  not comparable (configuration failed in that release):`);
    for (const f of new Set(run.failures)) console.log(`    - ${f}`); // a release read again lists its failures again
  }
  for (const n of run.notes) console.log(`  note: ${n}`);
}

async function outside(o: Options): Promise<void> {
  if (process.platform !== 'linux') fail('runs only on Linux (network namespaces)');
  if (process.getuid?.() !== 0)
    fail('must run as root: each CLI runs inside a network namespace with only loopback (`unshare -n`)');
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    fail(
      `\`unshare -n\` failed; refusing to run the CLIs ` +
        `(${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}`)})`,
    );
  mkdirSync(HISTORY_ROOT, { recursive: true });
  const runs: AgentRun[] = [];
  for (const agent of ORDER.filter((a) => o.agents.includes(a))) {
    runs.push(o.fillTexts ? fillTexts(agent) : await historyOf(agent, o));
    printSummary(runs[runs.length - 1]!);
  }
  if (runs.length > 1) {
    console.log('\nsummary');
    for (const r of runs) printSummary(r);
  }
}

const options = parseArgs(process.argv.slice(2));
try {
  if (options.inside) await inside(options.inside);
  else await outside(options);
} catch (error) {
  if (error instanceof NamespaceError || error instanceof OurFailure || error instanceof RequiredCommandError)
    fail(error.message);
  throw error;
}
