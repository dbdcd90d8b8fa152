/**
 * Regenerates the Claude Code agent's tool files and agent record
 * (content/tools/<its id>/, content/agents/<its id>.json; its id is that of the
 * agent whose module names this script) from the pinned @anthropic-ai/claude-agent-sdk release
 * (scripts/pins.json, under the agent's id).
 *
 *   npm run ingest:claude-sdk
 *   npm run ingest:claude-sdk -- --accept-new-integrity   # move the integrity pin on purpose
 *
 * Downloads the package tarball with `npm pack` (the registry npm is set up for),
 * checks its sha512 integrity against the pin before unpacking it, and its manifest
 * against the pin (scripts/lib/releases/pinned-package.ts), parses sdk-tools.d.ts with the
 * TypeScript compiler API, and writes one JSON file per tool. Nothing is written unless every step succeeds; the
 * temporary
 * download folder is removed on every path.
 *
 * The pin moves only on purpose: with --accept-new-integrity, or when pins.json
 * names a version that has no integrity yet; the new integrity is then written
 * into pins.json (after the content) and the script says so.
 *
 * Environment, for tests: CONTENT_DIR (default content/), PINS_FILE (default scripts/pins.json).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { extractSdkTools, IngestError, type NameTable } from './lib/claude-sdk.ts';
import { toolSlug } from '../src/lib/content/url-names.ts';
import type { AgentRecord } from '../src/lib/core/content-types.ts';
import { jsonText, replaceDirectory, replaceFile } from './lib/system/atomic-write.ts';
import { ACCEPT_FLAG, parseIngestArgs, runIngest, withPinnedPackage } from './lib/releases/pinned-package.ts';
import { display, readJson, ScriptError } from './lib/script-files.ts';
import { pinOf, pinsWithIntegrity, readPins, type Pin } from './lib/pins.ts';
import { agentOfPublishedTypesScript } from '../src/lib/agents/index.ts';
import { isRelease } from '../src/lib/core/version-order.ts';
import { askPackages, listedVersions } from './lib/releases/registry.ts';
import { releaseEvidence } from './lib/releases/runnable-release.ts';

/** The agent whose module names ingest-claude-sdk.ts as its published-types script (the registry says which). */
const sdkAgent = agentOfPublishedTypesScript('scripts/ingest-claude-sdk.ts');

const ROOT = resolve(import.meta.dirname, '..');
const CONTENT = process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : join(ROOT, 'content');
const PINS_FILE = process.env.PINS_FILE ? resolve(process.env.PINS_FILE) : join(ROOT, 'scripts/pins.json');
const PIN_KEY = sdkAgent.id;

/** The packages of the CLI the types bundle: the CLI's own, then its standalone platform packages. */
const CLI_PACKAGES = [sdkAgent.npmPackage, ...(sdkAgent.standalonePackages ?? [])];

/**
 * Whether the registry lists Claude Code `version` in any of its packages (the CLI's own, then its standalone platform
 * packages), with each package's answer.
 */
function bundledCli(version: string): NonNullable<AgentRecord['bundledCli']> {
  const listings = releaseEvidence(
    CLI_PACKAGES.map((p) => ({ package: p, versions: listedVersions(p) })),
    version,
  );
  return { package: sdkAgent.npmPackage, published: listings.some((l) => l.lists), listings };
}
const ACCEPT_COMMAND = `npm run ingest:claude-sdk -- ${ACCEPT_FLAG}`;
/** Prefix of the temporary download folder in os.tmpdir(). */
const WORK_PREFIX = 'claude-sdk-';

/** The pin, which must name the declaration file to read. */
function typesPin(pin: Pin): Pin & { typesFile: string } {
  if (pin.typesFile === undefined)
    throw new ScriptError(`${display(PINS_FILE)}: "${PIN_KEY}".typesFile must name the declaration file to read`);
  return pin as Pin & { typesFile: string };
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

/**
 * The package's manifest, its manifest.json (the bundled Claude Code's version, commit and build date) and the
 * declaration file, each checked.
 */
function readBundle(
  dir: string,
  spec: string,
  typesFile: string,
): {
  pkg: { claudeCodeVersion: string };
  manifest: { version?: string; commit?: string; buildDate?: string };
  dts: string;
} {
  const pkg = readJson<{ claudeCodeVersion?: string }>(join(dir, 'package.json'), 'the package manifest');
  if (!pkg.claudeCodeVersion)
    throw new ScriptError('package.json has no claudeCodeVersion: cannot tell which Claude Code it bundles');
  // The version names files and URLs (versioned export paths) and is compared as a release: only a plain release number
  // is one.
  if (typeof pkg.claudeCodeVersion !== 'string' || !isRelease(pkg.claudeCodeVersion)) {
    throw new ScriptError(
      `package.json's claudeCodeVersion ${JSON.stringify(pkg.claudeCodeVersion)} is not a release number (x.y.z); ` +
        `refusing to record it`,
    );
  }
  let manifest: { version?: string; commit?: string; buildDate?: string };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    throw new ScriptError('manifest.json is missing or unreadable: cannot record the bundled Claude Code commit');
  }
  if (manifest.version !== pkg.claudeCodeVersion) {
    throw new ScriptError(
      `manifest.json says Claude Code ${manifest.version}, package.json says ${pkg.claudeCodeVersion}`,
    );
  }
  let dts: string;
  try {
    dts = readFileSync(join(dir, typesFile), 'utf8');
  } catch {
    throw new ScriptError(`${typesFile} is not in ${spec}`);
  }
  return { pkg: { claudeCodeVersion: pkg.claudeCodeVersion }, manifest, dts };
}

/** One file per tool, named by its slug, in name order. */
function toolFiles(tools: ReturnType<typeof extractSdkTools>): Map<string, string> {
  const files = new Map<string, string>();
  for (const tool of [...tools].sort((a, b) => a.name.localeCompare(b.name)))
    files.set(`${toolSlug(tool.name)}.json`, jsonText(tool));
  return files;
}

/** The agent record: the bundled Claude Code (version, commit, build date), where it is published, the source read. */
function agentRecord(pin: Pin & { typesFile: string }, bundle: ReturnType<typeof readBundle>, integrity: string) {
  const { pkg, manifest } = bundle;
  const agent: AgentRecord = {
    id: PIN_KEY,
    product: 'Claude Code',
    version: pkg.claudeCodeVersion,
    ...(manifest.commit ? { sourceRevision: manifest.commit } : {}),
    ...(manifest.buildDate ? { buildDate: manifest.buildDate } : {}),
    // Types can name a CLI release the registry does not serve from any package that runs it (the
    // CLI's own, or its platform package): pages then say so. The registry's listings are the evidence.
    bundledCli: bundledCli(pkg.claudeCodeVersion),
    checked: pin.checked,
    sources: [
      {
        package: pin.package,
        version: pin.version,
        integrity: integrity,
        files: [pin.typesFile, 'package.json', 'manifest.json'],
        role: 'Published SDK types: every tool input and result type, and the bundled Claude Code version and commit',
      },
    ],
  };
  return agent;
}

/** `written` lists the files replaced so far, so a failure can say truthfully what was written. */
function main(argv: readonly string[], written: string[]): void {
  const { acceptNewIntegrity } = parseIngestArgs(argv);
  const pins = readPins(PINS_FILE);
  const pin = typesPin(pinOf(pins, PIN_KEY, PINS_FILE));
  const names = readJson<NameTable>(join(ROOT, 'scripts/claude-sdk-names.json'), 'the name table');
  const agentFile = join(CONTENT, 'agents', `${PIN_KEY}.json`);

  // 1. Download, check the bytes against the pin before unpacking anything, and the manifest against the pin.
  const source = {
    pin,
    pinsFile: PINS_FILE,
    acceptNewIntegrity,
    acceptCommand: ACCEPT_COMMAND,
    recorded: { integrity: recordedIntegrity(agentFile, pin), file: agentFile },
    workPrefix: WORK_PREFIX,
    warn: (line: string) => console.error(`ingest-claude-sdk: ${line}`),
  };
  withPinnedPackage(source, ({ dir, spec, integrity, verdict }) => {
    // 2. Read and check what the package says about the Claude Code it bundles.
    const bundle = readBundle(dir, spec, pin.typesFile);

    // 3. Build every file in memory.
    const origin = { package: pin.package, version: pin.version, file: pin.typesFile, checked: pin.checked };
    const tools = extractSdkTools(bundle.dts, names, origin);
    const files = toolFiles(tools);
    const agent = agentRecord(pin, bundle, integrity);
    const pinsText = verdict.record ? pinsWithIntegrity(pins, PIN_KEY, integrity) : undefined;

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
    console.log(
      `ingest-claude-sdk: ${tools.length} tools from ${spec} (Claude Code ${bundle.pkg.claudeCodeVersion}), ` +
        `integrity ${integrity}`,
    );
    if (verdict.note) console.log(`ingest-claude-sdk: ${verdict.note}`);
  });
}

// The listings bundledCli reads, asked straight of the registry where npm's configuration allows it (no npm client
// to start for each); any other is asked of npm when bundledCli reads it, and a failure is told there.
await askPackages(CLI_PACKAGES, { npm: false });
runIngest('ingest-claude-sdk', main, [IngestError]);
