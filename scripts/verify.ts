/**
 * npm run verify — the project re-checks itself: a seeded random sample of the published
 * facts is re-run independently and each is said to be confirmed, contradicted, or not
 * runnable.
 *
 *   node scripts/verify.ts [--seed N] [--events N] [--payloads N] [--cases N] [--agent ID]...
 *        [--permissions N] [--captures N] [--report FILE] [--out DIR] [--minutes N] [--dry-run]
 *
 *   --seed      the sample's seed (default: a random one, printed so the run can be repeated)
 *   --events    history events to check (default 20), spread across the agents
 *   --payloads  payload scenarios to re-record (default 8), spread across the agents
 *   --cases     hook behaviour cases to re-record (default 6), spread across the agents
 *   --permissions  permission cases to re-record (default 6), spread across the agents
 *   --captures  pinned configurations to capture again (default 6), spread across the agents
 *   --event     agent/release/configuration: check every history event of that release and
 *               configuration instead of drawing --events (repeatable; e.g. a mass change)
 *   --agent     draw only from this agent (repeatable; default every agent)
 *   --report    also write the Markdown report to FILE (it is always written to the
 *               evidence folder as report.md)
 *   --out       the evidence folder (default $CAPTURE_CACHE_DIR/verify/<timestamp>/,
 *               $CAPTURE_CACHE_DIR defaulting to /work/cache)
 *   --minutes   time budget (default 120): what has not started by then could not run
 *   --dry-run   print the sample and stop
 *
 * History events (content/history/<agent>.capture.json): the event's release and its
 * `previous` are installed with npm into fresh folders (a throwaway npm cache, not the
 * history's cache), the event's configuration is captured in both the way the history does
 * (scripts/lib/capture: same runner, same capture file, one retry) inside a network
 * namespace that has only loopback, and the event's claim is checked against the two fresh
 * captures by scripts/lib/verify/claims.ts, which reads the tools through the wire format
 * modules and the schemas by itself (never through the history's diff).
 *
 * Payload scenarios (content/scenarios.json): re-recorded by `scripts/payloads.ts --only
 * <scenario> --out <folder>` at the pinned release, and the new file compared with
 * content/payloads/ text for text (key order included; both went through the same masking).
 * Hook behaviour cases (content/hook-cases.json): the same, with `scripts/hook-behaviour.ts`
 * and content/hook-behaviour/. Permission cases (content/permission-cases.json): the same, with
 * `scripts/permissions.ts` and content/permissions/. Pinned configurations (content/capture-matrix.json): the same,
 * with `scripts/capture.ts` and content/captures/, so an agent without a history or hooks is sampled too.
 *
 * Prints one line per fact with its evidence (the fresh files, kept in the evidence folder),
 * and the counts. Exits 1 when any fact is contradicted; a fact that could not run is
 * reported and counted, not a contradiction. Needs root, for `unshare -n`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { HistoryFile } from '../src/lib/core/content-types.ts';
import { loadMatrix, selectConfigurations, type Matrix } from './lib/capture/matrix.ts';
import { NamespaceError } from './lib/capture/namespace.ts';
import { loadHookCases, selectHookCases, type SelectedCase } from './lib/hook-behaviour/cases.ts';
import { loadScenarios, selectScenarios, type SelectedScenario } from './lib/payloads/scenarios.ts';
import { loadPermissionCases, selectPermissionCases, type SelectedPermissionCase } from './lib/permissions/cases.ts';
import { eventLabel } from './lib/verify/claims.ts';
import { type SampledEvent, verifyEvents } from './lib/verify/events.ts';
import { fail, type Options, parseArgs } from './lib/verify/options.ts';
import {
  CAPTURE_RECORDER,
  CASE_RECORDER,
  PAYLOAD_RECORDER,
  PERMISSION_RECORDER,
  verifyRecords,
  type Rerecordable,
} from './lib/verify/records.ts';
import { captureInside, type VerifyRun } from './lib/verify/release-captures.ts';
import { countLine, counts, factLines, markdownReport, type Fact } from './lib/verify/report.ts';
import { drawSample } from './lib/verify/sample.ts';

const ROOT = join(import.meta.dirname, '..');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';

/**
 * What one run checks: history events, and the payload scenarios, hook cases, permission cases and pinned
 * configurations it re-records.
 */
interface Sample {
  events: SampledEvent[];
  payloads: SelectedScenario[];
  cases: SelectedCase[];
  permissions: SelectedPermissionCase[];
  captures: Rerecordable[];
}

/** Every configuration the matrix pins, as `capture --only <agent/id>` takes it and content/captures/ files it. */
function pinnedConfigurations(matrix: Matrix): (Rerecordable & { agent: AgentId })[] {
  return selectConfigurations(matrix, []).map(({ agent, configuration }) => ({
    agent,
    key: `${agent}/${configuration.id}`,
    file: `${agent}/${configuration.id}.json`,
  }));
}

function loadHistories(agents: readonly AgentId[]): Map<AgentId, HistoryFile> {
  const out = new Map<AgentId, HistoryFile>();
  for (const agent of agents) {
    const file = join(ROOT, 'content/history', `${agent}.capture.json`);
    if (existsSync(file)) out.set(agent, JSON.parse(readFileSync(file, 'utf8')) as HistoryFile);
  }
  return out;
}

/** Every event each `agent/release/configuration` names; one that names none stops the run. */
function pickedEvents(picks: readonly string[], histories: ReadonlyMap<AgentId, HistoryFile>): SampledEvent[] {
  return picks.flatMap((pick) => {
    const [agent, release, configuration] = pick.split('/');
    const history = agent !== undefined && isAgentId(agent) ? histories.get(agent) : undefined;
    if (!history) fail(`--event ${pick}: no capture history of ${agent} (give agent/release/configuration)`);
    const events = history.events.filter((e) => e.release === release && e.configuration === configuration);
    if (events.length === 0) fail(`--event ${pick}: ${agent}'s history has no event of ${release} in ${configuration}`);
    return events.map((event) => ({ agent: agent as AgentId, event, history }));
  });
}

/** Items grouped by their agent, for a sample spread across the agents. */
function byAgent<T extends { agent: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(item.agent, [...(out.get(item.agent) ?? []), item]);
  return out;
}

/**
 * The seeded sample: the picked events or drawn ones, then the re-recorded kinds, each drawn from its own stream of
 * the seed so that one size does not move another's sample.
 */
function drawFacts(o: Options, matrix: Matrix): Sample {
  const histories = loadHistories(o.agents);
  const eventsByAgent = new Map([...histories].map(([a, h]) => [a as string, h.events]));
  const ours = <T extends { agent: AgentId }>(items: readonly T[]) => items.filter((x) => o.agents.includes(x.agent));
  const scenarios = ours(selectScenarios(loadScenarios(ROOT, matrix), []));
  const events =
    o.pick.length > 0
      ? pickedEvents(o.pick, histories)
      : drawSample(eventsByAgent, o.events, o.seed).map(({ agent, item }) => ({
          agent: agent as AgentId,
          event: item,
          history: histories.get(agent as AgentId)!,
        }));
  const hookCases = ours(selectHookCases(loadHookCases(ROOT, matrix), []));
  const permissionCases = ours(selectPermissionCases(loadPermissionCases(ROOT, matrix), []));
  return {
    events,
    payloads: drawSample(byAgent(scenarios), o.payloads, o.seed ^ 0x5bd1e995).map(({ item }) => item),
    cases: drawSample(byAgent(hookCases), o.cases, o.seed ^ 0x27d4eb2f).map(({ item }) => item),
    permissions: drawSample(byAgent(permissionCases), o.permissions, o.seed ^ 0x165667b1).map(({ item }) => item),
    captures: drawSample(byAgent(ours(pinnedConfigurations(matrix))), o.captures, o.seed ^ 0x3c6ef372).map(
      ({ item }) => item,
    ),
  };
}

const sampleCounts = (s: Sample): string =>
  `${s.events.length} history event(s), ${s.payloads.length} payload scenario(s), ${s.cases.length} hook case(s), ` +
  `${s.permissions.length} permission case(s), ${s.captures.length} pinned configuration(s)`;

function printSample(s: Sample): void {
  for (const { agent, event } of s.events) console.log(`  event    ${eventLabel(agent, event)}`);
  for (const p of s.payloads) console.log(`  payload  ${p.key}`);
  for (const c of s.cases) console.log(`  case     ${c.key}`);
  for (const c of s.permissions) console.log(`  permission ${c.key}`);
  for (const c of s.captures) console.log(`  capture  ${c.key}`);
}

/** Each CLI runs in a network namespace with only loopback: refuses to start where that cannot be made. */
function checkCanRun(): void {
  if (process.platform !== 'linux') fail('runs only on Linux (network namespaces)');
  if (process.getuid?.() !== 0)
    fail('must run as root: each CLI runs inside a network namespace with only loopback (`unshare -n`)');
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    fail(
      `\`unshare -n\` failed; refusing to run the CLIs ` +
        `(${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}`)})`,
    );
}

/** The command that draws the same sample again. */
function repeatCommand(o: Options): string {
  const agentArgs = o.agents.length === AGENT_IDS.length ? '' : o.agents.map((a) => ` --agent ${a}`).join('');
  return (
    `npm run verify -- --seed ${o.seed} --events ${o.events} --payloads ${o.payloads} --cases ${o.cases} ` +
    `--permissions ${o.permissions} --captures ${o.captures}${o.pick.map((p) => ` --event ${p}`).join('')}${agentArgs}`
  );
}

/** Every fact of the sample, checked in turn within the time budget. */
async function checkFacts(sample: Sample, matrix: Matrix, run: VerifyRun): Promise<Fact[]> {
  return [
    ...(await verifyEvents(sample.events, matrix, run)),
    ...(await verifyRecords(PAYLOAD_RECORDER, sample.payloads, run)),
    ...(await verifyRecords(CASE_RECORDER, sample.cases, run)),
    ...(await verifyRecords(PERMISSION_RECORDER, sample.permissions, run)),
    ...(await verifyRecords(CAPTURE_RECORDER, sample.captures, run)),
  ];
}

/** Prints the results and writes the report to the evidence folder (and to --report); the exit code. */
function report(o: Options, sample: Sample, facts: Fact[], folder: string, started: number): number {
  const summary = {
    seed: o.seed,
    events: sample.events.length,
    payloads: sample.payloads.length,
    cases: sample.cases.length,
    permissions: sample.permissions.length,
    captures: sample.captures.length,
    folder,
    repeat: repeatCommand(o),
    seconds: Math.round((Date.now() - started) / 1000),
  };
  console.log('\n== verify: results');
  for (const f of facts) console.log(factLines(f).join('\n'));
  console.log(`\n${countLine(facts)}`);
  const markdown = markdownReport(summary, facts);
  writeFileSync(join(folder, 'report.md'), markdown);
  if (o.report) {
    mkdirSync(join(o.report, '..'), { recursive: true });
    writeFileSync(o.report, markdown);
  }
  console.log(`report: ${join(folder, 'report.md')}${o.report ? ` and ${o.report}` : ''}`);
  return counts(facts).contradicted > 0 ? 1 : 0;
}

async function outside(o: Options): Promise<number> {
  if (!o.dryRun) checkCanRun();
  const started = Date.now();
  const matrix = loadMatrix(ROOT);
  const sample = drawFacts(o, matrix);
  if (o.dryRun) {
    console.log(`verify: seed ${o.seed}: ${sampleCounts(sample)}`);
    printSample(sample);
    return 0;
  }
  const stamp = new Date(started).toISOString().replace(/[:.]/g, '-');
  const folder = o.out ?? join(CACHE_ROOT, 'verify', stamp);
  mkdirSync(folder, { recursive: true });
  console.log(`verify: seed ${o.seed} (repeat with: ${repeatCommand(o)})`);
  console.log(`verify: evidence folder ${folder}`);
  console.log(`verify: ${sampleCounts(sample)}; time budget ${o.minutes} min`);
  printSample(sample);
  const run: VerifyRun = { root: ROOT, cacheRoot: CACHE_ROOT, folder, deadline: started + o.minutes * 60_000 };
  return report(o, sample, await checkFacts(sample, matrix, run), folder, started);
}

const options = parseArgs(process.argv.slice(2));
try {
  if (options.inside) await captureInside(options.inside, ROOT);
  else process.exitCode = await outside(options);
} catch (error) {
  if (error instanceof NamespaceError) fail(error.message);
  throw error;
}
