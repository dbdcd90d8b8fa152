/**
 * Writes content/hook-events/<agent>.json: the hook events the agent's published
 * code names, read from the release content/capture-matrix.json pins, where its
 * registry module says they are declared (HookMechanism.named.source).
 *
 *   npm run hook-events                     every agent whose module declares a source
 *   npm run hook-events -- --agent ID
 *
 * The package (the agent's own, or the platform package the source names, at the pinned
 * version) is fetched with `npm pack` into a temporary folder and unpacked. A source with
 * `unpack` first runs the package's binary with a fresh HOME, without network (`unshare -rn`),
 * so that it writes out its files (Copilot CLI's JavaScript and SDK types). Then every .js
 * and .d.ts file under the source's folder is searched for the declaration
 * (scripts/lib/hook-events.ts); each file that holds it must give the same events, and the
 * first in path order is recorded. Reruns at the same pins are byte-identical; each file is
 * replaced atomically; the temporary folder is removed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { AGENT_IDS, AGENTS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { HookEventSource } from '../src/lib/agents/types.ts';
import type { CaptureMatrixFile, HookEventsFile } from '../src/lib/core/content-types.ts';
import { jsonText, replaceFile } from './lib/system/atomic-write.ts';
import { declaredEvents, type FoundEvent } from './lib/hook-events.ts';
import { DownloadError, fetchPackage, unpackByRunning } from './lib/releases/npm-package.ts';
import { ScriptError } from './lib/script-files.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Every .js and .d.ts file under `dir`, in path order. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (/\.(?:c|m)?js$|\.d\.ts$/.test(name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

export function hookEventsOf(
  agent: AgentId,
  source: HookEventSource,
  pkg: string,
  version: string,
  work: string,
): HookEventsFile {
  const name = source.package ?? pkg;
  const { dir } = fetchPackage(name, version, work);
  let searched = join(dir, source.under);
  let unpackedRoot: string | undefined;
  if (source.unpack) {
    const home = unpackByRunning(join(dir, source.unpack.binary), source.unpack.args, work);
    unpackedRoot = source.unpack.into.replaceAll('{version}', version);
    searched = join(home, unpackedRoot, source.under);
  }
  const found: { path: string; events: FoundEvent[] }[] = [];
  for (const path of sourceFiles(searched)) {
    const events = declaredEvents(readFileSync(path, 'utf8'), source);
    if (events) found.push({ path: relative(searched, path), events });
  }
  if (found.length === 0)
    throw new ScriptError(
      `${agent}: no .js or .d.ts file under ${source.under} of ${name}@${version} declares ${source.name} ` +
        `(${source.form})`,
    );
  const [first, ...others] = found.map((f) => ({ ...f, path: `${source.under}/${f.path}` }));
  for (const other of others) {
    if (other.events.map((e) => e.name).join() !== first!.events.map((e) => e.name).join()) {
      throw new ScriptError(
        `${agent}: ${first!.path} and ${other.path} of ${name}@${version} declare ${source.name} with other events`,
      );
    }
  }
  const file: HookEventsFile = unpackedRoot
    ? {
        agent,
        package: `${pkg}@${version}`,
        file: `node_modules/${name}/${source.unpack!.binary}`,
        unpacked: `~/${unpackedRoot}/${first!.path}`,
        declaration: source.name,
        events: first!.events,
      }
    : { agent, package: `${pkg}@${version}`, file: first!.path, declaration: source.name, events: first!.events };
  if (others.length > 0) file.alsoIn = others.map((o) => o.path);
  return file;
}

function main(): void {
  const argv = process.argv.slice(2);
  const only = argv.includes('--agent') ? argv[argv.indexOf('--agent') + 1] : undefined;
  if (only !== undefined && !isAgentId(only)) throw new ScriptError(`unknown agent ${only} (${AGENT_IDS.join(', ')})`);
  const matrix = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as CaptureMatrixFile;
  for (const agent of AGENT_IDS) {
    if (only && agent !== only) continue;
    const hooks = AGENTS[agent].hooks;
    const named = 'none' in hooks ? undefined : hooks.named;
    if (!named) {
      console.log(`${agent}: skipped: its registry module names no source of its hook events`);
      continue;
    }
    const pin = matrix.agents[agent];
    if (!pin) throw new ScriptError(`content/capture-matrix.json has no entry for ${agent}`);
    const work = mkdtempSync(join(tmpdir(), 'hook-events-'));
    try {
      const data = hookEventsOf(agent, named.source, pin.package, pin.version, work);
      replaceFile(join(ROOT, 'content/hook-events', `${agent}.json`), jsonText(data));
      console.log(
        `wrote content/hook-events/${agent}.json (${data.events.length} events, ${data.package} ` +
          `${data.unpacked ?? data.file})`,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

if (import.meta.main) {
  try {
    main();
  } catch (error) {
    if (!(error instanceof ScriptError || error instanceof DownloadError)) throw error;
    console.error(`hook-events: ${error.message}`);
    process.exit(1);
  }
}
