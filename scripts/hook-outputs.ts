/**
 * npm run hook-outputs — what a hook may return, per agent and event, as JSON Schema 2020-12
 * built from the agent's own published code (its registry module's HookMechanism.outputs):
 * TypeScript declarations of a published package (fetched with `npm pack` at the pin, or
 * written out by running the pinned binary without network), the object a plugin function
 * is handed to change, or the JSON Schemas compiled into the pinned program (read from the
 * capture's install: run `npm run capture` first). Writes content/hook-outputs/<agent>.json;
 * an agent whose published code declares none gets a file that says why.
 *
 *   npm run hook-outputs [-- --agent ID] [--check]
 *
 * Reruns at the same pins are byte-identical; each file is replaced atomically; nothing is
 * written for an agent whose reading fails, and the temporary folder is removed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGENT_IDS, AGENTS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { HookOutputSource } from '../src/lib/agents/types.ts';
import type { HookEventsFile } from '../src/lib/core/content-types.ts';
import { jsonText, replaceFile } from './lib/system/atomic-write.ts';
import { schemaAjv, schemaRefusal } from './lib/capture/ajv.ts';
import { installedBinary } from './lib/capture/install.ts';
import { loadMatrix } from './lib/capture/matrix.ts';
import {
  embeddedOutputs,
  HookOutputError,
  pluginOutputs,
  typescriptOutputs,
  type EventOutput,
} from './lib/hook-outputs.ts';
import { DownloadError, fetchPackage, unpackByRunning } from './lib/releases/npm-package.ts';
import { readPins, pinOf } from './lib/pins.ts';
import { ScriptError } from './lib/script-files.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';
const SCHEMA = 'schemas/hook-outputs.schema.json';

interface Read {
  source: { package: string; version: string; file: string; form: HookOutputSource['form']; note?: string };
  events: EventOutput[];
}

function eventsNamed(agent: AgentId): Set<string> {
  const file = JSON.parse(readFileSync(join(ROOT, 'content/hook-events', `${agent}.json`), 'utf8')) as HookEventsFile;
  return new Set(file.events.map((e) => e.name));
}

function readOutputs(agent: AgentId, source: Exclude<HookOutputSource, { form: 'none' }>, work: string): Read {
  const matrix = loadMatrix(ROOT);
  const pinned = matrix.agents[agent];
  if (source.form === 'embedded-json-schema') {
    const binary = installedBinary(agent, CACHE_ROOT, pinned.package, pinned.version);
    if (!binary)
      throw new ScriptError(
        `${agent}: ${pinned.package}@${pinned.version} is not installed under ${CACHE_ROOT}/capture-cli (run npm ` +
          `run capture first)`,
      );
    return {
      source: { package: pinned.package, version: pinned.version, file: AGENTS[agent].binary, form: source.form },
      events: embeddedOutputs(readFileSync(binary), source),
    };
  }
  const version =
    source.version === 'capture-pin'
      ? pinned.version
      : pinOf(readPins(join(ROOT, 'scripts/pins.json')), agent, 'scripts/pins.json').version;
  const { dir } = fetchPackage(source.package, version, work);
  if (source.form === 'plugin-output') {
    return {
      source: { package: source.package, version, file: source.file, form: source.form },
      events: pluginOutputs(readFileSync(join(dir, source.file), 'utf8'), source),
    };
  }
  let root = dir;
  let shown = (f: string): string => f;
  if (source.unpack) {
    const into = source.unpack.into.replaceAll('{version}', version);
    root = join(unpackByRunning(join(dir, source.unpack.binary), source.unpack.args, work), into);
    shown = (f) => `~/${into}/${f}`;
  }
  const text = source.files.map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
  const events = typescriptOutputs(text, source, source.namedEventsOnly ? eventsNamed(agent) : undefined);
  return {
    source: {
      package: source.package,
      version,
      file: source.files.map(shown).join(' + '),
      form: source.form,
      ...(source.note ? { note: source.note } : {}),
    },
    events,
  };
}

function main(): number {
  const argv = process.argv.slice(2);
  const only = argv.includes('--agent') ? argv[argv.indexOf('--agent') + 1] : undefined;
  const check = argv.includes('--check');
  if (only !== undefined && !isAgentId(only)) throw new ScriptError(`unknown agent ${only} (${AGENT_IDS.join(', ')})`);
  const validate = schemaAjv().compile(JSON.parse(readFileSync(join(ROOT, SCHEMA), 'utf8')) as object);
  let differs = 0;
  for (const agent of AGENT_IDS) {
    if (only && agent !== only) continue;
    const hooks = AGENTS[agent].hooks;
    const source = 'none' in hooks ? undefined : hooks.outputs;
    if (!source) {
      console.log(`${agent}: skipped: its registry module names no source of its hook outputs`);
      continue;
    }
    const work = mkdtempSync(join(tmpdir(), 'hook-outputs-'));
    let data: unknown;
    try {
      if (source.form === 'none') data = { agent, unavailable: source.why };
      else {
        const read = readOutputs(agent, source, work);
        data = {
          agent,
          source: read.source,
          events: read.events.map((e) => ({ event: e.event, declaredAs: e.declaredAs, schema: e.schema })),
        };
      }
    } catch (error) {
      if (error instanceof HookOutputError || error instanceof DownloadError)
        throw new ScriptError(`${agent}: ${error.message}`);
      throw error;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    if (!validate(data)) throw new ScriptError(schemaRefusal(`${agent}: the file`, SCHEMA, validate.errors));
    const path = join(ROOT, 'content/hook-outputs', `${agent}.json`);
    const text = jsonText(data);
    const events = (data as { events?: unknown[] }).events?.length ?? 0;
    if (check) {
      let same = false;
      try {
        same = readFileSync(path, 'utf8') === text;
      } catch {
        same = false;
      }
      console.log(`${agent}: content/hook-outputs/${agent}.json ${same ? 'is identical' : 'differs'}`);
      if (!same) differs++;
      continue;
    }
    replaceFile(path, text);
    console.log(`wrote content/hook-outputs/${agent}.json (${events === 0 ? 'none published' : `${events} events`})`);
  }
  return differs === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof ScriptError)) throw error;
  console.error(`hook-outputs: ${error.message}`);
  process.exit(1);
}
