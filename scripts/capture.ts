/**
 * npm run capture — runs the REAL pinned CLIs (content/capture-matrix.json) against a
 * recording stub of their model API and writes, for every configuration, what the CLI
 * told its model about tools: content/captures/<agent>/<configuration>.json.
 *
 *   node scripts/capture.ts [--only agent[/id]]... [--check] [--out DIR]
 *
 *   --only   run only these configurations; their files are written, the others kept
 *   --check  write nothing: compare the new captures with the committed ones, exit 1 on
 *            any difference
 *   --out    write the captures under DIR/<agent>/<id>.json instead, content/ untouched (npm run verify)
 *   --raw    also write every request each run sent, unmasked, to DIR/<agent>-<id>.json
 *   --matrix use FILE instead of content/capture-matrix.json
 *
 * Needs root: the CLIs run inside a network namespace that has only loopback
 * (`unshare -n`), so nothing they send can leave the machine. The pinned releases are
 * installed with npm (outside that namespace) into $CAPTURE_CACHE_DIR/capture-cli/
 * (default /work/cache). Each run gets a fresh HOME and working directory at fixed paths
 * under $CAPTURE_CACHE_DIR/capture-run/ so that the paths in the captured text are stable;
 * they are then replaced by placeholders ($HOME, $WORKDIR, …).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, type AgentId } from '../src/lib/agents/index.ts';
import { jsonText } from './lib/system/atomic-write.ts';
import { schemaAjv, schemaRefusal } from './lib/capture/ajv.ts';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { loadMatrix, selectConfigurations, MatrixError, type Matrix, type Selected } from './lib/capture/matrix.ts';
import { lockRunFolder, NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { ensureInstalled, installedBinary, installedPackage, InstallError } from './lib/capture/install.ts';
import { RequiredCommandError } from './lib/capture/required-commands.ts';
import { runConfiguration, type RunOutcome, type RunPaths } from './lib/capture/runner.ts';
import { buildCapture, countTools, summaryLine } from './lib/capture/capture-file.ts';
import { CaptureError } from './lib/capture/normalise.ts';
import { checkOrWrite } from './lib/capture/write.ts';
import { parseRunArgs, type RunArgs } from './lib/capture/run-args.ts';
import { captureRunFolder } from './lib/capture/run-folders.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/capture.ts');
const CAPTURES_DIR = join(ROOT, 'content/captures');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';

type Options = RunArgs;

function parseArgs(argv: string[]): Options {
  const parsed = parseRunArgs(argv, {
    usage: 'node scripts/capture.ts [--only agent[/id]]... [--check] [--out DIR] [--raw DIR] [--matrix FILE]',
    onlyTakes: 'agent or agent/id',
    matrix: true,
    out: true,
  });
  if ('help' in parsed) {
    console.log(parsed.help);
    process.exit(0);
  }
  if ('error' in parsed) fail(parsed.error);
  return parsed;
}

function fail(message: string): never {
  console.error(`capture: ${message}`);
  process.exit(1);
}

/** Outside the namespace: checks, installs, then re-runs itself under `unshare -n`. */
function outside(options: Options, argv: string[]): never {
  if (process.platform !== 'linux') fail('capture runs only on Linux (it needs network namespaces)');
  if (process.getuid?.() !== 0)
    fail(
      'capture must run as root: each CLI runs inside a network namespace with only loopback (`unshare -n`), ' +
        'which needs root',
    );
  const matrix = loadMatrix(ROOT, options.matrix);
  const selected = selectConfigurations(matrix, options.only);
  const agents = new Set(selected.map((s) => s.agent));
  for (const agent of AGENT_IDS) {
    if (!agents.has(agent)) continue;
    const { package: pkg, version } = matrix.agents[agent];
    ensureInstalled(agent, CACHE_ROOT, pkg, version, (line) => console.log(line));
  }
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    fail(
      `\`unshare -n\` failed, so the CLIs cannot be isolated from the network; refusing to run them ` +
        `(${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}`)})`,
    );
  }
  const inner = spawnSync('unshare', ['-n', process.execPath, SCRIPT, '--inside', ...argv], { stdio: 'inherit' });
  if (inner.error) fail(`could not start the capture inside the namespace: ${inner.error.message}`);
  process.exit(inner.status ?? 1);
}

/** The capture file schema, compiled once for every run. */
type Validate = ReturnType<Ajv2020['compile']>;

/** Where each agent's pinned release is installed (by `outside`, before the namespace); others are left out. */
function installedBinaries(matrix: Matrix): Map<AgentId, string> {
  const binaries = new Map<AgentId, string>();
  for (const agent of AGENT_IDS) {
    const { package: pkg, version } = matrix.agents[agent];
    const binary = installedBinary(agent, CACHE_ROOT, pkg, version);
    if (binary) binaries.set(agent, binary);
  }
  return binaries;
}

/** --raw: every request the run sent, unmasked, with how it ended. */
function writeRaw(dir: string, name: string, outcome: RunOutcome): void {
  mkdirSync(dir, { recursive: true });
  const dump = {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    stderr: outcome.stderr,
    requests: outcome.requests,
  };
  writeFileSync(join(dir, `${name}.json`), jsonText(dump));
}

/** Runs one configuration and makes its capture file, checked against the schema; throws CaptureError on a bad run. */
async function captureOne(
  { agent, configuration }: Selected,
  matrix: Matrix,
  binary: string,
  paths: RunPaths,
  options: Options,
  validate: Validate,
): Promise<{ text: string; line: string }> {
  const { package: pkg, version } = matrix.agents[agent];
  const outcome = await runConfiguration(agent, configuration, binary, paths);
  if (options.raw) writeRaw(options.raw, `${agent}-${configuration.id}`, outcome);
  // The package the release was installed from: the agent's own, or its platform package where that one lacks the
  // release.
  const from = installedPackage(agent, CACHE_ROOT, pkg, version) ?? pkg;
  const capture = buildCapture(agent, from, version, configuration, outcome);
  if (!validate(capture)) {
    throw new CaptureError(schemaRefusal('the capture', 'schemas/capture.schema.json', validate.errors));
  }
  return { text: jsonText(capture), line: summaryLine(agent, configuration.id, countTools(capture)) };
}

/** What the runs made: capture files by path under content/captures/, summary lines, and each failure. */
interface Captured {
  files: Map<string, string>;
  summary: string[];
  errors: string[];
}

/** Runs every selected configuration in turn, in the one run folder; a failure does not stop the others. */
async function captureAll(
  selected: readonly Selected[],
  matrix: Matrix,
  paths: RunPaths,
  options: Options,
): Promise<Captured> {
  const validate = schemaAjv().compile(
    JSON.parse(readFileSync(join(ROOT, 'schemas/capture.schema.json'), 'utf8')) as object,
  );
  const binaries = installedBinaries(matrix);
  const out: Captured = { files: new Map(), summary: [], errors: [] };
  for (const one of selected) {
    const name = `${one.agent}/${one.configuration.id}`;
    const binary = binaries.get(one.agent);
    if (!binary) {
      const { package: pkg, version } = matrix.agents[one.agent];
      out.errors.push(
        `${name}: ${pkg}@${version} is not installed under ${CACHE_ROOT}/capture-cli (run without --inside)`,
      );
      continue;
    }
    const t0 = Date.now();
    try {
      const { text, line } = await captureOne(one, matrix, binary, paths, options, validate);
      out.files.set(`${name}.json`, text);
      out.summary.push(line);
      console.log(`  ${line}  (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (error) {
      const message =
        error instanceof CaptureError || error instanceof RequiredCommandError
          ? error.message
          : ((error as Error).stack ?? String(error));
      out.errors.push(`${name} (${one.configuration.label}): ${message}`);
      console.log(`  ${name.padEnd(40)} FAILED`);
    }
  }
  return out;
}

/** Inside the namespace: runs the selected configurations, then writes (or checks) all the captures or none. */
async function inside(options: Options): Promise<number> {
  prepareNamespace();
  const matrix = loadMatrix(ROOT, options.matrix);
  const selected = selectConfigurations(matrix, options.only);
  const runRoot = captureRunFolder(CACHE_ROOT);
  const paths: RunPaths = {
    home: join(runRoot, 'home'),
    workdir: join(runRoot, 'work'),
    node: process.execPath,
    mcpServer: join(ROOT, 'scripts/lib/capture/mcp-server.ts'),
  };
  const unlock = lockRunFolder(runRoot, 'another capture');
  let captured: Captured;
  try {
    captured = await captureAll(selected, matrix, paths, options);
  } finally {
    rmSync(paths.home, { recursive: true, force: true });
    rmSync(paths.workdir, { recursive: true, force: true });
    unlock();
  }
  return finish(captured, selected.length, options);
}

/** Writes the captures (or compares them, with --check) when every run succeeded; else says what failed. */
function finish({ files, summary, errors }: Captured, selectedCount: number, options: Options): number {
  const [dir, shownDir] = options.out ? [options.out, `${options.out}/`] : [CAPTURES_DIR, 'content/captures/'];
  if (errors.length > 0) {
    console.error(
      `\ncapture failed for ${errors.length} of ${selectedCount} configuration(s); ${shownDir} was left untouched:\n`,
    );
    for (const e of errors) console.error(`- ${e}\n`);
    return 1;
  }
  const code = checkOrWrite(dir, files, {
    check: options.check,
    // A folder of its own holds only what this run captured; content/captures/ keeps the configurations not run.
    partial: options.only.length > 0 || options.out !== undefined,
    script: 'capture',
    what: 'capture',
    shownDir,
  });
  if (code !== 0 || options.check) return code;
  for (const line of summary) console.log(`  ${line}`);
  return 0;
}

const argv = process.argv.slice(2);
const options = parseArgs(argv);
try {
  if (!options.inside) outside(options, argv);
  process.exitCode = await inside(options);
} catch (error) {
  if (error instanceof MatrixError || error instanceof InstallError || error instanceof NamespaceError)
    fail(error.message);
  throw error;
}
