/**
 * npm run subagents — which tools each built-in subagent type gets. For every type the agent's
 * registry module names (Agent.subagents), the model stub asks the REAL pinned CLI to start
 * that subagent, answers the subagent's first model request with plain text, and records the
 * tools that request offered: content/subagents/<agent>.json.
 *
 *   node scripts/subagents.ts [--only agent]... [--check] [--raw DIR]
 *
 * The subagent's request is the first request on the tools path, after the one the call went
 * out in, that offers tools and does not carry the call's result (the main thread's next
 * request carries it; an asynchronous subagent's result can come first). Needs root, like
 * `npm run payloads`, whose installs, namespace, run folder and runner it uses. Nothing is
 * written unless every selected type ran.
 */
import { join } from 'node:path';
import { AGENTS, agentWireQuirks, type AgentId } from '../src/lib/agents/index.ts';
import { pathOf } from '../src/lib/wire/shared.ts';
import { ensureInstalled, installedPackage, InstallError } from './lib/capture/install.ts';
import { loadMatrix, MatrixError, type Matrix } from './lib/capture/matrix.ts';
import { NamespaceError, prepareNamespace } from './lib/capture/namespace.ts';
import { NamespaceRerunError, rerunInNamespace } from './lib/payloads/in-namespace.ts';
import { parseRunArgs, type RunArgs } from './lib/capture/run-args.ts';
import { checkOrWrite } from './lib/capture/write.ts';
import { jsonText } from './lib/system/atomic-write.ts';
import { recordEach } from './lib/payloads/record-each.ts';
import { runScenarioOnce } from './lib/payloads/scenario-run.ts';
import { ScenarioError, type SelectedScenario } from './lib/payloads/scenarios.ts';
import { RecordError } from './lib/payloads/record.ts';
import type { JsonRecord } from '../src/lib/core/json.ts';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'scripts/subagents.ts');
const OUT_DIR = join(ROOT, 'content/subagents');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';
const USAGE = 'node scripts/subagents.ts [--only agent]... [--check] [--raw DIR]';

function fail(message: string): never {
  console.error(`subagents: ${message}`);
  process.exit(1);
}

interface SelectedType extends SelectedScenario {
  type: string;
}

/** Every subagent type of every agent whose module names them, as a one-call scenario each. */
function selectTypes(only: readonly string[]): SelectedType[] {
  const out: SelectedType[] = [];
  for (const agent of Object.keys(AGENTS) as AgentId[]) {
    const spec = AGENTS[agent].subagents;
    if (spec === undefined) continue;
    for (const type of spec.types) {
      const key = `${agent}/${type}`;
      if (only.length > 0 && !only.includes(agent)) continue;
      out.push({
        agent,
        type,
        key,
        file: `${agent}.json`,
        configuration: spec.configuration,
        scenario: {
          id: type,
          tool: spec.tool,
          description: `Starts a ${type} subagent.`,
          input: spec.field === undefined ? { ...spec.input } : { ...spec.input, [spec.field]: type },
          expect: 'success',
          timeoutSeconds: 90,
        },
      });
    }
  }
  if (out.length === 0) fail(`nothing selected${only.length > 0 ? ` by ${only.join(', ')}` : ''}`);
  return out;
}

function outside(options: RunArgs, argv: string[]): never {
  return rerunInNamespace({
    name: 'subagents',
    script: SCRIPT,
    argv,
    prepare: (log) => {
      const matrix = loadMatrix(ROOT);
      for (const agent of new Set(selectTypes(options.only).map((s) => s.agent)))
        ensureInstalled(agent, CACHE_ROOT, matrix.agents[agent].package, matrix.agents[agent].version, log);
    },
  });
}

interface TypeRecord {
  type: string;
  input: JsonRecord;
  /** The tools the subagent's first request offered, in its order. */
  tools: string[];
  /** The tools the main thread's request offered, for comparison. */
  mainTools: string[];
  /** What the main thread's request says the type gets (the module's declaredPattern), in its words. */
  declared?: string;
}

/** Every string of a request body, joined by newlines: where a CLI's own words about its subagents are. */
function bodyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(bodyText).join('\n');
  if (value !== null && typeof value === 'object') return Object.values(value).map(bodyText).join('\n');
  return '';
}

async function runType(
  s: SelectedType,
  matrix: Matrix,
  binary: string,
  paths: Parameters<typeof runScenarioOnce>[3],
  raw: string | undefined,
): Promise<TypeRecord> {
  const run = await runScenarioOnce(s, matrix, binary, paths, { root: ROOT, raw, resultMayBeMissing: true });
  const { wire } = run;
  const id = run.planned[0]!.id;
  const requests = run.outcome.requests.filter(
    (r) => r.method === 'POST' && wire.isToolRequestPath(pathOf(r.url)) && wire.hasTools(r.json),
  );
  if (!run.conversation.sent.has(0))
    throw new RecordError(`no request offered tools for the ${s.scenario.tool} call to go out in`);
  // The main thread's request the call went out in: the first that offers tools.
  const sentAt = requests.findIndex((r) => wire.toolCalls.findResult(r.json, id) === undefined);
  if (sentAt < 0)
    throw new RecordError(`every request that offered tools carried the ${s.scenario.tool} call's result`);
  const subagent = requests.slice(sentAt + 1).find((r) => wire.toolCalls.findResult(r.json, id) === undefined);
  if (!subagent)
    throw new RecordError(
      `no request after the ${s.scenario.tool} call looks like the ${s.type} subagent's own (tools offered, the ` +
        `call's result not carried): ${requests.length} request(s) offered tools`,
    );
  const names = (body: JsonRecord): string[] =>
    wire
      .extractTools(body, {
        origin: { package: 'run', version: '0.0.0', file: 'run' },
        pointer: '/body',
        quirks: agentWireQuirks(s.agent),
      })
      .map((t) => t.fullName);
  const pattern = AGENTS[s.agent].subagents?.declaredPattern;
  const declared =
    pattern === undefined
      ? undefined
      : new RegExp(pattern.replace('{type}', s.type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).exec(
          bodyText(requests[sentAt]!.json),
        )?.[1];
  return {
    type: s.type,
    input: s.scenario.input as JsonRecord,
    tools: names(subagent.json as JsonRecord),
    mainTools: names(requests[sentAt]!.json as JsonRecord),
    ...(declared === undefined ? {} : { declared }),
  };
}

async function inside(options: RunArgs): Promise<number> {
  prepareNamespace();
  const matrix = loadMatrix(ROOT);
  const selected = selectTypes(options.only);
  const records = new Map<string, TypeRecord>();
  const { errors } = await recordEach({
    root: ROOT,
    cacheRoot: CACHE_ROOT,
    matrix,
    selected,
    schema: 'schemas/subagent-type.schema.json',
    lockedBy: 'another payload, hook-behaviour or subagents run',
    width: 36,
    run: async (s, binary, paths) => {
      const record = await runType(s, matrix, binary, paths, options.raw);
      records.set(s.key, record);
      return record;
    },
    summary: (s, record) =>
      `${s.key.padEnd(36)} ${(record as TypeRecord).tools.length} tools of the main thread's ` +
      `${(record as TypeRecord).mainTools.length}`,
  });
  if (errors.length > 0) {
    console.error(
      `\nsubagents failed for ${errors.length} of ${selected.length} type(s); content/subagents/ was left untouched:\n`,
    );
    for (const e of errors) console.error(`- ${e}\n`);
    return 1;
  }
  const files = new Map<string, string>();
  for (const agent of new Set(selected.map((s) => s.agent))) {
    const spec = AGENTS[agent].subagents!;
    const { package: pkg, version } = matrix.agents[agent];
    const types = selected.filter((s) => s.agent === agent).map((s) => records.get(s.key)!);
    files.set(
      `${agent}.json`,
      jsonText({
        agent,
        cli: { package: installedPackage(agent, CACHE_ROOT, pkg, version) ?? pkg, version },
        configuration: spec.configuration,
        tool: spec.tool,
        ...(spec.field === undefined ? {} : { field: spec.field }),
        types,
      }),
    );
  }
  return checkOrWrite(OUT_DIR, files, {
    check: options.check,
    partial: options.only.length > 0,
    script: 'subagents',
    what: 'file',
    shownDir: 'content/subagents/',
  });
}

const argv = process.argv.slice(2);
const parsed = parseRunArgs(argv, { usage: USAGE, onlyTakes: 'an agent' });
if ('help' in parsed) {
  console.log(parsed.help);
  process.exit(0);
}
if ('error' in parsed) fail(parsed.error);
try {
  if (!parsed.inside) outside(parsed, argv);
  process.exitCode = await inside(parsed);
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
