/**
 * Regenerates the Gemini CLI agent's tool files (content/tools/<its id>/) from the
 * pinned @google/gemini-cli-core release (scripts/pins.json, under the agent's id,
 * the id of the agent whose module names this script): the published params type of
 * every tool the Gemini CLI captures advertise, as a second source beside them.
 *
 *   npm run ingest:gemini-core
 *   npm run ingest:gemini-core -- --accept-new-integrity   # move the integrity pin on purpose
 *
 * Downloads the package tarball with `npm pack`, checks its sha512 integrity
 * against the pin before unpacking it, and its manifest against the pin
 * (scripts/lib/releases/pinned-package.ts), and maps each captured tool name to the
 * class that takes it and that class's params type with the TypeScript compiler
 * API (scripts/lib/gemini-core.ts). A tool that cannot be mapped is reported and
 * stays capture-only. Nothing is written unless every step succeeds; the
 * temporary download folder is removed on every path.
 *
 * The pin moves only on purpose: with --accept-new-integrity, or when pins.json
 * names a version that has no integrity yet; the new integrity is then written
 * into pins.json (after the content) and the script says so.
 *
 * Environment, for tests: CONTENT_DIR (default content/), PINS_FILE (default scripts/pins.json).
 */
import { join, resolve } from 'node:path';
import { coreToolRecords, GeminiCoreError, mapCoreTools } from './lib/gemini-core.ts';
import { toolSlug } from '../src/lib/content/url-names.ts';
import type { CaptureMatrix } from '../src/lib/model/captures.ts';
import { CaptureFormatError, type CaptureFile } from '../src/lib/wire/index.ts';
import { capturedTools } from '../src/lib/agents/index.ts';
import { jsonText, replaceDirectory, replaceFile } from './lib/system/atomic-write.ts';
import { ACCEPT_FLAG, parseIngestArgs, runIngest, withPinnedPackage } from './lib/releases/pinned-package.ts';
import { display, readJson, ScriptError } from './lib/script-files.ts';
import { pinOf, pinsWithIntegrity, readPins, type Pin } from './lib/pins.ts';
import { agentOfPublishedTypesScript } from '../src/lib/agents/index.ts';
import { stubServerFamily } from '../src/lib/model/tool-names.ts';

/** The agent whose module names ingest-gemini-core.ts as its published-types script (the registry says which). */
const coreAgent = agentOfPublishedTypesScript('scripts/ingest-gemini-core.ts');

const ROOT = resolve(import.meta.dirname, '..');
const CONTENT = process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : join(ROOT, 'content');
const PINS_FILE = process.env.PINS_FILE ? resolve(process.env.PINS_FILE) : join(ROOT, 'scripts/pins.json');
const AGENT = coreAgent.id;
const PIN_KEY = AGENT;
const ACCEPT_COMMAND = `npm run ingest:gemini-core -- ${ACCEPT_FLAG}`;
const LOG = 'ingest-gemini-core';
/** Prefix of the temporary download folder in os.tmpdir(). */
const WORK_PREFIX = 'gemini-core-';

/** The names of the built-in tools the captures of the matrix advertise (the stub MCP server's tools left out). */
function capturedToolNames(pin: Pin): string[] {
  const matrixFile = join(CONTENT, 'capture-matrix.json');
  const matrix = readJson<CaptureMatrix>(matrixFile, 'the capture matrix');
  const agent = matrix.agents[AGENT];
  if (!agent)
    throw new ScriptError(
      `${display(matrixFile)} has no ${AGENT} captures: there is nothing to compare the types with`,
    );
  if (agent.version !== pin.version) {
    throw new ScriptError(
      `the captures are of ${agent.package} ${agent.version} (${display(matrixFile)}), the pin is ${pin.package} ` +
        `${pin.version}: set "${PIN_KEY}".version in ${display(PINS_FILE)} to the captured release (the two are ` +
        `released together) and delete its integrity`,
    );
  }
  const names = new Set<string>();
  for (const config of agent.configurations) {
    const file = join(CONTENT, 'captures', AGENT, `${config.id}.json`);
    const capture = readJson<CaptureFile>(file, 'the capture');
    let tools: ReturnType<typeof capturedTools>;
    try {
      tools = capturedTools(capture);
    } catch (error) {
      if (error instanceof CaptureFormatError) throw new ScriptError(`${display(file)}: ${error.message}`);
      throw error;
    }
    for (const tool of tools) if (stubServerFamily(AGENT, tool.fullName) === undefined) names.add(tool.fullName);
  }
  if (names.size === 0) throw new ScriptError(`the ${AGENT} captures advertise no tools`);
  return [...names].sort();
}

/** `written` lists the files replaced so far, so a failure can say truthfully what was written. */
function main(argv: readonly string[], written: string[]): void {
  const { acceptNewIntegrity } = parseIngestArgs(argv);
  const pins = readPins(PINS_FILE);
  const pin = pinOf(pins, PIN_KEY, PINS_FILE);
  const names = capturedToolNames(pin);

  // 1–2. Download, check the bytes against the pin before unpacking anything, and the manifest against the pin.
  const source = {
    pin,
    pinsFile: PINS_FILE,
    acceptNewIntegrity,
    acceptCommand: ACCEPT_COMMAND,
    workPrefix: WORK_PREFIX,
    warn: (line: string) => console.error(`${LOG}: ${line}`),
  };
  withPinnedPackage(source, ({ dir, spec, integrity, verdict }) => {
    // 3. Map every captured tool and build every file in memory.
    const mapping = mapCoreTools(dir, names);
    if (mapping.mapped.length === 0)
      throw new ScriptError(`none of the ${names.length} captured tools could be mapped to a params type of ${spec}`);
    const tools = coreToolRecords(mapping, { package: pin.package, version: pin.version, checked: pin.checked });
    const files = new Map<string, string>();
    for (const tool of tools) files.set(`${toolSlug(tool.name)}.json`, jsonText(tool));
    const pinsText = verdict.record ? pinsWithIntegrity(pins, PIN_KEY, integrity) : undefined;

    // 4. Swap everything in; the pin moves last, once the content matches it.
    const toolsDir = join(CONTENT, 'tools', AGENT);
    replaceDirectory(toolsDir, files);
    written.push(display(toolsDir));
    if (pinsText !== undefined) {
      replaceFile(PINS_FILE, pinsText);
      written.push(display(PINS_FILE));
    }
    console.log(
      `${LOG}: ${tools.length} of ${names.length} captured tools mapped to params types of ${spec}, ` +
        `integrity ${integrity}`,
    );
    for (const tool of mapping.unmapped) console.log(`${LOG}: not mapped, capture only: ${tool.name}: ${tool.reason}`);
    if (verdict.note) console.log(`${LOG}: ${verdict.note}`);
  });
}

runIngest(LOG, main, [GeminiCoreError]);
