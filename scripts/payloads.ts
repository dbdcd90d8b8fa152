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
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { jsonText } from './lib/atomic-write.ts';
import { schemaAjv } from './lib/capture/ajv.ts';
import { checkOutcome } from './lib/capture/capture-file.ts';
import { ensureInstalled, installDir, installedBinary, installedPackage, InstallError } from './lib/capture/install.ts';
import { loadMatrix, MatrixError, type Configuration, type Matrix } from './lib/capture/matrix.ts';
import { lockRunFolder, NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { CaptureError } from './lib/capture/normalise.ts';
import { runConfiguration, type RunPaths } from './lib/capture/runner.ts';
import { checkOrWrite, updateFiles } from './lib/capture/write.ts';
import { parseRunArgs, type RunArgs } from './lib/capture/run-args.ts';
import { agentWires, payloadDriver, type PayloadDriver } from '../src/lib/agents/index.ts';
import { mergeSettings } from '../src/lib/agents/settings.ts';
import { Conversation, type PlannedCall } from './lib/payloads/conversation.ts';
import { payloadPaths, runAdditions, type PayloadPaths } from './lib/payloads/drivers.ts';
import { learnValues, maskPayloadValue, payloadMask } from './lib/payloads/mask.ts';
import { recordCalls, RecordError } from './lib/payloads/record.ts';
import { configurationWire, expandRunVariables, payloadSummary } from './lib/payloads/run.ts';
import { loadScenarios, ScenarioError, scenarioCalls, scenarioTools, selectScenarios, type SelectedScenario } from './lib/payloads/scenarios.ts';
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
  const parsed = parseRunArgs(argv, { usage: 'node scripts/payloads.ts [--only agent[/tool[/scenario]]]... [--check] [--raw DIR] [--out DIR]', onlyTakes: 'agent, agent/tool or agent/tool/scenario', out: true });
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
  if (process.platform !== 'linux') fail('payloads runs only on Linux (it needs network namespaces)');
  if (process.getuid?.() !== 0) fail('payloads must run as root: each CLI runs inside a network namespace with only loopback (`unshare -n`), which needs root');
  const { matrix, selected } = load();
  const agents = new Set(selected(options).map((s) => s.agent));
  for (const agent of agents) {
    const { package: pkg, version } = matrix.agents[agent];
    ensureInstalled(agent, CACHE_ROOT, pkg, version, (line) => console.log(line));
  }
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    fail(`\`unshare -n\` failed, so the CLIs cannot be isolated from the network; refusing to run them (${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}`)})`);
  }
  const inner = spawnSync('unshare', ['-n', process.execPath, SCRIPT, '--inside', ...argv], { stdio: 'inherit' });
  if (inner.error) fail(`could not start the payload runs inside the namespace: ${inner.error.message}`);
  process.exit(inner.status ?? 1);
}

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
function driverOf(agent: SelectedScenario['agent']): PayloadDriver {
  const driver = payloadDriver(agent);
  if ('none' in driver) throw new ScenarioError(`${agent}: its hook payloads cannot be recorded: ${driver.none}`);
  return driver;
}

/** The request path the configuration's committed capture recorded, when there is one. */
function capturedPath(agent: SelectedScenario['agent'], configuration: string): string | undefined {
  const file = join(ROOT, 'content/captures', agent, `${configuration}.json`);
  if (!existsSync(file)) return undefined;
  const capture = JSON.parse(readFileSync(file, 'utf8')) as { request?: { path?: unknown } };
  return typeof capture.request?.path === 'string' ? capture.request.path : undefined;
}

async function runScenario(selected: SelectedScenario, matrix: Matrix, binary: string, paths: PayloadPaths, raw: string | undefined): Promise<unknown> {
  const { agent, scenario } = selected;
  const driver = driverOf(agent);
  const { hooks } = driver;
  const wire = configurationWire(agentWires(agent), capturedPath(agent, selected.configuration), driver.wire);
  const wireCalls = wire.toolCalls;
  const base = matrix.agents[agent].configurations.find((c) => c.id === selected.configuration)!;
  const tools = scenario.allowedTools ?? scenarioTools(scenario);
  const additions = runAdditions(hooks, paths, tools);
  const configuration: Configuration = {
    ...base,
    args: [...base.args, ...additions.args, ...(scenario.args ?? [])],
    env: { ...base.env, ...additions.env, ...Object.fromEntries(Object.entries(scenario.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined)) },
    timeoutSeconds: scenario.timeoutSeconds ?? 60,
    ...(additions.settings ? { settings: mergeSettings(base.settings ?? {}, additions.settings) } : {}),
  };
  const runPaths: RunPaths = { home: paths.home, workdir: paths.workdir, node: process.execPath, mcpServer: join(ROOT, 'scripts/lib/capture/mcp-server.ts') };
  const vars = { HOME: paths.home, WORKDIR: paths.workdir, RUN: paths.run };
  const files = new Map<string, string | Uint8Array>(additions.files);
  for (const [rel, content] of Object.entries(scenario.files ?? {})) {
    if (content === undefined) continue;
    files.set(join(paths.workdir, rel), typeof content === 'string' ? expandRunVariables(content, vars) : Buffer.from(content.base64, 'base64'));
  }
  const calls = scenarioCalls(scenario);
  const planned: PlannedCall[] = calls.map((c, i) => ({ id: wireCalls.callId(i), tool: c.tool, input: expandRunVariables(c.input, vars), ...(c.bind ? { bind: c.bind } : {}) }));
  const conversation = new Conversation(wire, planned);

  rmSync(paths.tmp, { recursive: true, force: true });
  mkdirSync(paths.tmp, { recursive: true });
  rmSync(paths.hookLog, { force: true });
  const outcome = await runConfiguration(agent, configuration, binary, runPaths, { answer: (r) => conversation.answer(r), files });
  const hookLog = existsSync(paths.hookLog) ? readFileSync(paths.hookLog, 'utf8') : '';
  const logs = hooks.logDir === undefined ? [] : filesUnder(join(paths.home, hooks.logDir)).map((f) => readFileSync(f, 'utf8'));
  if (raw) {
    mkdirSync(raw, { recursive: true });
    const dump = { exitCode: outcome.exitCode, timedOut: outcome.timedOut, stdout: outcome.stdout, stderr: outcome.stderr, hookLog, logs, requests: outcome.requests };
    writeFileSync(join(raw, selected.key.replaceAll('/', '-') + '.json'), jsonText(dump));
  }
  checkOutcome(configuration, outcome);
  if (conversation.error) throw new RecordError(conversation.error);
  const recorded = recordCalls(
    hooks,
    wireCalls,
    planned.map((c, i) => ({ id: c.id, tool: c.tool, kind: wireCalls.callKind(c.input), input: conversation.sent.get(i), ...(calls[i]!.resultSent === false ? { resultSent: false } : {}) })),
    { bodies: outcome.requests.map((r) => r.json), stdout: outcome.stdout, hookLog, logs },
  );
  recorded.calls.forEach((c, i) => {
    if (c.outcome !== calls[i]!.expect) {
      throw new RecordError(`call ${i + 1} (${c.tool}) was expected to report ${calls[i]!.expect}, the CLI reported ${c.outcome}: ${JSON.stringify((c.result ? wireCalls.resultText(c.result) : '').slice(0, 400))}`);
    }
  });

  const learned = learnValues(recorded.calls);
  const volatile = new Set(calls.flatMap((c) => (c.bind ?? []).filter((b) => b.volatile).map((b) => b.name)));
  for (const [name, value] of conversation.bound) if (volatile.has(name)) learned.set(value, name);
  // Claude Code names its per-project folders after the working directory (`/` → `-`).
  // The installed CLI's folder shows in results that name its bundled files (Gemini CLI's built-in skills).
  const { package: installed, version: installedVersion } = matrix.agents[agent];
  const exact = { ...outcome.variables, RUN: paths.run, WORKDIR_SLUG: paths.workdir.replace(/[^A-Za-z0-9]/g, '-'), KERNEL: release(), CLI_INSTALL: installDir(CACHE_ROOT, installed, installedVersion) };
  const mask = payloadMask(exact, [outcome.startedAt, outcome.endedAt], learned);
  const { package: pkg, version } = matrix.agents[agent];
  const payload = {
    agent,
    // The package the release was installed from: the agent's own, or its platform package where that one lacks the release.
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
  const validate = schemaAjv().compile(JSON.parse(readFileSync(join(ROOT, 'schemas/payload.schema.json'), 'utf8')) as object);
  const paths = payloadPaths(join(CACHE_ROOT, 'payload-run'));
  const unlock = lockRunFolder(paths.run, 'another payload run');
  const files = new Map<string, string>();
  const errors: string[] = [];
  try {
    for (const s of selected) {
      const { package: pkg, version } = matrix.agents[s.agent];
      const binary = installedBinary(s.agent, CACHE_ROOT, pkg, version);
      if (!binary) {
        errors.push(`${s.key}: ${pkg}@${version} is not installed under ${CACHE_ROOT}/capture-cli (run without --inside)`);
        continue;
      }
      const t0 = Date.now();
      try {
        const payload = await runScenario(s, matrix, binary, paths, options.raw);
        if (!validate(payload)) {
          throw new RecordError(`the payload does not match schemas/payload.schema.json: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
        }
        files.set(s.file, jsonText(payload));
        console.log(`  ${payloadSummary(s.key, payload as Parameters<typeof payloadSummary>[1]).padEnd(70)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (error) {
        const known = error instanceof CaptureError || error instanceof RecordError || error instanceof ScenarioError;
        errors.push(`${s.key}: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}`);
        console.log(`  ${s.key.padEnd(70)} FAILED`);
      }
    }
  } finally {
    for (const dir of [paths.home, paths.workdir, paths.tmp]) rmSync(dir, { recursive: true, force: true });
    rmSync(paths.hookLog, { force: true });
    unlock();
  }
  if (errors.length > 0) {
    console.error(`\npayloads failed for ${errors.length} of ${selected.length} scenario(s); content/payloads/ was left untouched:\n`);
    for (const e of errors) console.error(`- ${e}\n`);
    return 1;
  }
  const report = checkSiteModelPayloads(ROOT, files);
  if (report.length > 0) console.log(`\nagainst the declared shapes (src/lib/payload-check.ts):\n${report.map((l) => `  ${l}`).join('\n')}`);
  if (options.out !== undefined) {
    updateFiles(options.out, files);
    console.log(`\nwrote ${files.size} payload(s) to ${options.out}`);
    return 0;
  }
  return checkOrWrite(PAYLOADS_DIR, files, { check: options.check, partial: options.only.length > 0, script: 'payloads', what: 'payload', shownDir: 'content/payloads/' });
}

const argv = process.argv.slice(2);
const options = parseArgs(argv);
try {
  if (!options.inside) outside(options, argv);
  process.exitCode = await inside(options);
} catch (error) {
  if (error instanceof MatrixError || error instanceof InstallError || error instanceof NamespaceError || error instanceof ScenarioError) fail(error.message);
  throw error;
}
