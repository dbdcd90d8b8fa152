/**
 * npm run hook-behaviour — what happens when a hook answers. For every case of
 * content/hook-cases.json the model stub sends the case's tool call to the REAL pinned
 * CLI, whose hook configuration runs scripts/lib/hook-behaviour/answer-hook.mjs: it logs
 * every payload and answers the case's one event as the case says (a decision on
 * standard output, standard error and an exit code, a delay past the timeout, a crash).
 * The record (content/hook-behaviour/<agent>/<case>.json) keeps the hook configuration,
 * every hook payload of the call, which of them the hook answered, whether the tool's
 * side effect happened, and what the model was sent next: the result's text, is_error,
 * and any other text that came with it.
 *
 *   node scripts/hook-behaviour.ts [--only agent[/case]]... [--check] [--raw DIR] [--out DIR]
 *   node scripts/hook-behaviour.ts --only agent --release VERSION --out DIR
 *
 * With --release, an earlier release of one agent runs the agent's cases (installed like the
 * capture history's releases: scripts/lib/capture-history/install-release.ts); the records go
 * to --out only, with failures.json beside them (case → the reason, in the CLI's words where
 * it gave any): at another release a case may fail, which is part of that release's story
 * (scripts/hook-behaviour-history.ts reads it).
 *
 * Needs root, like `npm run payloads`, whose installs, namespace, run folder, runner and
 * masking it uses. Nothing under content/hook-behaviour/ is written unless every selected
 * case ran.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureInstalled, installedPackage, InstallError } from './lib/capture/install.ts';
import { installRelease } from './lib/capture-history/install-release.ts';
import { cliExitOf, said } from './lib/capture/capture-file.ts';
import { jsonText } from './lib/system/atomic-write.ts';
import { loadMatrix, MatrixError, type Matrix } from './lib/capture/matrix.ts';
import { NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { NamespaceRerunError, rerunInNamespace } from './lib/payloads/in-namespace.ts';
import { parseRunArgs, type RunArgs } from './lib/capture/run-args.ts';
import { updateFiles } from './lib/capture/write.ts';
import {
  answerFile,
  caseScenario,
  HookCaseError,
  hookReturn,
  loadHookCases,
  selectHookCases,
  type SelectedCase,
} from './lib/hook-behaviour/cases.ts';
import { otherTexts } from './lib/hook-behaviour/model-saw.ts';
import type { HookCommands, PayloadPaths } from './lib/payloads/drivers.ts';
import type { PayloadDriver } from '../src/lib/agents/index.ts';
import { maskPayloadValue } from './lib/payloads/mask.ts';
import { parseHookLog, RecordError, type RecordedCall, untagHookLog } from './lib/payloads/record.ts';
import { keepRecords, recordEach } from './lib/payloads/record-each.ts';
import { expandRunVariables } from './lib/payloads/run.ts';
import {
  additionFiles,
  driverOf,
  resultOfCall,
  runScenarioOnce,
  type ScenarioRun,
  scenarioMask,
} from './lib/payloads/scenario-run.ts';
import { ScenarioError } from './lib/payloads/scenarios.ts';
import { RELEASE_CANNOT_RUN } from './lib/hook-behaviour/history.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/hook-behaviour.ts');
const ANSWER_HOOK = join(ROOT, 'scripts/lib/hook-behaviour/answer-hook.mjs');
const RECORDS_DIR = join(ROOT, 'content/hook-behaviour');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';
const HISTORY_ROOT = join(CACHE_ROOT, 'history');
const USAGE =
  'node scripts/hook-behaviour.ts [--only agent[/case]]... [--check] [--raw DIR] [--out DIR] [--release VERSION]';

function fail(message: string): never {
  console.error(`hook-behaviour: ${message}`);
  process.exit(1);
}

function parseArgs(argv: string[]): RunArgs {
  const parsed = parseRunArgs(argv, { usage: USAGE, onlyTakes: 'agent or agent/case', out: true, release: true });
  if ('help' in parsed) {
    console.log(parsed.help);
    process.exit(0);
  }
  if ('error' in parsed) fail(parsed.error);
  return parsed;
}

/** The matrix (with --release, the selected agent's version moved to that release) and the selected cases. */
function load(options: RunArgs): { matrix: Matrix; selected: SelectedCase[] } {
  const pinned = loadMatrix(ROOT);
  const selected = selectHookCases(loadHookCases(ROOT, pinned), options.only);
  if (options.release === undefined) return { matrix: pinned, selected };
  const agents = [...new Set(selected.map((s) => s.agent))];
  if (agents.length !== 1)
    fail(`--release runs one agent's cases; --only selects ${agents.length === 0 ? 'none' : agents.join(', ')}`);
  const agent = agents[0]!;
  const matrix: Matrix = {
    ...pinned,
    agents: { ...pinned.agents, [agent]: { ...pinned.agents[agent], version: options.release } },
  };
  return { matrix, selected };
}

/**
 * Outside the namespace: installs (an earlier release into the history cache), then re-runs itself under `unshare -n`.
 */
function outside(options: RunArgs, argv: string[]): never {
  return rerunInNamespace({
    name: 'hook-behaviour',
    script: SCRIPT,
    argv,
    prepare: (log) => {
      const { matrix, selected } = load(options);
      const extraArgs: string[] = [];
      let cleanUp = (): void => {};
      for (const agent of new Set(selected.map((s) => s.agent))) {
        const { package: pkg, version } = matrix.agents[agent];
        if (options.release === undefined) ensureInstalled(agent, CACHE_ROOT, pkg, version, log);
        else {
          const installed = installRelease(
            agent,
            pkg,
            version,
            { cacheRoot: CACHE_ROOT, historyRoot: HISTORY_ROOT },
            log,
          );
          extraArgs.push('--binary', installed.binary);
          cleanUp = installed.remove;
        }
      }
      return { extraArgs, cleanUp };
    },
  });
}

/** Quotes one word for `sh -c`. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The answering hook's commands: the same log as the payload runs' hook, plus the answer; a plugin agent's answer is a
 * script its plugin runs.
 */
function answeringCommands(
  paths: PayloadPaths,
  answer: string,
  plugin: { event: string; script: string } | undefined,
): HookCommands {
  const base = [process.execPath, ANSWER_HOOK, paths.hookLog, answer].map(quote).join(' ');
  return {
    hookCommand: base,
    taggedHookCommand: (event) => `${base} ${quote(event)}`,
    ...(plugin ? { pluginAnswer: plugin } : {}),
  };
}

/** The answer the case's hook gives, written where the answering hook reads it; the log of what it answered, empty. */
function prepareAnswer(selected: SelectedCase, hooks: PayloadDriver['hooks'], paths: PayloadPaths) {
  const answerPath = join(paths.run, 'answer.json');
  const hook = expandRunVariables(selected.case.hook, { HOME: paths.home, WORKDIR: paths.workdir, RUN: paths.run });
  writeFileSync(answerPath, answerFile(hook, hooks.shape));
  const answeredLog = `${paths.hookLog}.answered`;
  rmSync(answeredLog, { force: true });
  return { hook, answerPath, answeredLog };
}

/** The events the answering hook answered, in order. */
function answeredEvents(answeredLog: string): string[] {
  return existsSync(answeredLog)
    ? readFileSync(answeredLog, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

/**
 * The case's one call as recorded, with every hook payload of the log as its own (matching payloads to calls by their
 * input, as hooksOfCalls does, would lose the after-events of a rewritten input), and its outcome.
 */
function answeredCall(run: ScenarioRun, recorded: RecordedCall, hooks: PayloadDriver['hooks']) {
  const { carrying, result, previous } = resultOfCall(run, run.planned[0]!.id);
  const { payloads, events } = untagHookLog(parseHookLog(run.hookLog));
  const tagged = events.every((e): e is string => e !== undefined) && events.length > 0;
  const { hookEvents: _matched, ...rest } = recorded;
  const call = {
    ...rest,
    outcome: hooks.outcome(result ?? {}, result ? run.wire.toolCalls.resultText(result) : '', payloads),
    hooks: payloads,
    ...(tagged ? { hookEvents: events } : {}),
  };
  return { call, carrying, result, previous };
}

/** The installed package that holds the release (the pinned one's, or an earlier release's in the history cache). */
function cliOf(agent: SelectedCase['agent'], matrix: Matrix): { package: string; version: string } {
  const { package: pkg, version } = matrix.agents[agent];
  return {
    package:
      installedPackage(agent, CACHE_ROOT, pkg, version) ?? installedPackage(agent, HISTORY_ROOT, pkg, version) ?? pkg,
    version,
  };
}

/**
 * The case's run, its hook answering as the case says; refused when the call could not be recorded (an earlier
 * release that never asks for it), in the CLI's own words too.
 */
async function runAnswering(
  selected: SelectedCase,
  matrix: Matrix,
  binary: string,
  paths: PayloadPaths,
  raw: string | undefined,
) {
  const { hooks } = driverOf(selected.agent);
  const { hook, answerPath, answeredLog } = prepareAnswer(selected, hooks, paths);
  const run = await runScenarioOnce(caseScenario(selected), matrix, binary, paths, {
    root: ROOT,
    raw,
    hookCommands: answeringCommands(
      paths,
      answerPath,
      hook.script === undefined ? undefined : { event: hook.event, script: hook.script },
    ),
    resultMayBeMissing: true,
  });
  if (run.conversation.error) throw new RecordError(run.conversation.error);
  if ('error' in run.recorded) {
    const exit = run.outcome.timedOut ? 'was killed at the limit' : `exited ${run.outcome.exitCode}`;
    throw new RecordError(`${run.recorded.error.message}; the CLI ${exit}${said(run.outcome)}`);
  }
  return { run, recorded: run.recorded.calls[0]!, hooks, hook, answeredLog };
}

async function runCase(
  selected: SelectedCase,
  matrix: Matrix,
  binary: string,
  paths: PayloadPaths,
  raw: string | undefined,
): Promise<unknown> {
  const sideEffect = selected.case.sideEffect === undefined ? undefined : join(paths.workdir, selected.case.sideEffect);
  const { run, recorded, hooks, hook, answeredLog } = await runAnswering(selected, matrix, binary, paths, raw);
  const { call, carrying, result, previous } = answeredCall(run, recorded, hooks);
  const mask = scenarioMask(run, [call], caseScenario(selected), matrix, paths, CACHE_ROOT, { REPO: ROOT });
  const c = selected.case;
  const record = {
    agent: selected.agent,
    cli: cliOf(selected.agent, matrix),
    case: c.id,
    kind: c.kind,
    toolRole: c.toolRole,
    description: c.description,
    configuration: selected.configuration,
    tool: c.call.tool,
    event: c.hook.event,
    hookReturn: hookReturn(hook),
    args: [...run.additions.args, ...(c.call.args ?? [])],
    env: { ...run.additions.env, ...(c.call.env ?? {}) },
    hookConfiguration: [
      ...additionFiles(run.additions),
      ...(run.additions.settings ? [{ where: 'settings', content: run.additions.settings }] : []),
    ],
    answered: answeredEvents(answeredLog),
    ...(sideEffect === undefined ? {} : { sideEffect: { path: c.sideEffect!, happened: existsSync(sideEffect) } }),
    call,
    modelSaw: {
      result: result === undefined ? null : run.wire.toolCalls.resultText(result),
      isError: call.outcome === 'failure',
      otherTexts: result === undefined ? [] : otherTexts(carrying, result, previous),
    },
    cliExit: cliExitOf(run.outcome, c.timeoutSeconds ?? 60, result !== undefined),
  };
  return maskPayloadValue(record, mask);
}

async function inside(options: RunArgs): Promise<number> {
  prepareNamespace();
  const { matrix, selected } = load(options);
  type Shown = {
    answered: string[];
    modelSaw: { result: string | null; isError: boolean };
    sideEffect?: { happened: boolean };
  };
  const { files, errors } = await recordEach({
    root: ROOT,
    cacheRoot: CACHE_ROOT,
    matrix,
    selected,
    schema: 'schemas/hook-case.schema.json',
    lockedBy: 'another payload or hook-behaviour run',
    leftovers: ['hooks.log.answered', 'answer.json'],
    width: 40,
    ...(options.binary === undefined ? {} : { binary: options.binary }),
    run: (s, binary, paths) => runCase(s, matrix, binary, paths, options.raw),
    summary: (s, record) => {
      const r = record as Shown;
      const effect = r.sideEffect === undefined ? '' : r.sideEffect.happened ? ', ran' : ', did not run';
      const saw =
        r.modelSaw.result === null
          ? 'no result'
          : `${r.modelSaw.isError ? 'error' : 'result'} ${JSON.stringify(r.modelSaw.result.slice(0, 60))}`;
      return `${s.key.padEnd(40)} answered ${r.answered.join(', ') || 'nothing'}${effect}; ${saw}`;
    },
  });
  if (options.release !== undefined) {
    // At an earlier release a failure is a finding, kept beside the records it left.
    const failures = Object.fromEntries(errors.map((e) => [e.slice(0, e.indexOf(': ')), e.slice(e.indexOf(': ') + 2)]));
    updateFiles(options.out!, new Map([...files, ['failures.json', jsonText(failures)]]));
    console.log(
      `\nwrote ${files.size} record(s) and ${errors.length} failure(s) of ${options.release} to ${options.out}`,
    );
    return 0;
  }
  return keepRecords(
    { files, errors },
    {
      script: 'hook-behaviour',
      what: 'record',
      selected: selected.length,
      unit: 'case',
      dir: RECORDS_DIR,
      shownDir: 'content/hook-behaviour/',
      out: options.out,
      check: options.check,
      partial: options.only.length > 0,
    },
  );
}

const argv = process.argv.slice(2);
const options = parseArgs(argv);
try {
  if (!options.inside) outside(options, argv);
  process.exitCode = await inside(options);
} catch (error) {
  // An earlier release that does not install, for its own reasons: the history records it as that release's
  // (RELEASE_CANNOT_RUN).
  if (error instanceof InstallError && !error.ours && options.release !== undefined) {
    console.error(`hook-behaviour: ${error.message}`);
    process.exit(RELEASE_CANNOT_RUN);
  }
  if (
    error instanceof MatrixError ||
    error instanceof InstallError ||
    error instanceof NamespaceError ||
    error instanceof NamespaceRerunError ||
    error instanceof HookCaseError ||
    error instanceof ScenarioError
  )
    fail(error.message);
  throw error;
}
