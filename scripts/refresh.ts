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
 * All or nothing (scripts/lib/refresh-transaction.ts): content/ and scripts/pins.json are
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
import { jsonText, replaceFile } from './lib/atomic-write.ts';
import { pinsWithVersion, readPins } from './lib/pins.ts';
import { latestVersion } from './lib/registry.ts';
import { agentPackages } from './lib/capture/install.ts';
import { newestRelease } from './lib/runnable-release.ts';
import { archiveVanished, committedExports, contentChanged } from './lib/archive.ts';
import { planRefresh, type RefreshState, type RefreshStep } from './lib/refresh-plan.ts';
import { beginTransaction, restoreInterrupted, STAGING } from './lib/refresh-transaction.ts';
import { loadContent } from '../src/lib/content/load.ts';
import type { AgentRecord, CaptureMatrixFile, HookCasesFile, PermissionCasesFile } from '../src/lib/core/content-types.ts';

const ROOT = join(import.meta.dirname, '..');
const PINS = join(ROOT, 'scripts/pins.json');
const MATRIX = join(ROOT, 'content/capture-matrix.json');
const HOOK_CASES = join(ROOT, 'content/hook-cases.json');
const PERMISSION_CASES = join(ROOT, 'content/permission-cases.json');
const HISTORY_DIR = join(ROOT, 'content/history');
const NODE = process.execPath;
/** Everything the steps may write, relative to ROOT: saved before the first step, restored on failure. */
const WRITES = ['content', 'scripts/pins.json'];


const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const today = () => new Date().toISOString().slice(0, 10);

/** The newest release a history file covers (its last release), if the file exists. */
function historyCovers(file: string): string | undefined {
  const path = join(HISTORY_DIR, `${file}.json`);
  if (!existsSync(path)) return undefined;
  const releases = readJson<{ releases: { version: string }[] }>(path).releases;
  return releases[releases.length - 1]?.version;
}

function eventCount(file: string): number {
  const path = join(HISTORY_DIR, `${file}.json`);
  return existsSync(path) ? readJson<{ events: unknown[] }>(path).events.length : 0;
}

/** Whether the agent's hook outputs are read from a package at this pin (its registry module's HookMechanism.outputs). */
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

function currentState(): RefreshState {
  const pins = readPins(PINS);
  const matrix = readJson<CaptureMatrixFile>(MATRIX);
  const types: RefreshState['types'] = {};
  for (const [agent, pin] of Object.entries(pins)) {
    const published = typesOf(agent);
    if (!published) throw new Error(`scripts/pins.json pins ${pin.package} for ${agent}, whose agent module names no script that reads it (publishedTypes)`);
    // Types released with the CLI follow its pin: the registry is not asked.
    types[agent] = published.withCli ? { pinned: pin.version, latest: pin.version, withCli: true } : { pinned: pin.version, latest: latestVersion(pin.package) };
  }
  const clis: RefreshState['clis'] = {};
  for (const [agent, entry] of Object.entries(matrix.agents)) {
    if (!entry) continue;
    const payloads = isAgentId(agent) && !('none' in AGENTS[agent].hooks);
    // The newest release that runs: the newest of the agent's packages' newest (a platform package can go on after its wrapper stops).
    const packages = isAgentId(agent) ? agentPackages(agent, entry.package) : [entry.package];
    clis[agent] = { pinned: entry.version, latest: newestRelease(packages.map(latestVersion)), ...(payloads ? { payloads } : {}) };
  }
  const histories: RefreshState['histories'] = {};
  // Only histories a script can extend: the others are named in notCovered() instead.
  for (const agent of Object.keys(types)) if (typesOf(agent)?.history) histories[`${agent}.sdk`] = historyCovers(`${agent}.sdk`);
  const withPlan = Object.keys(matrix.agents).filter((a) => isAgentId(a) && !('none' in AGENTS[a].captureHistory));
  for (const agent of withPlan) histories[`${agent}.capture`] = historyCovers(`${agent}.capture`);
  return { types, clis, histories };
}

function run(script: string, args: string[]): void {
  console.log(`\n$ node ${script} ${args.join(' ')}`);
  const result = spawnSync(NODE, [join(ROOT, script), ...args], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status ?? result.signal})`);
}

function perform(step: RefreshStep): void {
  switch (step.kind) {
    case 'ingest-types': {
      replaceFile(PINS, pinsWithVersion(readPins(PINS), step.agent, step.to, today()));
      run(typesOf(step.agent)!.ingest, []);
      if (hookOutputsRead(step.agent, 'ingest-pin')) run('scripts/hook-outputs.ts', ['--agent', step.agent]);
      return;
    }
    case 'capture': {
      const matrix = readJson<CaptureMatrixFile>(MATRIX);
      matrix.agents[step.agent] = { ...matrix.agents[step.agent]!, version: step.to, checked: today() };
      replaceFile(MATRIX, jsonText(matrix));
      run('scripts/capture.ts', ['--only', step.agent]);
      // The inventory is read from the pinned binary; the build refuses one for another release.
      if (isAgentId(step.agent) && !('none' in AGENTS[step.agent].inventory)) run('scripts/inventory.ts', ['--agent', step.agent]);
      return;
    }
    case 'payloads':
      // Scenarios run the release the capture matrix now pins; every payload file is written again,
      // and so is every hook behaviour record of the agent (content/hook-cases.json), if it has cases.
      run('scripts/payloads.ts', ['--only', step.agent]);
      if (Object.hasOwn(readJson<HookCasesFile>(HOOK_CASES).agents, step.agent)) run('scripts/hook-behaviour.ts', ['--only', step.agent]);
      // What its hooks may return, where read at the capture pin; and its cases over releases, where it has that history (earlier releases' runs are cached).
      if (hookOutputsRead(step.agent, 'capture-pin')) run('scripts/hook-outputs.ts', ['--agent', step.agent]);
      if (existsSync(join(ROOT, 'content/hook-behaviour-history', `${step.agent}.json`))) run('scripts/hook-behaviour-history.ts', ['--agent', step.agent]);
      // The tool sets of its built-in subagents, where its module names them.
      if (isAgentId(step.agent) && AGENTS[step.agent].subagents) run('scripts/subagents.ts', ['--only', step.agent]);
      // Its permission cases at the new pin, and its MCP tool name up to it (earlier releases' captures are cached).
      if (Object.hasOwn(readJson<PermissionCasesFile>(PERMISSION_CASES).agents, step.agent)) run('scripts/permissions.ts', ['--only', step.agent]);
      if (existsSync(join(ROOT, 'content/mcp-naming', `${step.agent}.json`))) run('scripts/mcp-naming-history.ts', ['--agent', step.agent]);
      return;
    case 'history': {
      const [agent, source] = step.file.split('.') as [string, string];
      if (source === 'sdk') run(typesOf(agent)!.history!, []);
      else run('scripts/history-captures.ts', ['--agent', agent]);
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
      return `history ${step.file} ${step.from ?? '(none)'} → ${step.to}`;
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
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => {
    const record = readJson<AgentRecord>(join(dir, f));
    if (record.bundledCli?.published !== false) return [];
    const types = record.sources[0];
    const captured = (matrix.agents as Record<string, { version: string } | undefined>)[record.id]?.version;
    return [
      `${record.product} ${record.version}, bundled by ${types ? `${types.package} ${types.version}` : 'its published types'}, is not published as ${record.bundledCli.package}` +
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

/**
 * Runs `write` with content/ and the pins saved; keeps what it wrote only when the new
 * content passes the build's validation and the pins read back, else restores both.
 */
async function allOrNothing<T>(write: () => Promise<T>): Promise<T> {
  const transaction = beginTransaction(ROOT, WRITES);
  try {
    const result = await write();
    readPins(PINS);
    loadContent({ root: ROOT });
    transaction.commit();
    return result;
  } catch (error) {
    transaction.rollback();
    throw new Error(`${(error as Error).message}\nnothing was written: content/ and scripts/pins.json are as they were before the run.`, { cause: error });
  }
}

async function main(argv: string[]): Promise<void> {
  const started = Date.now();
  if (restoreInterrupted(ROOT, WRITES)) console.log(`restored content/ and scripts/pins.json from an interrupted refresh (${STAGING}/)`);
  const state = currentState();
  const steps = planRefresh(state);
  const skipped = notCovered(AGENT_IDS.filter((id) => id in state.clis));
  if (skipped.length > 0) console.log(`not covered by refresh:\n${skipped.map((s) => `  - ${s}`).join('\n')}`);
  console.log(
    'newest releases: ' +
      [...Object.entries(state.types).map(([agent, v]) => [`${agent} types`, v] as const), ...Object.entries(state.clis)]
        .map(([agent, v]) => `${agent} ${v.latest} (pinned ${v.pinned})`)
        .join('; '),
  );
  if (steps.length === 0) {
    for (const line of unpublishedBundles()) console.log(`note: ${line}`);
    // A run that failed half-way left content that moved: archive what it stopped publishing.
    if (contentChanged(ROOT)) {
      const published = await committedExports(ROOT);
      const archived = await allOrNothing(() => archiveVanished(ROOT, published, today()));
      console.log(`Nothing new upstream; ${archived.length} versioned export files that the changed content no longer publishes archived (content/archive/).`);
      return;
    }
    console.log('Nothing new: no download, no file written.');
    return;
  }
  console.log(`plan:\n${steps.map((s) => `  - ${describe(s)}`).join('\n')}`);
  if (argv.includes('--dry-run')) return;
  const before = Object.fromEntries(Object.keys(state.histories).map((f) => [f, eventCount(f)]));
  // Versioned export paths published now keep resolving: once every step has run, the files
  // whose path the content no longer produces go to content/archive/. "Published" is what the
  // committed content publishes, so a run that fails half-way and is run again still knows it.
  const published = await committedExports(ROOT);
  const archived = await allOrNothing(async () => {
    for (const step of steps) perform(step);
    return archiveVanished(ROOT, published, today());
  });
  console.log('\nsummary:');
  for (const step of steps) console.log(`  - ${describe(step)}`);
  for (const file of Object.keys(state.histories)) {
    const added = eventCount(file) - (before[file] ?? 0);
    if (added !== 0) console.log(`  - ${file}: ${added} new change${added === 1 ? '' : 's'}`);
  }
  if (archived.length > 0) console.log(`  - ${archived.length} versioned export files archived (content/archive/): their paths keep resolving`);
  for (const line of unpublishedBundles()) console.log(`  - not run: ${line}`);
  const diff = spawnSync('git', ['diff', '--stat', '--', 'content', 'scripts/pins.json'], { cwd: ROOT, encoding: 'utf8' });
  if (diff.stdout) console.log(diff.stdout.trimEnd());
  console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s. Next: npm test, then commit the content with the pins.`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`refresh: ${(error as Error).message}`);
  process.exit(1);
});
