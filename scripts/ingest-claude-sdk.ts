/**
 * Regenerates the Claude Code agent's tool files and agent record
 * (content/tools/<its id>/, content/agents/<its id>.json; `claudeCode.id` of
 * src/lib/agents) from the pinned @anthropic-ai/claude-agent-sdk release
 * (scripts/pins.json, under the agent's id).
 *
 *   npm run ingest:claude-sdk
 *   npm run ingest:claude-sdk -- --accept-new-integrity   # move the integrity pin on purpose
 *
 * Downloads the package tarball with `npm pack` (the registry npm is set up for),
 * checks its sha512 integrity against the pin (`sdkIntegrity`) before unpacking it,
 * parses sdk-tools.d.ts with the TypeScript compiler API, and writes one JSON
 * file per tool. Nothing is written unless every step succeeds; the temporary
 * download folder is removed on every path.
 *
 * The pin moves only on purpose: with --accept-new-integrity, or when pins.json
 * names a version that has no sdkIntegrity yet; the new integrity is then written
 * into pins.json (after the content) and the script says so.
 *
 * Environment, for tests: CONTENT_DIR (default content/), PINS_FILE (default scripts/pins.json).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractSdkTools, IngestError, type NameTable } from './lib/claude-sdk.ts';
import { toolSlug } from '../src/lib/content/url-names.ts';
import type { AgentRecord } from '../src/lib/content-types.ts';
import { jsonText, replaceDirectory, replaceFile } from './lib/atomic-write.ts';
import { DownloadError, downloadTarball, IntegrityError, judgeIntegrity, npmRegistryFor, unpackTarball } from './lib/npm-package.ts';
import { display, readJson, ScriptError } from './lib/script-files.ts';
import { pinOf, pinsWithIntegrity, readPins, type Pin } from './lib/pins.ts';
import { claudeCode } from '../src/lib/agents/claude-code.ts';
import { isPublished } from './lib/registry.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CONTENT = process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : join(ROOT, 'content');
const PINS_FILE = process.env.PINS_FILE ? resolve(process.env.PINS_FILE) : join(ROOT, 'scripts/pins.json');
const PIN_KEY = claudeCode.id;
const ACCEPT_FLAG = '--accept-new-integrity';
const ACCEPT_COMMAND = `npm run ingest:claude-sdk -- ${ACCEPT_FLAG}`;
/** Prefix of the temporary download folder in os.tmpdir(). */
const WORK_PREFIX = 'claude-sdk-';


/** The pin, which must name the declaration file to read. */
function typesPin(pin: Pin): Pin & { typesFile: string } {
  if (pin.typesFile === undefined) throw new ScriptError(`${display(PINS_FILE)}: "${PIN_KEY}".typesFile must name the declaration file to read`);
  return pin as Pin & { typesFile: string };
}

/** Files replaced so far, so a failure can say truthfully what was written. */
const written: string[] = [];

function parseArgs(argv: readonly string[]): { acceptNewIntegrity: boolean } {
  let acceptNewIntegrity = false;
  for (const arg of argv) {
    if (arg === ACCEPT_FLAG) acceptNewIntegrity = true;
    else throw new ScriptError(`unknown argument ${JSON.stringify(arg)} (the only option is ${ACCEPT_FLAG})`);
  }
  return { acceptNewIntegrity };
}


/** The integrity the committed content records for this exact package version, if any. */
function recordedIntegrity(agentFile: string, pin: Pin): string | undefined {
  try {
    const agent = JSON.parse(readFileSync(agentFile, 'utf8')) as AgentRecord;
    const source = agent.sources?.find((s) => s.package === pin.package && s.version === pin.version);
    return typeof source?.integrity === 'string' ? source.integrity : undefined;
  } catch {
    return undefined;
  }
}


function main(argv: readonly string[]): void {
  const { acceptNewIntegrity } = parseArgs(argv);
  const pins = readPins(PINS_FILE);
  const pin = typesPin(pinOf(pins, PIN_KEY, PINS_FILE));
  const names = readJson<NameTable>(join(ROOT, 'scripts/claude-sdk-names.json'), 'the name table');
  const spec = `${pin.package}@${pin.version}`;
  const agentFile = join(CONTENT, 'agents', `${PIN_KEY}.json`);

  const work = mkdtempSync(join(tmpdir(), WORK_PREFIX));
  try {
    // 1. Download, and check the bytes against the pin before unpacking anything.
    const registry = npmRegistryFor(pin.package);
    const tarball = downloadTarball(pin.package, pin.version, work);
    const verdict = judgeIntegrity({
      spec,
      actual: tarball.integrity,
      pinned: pin.integrity,
      recorded: recordedIntegrity(agentFile, pin),
      pinFile: display(PINS_FILE),
      recordedFrom: display(agentFile),
      registry,
      acceptNew: acceptNewIntegrity,
      acceptCommand: ACCEPT_COMMAND,
    });
    const dir = unpackTarball(tarball.file, work);

    // 2. Read and check what the package says about itself.
    const pkg = readJson<{ version: string; claudeCodeVersion?: string }>(join(dir, 'package.json'), 'the package manifest');
    if (pkg.version !== pin.version) throw new ScriptError(`downloaded version ${pkg.version}, pinned ${pin.version}`);
    if (!pkg.claudeCodeVersion) throw new ScriptError('package.json has no claudeCodeVersion: cannot tell which Claude Code it bundles');
    let manifest: { version?: string; commit?: string; buildDate?: string };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    } catch {
      throw new ScriptError('manifest.json is missing or unreadable: cannot record the bundled Claude Code commit');
    }
    if (manifest.version !== pkg.claudeCodeVersion) {
      throw new ScriptError(`manifest.json says Claude Code ${manifest.version}, package.json says ${pkg.claudeCodeVersion}`);
    }
    let dts: string;
    try {
      dts = readFileSync(join(dir, pin.typesFile), 'utf8');
    } catch {
      throw new ScriptError(`${pin.typesFile} is not in ${spec}`);
    }

    // 3. Build every file in memory.
    const tools = extractSdkTools(dts, names, {
      package: pin.package,
      version: pin.version,
      file: pin.typesFile,
      checked: pin.checked,
    });
    const files = new Map<string, string>();
    for (const tool of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
      files.set(`${toolSlug(tool.name)}.json`, jsonText(tool));
    }
    const agent: AgentRecord = {
      id: PIN_KEY,
      product: 'Claude Code',
      version: pkg.claudeCodeVersion,
      ...(manifest.commit ? { sourceRevision: manifest.commit } : {}),
      ...(manifest.buildDate ? { buildDate: manifest.buildDate } : {}),
      // Types can name a CLI release the registry does not serve: pages then say so.
      bundledCli: { package: claudeCode.npmPackage, published: isPublished(claudeCode.npmPackage, pkg.claudeCodeVersion) },
      checked: pin.checked,
      sources: [
        {
          package: pin.package,
          version: pin.version,
          integrity: tarball.integrity,
          files: [pin.typesFile, 'package.json', 'manifest.json'],
          role: 'Published SDK types: every tool input and result type, and the bundled Claude Code version and commit',
        },
      ],
    };
    const pinsText = verdict.record ? pinsWithIntegrity(pins, PIN_KEY, tarball.integrity) : undefined;

    // 4. Swap everything in; the pin moves last, once the content matches it.
    const toolsDir = join(CONTENT, 'tools', PIN_KEY);
    replaceDirectory(toolsDir, files);
    written.push(display(toolsDir));
    replaceFile(agentFile, jsonText(agent));
    written.push(display(agentFile));
    if (pinsText !== undefined) {
      replaceFile(PINS_FILE, pinsText);
      written.push(display(PINS_FILE));
    }
    console.log(`ingest-claude-sdk: ${tools.length} tools from ${spec} (Claude Code ${pkg.claudeCodeVersion}), integrity ${tarball.integrity}`);
    if (verdict.note) console.log(`ingest-claude-sdk: ${verdict.note}`);
  } finally {
    try {
      rmSync(work, { recursive: true, force: true });
    } catch (error) {
      console.error(`ingest-claude-sdk: could not remove the temporary folder ${work}: ${(error as Error).message}`);
    }
  }
}

/** Runs main, reports a failure once (after main's cleanup has run) and sets the exit status. */
function run(): void {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    const expected = error instanceof ScriptError || error instanceof IngestError || error instanceof DownloadError || error instanceof IntegrityError;
    const text = expected ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    for (const line of text.split('\n')) console.error(`ingest-claude-sdk: ${line}`);
    console.error(
      written.length === 0
        ? 'ingest-claude-sdk: nothing was written.'
        : `ingest-claude-sdk: failed after writing ${written.join(', ')}; the rest is unchanged. Fix the cause and run again.`,
    );
    process.exitCode = 1;
  }
}

run();
