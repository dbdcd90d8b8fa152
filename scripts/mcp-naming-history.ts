/**
 * npm run mcp-naming-history — when each agent's name for an MCP server's tool changed. The
 * configuration its registry module names (`mcpNaming.configuration`, one that configures the
 * stub server `capture`) is captured at a sample of the agent's earlier releases (the range of
 * its capture history plan, `--readings` of them spread evenly), and every interval whose two
 * ends name the stub tool differently is bisected (scripts/lib/capture-history/planner.ts), so
 * that each change lies between two adjacent published releases. A release whose capture
 * fails is a reading of its own, with the reason; a change next to one is still between the
 * two releases read. Captures run and are cached exactly as the capture history's
 * (`scripts/history-captures.ts --inside`, the history cache, the release driver
 * scripts/lib/releases/driver.ts), so the two never disagree; a failure of this machine stops the run.
 *
 *   node scripts/mcp-naming-history.ts [--agent ID]... [--readings N] [--check]
 *
 * Writes content/mcp-naming/<agent>.json (schemas/mcp-naming.schema.json). Needs root.
 */
import { join } from 'node:path';
import { AGENT_IDS, AGENTS, type AgentId, isAgentId, mcpNamingOf } from '../src/lib/agents/index.ts';
import { STUB_MCP_SERVER } from '../src/lib/agents/types.ts';
import type { CaptureFile } from '../src/lib/wire/index.ts';
import { jsonText } from './lib/system/atomic-write.ts';
import { loadMatrix } from './lib/capture/matrix.ts';
import { toolList } from './lib/capture/mcp-server.ts';
import { checkOrWrite } from './lib/capture/write.ts';
import { readCached, writeCached } from './lib/capture-history/cache.ts';
import type { ReleaseRange } from './lib/history/releases.ts';
import {
  agentReleases,
  HISTORY_ROOT,
  locateSettled,
  OurFailure,
  releaseReadings,
  runIsolated,
} from './lib/releases/driver.ts';
import { readTools } from './lib/verify/claims.ts';

const ROOT = join(import.meta.dirname, '..');
const HISTORY_SCRIPT = join(ROOT, 'scripts/history-captures.ts');
const OUT_DIR = join(ROOT, 'content/mcp-naming');

function fail(message: string): never {
  console.error(`mcp-naming-history: ${message}`);
  process.exit(1);
}

interface Options {
  agents: AgentId[];
  readings: number;
  check: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { agents: [], readings: 6, check: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--agent') {
      const v = argv[++i];
      if (v === undefined || !isAgentId(v)) fail(`--agent needs one of ${AGENT_IDS.join(', ')}`);
      o.agents.push(v);
    } else if (a === '--readings') {
      o.readings = Number(argv[++i]);
      if (!Number.isInteger(o.readings) || o.readings < 2) fail('--readings needs an integer of at least 2');
    } else if (a === '--check') o.check = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/mcp-naming-history.ts [--agent ID]... [--readings N] [--check]');
      process.exit(0);
    } else fail(`unknown argument ${a}`);
  }
  if (o.agents.length === 0) o.agents = AGENT_IDS.filter((id) => !('none' in AGENTS[id].captureHistory));
  return o;
}

/** What one release showed: the stub tool's name(s), or why its capture failed. */
export type Reading = { version: string; names: string[] } | { version: string; failed: string };

/**
 * The stub server's echo tool, told by its description: an earlier release may name it in a way the module's family no
 * longer matches.
 */
const ECHO_DESCRIPTION = toolList()[0]!.description;

/**
 * The stub server's tool in a capture, under every name it was offered (a deferred namespace of the server counts,
 * marked).
 */
function stubNames(agent: AgentId, capture: CaptureFile): string[] {
  const naming = mcpNamingOf(agent);
  const tools = readTools(capture);
  const names = [...tools.tools]
    .filter(([n, t]) => (t.description ?? '').includes(ECHO_DESCRIPTION) || (naming?.isStubServerTool(n) ?? false))
    .map(([n]) => n);
  if (names.length > 0) return names.sort();
  return [...tools.deferredNamespaces].filter((n) => n.includes(STUB_MCP_SERVER)).map((n) => `${n} (namespace only)`);
}

const key = (r: Reading): string => ('failed' in r ? 'failed' : r.names.join(' ') || '(none)');

/** What one agent's MCP naming history follows: its configuration that configures the stub server, its releases. */
function namingPlan(agent: AgentId): { pkg: string; configuration: string; versions: string[] } {
  const matrix = loadMatrix(ROOT);
  const { package: pkg, version: pin } = matrix.agents[agent];
  const plan = AGENTS[agent].captureHistory;
  if ('none' in plan) fail(`${agent} has no capture history plan: ${plan.none}`);
  const naming = AGENTS[agent].mcpNaming;
  if ('none' in naming) fail(`${agent} has no MCP naming to follow: ${naming.none}`);
  const configuration = naming.configuration;
  if (!matrix.agents[agent].configurations.some((c) => c.id === configuration))
    fail(`content/capture-matrix.json has no ${agent} configuration ${configuration}`);
  const range: ReleaseRange = { to: pin, ...plan.range };
  return { pkg, configuration, versions: agentReleases(agent, pkg, range) };
}

/**
 * What one release shows, from the capture history's cache; a release it lacks is captured first, exactly as the
 * capture history captures it (its `--inside`, through the release driver), or records why it cannot run.
 */
function readRelease(agent: AgentId, pkg: string, version: string, configuration: string): Reading {
  if (readCached(HISTORY_ROOT, agent, version, configuration) === undefined) {
    console.log(`  ${version}: capturing`);
    const outcome = runIsolated({
      agent,
      pkg,
      version,
      script: HISTORY_SCRIPT,
      args: ['--inside', '--agent', agent, '--version', version, '--config', configuration],
      timeoutMs: 4 * 60_000,
      log: (line) => console.log(`    ${line}`),
    });
    if (!outcome.ran) writeCached(HISTORY_ROOT, agent, version, configuration, { ok: false, error: outcome.cannotRun });
  }
  const cached = readCached(HISTORY_ROOT, agent, version, configuration)!;
  const reading: Reading = cached.ok
    ? { version, names: stubNames(agent, cached.capture as CaptureFile) }
    : { version, failed: cached.error.split('\n')[0]! };
  console.log(
    `  ${version}: ${'failed' in reading ? `failed: ${reading.failed}` : reading.names.join(', ') || 'no stub tool'}`,
  );
  return reading;
}

/** content/mcp-naming/<agent>.json: the readings (ascending) and each change between two adjacent releases. */
async function historyOf(agent: AgentId, o: Options): Promise<unknown> {
  const { pkg, configuration, versions } = namingPlan(agent);
  const step = Math.max(1, Math.ceil((versions.length - 1) / (o.readings - 1)));
  console.log(
    `\n${agent}: ${versions.length} releases ${versions[0]} … ${versions.at(-1)}, configuration ${configuration}, ` +
      `every ${step}th, then bisected`,
  );
  const readings = releaseReadings((i) => readRelease(agent, pkg, versions[i]!, configuration));
  const located = await locateSettled(versions.length, step, (a, b) => key(readings.read(a)) !== key(readings.read(b)));
  return {
    agent,
    package: pkg,
    configuration,
    listed: versions.length,
    from: versions[0],
    to: versions.at(-1),
    step,
    readings: located.read.map((i) => readings.read(i)),
    changes: located.changes.map(([a, b]) => ({ before: readings.read(a), after: readings.read(b) })),
  };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (process.getuid?.() !== 0)
    fail('must run as root: each capture runs inside a network namespace with only loopback (`unshare -n`)');
  const files = new Map<string, string>();
  for (const agent of o.agents) files.set(`${agent}.json`, jsonText(await historyOf(agent, o)));
  process.exitCode = checkOrWrite(OUT_DIR, files, {
    check: o.check,
    partial: o.agents.length < AGENT_IDS.length,
    script: 'mcp-naming-history',
    what: 'history',
    shownDir: 'content/mcp-naming/',
  });
}

try {
  await main();
} catch (error) {
  if (error instanceof OurFailure) fail(error.message);
  throw error;
}
