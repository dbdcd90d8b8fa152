/**
 * Computes the release history of the published SDK types of Claude Code:
 * content/history/claude-code.sdk.json.
 *
 *   node scripts/history-claude-sdk.ts                    # extend the committed history by newer releases
 *                                                         # (or compute it whole when there is none)
 *   node scripts/history-claude-sdk.ts --full             # recompute every release from Claude Code 1.0.53
 *                                                         # (the first that ships sdk-tools.d.ts) through the pin
 *   node scripts/history-claude-sdk.ts --since-committed  # only extend (fails when there is no committed history)
 *
 * Two package lines, one history keyed by Claude Code release:
 * - @anthropic-ai/claude-agent-sdk (the pinned package, scripts/pins.json) from its first release that states
 *   `claudeCodeVersion` in its package.json (0.2.6, Claude Code 2.1.6) through the pin;
 * - before that, @anthropic-ai/claude-code itself, from its first release that ships sdk-tools.d.ts
 *   (DEFAULT_CLI_FROM) up to the Claude Code release the first agent SDK release above states.
 * Each release read from @anthropic-ai/claude-code names it (`package`), with `cliVersion` its own version;
 * the comparison across the switch (the last claude-code release with the first agent SDK release) is an
 * ordinary one. Which agent SDK releases state `claudeCodeVersion` is asked of the registry once
 * (`npm view "<package>@<=<pin>" version name claudeCodeVersion --json`; three fields, so that every version
 * prints as an object: with two, npm drops the field of versions that have it when some lack it); the
 * package.json of every release read is checked against it.
 *
 * How DEFAULT_CLI_FROM was found (by download, since the registry's `files` lists are not reliable for old
 * releases): every tarball listed with `tar tzf`, bisecting over the published plain 1.0.x releases between
 * 1.0.50 (no package/sdk-tools.d.ts) and 1.0.100 (has it): 1.0.72 yes, 1.0.61 yes, 1.0.56 yes, 1.0.53 yes,
 * 1.0.51 no; 1.0.52 was never published, so 1.0.53 is the first. Every release from it on is downloaded
 * by a full run, and one without the file is listed with `read: false`.
 *
 * Options: --from <x.y.z> (a full run of the pinned package alone, from this release of it), --from-cli <x.y.z>
 * (the first @anthropic-ai/claude-code release of a full run, default DEFAULT_CLI_FROM), --to <x.y.z> (last
 * release, default the pin), --out <file>, --names <file> (default scripts/claude-sdk-names.json),
 * --registry-dir <dir> (read releases from a folder instead of the npm registry, for tests: <dir>/registry.json
 * holds `{versions, time}` of the pinned package as `npm view <package> versions time --json` prints them,
 * <dir>/<version>/ holds package.json and sdk-tools.d.ts; <dir>/cli/ holds the @anthropic-ai/claude-code
 * line the same way, when there is one).
 *
 * Every plain x.y.z release in the range (prereleases left out) is downloaded with `npm pack` into a cache
 * outside the repository ($HISTORY_CACHE_DIR/<package name without scope>/, default /work/cache/history/)
 * unless the cache has it already (scripts/lib/releases/package-source.ts); its sdk-tools.d.ts becomes the field rows
 * of every tool through the site's
 * own code (scripts/lib/history/sdk-snapshot.ts), and each release is compared with the one before it
 * (scripts/lib/history/sdk-diff.ts). The rows of each release are kept in the cache too, so a second run parses
 * nothing. A release whose sdk-tools.d.ts is missing or does not read is listed with `read: false` and
 * skipped, and the reason is printed.
 *
 * Extending (the default when the history file exists): only releases of the pinned package newer than its
 * last one are read, compared with the state of the newest committed release (from the cache, or recomputed
 * from its tarball: one download); the committed releases and events are left as they are. With nothing new,
 * nothing is downloaded and the file is not touched. The file is validated against
 * schemas/history.schema.json and replaced atomically, only when its text changes.
 *
 * Environment: HISTORY_CACHE_DIR, PINS_FILE (default scripts/pins.json).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import ts from 'typescript';
import { agentOfPublishedTypesScript } from '../src/lib/agents/index.ts';
import type { HistoryFile } from '../src/lib/core/content-types.ts';
import { compareReleases, isRelease } from '../src/lib/core/version-order.ts';
import type { NameTable } from './lib/claude-sdk.ts';
import {
  appendToHistory,
  historyDocument,
  lastReadRelease,
  packageOf,
  type ReleaseEntry,
} from './lib/history/document.ts';
import { type HistoryEvent, KIND_ORDER } from './lib/history/events.ts';
import { planLines } from './lib/history/lines.ts';
import { releasesInRange } from './lib/history/releases.ts';
import { diffReleases } from './lib/history/sdk-diff.ts';
import { type ReleaseSnapshot, releaseSnapshot, SnapshotError } from './lib/history/sdk-snapshot.ts';
import { writeHistory } from './lib/history/write.ts';
import { DownloadError, IntegrityError } from './lib/releases/npm-package.ts';
import { pinOf, readPins } from './lib/pins.ts';
import {
  FolderSource,
  fetchStats,
  type Listing,
  NpmSource,
  type PackageSource,
} from './lib/releases/package-source.ts';
import { display, readJson, ScriptError } from './lib/script-files.ts';

/** The agent whose module names history-claude-sdk.ts as its published-types script (the registry says which). */
const sdkAgent = agentOfPublishedTypesScript('scripts/history-claude-sdk.ts');

const ROOT = resolve(import.meta.dirname, '..');
const PINS_FILE = process.env.PINS_FILE ? resolve(process.env.PINS_FILE) : join(ROOT, 'scripts/pins.json');
const CACHE = resolve(process.env.HISTORY_CACHE_DIR || '/work/cache/history');
/** The first @anthropic-ai/claude-code release that ships sdk-tools.d.ts (bisected: see the comment above). */
const DEFAULT_CLI_FROM = '1.0.53';
const AGENT = sdkAgent.id;
const CLI_PACKAGE = sdkAgent.npmPackage;
/** Where the registry folder of a test holds the CLI package's line. */
const CLI_FOLDER = 'cli';
const DEFAULT_OUT = join(ROOT, `content/history/${AGENT}.sdk.json`);
const DEFAULT_NAMES = join(ROOT, 'scripts/claude-sdk-names.json');
const TYPES_FILE = 'sdk-tools.d.ts';
/** The manifest field in which an agent SDK release states the Claude Code release it bundles. */
const STATED_FIELD = 'claudeCodeVersion';
const METHOD =
  'Each release’s sdk-tools.d.ts read with the TypeScript compiler API into the field rows its tool pages show, ' +
  'and compared with the release before it field by field (scripts/history-claude-sdk.ts).';
/** Bump when the cached rows change form; the code that makes them is hashed as well. */
const ROWS_FORMAT = 1;
const NAME = 'history-claude-sdk';

interface Options {
  mode?: 'full' | 'since-committed';
  from?: string;
  fromCli?: string;
  to?: string;
  out: string;
  names: string;
  registryDir?: string;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { out: DEFAULT_OUT, names: DEFAULT_NAMES };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new ScriptError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const mode = arg === '--full' ? 'full' : arg === '--since-committed' ? 'since-committed' : undefined;
    if (mode) {
      if (options.mode && options.mode !== mode)
        throw new ScriptError('--full and --since-committed exclude each other');
      options.mode = mode;
    } else if (arg === '--from' || arg === '--to' || arg === '--from-cli') {
      const v = value(i++, arg);
      if (!isRelease(v)) throw new ScriptError(`${arg} ${v}: not an x.y.z release number`);
      options[arg === '--from' ? 'from' : arg === '--to' ? 'to' : 'fromCli'] = v;
    } else if (arg === '--out') options.out = resolve(value(i++, arg));
    else if (arg === '--names') options.names = resolve(value(i++, arg));
    else if (arg === '--registry-dir') options.registryDir = resolve(value(i++, arg));
    else
      throw new ScriptError(
        `unknown argument ${JSON.stringify(arg)} (options: --full, --since-committed, --from, --from-cli, --to, ` +
          `--out, --names, --registry-dir)`,
      );
  }
  if (options.from && options.fromCli)
    throw new ScriptError('--from (the pinned package alone) and --from-cli (both lines) exclude each other');
  if ((options.from || options.fromCli) && options.mode === 'since-committed')
    throw new ScriptError(
      '--from and --from-cli apply to --full only: extending starts after the last committed release',
    );
  return options;
}

// ---------------------------------------------------------------------------
// One release read: its rows, from the cache when the same code computed them.

interface ReadRelease {
  version: string;
  cliVersion?: string;
  /** Why the release could not be read (then there is no snapshot). */
  error?: string;
  snapshot?: ReleaseSnapshot;
}

const readStats = { parsed: 0, rowsFromCache: 0 };

/**
 * A hash of the code that turns a declaration file into rows (every module sdk-snapshot.ts imports, transitively), and
 * of its inputs.
 */
function rowsCacheKey(namesText: string): string {
  const hash = createHash('sha256');
  hash.update(`format ${ROWS_FORMAT}\ntypescript ${ts.version}\n`);
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    hash.update(`${relative(ROOT, file)}\n${text}\n`);
    for (const m of text.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+\.ts)'/g)) visit(resolve(dirname(file), m[1]!));
  };
  visit(join(ROOT, 'scripts/lib/history/sdk-snapshot.ts'));
  hash.update(namesText);
  return hash.digest('hex').slice(0, 32);
}

interface CachedRows extends ReadRelease {
  key: string;
}

/** The rows the cache keeps for `version`, when the same code computed them from the same names. */
function cachedRelease(file: string, key: string, version: string): ReadRelease | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const entry = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as CachedRows;
    if (entry.key !== key || entry.version !== version) return undefined;
    readStats.rowsFromCache++;
    const release: ReadRelease = { version };
    if (entry.cliVersion !== undefined) release.cliVersion = entry.cliVersion;
    if (entry.error !== undefined) release.error = entry.error;
    if (entry.snapshot !== undefined) release.snapshot = entry.snapshot;
    return release;
  } catch {
    return undefined; // An unreadable cache entry is recomputed.
  }
}

/** Reads one release from its files: the manifest checked, the declaration file into rows or why it does not read. */
function readRelease(source: PackageSource, version: string, names: NameTable): ReadRelease {
  const pkg = source.pkg;
  const files = source.files(version);
  const release: ReadRelease = { version };
  let manifest: { name?: unknown; version?: unknown; claudeCodeVersion?: unknown };
  try {
    manifest = JSON.parse(files.manifest);
  } catch (error) {
    throw new ScriptError(`${pkg}@${version}: package.json is not valid JSON: ${(error as Error).message}`);
  }
  if (manifest.version !== version)
    throw new ScriptError(`${pkg}@${version}: the package says it is version ${String(manifest.version)}`);
  if (typeof manifest.claudeCodeVersion === 'string' && isRelease(manifest.claudeCodeVersion))
    release.cliVersion = manifest.claudeCodeVersion;
  if (files.file === undefined) {
    release.error = `${TYPES_FILE} is not in the package`;
    return release;
  }
  try {
    readStats.parsed++;
    release.snapshot = releaseSnapshot(files.file, names, { package: pkg, version, file: TYPES_FILE });
  } catch (error) {
    // The release's own failure, in the reader's words: it is listed unread.
    if (!(error instanceof SnapshotError)) throw error;
    release.error = error.message;
  }
  return release;
}

/** Reads releases of one package line, through the rows cache when the source may keep it. */
function createReader(source: PackageSource, names: NameTable, key: string): (version: string) => ReadRelease {
  const rowsDir = join(source.cacheDir, 'rows');
  return (version) => {
    const cached = join(rowsDir, `${version}.json.gz`);
    const known = source.cachesReadings ? cachedRelease(cached, key, version) : undefined;
    if (known) return known;
    const release = readRelease(source, version, names);
    if (source.cachesReadings) {
      mkdirSync(rowsDir, { recursive: true });
      const staging = `${cached}.new-${process.pid}`;
      writeFileSync(staging, gzipSync(JSON.stringify({ key, ...release })));
      renameSync(staging, cached);
    }
    return release;
  };
}

// ---------------------------------------------------------------------------
// One run: its sources, its plan, its readings, its file and its summary.

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** One release to read: which line (source) and which version of it. */
interface Target {
  source: PackageSource;
  version: string;
}

/** What one run works with: the pin, both package lines, the committed history and the releases in range. */
interface RunContext {
  options: Options;
  started: number;
  pkg: string;
  to: string;
  names: NameTable;
  /** The pinned package's line. */
  source: PackageSource;
  /** The CLI's own package: always on the registry; in a test folder only when it has one. */
  cliSource: PackageSource | undefined;
  committed: HistoryFile | undefined;
  mode: 'full' | 'since-committed';
  listings: Map<PackageSource, Listing>;
  /** The pinned package's releases this run covers. */
  inRange: string[];
  readerOf(source: PackageSource): (version: string) => ReadRelease;
}

/** The cache folder of one package: the name without its scope. */
function cacheFor(pkg: string): string {
  return join(CACHE, pkg.replace(/^@[^/]+\//, ''));
}

function sourceOf(pkg: string, folder: string | undefined): PackageSource {
  if (folder) return new FolderSource(pkg, cacheFor(pkg), folder, TYPES_FILE);
  return new NpmSource(pkg, cacheFor(pkg), TYPES_FILE, (line) => console.warn(`${NAME}: ${line}`));
}

/** The committed history, if any, and the mode the run takes (full, or extending it), each checked. */
function committedAndMode(options: Options, pkg: string): Pick<RunContext, 'committed' | 'mode'> {
  const committed = existsSync(options.out) ? readJson<HistoryFile>(options.out, 'the committed history') : undefined;
  const mode = options.mode ?? (committed ? 'since-committed' : 'full');
  if (mode === 'since-committed' && !committed)
    throw new ScriptError(`there is no history at ${display(options.out)} to extend: run with --full`);
  if (committed && committed.package !== pkg)
    throw new ScriptError(`${display(options.out)} is the history of ${committed.package}, not ${pkg}`);
  return { committed, mode };
}

function openRun(options: Options, started: number): RunContext {
  const pin = pinOf(readPins(PINS_FILE), AGENT, PINS_FILE);
  const pkg = pin.package;
  const to = options.to ?? pin.version;
  const names = readJson<NameTable>(options.names, 'the names table');
  const folder = options.registryDir;
  const source = sourceOf(pkg, folder);
  const cliFolder = folder && join(folder, CLI_FOLDER);
  const cliSource =
    cliFolder === undefined || existsSync(join(cliFolder, 'registry.json'))
      ? sourceOf(CLI_PACKAGE, cliFolder)
      : undefined;
  if (source.cachesReadings && !relative(ROOT, CACHE).startsWith('..'))
    throw new ScriptError(`the cache ${CACHE} is inside the repository; set HISTORY_CACHE_DIR to a folder outside it`);
  const { committed, mode } = committedAndMode(options, pkg);
  const listing = source.list();
  // Extending: the committed range of the pinned package (its first release there) through `to`.
  const firstOfPin = committed?.releases.find((r) => packageOf(r, pkg) === pkg)?.version;
  if (mode === 'since-committed' && !firstOfPin)
    throw new ScriptError(`${display(options.out)} lists no release of ${pkg} to extend: run with --full`);
  const inRange = releasesInRange(listing.versions, mode === 'full' ? (options.from ?? '0.0.0') : firstOfPin!, to);
  if (!inRange.includes(to)) throw new ScriptError(`${pkg}@${to} is not a published release`);
  const key = source.cachesReadings ? rowsCacheKey(readFileSync(options.names, 'utf8')) : '';
  const readers = new Map<PackageSource, (version: string) => ReadRelease>();
  const readerOf = (s: PackageSource) => readers.get(s) ?? readers.set(s, createReader(s, names, key)).get(s)!;
  const listings = new Map<PackageSource, Listing>([[source, listing]]);
  return { options, started, pkg, to, names, source, cliSource, committed, mode, listings, inRange, readerOf };
}

/** The releases this run reads, in order, and what its first comparison starts from. */
interface RunPlan {
  targets: Target[];
  /** The Claude Code release each agent SDK release states, as the registry says it (checked against each read). */
  stated: Map<string, string>;
  /** Extending: the newest committed release read, the state the first new release is compared with. */
  previous?: ReadRelease;
  base?: string;
  switchAt?: { release: string; cliVersion: string };
}

/** A full run over both lines: the CLI's own package up to the first agent SDK release that states its release. */
function planBothLines(ctx: RunContext): RunPlan {
  const { pkg, source, cliSource, to, options } = ctx;
  const stated = source.statedVersions(to, STATED_FIELD);
  const cliListing = cliSource?.list();
  if (cliSource && cliListing) ctx.listings.set(cliSource, cliListing);
  let plan: ReturnType<typeof planLines>;
  try {
    plan = planLines({
      sdkVersions: ctx.inRange,
      stated,
      to,
      cliVersions: cliListing?.versions,
      cliFrom: options.fromCli ?? DEFAULT_CLI_FROM,
    });
  } catch (error) {
    throw new ScriptError(`${pkg}: ${(error as Error).message}`);
  }
  const overlap = plan.cli.filter((v) => plan.sdk.includes(v));
  if (overlap.length)
    throw new ScriptError(
      `release numbers ${overlap.join(', ')} are in both ${CLI_PACKAGE} and ${pkg}: events could not tell them apart`,
    );
  const targets = [
    ...plan.cli.map((version) => ({ source: cliSource!, version })),
    ...plan.sdk.map((version) => ({ source, version })),
  ];
  return { targets, stated, ...(plan.switchAt ? { switchAt: plan.switchAt } : {}) };
}

/** The committed release the extension starts from: the newest read, read again (from the cache when it can). */
function extensionBase(ctx: RunContext, committed: HistoryFile): { base: string; previous: ReadRelease } {
  const { pkg, options } = ctx;
  const base = lastReadRelease(committed);
  if (!base) throw new ScriptError(`${display(options.out)} lists no release that was read`);
  const baseLine = packageOf(committed.releases.find((r) => r.version === base)!, pkg);
  const baseSource = baseLine === pkg ? ctx.source : baseLine === CLI_PACKAGE ? ctx.cliSource : undefined;
  if (!baseSource)
    throw new ScriptError(
      `${display(options.out)}: its last release read, ${base}, is of ${baseLine}, which this script cannot read`,
    );
  const previous = ctx.readerOf(baseSource)(base);
  if (!previous.snapshot) throw new ScriptError(`${baseLine}@${base} can no longer be read: ${previous.error}`);
  return { base, previous };
}

/** Extending: the pinned package's releases newer than the committed ones; undefined when there is none. */
function planExtension(ctx: RunContext): RunPlan | undefined {
  const { pkg, options, inRange } = ctx;
  const committed = ctx.committed!;
  const last = committed.releases[committed.releases.length - 1]!;
  if (packageOf(last, pkg) !== pkg)
    throw new ScriptError(
      `${display(options.out)} ends with a release of ${packageOf(last, pkg)}; extending follows ${pkg} only: ` +
        `run with --full`,
    );
  const known = new Set(committed.releases.map((r) => r.version));
  const late = inRange.filter((v) => compareReleases(v, last.version) <= 0 && !known.has(v));
  if (late.length > 0)
    console.warn(
      `${NAME}: published after the history was computed, inside its range: ${late.join(', ')}; run with --full to ` +
        `credit changes to them`,
    );
  const targets = inRange
    .filter((v) => compareReleases(v, last.version) > 0)
    .map((version) => ({ source: ctx.source, version }));
  if (targets.length === 0) {
    console.log(
      `${NAME}: nothing new: ${display(options.out)} already covers ${pkg} through ${last.version}, and no newer ` +
        `release is published up to ${ctx.to}; nothing downloaded, nothing written ` +
        `(${duration(Date.now() - ctx.started)})`,
    );
    return undefined;
  }
  return { targets, stated: new Map(), ...extensionBase(ctx, committed) };
}

function planRun(ctx: RunContext): RunPlan | undefined {
  if (ctx.mode === 'since-committed') return planExtension(ctx);
  // --from: the pinned package alone, from the release given.
  if (ctx.options.from)
    return { targets: ctx.inRange.map((version) => ({ source: ctx.source, version })), stated: new Map() };
  return planBothLines(ctx);
}

/** What reading the targets found. */
interface Readings {
  entries: ReleaseEntry[];
  events: HistoryEvent[];
  /** Releases that could not be read, in their own words. */
  skipped: { version: string; why: string }[];
  /** Tool names derived from type prefixes, with the releases that have them. */
  derived: Map<string, string[]>;
  comparisons: number;
}

/** A release's entry in the file; a stated Claude Code release the package.json does not say is a disagreement. */
function entryOf(ctx: RunContext, plan: RunPlan, from: PackageSource, release: ReadRelease, disagreements: string[]) {
  const version = release.version;
  const entry: ReleaseEntry = { version };
  if (from.pkg !== ctx.pkg) entry.package = from.pkg;
  if (from === ctx.source) {
    if (release.cliVersion) entry.cliVersion = release.cliVersion;
    const said = plan.stated.get(version);
    if (said !== undefined && said !== release.cliVersion)
      disagreements.push(`${version}: registry ${said}, package.json ${release.cliVersion ?? 'none'}`);
  } else {
    // The CLI's own package: the Claude Code release is the package's version (its package.json was checked to say so).
    entry.cliVersion = version;
  }
  const time = ctx.listings.get(from)?.time[version];
  if (time) entry.published = time;
  if (!release.snapshot) entry.read = false;
  return entry;
}

/** Reads every target in order, comparing each release read with the one read before it. */
function readTargets(ctx: RunContext, plan: RunPlan): Readings {
  // Renames the package states: each former name (the binary's alias table, recorded in the names file) with its
  // tool's name now.
  const formerNames = new Map(
    Object.entries(ctx.names.aliases).flatMap(([tool, aliases]) =>
      aliases.filter((a) => a.kind === 'former-name').map((a) => [a.name, tool] as const),
    ),
  );
  const out: Readings = { entries: [], events: [], skipped: [], derived: new Map(), comparisons: 0 };
  const disagreements: string[] = [];
  let previous = plan.previous;
  for (const { source: from, version } of plan.targets) {
    const release = ctx.readerOf(from)(version);
    out.entries.push(entryOf(ctx, plan, from, release, disagreements));
    if (!release.snapshot) {
      out.skipped.push({
        version: `${from.pkg === ctx.pkg ? '' : `${from.pkg} `}${version}`,
        why: release.error ?? 'unknown',
      });
      continue;
    }
    for (const prefix of release.snapshot.derived)
      out.derived.set(prefix, [...(out.derived.get(prefix) ?? []), version]);
    if (previous?.snapshot) {
      out.events.push(...diffReleases(previous.snapshot, release.snapshot, previous.version, version, formerNames));
      out.comparisons++;
    }
    previous = release;
  }
  if (disagreements.length)
    throw new ScriptError(
      `claudeCodeVersion differs between the registry and the package: ${disagreements.join('; ')}`,
    );
  if (!out.entries.some((e) => e.read !== false) && ctx.mode === 'full')
    throw new ScriptError('no release in the range could be read');
  return out;
}

/** The whole history (a full run) or the committed one extended, written when its text changes. */
function writeDocument(ctx: RunContext, read: Readings): { doc: HistoryFile; changed: boolean } {
  const { pkg } = ctx;
  const meta = { agent: AGENT, package: pkg, method: METHOD, file: TYPES_FILE };
  const lines = read.entries.some((e) => e.package === CLI_PACKAGE) ? [CLI_PACKAGE, pkg] : [pkg];
  const doc =
    ctx.mode === 'full'
      ? historyDocument(meta, read.entries, read.events, lines)
      : appendToHistory(ctx.committed!, read.entries, read.events);
  return { doc, changed: writeHistory(ctx.options.out, doc) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The summary's releases: the range of the file, the CLI's own line, what this run read. */
function printReleases(ctx: RunContext, plan: RunPlan, doc: HistoryFile, comparisons: number): void {
  const { pkg } = ctx;
  const first = doc.releases[0]!;
  const last = doc.releases[doc.releases.length - 1]!;
  const cli = (r: ReleaseEntry) => (r.cliVersion && packageOf(r, pkg) === pkg ? ` (Claude Code ${r.cliVersion})` : '');
  const named = (r: ReleaseEntry) => `${packageOf(r, pkg)} ${r.version}${cli(r)}`;
  const unpublished = doc.unpublished?.length ?? 0;
  console.log(
    `${NAME}: ${named(first)} … ${named(last)}: ${doc.releases.length} releases in the history, ${unpublished} ` +
      `number${unpublished === 1 ? '' : 's'} never published`,
  );
  const ofCli = doc.releases.filter((r) => packageOf(r, pkg) !== pkg);
  const switchAt = plan.switchAt;
  if (ofCli.length > 0)
    console.log(
      `${NAME}: read from ${CLI_PACKAGE}: ${plural(ofCli.length, 'release')} (${ofCli[0]!.version} … ` +
        `${ofCli[ofCli.length - 1]!.version})` +
        (switchAt
          ? `; from ${pkg} ${switchAt.release} (Claude Code ` +
            `${switchAt.cliVersion}) on, the first release that ` +
            `states claudeCodeVersion`
          : ''),
    );
  const span = (t: Target) => `${t.source.pkg === pkg ? '' : `${t.source.pkg} `}${t.version}`;
  const { targets } = plan;
  console.log(
    `${NAME}: this run read ${plural(targets.length, 'release')} (${span(targets[0]!)} … ` +
      `${span(targets[targets.length - 1]!)}) and made ` +
      `${plural(comparisons, 'comparison')}${plan.base ? `, starting from the committed ${plan.base}` : ''}`,
  );
  if (doc.unpublished?.length) console.log(`${NAME}: never published: ${doc.unpublished.join(', ')}`);
}

/** The summary's bundled Claude Code versions: where the patch number differs from the SDK's, where none is stated. */
function printBundled(ctx: RunContext, doc: HistoryFile): void {
  const mismatch = doc.releases.filter(
    (r) => packageOf(r, ctx.pkg) === ctx.pkg && r.cliVersion && r.cliVersion.split('.')[2] !== r.version.split('.')[2],
  );
  const missing = doc.releases.filter((r) => !r.cliVersion).map((r) => r.version);
  console.log(
    `${NAME}: bundled Claude Code version (package.json claudeCodeVersion): ` +
      (mismatch.length === 0
        ? 'same patch number as the SDK release in every release'
        : `differs from the SDK patch number in ` +
          `${mismatch.map((r) => `${r.version}→${r.cliVersion}`).join(', ')}`) +
      `${missing.length > 0 ? `; missing in ${missing.join(', ')}` : ''}`,
  );
}

/** The summary's names derived from type prefixes that the names file lacks, with the releases that have them. */
function printDerived(ctx: RunContext, derived: ReadonlyMap<string, string[]>): void {
  if (derived.size === 0) return;
  const aliasOf = new Map<string, string>();
  for (const [tool, aliases] of Object.entries(ctx.names.aliases))
    for (const a of aliases) aliasOf.set(a.name, `${a.kind} of ${tool}`);
  const lines = [...derived.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([prefix, versions]) =>
        `${prefix} (${prefix}Input, in ` +
        `${versions.length === 1 ? versions[0] : `${versions.length} releases, ${versions[0]} … `}` +
        `${versions.length === 1 ? '' : versions[versions.length - 1]}` +
        `${aliasOf.has(prefix) ? `; ${aliasOf.get(prefix)} in ` + `${display(ctx.options.names)}` : ''})`,
    );
  console.log(
    `${NAME}: names derived from type prefixes missing in ${display(ctx.options.names)}: ${lines.join('; ')}`,
  );
}

function printSummary(ctx: RunContext, plan: RunPlan, read: Readings, doc: HistoryFile, changed: boolean): void {
  printReleases(ctx, plan, doc, read.comparisons);
  printBundled(ctx, doc);
  console.log(
    `${NAME}: downloads: ${fetchStats.downloads} (${(fetchStats.downloadBytes / 1e6).toFixed(1)} MB); tarballs ` +
      `from the cache: ${fetchStats.tarballsFromCache}; releases parsed: ${readStats.parsed}, rows from the cache: ` +
      `${readStats.rowsFromCache}`,
  );
  const byKind = KIND_ORDER.map((k) => [k, read.events.filter((e) => e.kind === k).length] as const).filter(
    ([, n]) => n > 0,
  );
  console.log(
    `${NAME}: ${read.events.length} new ` +
      `event${read.events.length === 1 ? '' : 's'}` +
      `${byKind.length ? `: ${byKind.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''} ` +
      `(${doc.events.length} in the file)`,
  );
  printDerived(ctx, read.derived);
  for (const s of read.skipped) console.log(`${NAME}: skipped ${s.version} (read: false): ${s.why}`);
  console.log(
    `${NAME}: ${changed ? 'wrote' : 'unchanged:'} ${display(ctx.options.out)} (${duration(Date.now() - ctx.started)})`,
  );
}

function main(argv: readonly string[]): void {
  const ctx = openRun(parseArgs(argv), Date.now());
  const plan = planRun(ctx);
  if (!plan) return;
  const read = readTargets(ctx, plan);
  const { doc, changed } = writeDocument(ctx, read);
  printSummary(ctx, plan, read, doc, changed);
}

function run(): void {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    const expected = error instanceof ScriptError || error instanceof DownloadError || error instanceof IntegrityError;
    const text = expected
      ? (error as Error).message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
    for (const line of text.split('\n')) console.error(`${NAME}: ${line}`);
    console.error(`${NAME}: nothing was written.`);
    process.exitCode = 1;
  }
}

run();
