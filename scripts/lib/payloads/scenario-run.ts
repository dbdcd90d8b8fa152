/**
 * One scenario run of a real CLI against the model stub, shared by `npm run payloads`
 * (which records what the hooks received) and `npm run hook-behaviour` (which lets a hook
 * answer and records what followed): the configuration with the agent's hook additions,
 * the scenario's files, the stub's conversation, the run, and the recorded calls.
 * It checks nothing about the outcome the scenario expects; the callers do.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { jsonText } from '../system/atomic-write.ts';
import { installDir } from '../capture/install.ts';
import type { Configuration, Matrix } from '../capture/matrix.ts';
import { runConfiguration, type RunOutcome, type RunPaths } from '../capture/runner.ts';
import { agentWires, payloadDriver, type PayloadDriver } from '../../../src/lib/agents/index.ts';
import { mergeSettings } from '../../../src/lib/agents/settings.ts';
import type { HookRunAdditions, JsonObject } from '../../../src/lib/agents/types.ts';
import type { CallingWireFormat } from '../../../src/lib/wire/types.ts';
import { Conversation, type PlannedCall } from './conversation.ts';
import { runAdditions, type HookCommands, type PayloadPaths } from './drivers.ts';
import { learnValues, payloadMask, type PayloadMask } from './mask.ts';
import { recordCalls, type RecordedCall } from './record.ts';
import { configurationWire, expandRunVariables } from './run.ts';
import { ScenarioError, scenarioCalls, scenarioTools, type SelectedScenario } from './scenarios.ts';
import { pathOf } from '../../../src/lib/wire/shared.ts';

/** Every file under `dir` (sorted by path), or none when it is missing. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** The agent's payload driver; validateScenarios already refused agents without one. */
export function driverOf(agent: SelectedScenario['agent']): PayloadDriver {
  const driver = payloadDriver(agent);
  if ('none' in driver) throw new ScenarioError(`${agent}: its hook payloads cannot be recorded: ${driver.none}`);
  return driver;
}

/** The request path the configuration's committed capture recorded, when there is one. */
function capturedPath(root: string, agent: SelectedScenario['agent'], configuration: string): string | undefined {
  const file = join(root, 'content/captures', agent, `${configuration}.json`);
  if (!existsSync(file)) return undefined;
  const capture = JSON.parse(readFileSync(file, 'utf8')) as { request?: { path?: unknown } };
  return typeof capture.request?.path === 'string' ? capture.request.path : undefined;
}

export interface ScenarioRunOptions {
  /** The repository root (content/captures, the stub MCP server). */
  root: string;
  /** Also write the run's requests, output and hook log, unmasked, to this folder. */
  raw?: string | undefined;
  /** Hook commands in place of the logging ones (a hook that answers); they must log to paths.hookLog too. */
  hookCommands?: HookCommands;
  /** The CLI may send no result (a hook stopped the turn): record the calls without one rather than fail. */
  resultMayBeMissing?: boolean;
  /** Settings merged over the configuration's (a permission case's rules). */
  settings?: JsonObject | undefined;
  /** Argument sequences of the hook additions to leave out (the ones that let every call run: HookMechanism.bypass). */
  without?: readonly (readonly string[])[] | undefined;
  /** More variables for the planned calls' input and the scenario's files (a probe server's address). */
  vars?: Readonly<Record<string, string>> | undefined;
  /** More files to write, by absolute path. */
  files?: ReadonlyMap<string, string> | undefined;
}

/** `args` without each occurrence of the argument sequences in `without`. Pure. */
export function withoutSequences(args: readonly string[], without: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; ) {
    const hit = without.find((seq) => seq.length > 0 && seq.every((w, j) => args[i + j] === w));
    if (hit) i += hit.length;
    else out.push(args[i++]!);
  }
  return out;
}

export interface ScenarioRun {
  outcome: RunOutcome;
  configuration: Configuration;
  additions: HookRunAdditions;
  wire: CallingWireFormat;
  conversation: Conversation;
  planned: PlannedCall[];
  calls: ReturnType<typeof scenarioCalls>;
  hookLog: string;
  /** The recorded calls, or why they could not be recorded (a call never sent, no result). */
  recorded: { calls: RecordedCall[]; execEvents?: Record<string, unknown>[] } | { error: Error };
}

export async function runScenarioOnce(
  selected: SelectedScenario,
  matrix: Matrix,
  binary: string,
  paths: PayloadPaths,
  options: ScenarioRunOptions,
): Promise<ScenarioRun> {
  const { agent, scenario } = selected;
  const driver = driverOf(agent);
  const { hooks } = driver;
  const wire = configurationWire(
    agentWires(agent),
    capturedPath(options.root, agent, selected.configuration),
    driver.wire,
  );
  const additions = hookAdditions(hooks, paths, scenario, options);
  const configuration = scenarioConfiguration(selected, matrix, additions, options.settings);
  const vars = { ...options.vars, HOME: paths.home, WORKDIR: paths.workdir, RUN: paths.run };
  const files = scenarioFiles(scenario, paths.workdir, vars, [...additions.files, ...(options.files ?? [])]);
  const calls = scenarioCalls(scenario);
  const planned = plannedCalls(calls, wire.toolCalls, vars);
  const conversation = new Conversation(wire, planned);
  clearRunFiles(paths);
  const outcome = await runConfiguration(agent, configuration, binary, runPathsOf(paths, options.root), {
    answer: (r) => conversation.answer(r),
    files,
  });
  const hookLog = existsSync(paths.hookLog) ? readFileSync(paths.hookLog, 'utf8') : '';
  const logs =
    hooks.logDir === undefined ? [] : filesUnder(join(paths.home, hooks.logDir)).map((f) => readFileSync(f, 'utf8'));
  if (options.raw) writeRaw(options.raw, selected.key, outcome, hookLog, logs);
  const run = { outcome, configuration, additions, wire, conversation, planned, calls, hookLog };
  return { ...run, recorded: recordRun(hooks, run, logs, options.resultMayBeMissing === true) };
}

/** The driver's hook additions for the scenario's tools, less the argument sequences `options.without` leaves out. */
function hookAdditions(
  hooks: PayloadDriver['hooks'],
  paths: PayloadPaths,
  scenario: SelectedScenario['scenario'],
  options: ScenarioRunOptions,
): HookRunAdditions {
  const tools = scenario.allowedTools ?? scenarioTools(scenario);
  const added = runAdditions(hooks, paths, tools, options.hookCommands);
  return options.without === undefined ? added : { ...added, args: withoutSequences(added.args, options.without) };
}

/**
 * The matrix's configuration with the hook additions and the scenario's own arguments, environment and limit; the
 * settings of the three merged in that order.
 */
function scenarioConfiguration(
  selected: SelectedScenario,
  matrix: Matrix,
  additions: HookRunAdditions,
  extraSettings: JsonObject | undefined,
): Configuration {
  const { scenario } = selected;
  const base = matrix.agents[selected.agent].configurations.find((c) => c.id === selected.configuration)!;
  const settings = [base.settings, additions.settings, extraSettings].filter(
    (x): x is NonNullable<typeof x> => x !== undefined,
  );
  return {
    ...base,
    args: [...base.args, ...additions.args, ...(scenario.args ?? [])],
    env: {
      ...base.env,
      ...additions.env,
      ...Object.fromEntries(
        Object.entries(scenario.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
      ),
    },
    timeoutSeconds: scenario.timeoutSeconds ?? 60,
    ...(settings.length > 0 ? { settings: settings.reduce((a, b) => mergeSettings(a, b), {}) } : {}),
  };
}

/** The files written before the run: `more` by absolute path, then the scenario's under the working directory. */
function scenarioFiles(
  scenario: SelectedScenario['scenario'],
  workdir: string,
  vars: Readonly<Record<string, string>>,
  more: Iterable<[string, string | Uint8Array]>,
): Map<string, string | Uint8Array> {
  const files = new Map<string, string | Uint8Array>(more);
  for (const [rel, content] of Object.entries(scenario.files ?? {})) {
    if (content === undefined) continue;
    files.set(
      join(workdir, rel),
      typeof content === 'string' ? expandRunVariables(content, vars) : Buffer.from(content.base64, 'base64'),
    );
  }
  return files;
}

/** The calls the stub makes, with the wire's call ids and the run's variables in their input. */
function plannedCalls(
  calls: ReturnType<typeof scenarioCalls>,
  wireCalls: CallingWireFormat['toolCalls'],
  vars: Readonly<Record<string, string>>,
): PlannedCall[] {
  return calls.map((c, i) => ({
    id: wireCalls.callId(i),
    tool: c.tool,
    input: expandRunVariables(c.input, vars),
    ...(c.bind ? { bind: c.bind } : {}),
    ...(c.subagent ? { subagent: true } : {}),
  }));
}

/** What an earlier run left in the shared run folder must not be read as this run's. */
function clearRunFiles(paths: PayloadPaths): void {
  rmSync(paths.tmp, { recursive: true, force: true });
  mkdirSync(paths.tmp, { recursive: true });
  rmSync(paths.hookLog, { force: true });
}

function runPathsOf(paths: PayloadPaths, root: string): RunPaths {
  return {
    home: paths.home,
    workdir: paths.workdir,
    node: process.execPath,
    mcpServer: join(root, 'scripts/lib/capture/mcp-server.ts'),
  };
}

/** The run's requests, output and hook logs, unmasked, for --raw. */
function writeRaw(dir: string, key: string, outcome: RunOutcome, hookLog: string, logs: string[]): void {
  mkdirSync(dir, { recursive: true });
  const dump = {
    exitCode: outcome.exitCode,
    timedOut: outcome.timedOut,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    hookLog,
    logs,
    requests: outcome.requests,
  };
  writeFileSync(join(dir, key.replaceAll('/', '-') + '.json'), jsonText(dump));
}

/**
 * The planned calls as the hooks and the CLI recorded them. A call's result counts as sent when a request carried it
 * (where the CLI may send none) or else unless the scenario says it is not sent.
 */
function recordRun(
  hooks: PayloadDriver['hooks'],
  run: Omit<ScenarioRun, 'recorded' | 'configuration' | 'additions'>,
  logs: string[],
  resultMayBeMissing: boolean,
): ScenarioRun['recorded'] {
  const { outcome, wire, conversation, planned, calls, hookLog } = run;
  const wireCalls = wire.toolCalls;
  const bodies = outcome.requests.map((r) => r.json);
  const resultSent = resultMayBeMissing
    ? (i: number) => bodies.some((b) => wireCalls.findResult(b, planned[i]!.id) !== undefined)
    : (i: number) => calls[i]!.resultSent !== false;
  try {
    return recordCalls(
      hooks,
      wireCalls,
      planned.map((c, i) => ({
        id: c.id,
        tool: c.tool,
        kind: wireCalls.callKind(c.input),
        input: conversation.sent.get(i),
        ...(resultSent(i) ? {} : { resultSent: false }),
        ...(c.subagent ? { inSubagent: true } : {}),
      })),
      { bodies, stdout: outcome.stdout, hookLog, logs },
    );
  } catch (error) {
    return { error: error as Error };
  }
}

/**
 * What masks a run's volatile values (session ids, dates, the run's folders) in what is
 * committed: the values the runner knows, the folders, and values learned from the calls.
 */
export function scenarioMask(
  run: ScenarioRun,
  calls: readonly RecordedCall[],
  selected: SelectedScenario,
  matrix: Matrix,
  paths: PayloadPaths,
  cacheRoot: string,
  extra: Readonly<Record<string, string>> = {},
): PayloadMask {
  const learned = learnValues(calls);
  const volatile = new Set(run.calls.flatMap((c) => (c.bind ?? []).filter((b) => b.volatile).map((b) => b.name)));
  for (const [name, value] of run.conversation.bound) if (volatile.has(name)) learned.set(value, name);
  // Claude Code names its per-project folders after the working directory (`/` → `-`).
  // The installed CLI's folder shows in results that name its bundled files (Gemini CLI's built-in skills).
  const { package: installed, version } = matrix.agents[selected.agent];
  const exact = {
    ...run.outcome.variables,
    RUN: paths.run,
    WORKDIR_SLUG: paths.workdir.replace(/[^A-Za-z0-9]/g, '-'),
    KERNEL: release(),
    CLI_INSTALL: installDir(cacheRoot, installed, version),
    ...extra,
  };
  return payloadMask(exact, [run.outcome.startedAt, run.outcome.endedAt], learned);
}

/**
 * Where a run's one call got its result: the first request carrying it, the result itself, and
 * the request the call answered (the last one before, on the same path, that offers tools; not a
 * side request such as OpenCode's session title, which the CLI may send in between). All
 * undefined when no request carried a result.
 */
export function resultOfCall(
  run: Pick<ScenarioRun, 'outcome' | 'wire'>,
  id: string,
): { carrying: unknown; result: Record<string, unknown> | undefined; previous: unknown } {
  const { toolCalls } = run.wire;
  const bodies = run.outcome.requests.map((r) => r.json);
  const at = bodies.findIndex((body) => toolCalls.findResult(body, id) !== undefined);
  if (at < 0) return { carrying: undefined, result: undefined, previous: undefined };
  const carrying = bodies[at];
  const path = pathOf(run.outcome.requests[at]!.url);
  const previous = bodies
    .slice(0, at)
    .filter((body, i) => pathOf(run.outcome.requests[i]!.url) === path && run.wire.hasTools(body))
    .at(-1);
  return { carrying, result: toolCalls.findResult(carrying, id), previous };
}

/** The files the hook additions wrote, as a record keeps them: JSON as its value, other text as written. */
export function additionFiles(additions: HookRunAdditions): { where: string; content: unknown }[] {
  return [...additions.files].map(([where, content]) => ({
    where,
    content: typeof content === 'string' ? parsedOrText(content) : '(bytes)',
  }));
}

/** A configuration file's JSON value, or its text when it is not JSON (as a record keeps it). */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
