/**
 * npm run verify — the project re-checks itself: a seeded random sample of the published
 * facts is re-run independently and each is said to be confirmed, contradicted, or not
 * runnable.
 *
 *   node scripts/verify.ts [--seed N] [--events N] [--payloads N] [--cases N] [--agent ID]...
 *        [--permissions N] [--report FILE] [--out DIR] [--minutes N] [--dry-run]
 *
 *   --seed      the sample's seed (default: a random one, printed so the run can be repeated)
 *   --events    history events to check (default 20), spread across the agents
 *   --payloads  payload scenarios to re-record (default 8), spread across the agents
 *   --cases     hook behaviour cases to re-record (default 6), spread across the agents
 *   --permissions  permission cases to re-record (default 6), spread across the agents
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
 * `scripts/permissions.ts` and content/permissions/.
 *
 * Prints one line per fact with its evidence (the fresh files, kept in the evidence folder),
 * and the counts. Exits 1 when any fact is contradicted; a fact that could not run is
 * reported and counted, not a contradiction. Needs root, for `unshare -n`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { AGENT_IDS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { HistoryEvent, HistoryFile } from '../src/lib/core/content-types.ts';
import type { CaptureFile } from '../src/lib/wire/index.ts';
import { jsonText } from './lib/system/atomic-write.ts';
import { buildCapture } from './lib/capture/capture-file.ts';
import { ensureInstalled, InstallError } from './lib/capture/install.ts';
import { loadMatrix, type Matrix } from './lib/capture/matrix.ts';
import { lockRunFolder, NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { DEFAULT_TIMEOUT_SECONDS, runConfiguration, type RunPaths } from './lib/capture/runner.ts';
import { loadScenarios, selectScenarios, type SelectedScenario } from './lib/payloads/scenarios.ts';
import { loadHookCases, selectHookCases, type SelectedCase } from './lib/hook-behaviour/cases.ts';
import { loadPermissionCases, selectPermissionCases, type SelectedPermissionCase } from './lib/permissions/cases.ts';
import { checkEvent, eventLabel, readTools } from './lib/verify/claims.ts';
import { compareJsonTexts } from './lib/verify/compare-json.ts';
import { countLine, counts, factLines, markdownReport, type Blame, type Fact } from './lib/verify/report.ts';
import { limitFactor, scaledLimit } from './lib/capture/limits.ts';
import { drawSample, randomSeed } from './lib/verify/sample.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/verify.ts');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';

interface Options {
  seed: number;
  seedGiven: boolean;
  events: number;
  payloads: number;
  cases: number;
  permissions: number;
  /** `agent/release/configuration`: check every event of that release and configuration instead of a drawn sample. */
  pick: string[];
  agents: AgentId[];
  report?: string;
  out?: string;
  minutes: number;
  /** Print the sample and stop (no root needed). */
  dryRun: boolean;
  inside?: {
    agent: AgentId;
    version: string;
    binary: string;
    configurations: string[];
    into: string;
    limitFactor: number;
  };
}

function fail(message: string): never {
  console.error(`verify: ${message}`);
  process.exit(2);
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    seed: 0,
    seedGiven: false,
    events: 20,
    payloads: 8,
    cases: 6,
    permissions: 6,
    pick: [],
    agents: [],
    minutes: 120,
    dryRun: false,
  };
  const inside: { version?: string; binary?: string; into?: string; configurations: string[]; limitFactor: number } = {
    configurations: [],
    limitFactor: 1,
  };
  let isInside = false;
  const value = (i: number, flag: string): string => {
    const v = argv[i];
    if (v === undefined) fail(`${flag} needs a value`);
    return v;
  };
  const count = (text: string, flag: string, min: number): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min)
      fail(`${flag} needs a whole number of at least ${min}, not ${JSON.stringify(text)}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--seed') {
      o.seed = count(value(++i, a), a, 0);
      o.seedGiven = true;
    } else if (a === '--events') o.events = count(value(++i, a), a, 0);
    else if (a === '--payloads') o.payloads = count(value(++i, a), a, 0);
    else if (a === '--cases') o.cases = count(value(++i, a), a, 0);
    else if (a === '--permissions') o.permissions = count(value(++i, a), a, 0);
    else if (a === '--event') o.pick.push(value(++i, a));
    else if (a === '--minutes') o.minutes = count(value(++i, a), a, 1);
    else if (a === '--report') o.report = resolve(value(++i, a));
    else if (a === '--out') o.out = resolve(value(++i, a));
    else if (a === '--agent') {
      const v = value(++i, a);
      if (!isAgentId(v)) fail(`unknown agent ${v} (${AGENT_IDS.join(', ')})`);
      o.agents.push(v);
    } else if (a === '--dry-run') o.dryRun = true;
    else if (a === '--inside') isInside = true;
    else if (a === '--version') inside.version = value(++i, a);
    else if (a === '--binary') inside.binary = value(++i, a);
    else if (a === '--config') inside.configurations.push(value(++i, a));
    else if (a === '--into') inside.into = value(++i, a);
    else if (a === '--limit-factor') inside.limitFactor = Number(value(++i, a));
    else if (a === '--help' || a === '-h') {
      console.log(
        'usage: node scripts/verify.ts [--seed N] [--events N] [--payloads N] [--cases N] [--permissions N] [--event AGENT/RELEASE/CONFIGURATION]... [--agent ID]... [--report FILE] [--out DIR] [--minutes N] [--dry-run]',
      );
      process.exit(0);
    } else fail(`unknown argument ${a}`);
  }
  if (isInside) {
    if (o.agents.length !== 1 || !inside.version || !inside.binary || !inside.into)
      fail('--inside needs --agent, --version, --binary and --into');
    if (!(inside.limitFactor >= 1)) fail('--limit-factor needs a number of at least 1');
    o.inside = {
      agent: o.agents[0]!,
      version: inside.version,
      binary: inside.binary,
      configurations: inside.configurations,
      into: inside.into,
      limitFactor: inside.limitFactor,
    };
  }
  if (!o.seedGiven) o.seed = randomSeed();
  if (o.agents.length === 0) o.agents = [...AGENT_IDS];
  return o;
}

// ---------------------------------------------------------------------------
// Inside the namespace: capture configurations of one installed release, as the history does.

const CAPTURE_FILE = (into: string, config: string): string => join(into, `${config}.json`);
const ERROR_FILE = (into: string, config: string): string => join(into, `${config}.error.txt`);

async function inside(o: NonNullable<Options['inside']>): Promise<void> {
  prepareNamespace();
  const matrix = loadMatrix(ROOT);
  const { package: pkg } = matrix.agents[o.agent];
  const runRoot = join(o.into, '..', '..', '..', 'run', o.agent);
  const paths: RunPaths = {
    home: join(runRoot, 'home'),
    workdir: join(runRoot, 'work'),
    node: process.execPath,
    mcpServer: join(ROOT, 'scripts/lib/capture/mcp-server.ts'),
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
          error = (e as Error).message;
          console.log(`    ${o.version} ${id.padEnd(22)} FAILED (attempt ${attempt}): ${error.split('\n')[0]}`);
        }
      }
      if (capture) writeFileSync(CAPTURE_FILE(o.into, id), jsonText(capture));
      else writeFileSync(ERROR_FILE(o.into, id), error + '\n');
    }
  } finally {
    rmSync(paths.home, { recursive: true, force: true });
    rmSync(paths.workdir, { recursive: true, force: true });
    unlock();
  }
}

// ---------------------------------------------------------------------------
// Outside.

interface Bounded {
  status: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Runs a command in its own process group, echoing its output; on timeout the group is killed (by its id). */
function runBounded(command: string, args: string[], timeoutMs: number, echo: boolean): Promise<Bounded> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      if (echo) process.stdout.write(d);
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
      if (echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ status: null, signal: null, timedOut, stdout, stderr: `${stderr}\n${error.message}` });
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, timedOut, stdout, stderr });
    });
  });
}

function loadHistories(agents: readonly AgentId[]): Map<AgentId, HistoryFile> {
  const out = new Map<AgentId, HistoryFile>();
  for (const agent of agents) {
    const file = join(ROOT, 'content/history', `${agent}.capture.json`);
    if (existsSync(file)) out.set(agent, JSON.parse(readFileSync(file, 'utf8')) as HistoryFile);
  }
  return out;
}

/** The first lines of a failure, as the CLI or npm said it. */
function firstLines(text: string, n = 4): string {
  return text
    .trim()
    .split('\n')
    .slice(0, n)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' / ');
}

interface Capture {
  file?: string;
  error?: string;
  /** Whose failure `error` is, where that is known when it is made (an install); else read from its words (blameOf). */
  blame?: Blame;
}

/**
 * Installs and captures, per release, every configuration the sampled events need; returns each result by
 * `agent@version/config`.
 */
async function captureReleases(
  plan: Map<string, { agent: AgentId; version: string; pkg: string; configs: Set<string> }>,
  matrix: Matrix,
  folder: string,
  deadline: number,
): Promise<Map<string, Capture>> {
  const results = new Map<string, Capture>();
  const scratch = mkdtempSync(join(CACHE_ROOT, 'verify-scratch-'));
  // Every install is fresh, into its own folder; the tarballs come from verify's own npm cache, kept
  // between runs and facts (npm checks each against its integrity), never from the history's installs,
  // so that the time budget goes on facts rather than downloads.
  const npmCache = join(CACHE_ROOT, 'verify', 'npm-cache');
  const previousCache = process.env['npm_config_cache'];
  process.env['npm_config_cache'] = npmCache;
  try {
    for (const [key, { agent, version, pkg, configs }] of plan) {
      const into = join(folder, 'captures', agent, version);
      const setAll = (error: string) => {
        for (const c of configs) results.set(`${key}/${c}`, { error });
      };
      if (Date.now() > deadline) {
        setAll('the time budget (--minutes) was spent before this release was installed');
        continue;
      }
      const missing = [...configs].filter((c) => !matrix.agents[agent].configurations.some((x) => x.id === c));
      for (const c of missing)
        results.set(`${key}/${c}`, {
          error: `content/capture-matrix.json has no ${agent} configuration ${c} any more`,
        });
      const run = [...configs].filter((c) => !missing.includes(c));
      if (run.length === 0) continue;
      console.log(`\n${agent} ${version}: installing ${pkg}@${version} from scratch; capturing ${run.join(', ')}`);
      const installRoot = join(scratch, `${agent}-${version}`);
      let binary: string;
      try {
        binary = ensureInstalled(agent, installRoot, pkg, version, (line) => console.log(`  ${line}`));
      } catch (error) {
        if (!(error instanceof InstallError)) throw error;
        for (const c of run)
          results.set(`${key}/${c}`, {
            error: `cannot install: ${error.message}`,
            blame: error.ours ? 'ours' : 'release',
          });
        console.log(`  cannot install: ${error.message}`);
        continue;
      }
      try {
        const factor = limitFactor(loadavg()[0]!, availableParallelism());
        const perConfig = Math.max(
          ...run.map(
            (c) =>
              matrix.agents[agent].configurations.find((x) => x.id === c)!.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
          ),
        );
        // Both attempts of every configuration at their scaled limits, with room to start each.
        const timeoutMs =
          (run.length * (scaledLimit(perConfig, factor, 1) + scaledLimit(perConfig, factor, 2) + 30) + 60) * 1000;
        if (factor > 1)
          console.log(`  limits × ${factor} (load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
        const inner = await runBounded(
          'unshare',
          [
            '-n',
            process.execPath,
            SCRIPT,
            '--inside',
            '--agent',
            agent,
            '--version',
            version,
            '--binary',
            binary,
            '--into',
            into,
            '--limit-factor',
            String(factor),
            ...run.flatMap((c) => ['--config', c]),
          ],
          timeoutMs,
          true,
        );
        for (const c of run) {
          if (existsSync(CAPTURE_FILE(into, c))) results.set(`${key}/${c}`, { file: CAPTURE_FILE(into, c) });
          else if (existsSync(ERROR_FILE(into, c)))
            results.set(`${key}/${c}`, { error: readFileSync(ERROR_FILE(into, c), 'utf8'), file: ERROR_FILE(into, c) });
          else
            results.set(`${key}/${c}`, {
              error: inner.timedOut
                ? `the capture inside the namespace did not finish within ${Math.round(timeoutMs / 1000)} s`
                : `the capture inside the namespace ended (${inner.status ?? inner.signal}) without a result: ${firstLines(inner.stderr)}`,
            });
        }
      } finally {
        rmSync(installRoot, { recursive: true, force: true });
      }
    }
  } finally {
    if (previousCache === undefined) delete process.env['npm_config_cache'];
    else process.env['npm_config_cache'] = previousCache;
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}

const shown = (path: string): string => (path.startsWith(ROOT + '/') ? relative(ROOT, path) : path);

async function verifyEvents(
  sample: { agent: AgentId; event: HistoryEvent; history: HistoryFile }[],
  matrix: Matrix,
  folder: string,
  deadline: number,
): Promise<Fact[]> {
  const plan = new Map<string, { agent: AgentId; version: string; pkg: string; configs: Set<string> }>();
  const pkgOf = (h: HistoryFile, v: string) => h.releases.find((r) => r.version === v)?.package ?? h.package;
  for (const { agent, event, history } of sample) {
    if (!event.configuration) continue;
    for (const version of [event.previous, event.release]) {
      const key = `${agent}@${version}`;
      const entry = plan.get(key) ?? { agent, version, pkg: pkgOf(history, version), configs: new Set<string>() };
      entry.configs.add(event.configuration);
      plan.set(key, entry);
    }
  }
  const captures = await captureReleases(plan, matrix, folder, deadline);
  const facts: Fact[] = [];
  for (const { agent, event, history } of sample) {
    const label = eventLabel(agent, event);
    const file = `content/history/${agent}.capture.json`;
    if (!event.configuration) {
      facts.push({
        kind: 'history event',
        label,
        status: 'could not run',
        detail: 'the event names no configuration to capture',
        evidence: [file],
      });
      continue;
    }
    const before = captures.get(`${agent}@${event.previous}/${event.configuration}`)!;
    const after = captures.get(`${agent}@${event.release}/${event.configuration}`)!;
    const evidence = [before.file, after.file].filter((f): f is string => f !== undefined);
    const failed = [
      [event.previous, before],
      [event.release, after],
    ].filter(([, c]) => (c as Capture).error !== undefined) as [string, Capture][];
    if (failed.length > 0) {
      // Ours when either release failed for our reasons: the fact is then unsettled.
      const blame: Blame | undefined = failed.some(([, c]) => c.blame === 'ours')
        ? 'ours'
        : failed.every(([, c]) => c.blame === 'release')
          ? 'release'
          : undefined;
      facts.push({
        kind: 'history event',
        label,
        status: 'could not run',
        detail: failed.map(([v, c]) => `${v}: ${firstLines(c.error!)}`).join('; '),
        evidence,
        ...(blame ? { blame } : {}),
      });
      continue;
    }
    try {
      const read = (f: string) => readTools(JSON.parse(readFileSync(f, 'utf8')) as CaptureFile);
      // The texts the history stores for the change are part of its claim.
      const stored =
        event.fromText !== undefined && event.toText !== undefined
          ? { before: history.texts?.[event.fromText] ?? '', after: history.texts?.[event.toText] ?? '' }
          : undefined;
      const v = checkEvent(event, read(before.file!), read(after.file!), stored);
      facts.push({
        kind: 'history event',
        label,
        status: v.status === 'unchecked' ? 'could not run' : v.status,
        detail: v.status === 'unchecked' ? `not checkable: ${v.detail}` : v.detail,
        evidence,
      });
    } catch (error) {
      facts.push({
        kind: 'history event',
        label,
        status: 'could not run',
        detail: `the fresh captures could not be read: ${(error as Error).message}`,
        evidence,
      });
    }
  }
  return facts;
}

/** A recorded file `npm run verify` re-records: its `--only` key and its path under its content folder. */
interface Rerecordable {
  key: string;
  file: string;
}

/** How one kind of recorded file is re-recorded: its script (which takes --only and --out) and its content folder. */
interface Recorder {
  kind: Fact['kind'];
  script: string;
  content: string;
}

const PAYLOAD_RECORDER: Recorder = { kind: 'payload', script: 'scripts/payloads.ts', content: 'content/payloads' };
const CASE_RECORDER: Recorder = {
  kind: 'hook case',
  script: 'scripts/hook-behaviour.ts',
  content: 'content/hook-behaviour',
};
const PERMISSION_RECORDER: Recorder = {
  kind: 'permission case',
  script: 'scripts/permissions.ts',
  content: 'content/permissions',
};

async function verifyRecords(
  recorder: Recorder,
  sample: readonly Rerecordable[],
  folder: string,
  deadline: number,
): Promise<Fact[]> {
  const facts: Fact[] = [];
  const out = join(folder, recorder.content.replace(/^content\//, ''));
  const kind = recorder.kind;
  for (const s of sample) {
    const committed = join(ROOT, recorder.content, s.file);
    const fresh = join(out, s.file);
    const label = `${s.key} (${recorder.content}/${s.file})`;
    if (Date.now() > deadline) {
      facts.push({
        kind,
        label,
        status: 'could not run',
        detail: 'the time budget (--minutes) was spent before this one started',
        evidence: [],
      });
      continue;
    }
    console.log(`\n${kind} ${s.key}: re-recording`);
    // Installing the pinned release (the first time) can take minutes; the run itself is bounded by the scenario.
    const r = await runBounded(
      process.execPath,
      [join(ROOT, recorder.script), '--only', s.key, '--out', out],
      25 * 60_000,
      true,
    );
    if (r.timedOut || r.status !== 0 || !existsSync(fresh)) {
      const script = recorder.script.replace(/^scripts\/|\.ts$/g, '');
      const said = r.stderr
        .split('\n')
        .filter((l) => l.startsWith(`- ${s.key}: `) || l.startsWith(`${script}: `))
        .map((l) => l.replace(/^- [^:]+: /, ''));
      const detail = r.timedOut
        ? `${recorder.script} did not finish within 25 minutes`
        : firstLines(said.length > 0 ? said.join('\n') : r.stderr || `exit ${r.status ?? r.signal}`);
      facts.push({
        kind,
        label,
        status: 'could not run',
        detail,
        evidence: [],
        ...(r.timedOut || r.signal ? { blame: 'ours' as const } : {}),
      });
      continue;
    }
    if (!existsSync(committed)) {
      facts.push({
        kind,
        label,
        status: 'contradicted',
        detail: `no committed file for this ${kind}`,
        evidence: [fresh],
      });
      continue;
    }
    const c = compareJsonTexts(readFileSync(committed, 'utf8'), readFileSync(fresh, 'utf8'));
    facts.push(
      c.equal
        ? {
            kind,
            label,
            status: 'confirmed',
            detail: 're-recorded file identical to the committed one',
            evidence: [fresh],
          }
        : {
            kind,
            label,
            status: 'contradicted',
            detail: `differs at ${c.pointer}: ${c.detail}`,
            evidence: [fresh, shown(committed)],
          },
    );
  }
  return facts;
}

/** Every event each `agent/release/configuration` names; one that names none stops the run. */
function pickedEvents(
  picks: readonly string[],
  histories: ReadonlyMap<AgentId, HistoryFile>,
): { agent: AgentId; event: HistoryEvent; history: HistoryFile }[] {
  return picks.flatMap((pick) => {
    const [agent, release, configuration] = pick.split('/');
    const history = agent !== undefined && isAgentId(agent) ? histories.get(agent) : undefined;
    if (!history) fail(`--event ${pick}: no capture history of ${agent} (give agent/release/configuration)`);
    const events = history.events.filter((e) => e.release === release && e.configuration === configuration);
    if (events.length === 0) fail(`--event ${pick}: ${agent}'s history has no event of ${release} in ${configuration}`);
    return events.map((event) => ({ agent: agent as AgentId, event, history }));
  });
}

async function outside(o: Options): Promise<number> {
  if (!o.dryRun) {
    if (process.platform !== 'linux') fail('runs only on Linux (network namespaces)');
    if (process.getuid?.() !== 0)
      fail('must run as root: each CLI runs inside a network namespace with only loopback (`unshare -n`)');
    const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0)
      fail(
        `\`unshare -n\` failed; refusing to run the CLIs (${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}`)})`,
      );
  }
  const t0 = Date.now();
  const deadline = t0 + o.minutes * 60_000;
  const matrix = loadMatrix(ROOT);

  const histories = loadHistories(o.agents);
  const eventsByAgent = new Map<string, HistoryEvent[]>([...histories].map(([a, h]) => [a, h.events]));
  const scenarios = selectScenarios(loadScenarios(ROOT, matrix), []).filter((s) => o.agents.includes(s.agent));
  const scenariosByAgent = new Map<string, SelectedScenario[]>();
  for (const s of scenarios) scenariosByAgent.set(s.agent, [...(scenariosByAgent.get(s.agent) ?? []), s]);
  const events =
    o.pick.length > 0
      ? pickedEvents(o.pick, histories)
      : drawSample(eventsByAgent, o.events, o.seed).map(({ agent, item }) => ({
          agent: agent as AgentId,
          event: item,
          history: histories.get(agent as AgentId)!,
        }));
  // The payload sample has its own stream of the seed, so that --events does not move it.
  const payloads = drawSample(scenariosByAgent, o.payloads, o.seed ^ 0x5bd1e995).map(({ item }) => item);
  // So has the hook case sample.
  const casesByAgent = new Map<string, SelectedCase[]>();
  for (const c of selectHookCases(loadHookCases(ROOT, matrix), []).filter((c) => o.agents.includes(c.agent)))
    casesByAgent.set(c.agent, [...(casesByAgent.get(c.agent) ?? []), c]);
  const cases = drawSample(casesByAgent, o.cases, o.seed ^ 0x27d4eb2f).map(({ item }) => item);
  // And the permission case sample.
  const permissionsByAgent = new Map<string, SelectedPermissionCase[]>();
  for (const c of selectPermissionCases(loadPermissionCases(ROOT, matrix), []).filter((c) =>
    o.agents.includes(c.agent),
  ))
    permissionsByAgent.set(c.agent, [...(permissionsByAgent.get(c.agent) ?? []), c]);
  const permissions = drawSample(permissionsByAgent, o.permissions, o.seed ^ 0x165667b1).map(({ item }) => item);

  if (o.dryRun) {
    console.log(
      `verify: seed ${o.seed}: ${events.length} history event(s), ${payloads.length} payload scenario(s), ${cases.length} hook case(s), ${permissions.length} permission case(s)`,
    );
    for (const { agent, event } of events) console.log(`  event    ${eventLabel(agent, event)}`);
    for (const s of payloads) console.log(`  payload  ${s.key}`);
    for (const c of cases) console.log(`  case     ${c.key}`);
    for (const c of permissions) console.log(`  permission ${c.key}`);
    return 0;
  }
  const stamp = new Date(t0).toISOString().replace(/[:.]/g, '-');
  const folder = o.out ?? join(CACHE_ROOT, 'verify', stamp);
  mkdirSync(folder, { recursive: true });
  const agentArgs = o.agents.length === AGENT_IDS.length ? '' : o.agents.map((a) => ` --agent ${a}`).join('');
  const repeat = `npm run verify -- --seed ${o.seed} --events ${o.events} --payloads ${o.payloads} --cases ${o.cases} --permissions ${o.permissions}${o.pick.map((p) => ` --event ${p}`).join('')}${agentArgs}`;
  console.log(`verify: seed ${o.seed} (repeat with: ${repeat})`);
  console.log(`verify: evidence folder ${folder}`);
  console.log(
    `verify: ${events.length} history event(s), ${payloads.length} payload scenario(s), ${cases.length} hook case(s), ${permissions.length} permission case(s); time budget ${o.minutes} min`,
  );
  for (const { agent, event } of events) console.log(`  event    ${eventLabel(agent, event)}`);
  for (const s of payloads) console.log(`  payload  ${s.key}`);
  for (const c of cases) console.log(`  case     ${c.key}`);
  for (const c of permissions) console.log(`  permission ${c.key}`);

  const facts = [
    ...(await verifyEvents(events, matrix, folder, deadline)),
    ...(await verifyRecords(PAYLOAD_RECORDER, payloads, folder, deadline)),
    ...(await verifyRecords(CASE_RECORDER, cases, folder, deadline)),
    ...(await verifyRecords(PERMISSION_RECORDER, permissions, folder, deadline)),
  ];
  const summary = {
    seed: o.seed,
    events: events.length,
    payloads: payloads.length,
    cases: cases.length,
    permissions: permissions.length,
    folder,
    repeat,
    seconds: Math.round((Date.now() - t0) / 1000),
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

const options = parseArgs(process.argv.slice(2));
try {
  if (options.inside) await inside(options.inside);
  else process.exitCode = await outside(options);
} catch (error) {
  if (error instanceof NamespaceError) fail(error.message);
  throw error;
}
