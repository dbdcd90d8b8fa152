/**
 * npm run permissions — what a permission rule does to a real call. For every case of
 * content/permission-cases.json the model stub sends the case's one tool call to the REAL
 * pinned CLI, configured with the case's rule where its users write it (a settings file, a
 * flag, a rules file) and without the flags the payload runs add to let every call run
 * (HookMechanism.bypass). The record (content/permissions/<agent>/<case>.json) keeps the
 * rule and every file and flag the run added, whether the tool was offered, whether the
 * call's side effect happened (a file, a request to a loopback probe server, a call that
 * reached the stub MCP server) and what the model was sent next.
 *
 *   node scripts/permissions.ts [--only agent[/case]]... [--check] [--raw DIR] [--out DIR]
 *
 * Needs root, like `npm run payloads`, whose installs, namespace, run folder, runner and
 * masking it uses. Nothing under content/permissions/ is written unless every selected
 * case ran.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ensureInstalled, installedPackage, InstallError } from './lib/capture/install.ts';
import { cliExitOf, said } from './lib/capture/capture-file.ts';
import { loadMatrix, MatrixError, type Matrix } from './lib/capture/matrix.ts';
import { CALL_LOG } from './lib/capture/mcp-server.ts';
import { NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { parseRunArgs, type RunArgs } from './lib/capture/run-args.ts';
import { otherTexts } from './lib/hook-behaviour/model-saw.ts';
import { NamespaceRerunError, rerunInNamespace } from './lib/payloads/in-namespace.ts';
import { maskPayloadValue } from './lib/payloads/mask.ts';
import { parseHookLog, RecordError, untagHookLog } from './lib/payloads/record.ts';
import { keepRecords, recordEach } from './lib/payloads/record-each.ts';
import { expandRunVariables } from './lib/payloads/run.ts';
import {
  additionFiles,
  driverOf,
  parsedOrText,
  resultOfCall,
  runScenarioOnce,
  scenarioMask,
  type ScenarioRun,
} from './lib/payloads/scenario-run.ts';
import { ScenarioError } from './lib/payloads/scenarios.ts';
import type { PayloadPaths } from './lib/payloads/drivers.ts';
import {
  loadPermissionCases,
  PermissionCaseError,
  permissionOutcome,
  permissionScenario,
  selectPermissionCases,
  type SelectedPermissionCase,
} from './lib/permissions/cases.ts';
import { pathOf } from '../src/lib/wire/shared.ts';
import type { JsonObject } from '../src/lib/agents/types.ts';
import { agentWireQuirks, type AgentId } from '../src/lib/agents/index.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/permissions.ts');
const RECORDS_DIR = join(ROOT, 'content/permissions');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';
const USAGE = 'node scripts/permissions.ts [--only agent[/case]]... [--check] [--raw DIR] [--out DIR]';
/** The path the probe server counts; the cases' fetch inputs end with it. */
const PROBE_PATH = '/permission-probe';

function fail(message: string): never {
  console.error(`permissions: ${message}`);
  process.exit(1);
}

function parseArgs(argv: string[]): RunArgs {
  const parsed = parseRunArgs(argv, { usage: USAGE, onlyTakes: 'agent or agent/case', out: true });
  if ('help' in parsed) {
    console.log(parsed.help);
    process.exit(0);
  }
  if ('error' in parsed) fail(parsed.error);
  return parsed;
}

function load(options: RunArgs): { matrix: Matrix; selected: SelectedPermissionCase[] } {
  const matrix = loadMatrix(ROOT);
  return { matrix, selected: selectPermissionCases(loadPermissionCases(ROOT, matrix), options.only) };
}

/**
 * A loopback HTTP server that answers every request with a short page and counts them: the fetch cases' side effect.
 */
async function probeServer(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><head><title>Probe</title></head><body><p>permission probe page</p></body></html>');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** The MCP server's call log: whether it started, and the tools called. */
function mcpCalls(home: string): { started: boolean; calls: string[] } {
  const file = join(home, CALL_LOG);
  if (!existsSync(file)) return { started: false, calls: [] };
  const entries = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { started?: boolean; call?: string });
  return {
    started: entries.some((e) => e.started === true),
    calls: entries.flatMap((e) => (typeof e.call === 'string' ? [e.call] : [])),
  };
}

/**
 * The request the call went out after (the last one on the tool path that offered tools and did not yet carry its
 * result), and whether it offered `tool`.
 */
function offeredIn(run: ScenarioRun, agent: AgentId, id: string, tool: string): boolean {
  const { wire } = run;
  const requests = run.outcome.requests.filter(
    (r) =>
      r.method === 'POST' &&
      wire.isToolRequestPath(pathOf(r.url)) &&
      wire.hasTools(r.json) &&
      wire.toolCalls.findResult(r.json, id) === undefined,
  );
  const before = requests[0];
  if (before === undefined) throw new RecordError(`no request offered tools for the ${tool} call to go out in`);
  const names = wire
    .extractTools(before.json as JsonObject, {
      origin: { package: 'run', version: '0.0.0', file: 'run' },
      pointer: '/body',
      quirks: agentWireQuirks(agent),
    })
    .map((t) => t.fullName);
  return names.includes(tool);
}

/** The run's variables: the run's folders and the probe server's address. */
type RunVars = Readonly<Record<string, string>>;

/** Files under $HOME the case needs (its rules files), and the stub MCP server's call log, empty. */
function homeFilesOf(c: SelectedPermissionCase['case'], paths: PayloadPaths, vars: RunVars): Map<string, string> {
  return new Map<string, string>([
    [join(paths.home, CALL_LOG), ''],
    ...Object.entries(c.call.homeFiles ?? {}).map(([rel, text]): [string, string] => [
      join(paths.home, rel),
      expandRunVariables(text ?? '', vars),
    ]),
  ]);
}

/**
 * Every file and setting the run added, as the record shows them: the hook additions', the case's working files, its
 * files under $HOME (not the call log), and the merged settings.
 */
function configurationFiles(
  run: ScenarioRun,
  c: SelectedPermissionCase['case'],
  workdir: string,
  vars: RunVars,
  homeFiles: ReadonlyMap<string, string>,
): { where: string; content: unknown }[] {
  return [
    ...additionFiles(run.additions),
    ...Object.entries(c.call.files ?? {}).map(([rel, content]) => ({
      where: join(workdir, rel),
      content: parsedOrText(expandRunVariables(content ?? '', vars)),
    })),
    ...[...homeFiles]
      .filter(([where]) => !where.endsWith(CALL_LOG))
      .map(([where, content]) => ({ where, content: parsedOrText(content) })),
    ...(run.configuration.settings ? [{ where: 'settings', content: run.configuration.settings }] : []),
  ];
}

/**
 * The case's run, with its rule and without the flags that let every call run; refused when the call never went out.
 */
async function runWithRule(
  selected: SelectedPermissionCase,
  matrix: Matrix,
  binary: string,
  paths: PayloadPaths,
  context: { raw: string | undefined; vars: RunVars; probeUrl: string; homeFiles: ReadonlyMap<string, string> },
): Promise<ScenarioRun> {
  const { case: c } = selected;
  const { hooks } = driverOf(selected.agent);
  const settings =
    c.call.settings === undefined ? undefined : expandRunVariables(c.call.settings as JsonObject, context.vars);
  const run = await runScenarioOnce(permissionScenario(selected), matrix, binary, paths, {
    root: ROOT,
    raw: context.raw,
    resultMayBeMissing: true,
    settings,
    without: hooks.bypass ?? [],
    vars: { PROBE_URL: context.probeUrl },
    files: context.homeFiles,
  });
  if (run.conversation.error) throw new RecordError(run.conversation.error);
  if (!run.conversation.sent.has(0)) {
    const exit = run.outcome.timedOut ? 'was killed at the limit' : `exited ${run.outcome.exitCode}`;
    throw new RecordError(`the ${c.call.tool} call never went out; the CLI ${exit}${said(run.outcome)}`);
  }
  return run;
}

async function runCase(
  selected: SelectedPermissionCase,
  matrix: Matrix,
  binary: string,
  paths: PayloadPaths,
  raw: string | undefined,
): Promise<unknown> {
  const probe = await probeServer();
  try {
    const vars = { HOME: paths.home, WORKDIR: paths.workdir, RUN: paths.run, PROBE_URL: probe.url };
    const homeFiles = homeFilesOf(selected.case, paths, vars);
    const run = await runWithRule(selected, matrix, binary, paths, { raw, vars, probeUrl: probe.url, homeFiles });
    const record = permissionRecord(
      selected,
      matrix,
      run,
      paths,
      probe.hits,
      configurationFiles(run, selected.case, paths.workdir, vars, homeFiles),
    );
    const mask = scenarioMask(run, [], permissionScenario(selected), matrix, paths, CACHE_ROOT, {
      REPO: ROOT,
      PROBE_URL: probe.url,
    });
    return maskPayloadValue(record, mask);
  } finally {
    await probe.close();
  }
}

/**
 * What the run shows about the rule: whether the tool was offered, whether the call's side effect happened, what the
 * model saw.
 */
function permissionRecord(
  selected: SelectedPermissionCase,
  matrix: Matrix,
  run: ScenarioRun,
  paths: PayloadPaths,
  hits: readonly string[],
  files: { where: string; content: unknown }[],
) {
  const { agent, case: c } = selected;
  const { hooks } = driverOf(agent);
  const id = run.planned[0]!.id;
  const { carrying, result, previous } = resultOfCall(run, id);
  const { payloads } = untagHookLog(parseHookLog(run.hookLog));
  const text = result === undefined ? null : run.wire.toolCalls.resultText(result);
  const happened = sideEffectHappened(c.sideEffect, paths, hits, selected, text);
  const { package: pkg, version } = matrix.agents[agent];
  const configuration = matrix.agents[agent].configurations.find((x) => x.id === selected.configuration)!;
  return {
    agent,
    cli: { package: installedPackage(agent, CACHE_ROOT, pkg, version) ?? pkg, version },
    case: c.id,
    toolRole: c.toolRole,
    description: c.description,
    configuration: selected.configuration,
    mode: configuration.mode,
    tool: c.call.tool,
    ...(run.conversation.sent.get(0) === undefined ? {} : { input: run.conversation.sent.get(0) }),
    rule: c.rule,
    args: [...run.additions.args, ...(c.call.args ?? [])],
    env: { ...run.additions.env, ...(c.call.env ?? {}) },
    configurationFiles: files,
    offered: offeredIn(run, agent, id, c.call.tool),
    sideEffect: { kind: Object.keys(c.sideEffect)[0]!, target: sideEffectTarget(c.sideEffect), happened },
    outcome: permissionOutcome(happened, result !== undefined),
    modelSaw: {
      result: text,
      isError: result === undefined ? false : hooks.outcome(result, text ?? '', payloads) === 'failure',
      otherTexts: result === undefined ? [] : otherTexts(carrying, result, previous),
    },
    cliExit: cliExitOf(run.outcome, c.timeoutSeconds ?? 60, result !== undefined),
  };
}

function sideEffectTarget(effect: SelectedPermissionCase['case']['sideEffect']): string {
  if ('file' in effect) return effect.file;
  if ('probe' in effect) return 'probe';
  if ('output' in effect) return effect.output;
  return effect.mcpCall;
}

/** Whether the call's side effect happened. An MCP case whose server never logged its start cannot tell, and fails. */
function sideEffectHappened(
  effect: SelectedPermissionCase['case']['sideEffect'],
  paths: PayloadPaths,
  hits: readonly string[],
  selected: SelectedPermissionCase,
  resultText: string | null,
): boolean {
  if ('file' in effect) return existsSync(join(paths.workdir, effect.file));
  if ('output' in effect) return resultText !== null && resultText.includes(effect.output);
  if ('probe' in effect) return hits.some((h) => h.includes(PROBE_PATH));
  const log = mcpCalls(paths.home);
  if (!log.started)
    throw new RecordError(
      `${selected.key}: the stub MCP server never wrote to $HOME/${CALL_LOG}, so whether the call reached it ` +
        `cannot be told (did the CLI start it, with HOME passed on?)`,
    );
  return log.calls.includes(effect.mcpCall);
}

async function inside(options: RunArgs): Promise<number> {
  prepareNamespace();
  const { matrix, selected } = load(options);
  type Shown = { outcome: string; offered: boolean; modelSaw: { result: string | null; isError: boolean } };
  const { files, errors } = await recordEach({
    root: ROOT,
    cacheRoot: CACHE_ROOT,
    matrix,
    selected,
    schema: 'schemas/permission-record.schema.json',
    lockedBy: 'another payload, hook-behaviour or permissions run',
    width: 40,
    run: (s, binary, paths) => runCase(s, matrix, binary, paths, options.raw),
    summary: (s, record) => {
      const r = record as Shown;
      const saw =
        r.modelSaw.result === null
          ? 'no result'
          : `${r.modelSaw.isError ? 'error' : 'result'} ${JSON.stringify(r.modelSaw.result.slice(0, 60))}`;
      return `${s.key.padEnd(40)} ${r.outcome}${r.offered ? '' : ' (not offered)'}; ${saw}`;
    },
  });
  return keepRecords(
    { files, errors },
    {
      script: 'permissions',
      what: 'record',
      selected: selected.length,
      unit: 'case',
      dir: RECORDS_DIR,
      shownDir: 'content/permissions/',
      out: options.out,
      check: options.check,
      partial: options.only.length > 0,
    },
  );
}

const argv = process.argv.slice(2);
const options = parseArgs(argv);
try {
  if (!options.inside) {
    rerunInNamespace({
      name: 'permissions',
      script: SCRIPT,
      argv,
      prepare: (log) => {
        const { matrix, selected } = load(options);
        for (const agent of new Set(selected.map((s) => s.agent)))
          ensureInstalled(agent, CACHE_ROOT, matrix.agents[agent].package, matrix.agents[agent].version, log);
      },
    });
  }
  process.exitCode = await inside(options);
} catch (error) {
  if (
    error instanceof MatrixError ||
    error instanceof InstallError ||
    error instanceof NamespaceError ||
    error instanceof NamespaceRerunError ||
    error instanceof PermissionCaseError ||
    error instanceof ScenarioError
  )
    fail(error.message);
  throw error;
}
