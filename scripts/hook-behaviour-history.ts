/**
 * npm run hook-behaviour-history — the agent's hook behaviour cases over its releases: every
 * `step`-th of its last `last` stable releases up to the pin and both ends are read first,
 * then wherever two readings behave differently the release halfway between them is read,
 * until each change lies between two adjacent releases (scripts/lib/capture-history/planner.ts).
 * A release runs every case of the agent (`npm run hook-behaviour -- --release V`); the pin's
 * outcomes are the committed records. Writes content/hook-behaviour-history/<agent>.json.
 *
 *   node scripts/hook-behaviour-history.ts --agent ID [--last N] [--step S] [--check]
 *
 * Needs root (the runs do). Each release's records are kept under
 * $CAPTURE_CACHE_DIR/history/hook-behaviour/<agent>/<version>/ and reused; a release that
 * cannot run keeps why, in the CLI's or npm's words, as every case's outcome.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import { compareVersions } from '../src/lib/core/version-order.ts';
import { jsonText, replaceFile } from './lib/system/atomic-write.ts';
import { schemaAjv, schemaRefusal } from './lib/capture/ajv.ts';
import { loadMatrix } from './lib/capture/matrix.ts';
import { unpublishedNumbers } from './lib/history/releases.ts';
import { loadHookCases, selectHookCases } from './lib/hook-behaviour/cases.ts';
import {
  behaviourHistory,
  caseOutcome,
  failedOutcome,
  massChanges,
  RELEASE_CANNOT_RUN,
  releasesBehaveAlike,
  type CaseOutcome,
  type ReleaseOutcomes,
} from './lib/hook-behaviour/history.ts';
import {
  agentReleases,
  CACHE_ROOT,
  cannotRun,
  locateSettled,
  OurFailure,
  type Plan,
  releaseReadings,
  runScript,
  runUnlessOurs,
} from './lib/releases/driver.ts';

const ROOT = join(import.meta.dirname, '..');
const RUNNER = join(ROOT, 'scripts/hook-behaviour.ts');
const RUNS = join(CACHE_ROOT, 'history', 'hook-behaviour');
const OUT_DIR = join(ROOT, 'content/hook-behaviour-history');
const SCHEMA = 'schemas/hook-behaviour-history.schema.json';
const USAGE = 'node scripts/hook-behaviour-history.ts --agent ID [--last N] [--step S] [--check]';

interface Options {
  agent: AgentId;
  last: number;
  step: number;
  check: boolean;
}

function fail(message: string): never {
  console.error(`hook-behaviour-history: ${message}`);
  process.exit(1);
}

function parseArgs(argv: readonly string[]): Options {
  let agent: string | undefined;
  let last = 20;
  let step = 1;
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const number = (): number => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) fail(`${a} needs a positive whole number`);
      return n;
    };
    if (a === '--agent') agent = argv[++i];
    else if (a === '--last') last = number();
    else if (a === '--step') step = number();
    else if (a === '--check') check = true;
    else if (a === '--help' || a === '-h') {
      console.log(`usage: ${USAGE}`);
      process.exit(0);
    } else fail(`unknown argument ${a} (usage: ${USAGE})`);
  }
  if (agent === undefined || !isAgentId(agent)) fail(`--agent needs an agent id (usage: ${USAGE})`);
  return { agent, last, step, check };
}

/** The outcomes of a folder of records and of a failures file (`agent/case` → reason), by case id. */
function outcomesIn(dir: string, failures: string | undefined, agent: AgentId): Map<string, CaseOutcome> {
  const out = new Map<string, CaseOutcome>();
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    if (name === 'failures.json' || !name.endsWith('.json')) continue;
    const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Parameters<typeof caseOutcome>[0] & {
      case: string;
    };
    out.set(record.case, caseOutcome(record));
  }
  if (failures !== undefined && existsSync(failures)) {
    for (const [key, reason] of Object.entries(JSON.parse(readFileSync(failures, 'utf8')) as Record<string, string>))
      out.set(key.slice(`${agent}/`.length), failedOutcome(reason));
  }
  return out;
}

/**
 * Runs the agent's cases at `version` into the run cache (once), or records why it cannot run.
 * Only a release that cannot run for its own reasons (the runner's RELEASE_CANNOT_RUN) is
 * recorded so; any other failure (a crash of the runner, a limit, the network) is run once more
 * and then stops the history, cached nowhere (the release driver's `runUnlessOurs`): "Node.js v24…" is never a
 * release's outcome.
 */
function runRelease(agent: AgentId, version: string, caseIds: readonly string[]): string {
  const dir = join(RUNS, agent, version);
  if (existsSync(join(dir, 'failures.json'))) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  console.log(`  ${version}: running ${caseIds.length} case(s)`);
  const runOnce = () => {
    rmSync(partial, { recursive: true, force: true });
    return runScript(RUNNER, ['--only', agent, '--release', version, '--out', partial], {
      timeoutMs: (caseIds.length * 120 + 900) * 1000,
      isolated: false,
      releaseExit: RELEASE_CANNOT_RUN,
      prefix: /^hook-behaviour: /,
    });
  };
  let result: ReturnType<typeof runUnlessOurs>;
  try {
    result = runUnlessOurs(`${agent} ${version}`, runOnce, (line) => console.log(`  ${line}`));
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (error instanceof OurFailure) fail(`${error.message}. Nothing was cached or written.`);
    throw error;
  }
  if (!result.ok) {
    // The release cannot run: every case keeps why, in its words.
    const reason = cannotRun(result.said);
    replaceFile(
      join(partial, 'failures.json'),
      jsonText(Object.fromEntries(caseIds.map((id) => [`${agent}/${id}`, reason]))),
    );
  }
  mkdirSync(join(RUNS, agent), { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return dir;
}

/** One release's outcomes: the pin's are its committed records, any other's are run (once) into the run cache. */
function releaseOutcomes(o: Options, version: string, pin: string, caseIds: readonly string[]): ReleaseOutcomes {
  // The runner writes records under <agent>/ of its --out folder, failures.json beside that.
  const run = version === pin ? undefined : runRelease(o.agent, version, caseIds);
  const cases =
    run === undefined
      ? outcomesIn(join(ROOT, 'content/hook-behaviour', o.agent), undefined, o.agent)
      : outcomesIn(join(run, o.agent), join(run, 'failures.json'), o.agent);
  return { version, cases };
}

/**
 * Reads the releases the plan needs (scripts/lib/capture-history/planner.ts) and the spans and
 * changes over them. Many cases changing at once between two releases is confirmed by a fresh
 * run of both before it stands (a crash or a limit of ours once read as every case failing);
 * a fresh run that behaves otherwise replaces the cached one.
 */
async function readOverReleases(o: Options, listed: readonly string[], pin: string, caseIds: readonly string[]) {
  const readings = releaseReadings((i) => releaseOutcomes(o, listed[i]!, pin, caseIds));
  const historyOver = (plan: Plan) => {
    const read = plan.read.map((i) => readings.read(i));
    return { readings: read, ...behaviourHistory(read, listed) };
  };
  const fresh = new Set<string>();
  const doubt = (plan: Plan): boolean => {
    const { changes } = historyOver(plan);
    const suspects = massChanges(changes, caseIds.length);
    const doubted = suspects.flat().filter((v) => !fresh.has(v));
    for (const version of new Set(doubted)) {
      fresh.add(version);
      if (version === pin) continue; // the pin's records are the committed ones, run by npm run hook-behaviour
      console.log(
        `  ${version}: ${changes.filter((c) => c.between.includes(version)).length} cases change at once beside ` +
          `it; running it again to confirm`,
      );
      rmSync(join(RUNS, o.agent, version), { recursive: true, force: true });
      readings.forget(listed.indexOf(version));
    }
    return doubted.length > 0;
  };
  const differs = (a: number, b: number) => !releasesBehaveAlike(readings.read(a), readings.read(b));
  return historyOver(await locateSettled(listed.length, o.step, differs, doubt));
}

async function main(o: Options): Promise<number> {
  if (process.getuid?.() !== 0) fail('the cases run inside a network namespace, which needs root');
  const matrix = loadMatrix(ROOT);
  const { package: pkg, version: pin } = matrix.agents[o.agent];
  const caseIds = selectHookCases(loadHookCases(ROOT, matrix), [o.agent]).map((c) => c.case.id);
  if (caseIds.length === 0) fail(`content/hook-cases.json has no case for ${o.agent}`);
  // A capture history that starts at a release (its module's `startsAt` says why the ones before cannot be run against
  // the stub) bounds this history too: an earlier release failing our invocation is not its hook behaviour.
  const plan = AGENTS[o.agent].captureHistory;
  const from = 'none' in plan || !('from' in plan.range) ? undefined : plan.range.from;
  const listed = agentReleases(o.agent, pkg, { to: pin, last: o.last }).filter(
    (v) => from === undefined || compareVersions(v, from) >= 0,
  );
  console.log(
    `${o.agent}: ${caseIds.length} case(s) over ${listed.length} release(s) ${listed[0]} … ${listed.at(-1)} ` +
      `(step ${o.step})`,
  );
  const { readings, spans, changes } = await readOverReleases(o, listed, pin, caseIds);
  const file = {
    agent: o.agent,
    package: pkg,
    pin,
    method:
      `The agent's ${caseIds.length} hook behaviour cases (content/hook-cases.json) run at ` +
      `${o.step === 1 ? 'each' : `every ${o.step}th and both ends`} of its last ${listed.length} stable ` +
      `releases up to the pin, then bisected wherever two readings differed, until each change lies between ` +
      `adjacent releases. The pin's outcomes are its committed records. An outcome is what the hook ` +
      `answered, whether the tool's side effect happened, what the model was sent next and the CLI's exit; ` +
      `hook payload members are the payload history's.`,
    releases: listed,
    read: readings.map((r) => r.version),
    unpublished: unpublishedNumbers(listed),
    cases: spans,
    changes,
  };
  const validate = schemaAjv().compile(JSON.parse(readFileSync(join(ROOT, SCHEMA), 'utf8')) as object);
  if (!validate(file)) fail(schemaRefusal('the history', SCHEMA, validate.errors));
  const path = join(OUT_DIR, `${o.agent}.json`);
  const text = jsonText(file);
  if (o.check) {
    const same = existsSync(path) && readFileSync(path, 'utf8') === text;
    console.log(same ? `\n${path} is identical` : `\n${path} differs`);
    return same ? 0 : 1;
  }
  replaceFile(path, text);
  console.log(`\nwrote ${path}: ${readings.length} of ${listed.length} releases read, ${changes.length} change(s)`);
  for (const c of changes) console.log(`  ${c.case}: between ${c.between[0]} and ${c.between[1]}`);
  return 0;
}

process.exitCode = await main(parseArgs(process.argv.slice(2)));
