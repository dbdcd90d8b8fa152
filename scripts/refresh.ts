/**
 * npm run refresh — moves the site to the newest published upstream releases, in one run:
 *
 *   1. asks the npm registry for the newest release of each package of published types
 *      (scripts/pins.json) and of each CLI of the capture matrix (`npm view <package> version`;
 *      for a CLI, the newest of its own package and of the standalone platform packages its
 *      agent module declares, which the capture then installs directly);
 *   2. newer types: sets the pin (without its integrity, which the ingest records) and
 *      runs the ingest script the agent module names (content/tools/, content/agents/);
 *   3. a newer CLI: sets its release in content/capture-matrix.json, captures that
 *      agent's configurations (needs root: `unshare -n`) and reads its tool inventory;
 *      types released with the CLI follow it;
 *   4. extends every history file that is behind its pin by the new releases only
 *      (the agent module's history script, scripts/history-captures.ts);
 *   5. archives the versioned export files that the committed content publishes and the new
 *      content no longer produces (content/archive/), so that every published versioned URL
 *      keeps resolving;
 *   6. prints what changed, what could not run and what it leaves alone, and why.
 *
 * With nothing new it downloads nothing and writes nothing. `--dry-run` prints the plan.
 * All or nothing (scripts/lib/refresh/transaction.ts): content/ and scripts/pins.json are
 * saved to a staging folder before the first step; once every step has run, the new content
 * is validated like the build validates it (every file against its schema and the rules
 * across files, the archive included) and the pins are read back. Any failure, at any step
 * or in that check, swaps the saved copy back in, so the tree is as it was before the run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, AGENTS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { PublishedTypes } from '../src/lib/agents/types.ts';
import { jsonText, replaceFile } from './lib/system/atomic-write.ts';
import { pinsWithVersion, readPins } from './lib/pins.ts';
import { askPackages, latestVersion } from './lib/releases/registry.ts';
import { archiveVanished, committedExports, contentChanged } from './lib/archive.ts';
import { planRefresh, type RefreshState, type RefreshStep } from './lib/refresh/plan.ts';
import { beginTransaction, restoreInterrupted, STAGING, type RefreshTransaction } from './lib/refresh/transaction.ts';
import { onStopSignal, runInGroup, signalExitCode, stopChildren } from './lib/system/child-group.ts';
import { killRunningIn } from './lib/capture/runner.ts';
import { runFolders } from './lib/capture/run-folders.ts';
import {
  eventCountLine,
  outcomeLines,
  recordedFailure,
  refreshExitCode,
  refreshUnits,
  unitName,
  type HistoryRelease,
  type RefreshUnit,
  type UnitOutcome,
} from './lib/refresh/units.ts';
import { agentListings, agentPackages } from './lib/capture/install.ts';
import { newestRelease, runnablePackage, runnableVersions } from './lib/releases/runnable-release.ts';
import { newlyListed } from './lib/history/releases.ts';
import { loadContent } from '../src/lib/content/load.ts';
import type {
  AgentRecord,
  CaptureMatrixFile,
  HookCasesFile,
  PermissionCasesFile,
} from '../src/lib/core/content-types.ts';

const ROOT = join(import.meta.dirname, '..');
const PINS = join(ROOT, 'scripts/pins.json');
const MATRIX = join(ROOT, 'content/capture-matrix.json');
const HOOK_CASES = join(ROOT, 'content/hook-cases.json');
const PERMISSION_CASES = join(ROOT, 'content/permission-cases.json');
const HISTORY_DIR = join(ROOT, 'content/history');
const NODE = process.execPath;
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';
/** Everything the steps may write, relative to ROOT: saved before the first step, restored on failure. */
const WRITES = ['content', 'scripts/pins.json'];

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const today = () => new Date().toISOString().slice(0, 10);

/** The releases a history file lists (none when it does not exist). */
function historyReleases(file: string): HistoryRelease[] {
  const path = join(HISTORY_DIR, `${file}.json`);
  return existsSync(path) ? readJson<{ releases: HistoryRelease[] }>(path).releases : [];
}

/** The newest release a history file covers (its last release), if the file exists. */
function historyCovers(file: string): string | undefined {
  return historyReleases(file).at(-1)?.version;
}

function eventCount(file: string): number {
  const path = join(HISTORY_DIR, `${file}.json`);
  return existsSync(path) ? readJson<{ events: unknown[] }>(path).events.length : 0;
}

/**
 * Whether the agent's hook outputs are read from a package at this pin (its registry module's HookMechanism.outputs).
 */
function hookOutputsRead(agent: string, at: 'capture-pin' | 'ingest-pin'): boolean {
  if (!isAgentId(agent) || 'none' in AGENTS[agent].hooks) return false;
  const source = AGENTS[agent].hooks.outputs;
  if (source === undefined || source.form === 'none') return false;
  return (source.form === 'embedded-json-schema' ? 'capture-pin' : source.version) === at;
}

/** The agent's published types, if its module names a script that reads them. */
function typesOf(agent: string): PublishedTypes | undefined {
  if (!isAgentId(agent)) return undefined;
  const types = AGENTS[agent].publishedTypes;
  return 'none' in types ? undefined : types;
}

/**
 * Every package the plan asks the registry about: the published types it does not pin with a CLI, each CLI's packages.
 */
function plannedQuestions(): string[] {
  const types = Object.entries(readPins(PINS)).flatMap(([agent, pin]) =>
    typesOf(agent)?.withCli ? [] : [pin.package],
  );
  const clis = Object.entries(readJson<CaptureMatrixFile>(MATRIX).agents).flatMap(([agent, entry]) =>
    !entry ? [] : isAgentId(agent) ? agentPackages(agent, entry.package) : [entry.package],
  );
  return [...types, ...clis];
}

function currentState(): RefreshState {
  const pins = readPins(PINS);
  const matrix = readJson<CaptureMatrixFile>(MATRIX);
  const types: RefreshState['types'] = {};
  for (const [agent, pin] of Object.entries(pins)) {
    const published = typesOf(agent);
    if (!published)
      throw new Error(
        `scripts/pins.json pins ${pin.package} for ${agent}, whose agent module names no script that reads it ` +
          `(publishedTypes)`,
      );
    // Types released with the CLI follow its pin: the registry is not asked.
    types[agent] = published.withCli
      ? { pinned: pin.version, latest: pin.version, withCli: true }
      : { pinned: pin.version, latest: latestVersion(pin.package) };
  }
  const clis: RefreshState['clis'] = {};
  for (const [agent, entry] of Object.entries(matrix.agents)) {
    if (!entry) continue;
    const payloads = isAgentId(agent) && !('none' in AGENTS[agent].hooks);
    // The newest release that runs: the newest of the agent's packages' newest (a platform package can go on after its
    // wrapper stops).
    const packages = isAgentId(agent) ? agentPackages(agent, entry.package) : [entry.package];
    const latest = newestRelease(packages.map(latestVersion));
    // A newer release its history records as unable to run is not tried again; the note says why.
    const cannotRun = recordedFailure(historyReleases(`${agent}.capture`), latest) === undefined ? undefined : latest;
    clis[agent] = {
      pinned: entry.version,
      latest,
      ...(payloads ? { payloads } : {}),
      ...(cannotRun ? { cannotRun } : {}),
    };
  }
  const histories: RefreshState['histories'] = {};
  // Only histories a script can extend: the others are named in notCovered() instead.
  for (const agent of Object.keys(types))
    if (typesOf(agent)?.history) histories[`${agent}.sdk`] = historyCovers(`${agent}.sdk`);
  const withPlan = Object.keys(matrix.agents).filter((a) => isAgentId(a) && !('none' in AGENTS[a].captureHistory));
  const newly: Record<string, readonly string[]> = {};
  for (const agent of withPlan) {
    histories[`${agent}.capture`] = historyCovers(`${agent}.capture`);
    // Releases listed since the history was written are read on this run (re-listed every time).
    const listed = newlyListed(
      runnableVersions(agentListings(agent as AgentId, matrix.agents[agent]!.package)),
      historyReleases(`${agent}.capture`).map((r) => r.version),
    );
    if (listed.length > 0) newly[`${agent}.capture`] = listed;
  }
  return { types, clis, histories, newlyListed: newly };
}

/** Runs a step's script in a process group of its own (child-group.ts), so that a stop reaches all it started. */
async function run(script: string, args: string[]): Promise<void> {
  console.log(`\n$ node ${script} ${args.join(' ')}`);
  await runInGroup(NODE, [join(ROOT, script), ...args], { cwd: ROOT, name: script });
}

async function perform(step: RefreshStep): Promise<void> {
  switch (step.kind) {
    case 'ingest-types': {
      replaceFile(PINS, pinsWithVersion(readPins(PINS), step.agent, step.to, today()));
      await run(typesOf(step.agent)!.ingest, []);
      if (hookOutputsRead(step.agent, 'ingest-pin')) await run('scripts/hook-outputs.ts', ['--agent', step.agent]);
      return;
    }
    case 'capture': {
      const matrix = readJson<CaptureMatrixFile>(MATRIX);
      const { package: pkg, version: _from, holder: _holder, checked: _checked, ...rest } = matrix.agents[step.agent]!;
      // The pin names the package that holds the release where the agent's own package lacks it.
      const holder = isAgentId(step.agent) ? runnablePackage(agentListings(step.agent, pkg), step.to) : undefined;
      matrix.agents[step.agent] = {
        package: pkg,
        version: step.to,
        ...(holder && holder !== pkg ? { holder } : {}),
        checked: today(),
        ...rest,
      };
      replaceFile(MATRIX, jsonText(matrix));
      await run('scripts/capture.ts', ['--only', step.agent]);
      // The inventory is read from the pinned binary; the build refuses one for another release.
      if (isAgentId(step.agent) && !('none' in AGENTS[step.agent].inventory))
        await run('scripts/inventory.ts', ['--agent', step.agent]);
      return;
    }
    case 'payloads':
      // Scenarios run the release the capture matrix now pins; every payload file is written again,
      // and so is every hook behaviour record of the agent (content/hook-cases.json), if it has cases.
      await run('scripts/payloads.ts', ['--only', step.agent]);
      if (Object.hasOwn(readJson<HookCasesFile>(HOOK_CASES).agents, step.agent))
        await run('scripts/hook-behaviour.ts', ['--only', step.agent]);
      // What its hooks may return, where read at the capture pin; and its cases over releases, where it has that
      // history (earlier releases' runs are cached).
      if (hookOutputsRead(step.agent, 'capture-pin')) await run('scripts/hook-outputs.ts', ['--agent', step.agent]);
      if (existsSync(join(ROOT, 'content/hook-behaviour-history', `${step.agent}.json`)))
        await run('scripts/hook-behaviour-history.ts', ['--agent', step.agent]);
      // The tool sets of its built-in subagents, where its module names them.
      if (isAgentId(step.agent) && AGENTS[step.agent].subagents)
        await run('scripts/subagents.ts', ['--only', step.agent]);
      // Its permission cases at the new pin, and its MCP tool name up to it (earlier releases' captures are cached).
      if (Object.hasOwn(readJson<PermissionCasesFile>(PERMISSION_CASES).agents, step.agent))
        await run('scripts/permissions.ts', ['--only', step.agent]);
      if (existsSync(join(ROOT, 'content/mcp-naming', `${step.agent}.json`)))
        await run('scripts/mcp-naming-history.ts', ['--agent', step.agent]);
      return;
    case 'history': {
      const [agent, source] = step.file.split('.') as [string, string];
      if (source === 'sdk') await run(typesOf(agent)!.history!, []);
      // Up to the newest release the file must cover: the pin, or a newer release recorded as unable to run.
      else await run('scripts/history-captures.ts', ['--agent', agent, '--to', step.to]);
      return;
    }
  }
}

function describe(step: RefreshStep): string {
  switch (step.kind) {
    case 'ingest-types':
      return `types of ${step.agent} ${step.from} → ${step.to}`;
    case 'capture':
      return `capture ${step.agent} ${step.from} → ${step.to}`;
    case 'payloads':
      return `hook payloads and hook behaviour of ${step.agent} ${step.from} → ${step.to}`;
    case 'history':
      return (
        `history ${step.file} ${step.from ?? '(none)'} → ` +
        `${step.to}${step.newlyListed ? ` (newly listed: ${step.newlyListed.join(', ')})` : ''}`
      );
  }
}

/**
 * Published types that name a CLI release the registry does not serve (the record's
 * `bundledCli`): reported, not an error; that agent's captures stay at the newest CLI
 * release there is.
 */
function unpublishedBundles(): string[] {
  const dir = join(ROOT, 'content/agents');
  if (!existsSync(dir)) return [];
  const matrix = readJson<CaptureMatrixFile>(MATRIX);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      const record = readJson<AgentRecord>(join(dir, f));
      if (record.bundledCli?.published !== false) return [];
      const types = record.sources[0];
      const captured = (matrix.agents as Record<string, { version: string } | undefined>)[record.id]?.version;
      return [
        `${record.product} ${record.version}, bundled by ` +
          `${types ? `${types.package} ${types.version}` : 'its published types'}, is not published as ` +
          `${record.bundledCli.package}` +
          (captured ? `: captures and payloads stay at ${captured}` : ''),
      ];
    });
}

/** What refresh leaves alone for lack of a script, with each agent module's reason. */
function notCovered(agents: readonly AgentId[]): string[] {
  return agents.flatMap((id) => {
    const { captureHistory, inventory, publishedTypes } = AGENTS[id];
    return [
      ...('none' in publishedTypes ? [`${id} published types: ${publishedTypes.none}`] : []),
      ...('none' in captureHistory ? [`${id} capture history: ${captureHistory.none}`] : []),
      ...('none' in inventory ? [`${id} inventory: ${inventory.none}`] : []),
    ];
  });
}

/** The transaction of the unit being run: what a stop restores. */
let active: RefreshTransaction | undefined;

/**
 * Runs `write` with content/ and the pins saved; keeps what it wrote only when the new
 * content passes the build's validation and the pins read back, else restores both.
 */
async function allOrNothing<T>(write: () => Promise<T>): Promise<T> {
  const transaction = beginTransaction(ROOT, WRITES);
  active = transaction;
  try {
    const result = await write();
    readPins(PINS);
    loadContent({ root: ROOT, sharedDiffs: true });
    transaction.commit();
    return result;
  } catch (error) {
    transaction.rollback();
    throw error;
  } finally {
    active = undefined;
  }
}

/** A failure of one step, so that a unit knows which of its steps failed. */
class StepError extends Error {
  readonly step: RefreshStep;
  constructor(step: RefreshStep, cause: unknown) {
    super((cause as Error).message, { cause });
    this.step = step;
  }
}

async function runSteps(unit: RefreshUnit): Promise<void> {
  for (const step of unit.steps) {
    try {
      await perform(step);
    } catch (error) {
      throw new StepError(step, error);
    }
  }
}

/**
 * Whether a capture that failed was the release's doing: its capture history reads the release
 * the way it reads every release (installed, each configuration run, one retry; a crash of ours
 * stops that run instead of being recorded) and records each configuration's failure in the
 * CLI's or npm's words. Kept only when it recorded one; otherwise the failure was ours.
 */
async function recordUnrunnable(agent: string, release: string): Promise<string | undefined> {
  if (!isAgentId(agent) || 'none' in AGENTS[agent].captureHistory) return undefined;
  console.log(`\n${agent} ${release} could not be captured: reading it as its history reads releases, to record why`);
  return allOrNothing(async () => {
    await run('scripts/history-captures.ts', ['--agent', agent, '--to', release]);
    const said = recordedFailure(historyReleases(`${agent}.capture`), release);
    if (said === undefined) throw new Error(`its history run captured ${release} where the capture failed`);
    return said;
  });
}

/** Runs one unit all or nothing, once more when it failed for our reasons; says how it ended. */
async function runUnit(unit: RefreshUnit): Promise<UnitOutcome> {
  let reason = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    console.log(`\n== ${unitName(unit)}${attempt > 1 ? ' (again: the first attempt failed for our reasons)' : ''}`);
    try {
      await allOrNothing(() => runSteps(unit));
      return { unit, moved: true };
    } catch (error) {
      reason = (error as Error).message;
      console.error(`refresh: ${unitName(unit)}: ${reason}; its files are as they were`);
      const step = error instanceof StepError ? error.step : undefined;
      if (step?.kind !== 'capture') continue;
      try {
        const said = await recordUnrunnable(step.agent, step.to);
        if (said !== undefined) return { unit, moved: false, by: 'release', release: step.to, said, recorded: true };
      } catch (recordError) {
        reason = `${reason}; ${(recordError as Error).message}`;
      }
    }
  }
  return { unit, moved: false, by: 'ours', reason };
}

/**
 * A stop (Ctrl-C, a cancelled job, a closed terminal): every step's process group is stopped,
 * then the processes the CLIs left in the run folders, then the unit's files are put back, so
 * the tree is as it was before the unit began (units already finished stay, each valid).
 */
function stopNow(signal: NodeJS.Signals): never {
  console.error(`\nrefresh: ${signal}: stopping the running step and restoring the tree`);
  const stopped = stopChildren();
  killRunningIn(runFolders(CACHE_ROOT));
  if (active) active.rollback();
  else restoreInterrupted(ROOT, WRITES); // a save that was never completed is removed
  console.error(
    `refresh: stopped (${stopped.length} step process group${stopped.length === 1 ? '' : 's'} ended); content/ and ` +
      `scripts/pins.json are as they were before the unit that was running`,
  );
  process.exit(signalExitCode(signal));
}

/** With nothing new upstream: the notes, and the archive a run that failed half-way may still owe. */
async function nothingNew(argv: readonly string[], recorded: readonly string[]): Promise<number> {
  for (const line of [...recorded, ...unpublishedBundles()]) console.log(`note: ${line}`);
  if (!contentChanged(ROOT)) {
    console.log('Nothing new: no download, no file written.');
    return 0;
  }
  // A run that failed half-way left content that moved: archive what it stopped publishing (not on a dry run, which
  // writes nothing).
  if (argv.includes('--dry-run')) {
    console.log(
      'Nothing new upstream; the content differs from HEAD, so a run would archive the versioned export files it ' +
        'no longer publishes.',
    );
    return 0;
  }
  const published = await committedExports(ROOT);
  const archived = await allOrNothing(() => archiveVanished(ROOT, published, today()));
  console.log(
    `Nothing new upstream; ${archived.length} versioned export files that the changed content no longer publishes ` +
      `archived (content/archive/).`,
  );
  return 0;
}

/** Restores what an interrupted refresh left; says whether that was all there was to do (--restore). */
function restoreFirst(argv: readonly string[]): boolean {
  if (restoreInterrupted(ROOT, WRITES))
    console.log(`restored content/ and scripts/pins.json from an interrupted refresh (${STAGING}/)`);
  if (!argv.includes('--restore')) return false;
  console.log('Nothing else done (--restore).');
  return true;
}

/** What refresh leaves alone, and the newest release of everything it follows against its pin. */
function printState(state: RefreshState): void {
  const skipped = notCovered(AGENT_IDS.filter((id) => id in state.clis));
  if (skipped.length > 0) console.log(`not covered by refresh:\n${skipped.map((s) => `  - ${s}`).join('\n')}`);
  console.log(
    'newest releases: ' +
      [
        ...Object.entries(state.types).map(([agent, v]) => [`${agent} types`, v] as const),
        ...Object.entries(state.clis),
      ]
        .map(([agent, v]) => `${agent} ${v.latest} (pinned ${v.pinned})`)
        .join('; '),
  );
}

/** Newer releases that are not tried, because their history records that they cannot run. */
function cannotRunNotes(state: RefreshState): string[] {
  return Object.entries(state.clis).flatMap(([agent, v]) =>
    v.cannotRun
      ? [
          `${agent} ${v.cannotRun} cannot run ` +
            `(${recordedFailure(historyReleases(`${agent}.capture`), v.cannotRun)}), as its history records; its pin ` +
            `stays at ${v.pinned}`,
        ]
      : [],
  );
}

/**
 * Runs every unit, then archives what the content no longer publishes. Versioned export paths published now keep
 * resolving: once the units have run, the files whose path the content no longer produces go to content/archive/.
 * "Published" is what the committed content publishes, so a run that fails half-way and is run again still knows it.
 */
async function runUnits(units: readonly RefreshUnit[]): Promise<{ outcomes: UnitOutcome[]; archived: string[] }> {
  const outcomes: UnitOutcome[] = [];
  for (const unit of units) outcomes.push(await runUnit(unit));
  // What HEAD publishes is read only when something moved: the units never change HEAD, and a run where nothing moved
  // has nothing to archive (loading the committed content costs seconds).
  const archived = outcomes.some((o) => o.moved || o.by === 'release')
    ? await allOrNothing(async () => archiveVanished(ROOT, await committedExports(ROOT), today()))
    : [];
  return { outcomes, archived };
}

/** What moved and what did not, the changes the histories gained, the archive, and the diff's statistics. */
function printSummary(
  outcomes: readonly UnitOutcome[],
  eventsBefore: Readonly<Record<string, number>>,
  archived: readonly string[],
  notes: readonly string[],
): void {
  console.log('\nsummary:');
  for (const line of outcomeLines(outcomes, describe)) console.log(`  - ${line}`);
  for (const [file, before] of Object.entries(eventsBefore)) {
    const line = eventCountLine(file, before, eventCount(file));
    if (line !== undefined) console.log(`  - ${line}`);
  }
  if (archived.length > 0)
    console.log(
      `  - ${archived.length} versioned export files archived (content/archive/): their paths keep resolving`,
    );
  for (const line of notes) console.log(`  - not run: ${line}`);
  const diff = spawnSync('git', ['diff', '--stat', '--', 'content', 'scripts/pins.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (diff.stdout) console.log(diff.stdout.trimEnd());
}

/** The last line: how long it took, how many units moved, and what to do next. */
function closingLine(outcomes: readonly UnitOutcome[], code: number, started: number): string {
  const moved = outcomes.filter((o) => o.moved).length;
  return (
    `took ${((Date.now() - started) / 1000).toFixed(0)} s; ${moved} of ${outcomes.length} ` +
    `unit${outcomes.length === 1 ? '' : 's'} moved.` +
    (code === 0
      ? moved > 0
        ? ' Next: npm test, then commit the content with the pins.'
        : ' Nothing could move: every release that is new cannot run, as recorded above.'
      : code === 2
        ? ' Some units failed for our reasons (above); the tree holds the units that moved, each checked. Next: ' +
          'npm test, then commit.'
        : ' Every unit failed for our reasons (above): nothing was written.')
  );
}

async function main(argv: string[]): Promise<number> {
  const started = Date.now();
  onStopSignal(stopNow);
  if (restoreFirst(argv)) return 0;
  await askPackages(plannedQuestions());
  const state = currentState();
  const steps = planRefresh(state);
  printState(state);
  const recorded = cannotRunNotes(state);
  if (steps.length === 0) return nothingNew(argv, recorded);
  const units = refreshUnits(steps, (agent) => Boolean(state.types[agent]?.withCli));
  console.log(
    `plan:\n` +
      units.map((u) => `  ${unitName(u)}:\n${u.steps.map((s) => `    - ${describe(s)}`).join('\n')}`).join('\n'),
  );
  if (argv.includes('--dry-run')) return 0;
  const eventsBefore = Object.fromEntries(Object.keys(state.histories).map((f) => [f, eventCount(f)]));
  const { outcomes, archived } = await runUnits(units);
  printSummary(outcomes, eventsBefore, archived, [...recorded, ...unpublishedBundles()]);
  const code = refreshExitCode(outcomes);
  console.log(closingLine(outcomes, code, started));
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`refresh: ${(error as Error).message}`);
    process.exit(1);
  },
);
