/**
 * npm run refresh — moves the site to the newest published upstream releases, in one run:
 *
 *   1. asks the npm registry for the newest release of the SDK and of each CLI of the
 *      capture matrix (`npm view <package> version`);
 *   2. a newer SDK: sets the pin in scripts/pins.json (without its integrity, which the
 *      ingest records) and runs the ingest (content/tools/, content/agents/);
 *   3. a newer CLI: sets its release in content/capture-matrix.json, captures that
 *      agent's configurations (needs root: `unshare -n`) and reads its tool inventory;
 *   4. extends every history file that is behind its pin by the new releases only
 *      (scripts/history-claude-sdk.ts, scripts/history-captures.ts);
 *   5. prints what changed.
 *
 * With nothing new it downloads nothing and writes nothing. `--dry-run` prints the plan.
 * Each step's script writes atomically; a failing step stops the run, and the files of the
 * steps before it stay as they were written (run `git diff` to see them).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS, isAgentId } from '../src/lib/agents/index.ts';
import { jsonText, replaceFile } from './lib/atomic-write.ts';
import { planRefresh, type RefreshState, type RefreshStep } from './lib/refresh-plan.ts';

const ROOT = join(import.meta.dirname, '..');
const PINS = join(ROOT, 'scripts/pins.json');
const MATRIX = join(ROOT, 'content/capture-matrix.json');
const HISTORY_DIR = join(ROOT, 'content/history');
const NODE = process.execPath;
const REGISTRY_TIMEOUT_MS = 60_000;

interface Pins {
  'claude-code': { sdkPackage: string; sdkVersion: string; sdkIntegrity?: string; checked: string };
}
interface Matrix {
  agents: Record<string, { package: string; version: string; checked: string }>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const today = () => new Date().toISOString().slice(0, 10);

function latestVersion(pkg: string): string {
  const result = spawnSync('npm', ['view', pkg, 'version'], { encoding: 'utf8', timeout: REGISTRY_TIMEOUT_MS });
  const version = result.stdout.trim();
  if (result.status !== 0 || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`could not read the newest release of ${pkg} from the registry: ${(result.stderr || result.error?.message || version).trim()}`);
  }
  return version;
}

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

function currentState(): RefreshState {
  const pins = readJson<Pins>(PINS);
  const matrix = readJson<Matrix>(MATRIX);
  const sdk = pins['claude-code'];
  const clis: RefreshState['clis'] = {};
  for (const [agent, entry] of Object.entries(matrix.agents)) clis[agent] = { pinned: entry.version, latest: latestVersion(entry.package) };
  const histories: RefreshState['histories'] = {};
  // Only histories a script can extend: an agent without a capture-history plan is named in notCovered() instead.
  const withPlan = Object.keys(matrix.agents).filter((a) => isAgentId(a) && !('none' in AGENTS[a].captureHistory));
  for (const file of ['claude-code.sdk', ...withPlan.map((a) => `${a}.capture`)]) histories[file] = historyCovers(file);
  return { sdk: { pinned: sdk.sdkVersion, latest: latestVersion(sdk.sdkPackage) }, clis, histories };
}

function run(script: string, args: string[]): void {
  console.log(`\n$ node ${script} ${args.join(' ')}`);
  const result = spawnSync(NODE, [join(ROOT, script), ...args], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status ?? result.signal}); the steps before it are kept, see git diff`);
}

function perform(step: RefreshStep): void {
  switch (step.kind) {
    case 'ingest-sdk': {
      const pins = readJson<Pins>(PINS);
      const { sdkIntegrity: _old, ...entry } = pins['claude-code'];
      replaceFile(PINS, jsonText({ ...pins, 'claude-code': { ...entry, sdkVersion: step.to, checked: today() } }));
      run('scripts/ingest-claude-sdk.ts', []);
      return;
    }
    case 'capture': {
      const matrix = readJson<Matrix>(MATRIX);
      matrix.agents[step.agent] = { ...matrix.agents[step.agent]!, version: step.to, checked: today() };
      replaceFile(MATRIX, jsonText(matrix));
      run('scripts/capture.ts', ['--only', step.agent]);
      // The inventory is read from the pinned binary; the build refuses one for another release.
      if (isAgentId(step.agent) && !('none' in AGENTS[step.agent].inventory)) run('scripts/inventory.ts', ['--agent', step.agent]);
      return;
    }
    case 'history': {
      const [agent, source] = step.file.split('.') as [string, string];
      if (source === 'sdk') run('scripts/history-claude-sdk.ts', []);
      else run('scripts/history-captures.ts', ['--agent', agent]);
      return;
    }
  }
}

function describe(step: RefreshStep): string {
  switch (step.kind) {
    case 'ingest-sdk':
      return `SDK types ${step.from} → ${step.to}`;
    case 'capture':
      return `capture ${step.agent} ${step.from} → ${step.to}`;
    case 'history':
      return `history ${step.file} ${step.from ?? '(none)'} → ${step.to}`;
  }
}

/** What refresh leaves alone for lack of a script, with each agent module's reason. */
function notCovered(agents: string[]): string[] {
  return agents.filter(isAgentId).flatMap((id) => {
    const { captureHistory, inventory } = AGENTS[id];
    return [...('none' in captureHistory ? [`${id} capture history: ${captureHistory.none}`] : []), ...('none' in inventory ? [`${id} inventory: ${inventory.none}`] : [])];
  });
}

function main(argv: string[]): void {
  const started = Date.now();
  const state = currentState();
  const steps = planRefresh(state);
  const skipped = notCovered(Object.keys(state.clis));
  if (skipped.length > 0) console.log(`not covered by refresh:\n${skipped.map((s) => `  - ${s}`).join('\n')}`);
  console.log(
    `newest releases: SDK ${state.sdk.latest} (pinned ${state.sdk.pinned}); ` +
      Object.entries(state.clis)
        .map(([agent, v]) => `${agent} ${v.latest} (pinned ${v.pinned})`)
        .join('; '),
  );
  if (steps.length === 0) {
    console.log('Nothing new: no download, no file written.');
    return;
  }
  console.log(`plan:\n${steps.map((s) => `  - ${describe(s)}`).join('\n')}`);
  if (argv.includes('--dry-run')) return;
  const before = Object.fromEntries(Object.keys(state.histories).map((f) => [f, eventCount(f)]));
  for (const step of steps) perform(step);
  console.log('\nsummary:');
  for (const step of steps) console.log(`  - ${describe(step)}`);
  for (const file of Object.keys(state.histories)) {
    const added = eventCount(file) - (before[file] ?? 0);
    if (added !== 0) console.log(`  - ${file}: ${added} new change${added === 1 ? '' : 's'}`);
  }
  const diff = spawnSync('git', ['diff', '--stat', '--', 'content', 'scripts/pins.json'], { cwd: ROOT, encoding: 'utf8' });
  if (diff.stdout) console.log(diff.stdout.trimEnd());
  console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s. Next: npm test, then commit the content with the pins.`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(`refresh: ${(error as Error).message}`);
  process.exit(1);
}
