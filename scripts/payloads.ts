/**
 * npm run payloads — makes the REAL pinned CLIs execute tool calls and records what
 * happens: for every scenario of content/scenarios.json, the model stub answers with the
 * scenario's tool call, the CLI runs the tool in a throwaway work folder, and the input,
 * the result sent back to the model, the hook payloads and the CLI's structured result
 * are written to content/payloads/<agent>/<tool slug>.<scenario>.json.
 *
 *   node scripts/payloads.ts [--only agent[/tool[/scenario]]]... [--check] [--raw DIR] [--out DIR]
 *
 *   --only   run only these scenarios; their files are written, the others kept
 *   --check  write nothing: compare the new payloads with the committed ones, exit 1 on
 *            any difference
 *   --raw    also write each run's requests, standard output and hook log, unmasked,
 *            to DIR/<agent>-<tool>-<scenario>.json (for debugging)
 *   --out    write the new payloads under DIR (<agent>/<tool slug>.<scenario>.json) instead
 *            of content/payloads/, comparing nothing (`npm run verify` compares them itself)
 *
 * Needs root, like `npm run capture` (whose install, namespace, lock, runner, stub and
 * masking it uses): the CLIs run inside a network namespace that has only loopback.
 * Each run gets a fresh HOME, work folder and TMPDIR at fixed paths under
 * $CAPTURE_CACHE_DIR/payload-run/ (default /work/cache), and a hard timeout.
 */
import { join } from 'node:path';
import { checkOutcome } from './lib/capture/capture-file.ts';
import { ensureInstalled, installedPackage, InstallError } from './lib/capture/install.ts';
import { loadMatrix, MatrixError, type Matrix } from './lib/capture/matrix.ts';
import { NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { NamespaceRerunError, rerunInNamespace } from './lib/payloads/in-namespace.ts';
import { parseRunArgs, type RunArgs } from './lib/capture/run-args.ts';
import type { PayloadPaths } from './lib/payloads/drivers.ts';
import { maskPayloadValue } from './lib/payloads/mask.ts';
import { keepRecords, recordEach } from './lib/payloads/record-each.ts';
import { RecordError } from './lib/payloads/record.ts';
import { runScenarioOnce, scenarioMask } from './lib/payloads/scenario-run.ts';
import { payloadSummary } from './lib/payloads/run.ts';
import { hookShapeOf } from '../src/lib/agents/hook-shape.ts';
import { loadScenarios, ScenarioError, selectScenarios, type SelectedScenario } from './lib/payloads/scenarios.ts';
import { checkSiteModelPayloads } from './lib/payloads/report.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/payloads.ts');
const PAYLOADS_DIR = join(ROOT, 'content/payloads');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';

type Options = RunArgs;

function fail(message: string): never {
  console.error(`payloads: ${message}`);
  process.exit(1);
}

function parseArgs(argv: string[]): Options {
  const parsed = parseRunArgs(argv, {
    usage: 'node scripts/payloads.ts [--only agent[/tool[/scenario]]]... [--check] [--raw DIR] [--out DIR]',
    onlyTakes: 'agent, agent/tool or agent/tool/scenario',
    out: true,
  });
  if ('help' in parsed) {
    console.log(parsed.help);
    process.exit(0);
  }
  if ('error' in parsed) fail(parsed.error);
  return parsed;
}

function load(): { matrix: Matrix; selected: (options: Options) => SelectedScenario[] } {
  const matrix = loadMatrix(ROOT);
  const scenarios = loadScenarios(ROOT, matrix);
  return { matrix, selected: (options) => selectScenarios(scenarios, options.only) };
}

/** Outside the namespace: checks, installs, then re-runs itself under `unshare -n`. */
function outside(options: Options, argv: string[]): never {
  return rerunInNamespace({
    name: 'payloads',
    script: SCRIPT,
    argv,
    prepare: (log) => {
      const { matrix, selected } = load();
      for (const agent of new Set(selected(options).map((s) => s.agent)))
        ensureInstalled(agent, CACHE_ROOT, matrix.agents[agent].package, matrix.agents[agent].version, log);
    },
  });
}

async function runScenario(
  selected: SelectedScenario,
  matrix: Matrix,
  binary: string,
  paths: PayloadPaths,
  raw: string | undefined,
): Promise<unknown> {
  const { agent, scenario } = selected;
  const run = await runScenarioOnce(selected, matrix, binary, paths, { root: ROOT, raw });
  const { outcome, configuration, additions, conversation, calls } = run;
  const wireCalls = run.wire.toolCalls;
  checkOutcome(configuration, outcome);
  if (conversation.error) throw new RecordError(conversation.error);
  if ('error' in run.recorded) throw run.recorded.error;
  const recorded = run.recorded;
  recorded.calls.forEach((c, i) => {
    if (c.outcome !== calls[i]!.expect) {
      throw new RecordError(
        `call ${i + 1} (${c.tool}) was expected to report ${calls[i]!.expect}, the CLI reported ${c.outcome}: ` +
          `${JSON.stringify((c.result ? wireCalls.resultText(c.result) : '').slice(0, 400))}`,
      );
    }
  });

  const mask = scenarioMask(run, recorded.calls, selected, matrix, paths, CACHE_ROOT);
  const { package: pkg, version } = matrix.agents[agent];
  const payload = {
    agent,
    // The package the release was installed from: the agent's own, or its platform package where that one lacks the
    // release.
    cli: { package: installedPackage(agent, CACHE_ROOT, pkg, version) ?? pkg, version },
    tool: scenario.tool,
    scenario: scenario.id,
    description: scenario.description,
    configuration: selected.configuration,
    args: [...additions.args, ...(scenario.args ?? [])],
    env: { ...additions.env, ...(scenario.env ?? {}) },
    expect: scenario.expect,
    calls: recorded.calls,
    ...(recorded.execEvents ? { execEvents: recorded.execEvents } : {}),
  };
  return maskPayloadValue(payload, mask);
}

async function inside(options: Options): Promise<number> {
  prepareNamespace();
  const { matrix, selected: select } = load();
  const selected = select(options);
  const { files, errors } = await recordEach({
    root: ROOT,
    cacheRoot: CACHE_ROOT,
    matrix,
    selected,
    schema: 'schemas/payload.schema.json',
    lockedBy: 'another payload run',
    width: 70,
    run: (s, binary, paths) => runScenario(s, matrix, binary, paths, options.raw),
    summary: (s, payload) =>
      payloadSummary(s.key, payload as Parameters<typeof payloadSummary>[1], hookShapeOf(s.agent)?.eventField),
  });
  return keepRecords(
    { files, errors },
    {
      script: 'payloads',
      what: 'payload',
      selected: selected.length,
      unit: 'scenario',
      dir: PAYLOADS_DIR,
      shownDir: 'content/payloads/',
      out: options.out,
      check: options.check,
      partial: options.only.length > 0,
      afterSuccess: () => {
        const report = checkSiteModelPayloads(ROOT, files);
        if (report.length > 0)
          console.log(
            `\nagainst the declared shapes ` +
              `(src/lib/check/payload-check.ts):\n${report.map((l) => `  ${l}`).join('\n')}`,
          );
      },
    },
  );
}

const argv = process.argv.slice(2);
const options = parseArgs(argv);
try {
  if (!options.inside) outside(options, argv);
  process.exitCode = await inside(options);
} catch (error) {
  if (
    error instanceof MatrixError ||
    error instanceof InstallError ||
    error instanceof NamespaceError ||
    error instanceof NamespaceRerunError ||
    error instanceof ScenarioError
  )
    fail(error.message);
  throw error;
}
