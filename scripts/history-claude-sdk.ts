/**
 * Computes the release history of the published SDK types of Claude Code:
 * content/history/claude-code.sdk.json.
 *
 *   node scripts/history-claude-sdk.ts                    # extend the committed history by newer releases (or compute it whole when there is none)
 *   node scripts/history-claude-sdk.ts --full             # recompute every release from Claude Code 1.0.53 (the first that ships sdk-tools.d.ts) through the pin
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
 * unless the cache has it already; its sdk-tools.d.ts becomes the field rows of every tool through the site's
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
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import ts from 'typescript';
import type { NameTable } from './lib/claude-sdk.ts';
import { jsonText, replaceFile } from './lib/system/atomic-write.ts';
import { schemaAjv } from './lib/capture/ajv.ts';
import { tarballFiles, UnsafeTarballError } from './lib/tarball.ts';
import {
  describeNpmFailure,
  DownloadError,
  downloadTarball,
  IntegrityError,
  npmRegistryFor,
  sha512Integrity,
  type NpmFailure,
} from './lib/npm-package.ts';
import { releaseSnapshot, SnapshotError, type ReleaseSnapshot } from './lib/history/sdk-snapshot.ts';
import { diffReleases } from './lib/history/sdk-diff.ts';
import { KIND_ORDER, type HistoryEvent } from './lib/history/events.ts';
import {
  appendToHistory,
  historyDocument,
  lastReadRelease,
  packageOf,
  type ReleaseEntry,
} from './lib/history/document.ts';
import { releasesInRange } from './lib/history/releases.ts';
import { compareReleases, isRelease } from '../src/lib/core/version-order.ts';
import { planLines, statedFromView } from './lib/history/lines.ts';
import type { HistoryFile } from '../src/lib/core/content-types.ts';
import { display, readJson, ScriptError } from './lib/script-files.ts';
import { pinOf, readPins } from './lib/pins.ts';
import { claudeCode } from '../src/lib/agents/claude-code.ts';
import { schemaRefusal } from './lib/capture/ajv.ts';

const ROOT = resolve(import.meta.dirname, '..');
const PINS_FILE = process.env.PINS_FILE ? resolve(process.env.PINS_FILE) : join(ROOT, 'scripts/pins.json');
const CACHE = resolve(process.env.HISTORY_CACHE_DIR || '/work/cache/history');
/** The first @anthropic-ai/claude-code release that ships sdk-tools.d.ts (bisected: see the comment above). */
const DEFAULT_CLI_FROM = '1.0.53';
const AGENT = claudeCode.id;
const CLI_PACKAGE = claudeCode.npmPackage;
/** Where the registry folder of a test holds the CLI package's line. */
const CLI_FOLDER = 'cli';
const DEFAULT_OUT = join(ROOT, `content/history/${AGENT}.sdk.json`);
const DEFAULT_NAMES = join(ROOT, 'scripts/claude-sdk-names.json');
const SCHEMA_FILE = join(ROOT, 'schemas/history.schema.json');
const TYPES_FILE = 'sdk-tools.d.ts';
const METHOD =
  'Each release’s sdk-tools.d.ts read with the TypeScript compiler API into the field rows its tool pages show, and compared with the release before it field by field (scripts/history-claude-sdk.ts).';
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
        `unknown argument ${JSON.stringify(arg)} (options: --full, --since-committed, --from, --from-cli, --to, --out, --names, --registry-dir)`,
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
// Where releases come from: the npm registry (through the cache) or a folder.

interface Listing {
  versions: string[];
  time: Record<string, string>;
}

interface ReleaseFiles {
  manifest: string;
  /** undefined when the package has no sdk-tools.d.ts. */
  dts: string | undefined;
}

interface Source {
  readonly pkg: string;
  list(): Listing;
  files(version: string): ReleaseFiles;
  /** The `claudeCodeVersion` the registry states for each release up to `to` that states one. */
  statedCliVersions(to: string): Map<string, string>;
  /** Where computed rows (and downloaded tarballs) are kept. */
  cacheDir: string;
  /** Whether computed rows may be kept in (and read from) the cache. */
  cachesRows: boolean;
}

function listingFrom(raw: unknown, where: string): Listing {
  const r = raw as { versions?: unknown; time?: unknown } | null;
  const versions = typeof r?.versions === 'string' ? [r.versions] : r?.versions;
  if (!Array.isArray(versions) || !versions.every((v) => typeof v === 'string'))
    throw new ScriptError(`${where}: no list of versions`);
  const time: Record<string, string> = {};
  if (r?.time && typeof r.time === 'object') {
    for (const [k, v] of Object.entries(r.time as Record<string, unknown>)) if (typeof v === 'string') time[k] = v;
  }
  return { versions, time };
}

const stats = { downloads: 0, downloadBytes: 0, tarballsFromCache: 0, parsed: 0, rowsFromCache: 0 };

/** The cache folder of one package: the name without its scope. */
function cacheFor(pkg: string): string {
  return join(CACHE, pkg.replace(/^@[^/]+\//, ''));
}

class NpmSource implements Source {
  readonly cachesRows = true;
  readonly pkg: string;
  readonly cacheDir: string;
  constructor(pkg: string) {
    this.pkg = pkg;
    this.cacheDir = cacheFor(pkg);
  }

  statedCliVersions(to: string): Map<string, string> {
    const spec = `${this.pkg}@<=${to}`;
    let out: string;
    try {
      out = execFileSync('npm', ['view', spec, 'version', 'name', 'claudeCodeVersion', '--json'], {
        encoding: 'utf8',
        timeout: 120_000,
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      throw new DownloadError(
        `could not read the manifests of ${spec}: ${describeNpmFailure(error as NpmFailure, { registry: npmRegistryFor(this.pkg), timeoutMs: 120_000 })}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(out);
    } catch {
      throw new ScriptError(`npm view ${spec} printed no readable JSON: ${out.slice(0, 200)}`);
    }
    try {
      return statedFromView(parsed, `npm view ${spec}`);
    } catch (error) {
      throw new ScriptError((error as Error).message);
    }
  }

  list(): Listing {
    let out: string;
    try {
      out = execFileSync('npm', ['view', this.pkg, 'versions', 'time', '--json'], {
        encoding: 'utf8',
        timeout: 120_000,
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      throw new DownloadError(
        `could not list the versions of ${this.pkg}: ${describeNpmFailure(error as NpmFailure, { registry: npmRegistryFor(this.pkg), timeoutMs: 120_000 })}`,
      );
    }
    try {
      return listingFrom(JSON.parse(out), `npm view ${this.pkg}`);
    } catch (error) {
      if (error instanceof ScriptError) throw error;
      throw new ScriptError(`npm view ${this.pkg} printed no readable JSON: ${out.slice(0, 200)}`);
    }
  }

  /**
   * The cached tarball of `version`, downloaded first when the cache lacks it (or holds other bytes than it recorded).
   */
  tarball(version: string): string {
    const dir = join(this.cacheDir, 'tarballs');
    const file = join(dir, `${this.pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
    const sidecar = `${file}.integrity`;
    if (existsSync(file) && existsSync(sidecar)) {
      if (sha512Integrity(readFileSync(file)) === readFileSync(sidecar, 'utf8').trim()) {
        stats.tarballsFromCache++;
        return file;
      }
      console.warn(`${NAME}: the cached ${display(file)} does not match its recorded integrity; downloading it again`);
    }
    mkdirSync(dir, { recursive: true });
    const work = mkdtempSync(join(dir, '.download-'));
    try {
      const packed = downloadTarball(this.pkg, version, work);
      const size = statSync(packed.file).size;
      renameSync(packed.file, file);
      writeFileSync(sidecar, packed.integrity + '\n');
      stats.downloads++;
      stats.downloadBytes += size;
      return file;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  /**
   * package.json and sdk-tools.d.ts of the release, and nothing else: the CLI package's tarballs hold
   * 35–55 MB of other files. tar names a member it did not find and exits non-zero; a missing
   * sdk-tools.d.ts is an answer (the release is listed unread), a missing package.json is an error.
   */
  files(version: string): ReleaseFiles {
    const tarball = this.tarball(version);
    // Every entry is checked (no link, device or path leaving the package) before the two files are read.
    let files: Map<string, Buffer>;
    try {
      files = tarballFiles(
        readFileSync(tarball),
        `${this.pkg}@${version} (${display(tarball)})`,
        (path) => path === 'package.json' || path === TYPES_FILE,
      );
    } catch (error) {
      if (error instanceof UnsafeTarballError) throw new DownloadError(`refusing the tarball: ${error.message}`);
      throw error;
    }
    const manifest = files.get('package.json');
    if (!manifest) throw new ScriptError(`${this.pkg}@${version}: the tarball has no package/package.json`);
    return { manifest: manifest.toString('utf8'), dts: files.get(TYPES_FILE)?.toString('utf8') };
  }
}

class FolderSource implements Source {
  readonly cachesRows = false;
  readonly pkg: string;
  readonly cacheDir: string;
  private readonly dir: string;
  constructor(pkg: string, dir: string) {
    this.pkg = pkg;
    this.dir = dir;
    this.cacheDir = cacheFor(pkg);
  }
  statedCliVersions(to: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const version of this.list().versions) {
      if (!isRelease(version) || compareReleases(version, to) > 0) continue;
      const file = join(this.dir, version, 'package.json');
      if (!existsSync(file)) continue;
      const stated = readJson<{ claudeCodeVersion?: unknown }>(file, 'a release manifest')?.claudeCodeVersion;
      if (typeof stated === 'string' && isRelease(stated)) out.set(version, stated);
    }
    return out;
  }
  list(): Listing {
    return listingFrom(
      readJson<unknown>(join(this.dir, 'registry.json'), 'the release list'),
      display(join(this.dir, 'registry.json')),
    );
  }
  files(version: string): ReleaseFiles {
    const at = join(this.dir, version);
    const dtsPath = join(at, TYPES_FILE);
    let manifest: string;
    try {
      manifest = readFileSync(join(at, 'package.json'), 'utf8');
    } catch {
      throw new ScriptError(`${display(at)} has no package.json`);
    }
    return { manifest, dts: existsSync(dtsPath) ? readFileSync(dtsPath, 'utf8') : undefined };
  }
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

function createReader(source: Source, names: NameTable, key: string): (version: string) => ReadRelease {
  const pkg = source.pkg;
  const rowsDir = join(source.cacheDir, 'rows');
  return (version) => {
    const cached = join(rowsDir, `${version}.json.gz`);
    if (source.cachesRows && existsSync(cached)) {
      try {
        const entry = JSON.parse(gunzipSync(readFileSync(cached)).toString('utf8')) as CachedRows;
        if (entry.key === key && entry.version === version) {
          stats.rowsFromCache++;
          const release: ReadRelease = { version };
          if (entry.cliVersion !== undefined) release.cliVersion = entry.cliVersion;
          if (entry.error !== undefined) release.error = entry.error;
          if (entry.snapshot !== undefined) release.snapshot = entry.snapshot;
          return release;
        }
      } catch {
        // An unreadable cache entry is recomputed.
      }
    }
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
    if (files.dts === undefined) {
      release.error = `${TYPES_FILE} is not in the package`;
    } else {
      try {
        stats.parsed++;
        release.snapshot = releaseSnapshot(files.dts, names, { package: pkg, version, file: TYPES_FILE });
      } catch (error) {
        if (!(error instanceof SnapshotError)) throw error;
        release.error = error.message;
      }
    }
    if (source.cachesRows) {
      mkdirSync(rowsDir, { recursive: true });
      const staging = `${cached}.new-${process.pid}`;
      writeFileSync(staging, gzipSync(JSON.stringify({ key, ...release })));
      renameSync(staging, cached);
    }
    return release;
  };
}

// ---------------------------------------------------------------------------

function validate(doc: HistoryFile): void {
  const ajv = schemaAjv();
  const check = ajv.compile(readJson<object>(SCHEMA_FILE, 'the history schema'));
  if (!check(doc)) {
    throw new ScriptError(schemaRefusal('the history', 'schemas/history.schema.json', check.errors, 5));
  }
  const versions = new Set(doc.releases.map((r) => r.version));
  for (const e of doc.events) {
    if (!versions.has(e.release) || !versions.has(e.previous))
      throw new ScriptError(`an event names a release that is not listed: ${e.previous} → ${e.release}`);
  }
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** One release to read: which line (source) and which version of it. */
interface Target {
  source: Source;
  version: string;
}

function main(argv: readonly string[]): void {
  const started = Date.now();
  const options = parseArgs(argv);
  const pin = pinOf(readPins(PINS_FILE), AGENT, PINS_FILE);
  const pkg = pin.package;
  const to = options.to ?? pin.version;
  const names = readJson<NameTable>(options.names, 'the names table');
  const namesText = readFileSync(options.names, 'utf8');
  // Renames the package states: each former name (the binary's alias table, recorded in the names file) with its tool's
  // name now.
  const formerNames = new Map(
    Object.entries(names.aliases).flatMap(([tool, aliases]) =>
      aliases.filter((a) => a.kind === 'former-name').map((a) => [a.name, tool] as const),
    ),
  );

  const source: Source = options.registryDir ? new FolderSource(pkg, options.registryDir) : new NpmSource(pkg);
  // The CLI's own package: always on the registry; in a test folder only when it has one.
  const cliSource: Source | undefined = options.registryDir
    ? existsSync(join(options.registryDir, CLI_FOLDER, 'registry.json'))
      ? new FolderSource(CLI_PACKAGE, join(options.registryDir, CLI_FOLDER))
      : undefined
    : new NpmSource(CLI_PACKAGE);
  if (source.cachesRows && !relative(ROOT, CACHE).startsWith('..')) {
    throw new ScriptError(`the cache ${CACHE} is inside the repository; set HISTORY_CACHE_DIR to a folder outside it`);
  }
  const committed = existsSync(options.out) ? readJson<HistoryFile>(options.out, 'the committed history') : undefined;
  const mode = options.mode ?? (committed ? 'since-committed' : 'full');
  if (mode === 'since-committed' && !committed)
    throw new ScriptError(`there is no history at ${display(options.out)} to extend: run with --full`);
  if (committed && committed.package !== pkg)
    throw new ScriptError(`${display(options.out)} is the history of ${committed.package}, not ${pkg}`);

  const listing = source.list();
  const listings = new Map<Source, Listing>([[source, listing]]);
  // Extending: the committed range of the pinned package (its first release there) through `to`.
  const firstOfPin = committed?.releases.find((r) => packageOf(r, pkg) === pkg)?.version;
  if (mode === 'since-committed' && !firstOfPin)
    throw new ScriptError(`${display(options.out)} lists no release of ${pkg} to extend: run with --full`);
  const inRange = releasesInRange(listing.versions, mode === 'full' ? (options.from ?? '0.0.0') : firstOfPin!, to);
  if (!inRange.includes(to)) throw new ScriptError(`${pkg}@${to} is not a published release`);

  const key = source.cachesRows ? rowsCacheKey(namesText) : '';
  const readers = new Map<Source, (version: string) => ReadRelease>();
  const readerOf = (s: Source) => readers.get(s) ?? readers.set(s, createReader(s, names, key)).get(s)!;
  /**
   * The Claude Code release each agent SDK release states, as the registry says it (checked against each package.json
   * read).
   */
  let stated = new Map<string, string>();
  let targets: Target[];
  let previous: ReadRelease | undefined;
  let base: string | undefined;
  let switchAt: { release: string; cliVersion: string } | undefined;
  if (mode === 'full' && options.from) {
    // The pinned package alone, from the release given.
    targets = inRange.map((version) => ({ source, version }));
  } else if (mode === 'full') {
    stated = source.statedCliVersions(to);
    const cliListing = cliSource?.list();
    if (cliSource && cliListing) listings.set(cliSource, cliListing);
    let plan: ReturnType<typeof planLines>;
    try {
      plan = planLines({
        sdkVersions: inRange,
        stated,
        to,
        cliVersions: cliListing?.versions,
        cliFrom: options.fromCli ?? DEFAULT_CLI_FROM,
      });
    } catch (error) {
      throw new ScriptError(`${pkg}: ${(error as Error).message}`);
    }
    switchAt = plan.switchAt;
    const overlap = plan.cli.filter((v) => plan.sdk.includes(v));
    if (overlap.length)
      throw new ScriptError(
        `release numbers ${overlap.join(', ')} are in both ${CLI_PACKAGE} and ${pkg}: events could not tell them apart`,
      );
    targets = [
      ...plan.cli.map((version) => ({ source: cliSource!, version })),
      ...plan.sdk.map((version) => ({ source, version })),
    ];
  } else {
    const last = committed!.releases[committed!.releases.length - 1]!;
    if (packageOf(last, pkg) !== pkg)
      throw new ScriptError(
        `${display(options.out)} ends with a release of ${packageOf(last, pkg)}; extending follows ${pkg} only: run with --full`,
      );
    const known = new Set(committed!.releases.map((r) => r.version));
    const late = inRange.filter((v) => compareReleases(v, last.version) <= 0 && !known.has(v));
    if (late.length > 0)
      console.warn(
        `${NAME}: published after the history was computed, inside its range: ${late.join(', ')}; run with --full to credit changes to them`,
      );
    targets = inRange.filter((v) => compareReleases(v, last.version) > 0).map((version) => ({ source, version }));
    if (targets.length === 0) {
      console.log(
        `${NAME}: nothing new: ${display(options.out)} already covers ${pkg} through ${last.version}, and no newer release is published up to ${to}; nothing downloaded, nothing written (${duration(Date.now() - started)})`,
      );
      return;
    }
    base = lastReadRelease(committed!);
    if (!base) throw new ScriptError(`${display(options.out)} lists no release that was read`);
    const baseEntry = committed!.releases.find((r) => r.version === base)!;
    const baseSource =
      packageOf(baseEntry, pkg) === pkg ? source : packageOf(baseEntry, pkg) === CLI_PACKAGE ? cliSource : undefined;
    if (!baseSource)
      throw new ScriptError(
        `${display(options.out)}: its last release read, ${base}, is of ${packageOf(baseEntry, pkg)}, which this script cannot read`,
      );
    previous = readerOf(baseSource)(base);
    if (!previous.snapshot)
      throw new ScriptError(`${packageOf(baseEntry, pkg)}@${base} can no longer be read: ${previous.error}`);
  }

  const entries: ReleaseEntry[] = [];
  const events: HistoryEvent[] = [];
  const skipped: { version: string; why: string }[] = [];
  const derived = new Map<string, string[]>();
  const disagreements: string[] = [];
  let comparisons = 0;
  for (const { source: from, version } of targets) {
    const release = readerOf(from)(version);
    const entry: ReleaseEntry = { version };
    if (from.pkg !== pkg) entry.package = from.pkg;
    if (from === source) {
      if (release.cliVersion) entry.cliVersion = release.cliVersion;
      const said = stated.get(version);
      if (said !== undefined && said !== release.cliVersion)
        disagreements.push(`${version}: registry ${said}, package.json ${release.cliVersion ?? 'none'}`);
    } else {
      // The CLI's own package: the Claude Code release is the package's version (its package.json was checked to say
      // so).
      entry.cliVersion = version;
    }
    const time = listings.get(from)?.time[version];
    if (time) entry.published = time;
    if (!release.snapshot) {
      entry.read = false;
      entries.push(entry);
      skipped.push({ version: `${from.pkg === pkg ? '' : `${from.pkg} `}${version}`, why: release.error ?? 'unknown' });
      continue;
    }
    entries.push(entry);
    for (const prefix of release.snapshot.derived) derived.set(prefix, [...(derived.get(prefix) ?? []), version]);
    if (previous?.snapshot) {
      events.push(...diffReleases(previous.snapshot, release.snapshot, previous.version, version, formerNames));
      comparisons++;
    }
    previous = release;
  }
  if (disagreements.length)
    throw new ScriptError(
      `claudeCodeVersion differs between the registry and the package: ${disagreements.join('; ')}`,
    );
  if (!entries.some((e) => e.read !== false) && mode === 'full')
    throw new ScriptError('no release in the range could be read');

  const meta = { agent: AGENT, package: pkg, method: METHOD, file: TYPES_FILE };
  const lines = entries.some((e) => e.package === CLI_PACKAGE) ? [CLI_PACKAGE, pkg] : [pkg];
  const doc =
    mode === 'full' ? historyDocument(meta, entries, events, lines) : appendToHistory(committed!, entries, events);
  validate(doc);
  const text = jsonText(doc);
  const before = existsSync(options.out) ? readFileSync(options.out, 'utf8') : undefined;
  const changed = before !== text;
  if (changed) replaceFile(options.out, text);

  // Summary.
  const first = doc.releases[0]!;
  const last = doc.releases[doc.releases.length - 1]!;
  const cli = (r: ReleaseEntry) => (r.cliVersion && packageOf(r, pkg) === pkg ? ` (Claude Code ${r.cliVersion})` : '');
  const named = (r: ReleaseEntry) => `${packageOf(r, pkg)} ${r.version}${cli(r)}`;
  console.log(
    `${NAME}: ${named(first)} … ${named(last)}: ${doc.releases.length} releases in the history, ${doc.unpublished?.length ?? 0} number${(doc.unpublished?.length ?? 0) === 1 ? '' : 's'} never published`,
  );
  const ofCli = doc.releases.filter((r) => packageOf(r, pkg) !== pkg);
  if (ofCli.length > 0)
    console.log(
      `${NAME}: read from ${CLI_PACKAGE}: ${ofCli.length} release${ofCli.length === 1 ? '' : 's'} (${ofCli[0]!.version} … ${ofCli[ofCli.length - 1]!.version})${switchAt ? `; from ${pkg} ${switchAt.release} (Claude Code ${switchAt.cliVersion}) on, the first release that states claudeCodeVersion` : ''}`,
    );
  const span = (t: Target) => `${t.source.pkg === pkg ? '' : `${t.source.pkg} `}${t.version}`;
  console.log(
    `${NAME}: this run read ${targets.length} release${targets.length === 1 ? '' : 's'} (${span(targets[0]!)} … ${span(targets[targets.length - 1]!)}) and made ${comparisons} comparison${comparisons === 1 ? '' : 's'}${base ? `, starting from the committed ${base}` : ''}`,
  );
  if (doc.unpublished?.length) console.log(`${NAME}: never published: ${doc.unpublished.join(', ')}`);
  const mismatch = doc.releases.filter(
    (r) => packageOf(r, pkg) === pkg && r.cliVersion && r.cliVersion.split('.')[2] !== r.version.split('.')[2],
  );
  console.log(
    `${NAME}: bundled Claude Code version (package.json claudeCodeVersion): ${mismatch.length === 0 ? 'same patch number as the SDK release in every release' : `differs from the SDK patch number in ${mismatch.map((r) => `${r.version}→${r.cliVersion}`).join(', ')}`}${
      doc.releases.some((r) => !r.cliVersion)
        ? `; missing in ${doc.releases
            .filter((r) => !r.cliVersion)
            .map((r) => r.version)
            .join(', ')}`
        : ''
    }`,
  );
  console.log(
    `${NAME}: downloads: ${stats.downloads} (${(stats.downloadBytes / 1e6).toFixed(1)} MB); tarballs from the cache: ${stats.tarballsFromCache}; releases parsed: ${stats.parsed}, rows from the cache: ${stats.rowsFromCache}`,
  );
  const byKind = KIND_ORDER.map((k) => [k, events.filter((e) => e.kind === k).length] as const).filter(
    ([, n]) => n > 0,
  );
  console.log(
    `${NAME}: ${events.length} new event${events.length === 1 ? '' : 's'}${byKind.length ? ': ' + byKind.map(([k, n]) => `${k} ${n}`).join(', ') : ''} (${doc.events.length} in the file)`,
  );
  if (derived.size > 0) {
    const aliasOf = new Map<string, string>();
    for (const [tool, aliases] of Object.entries(names.aliases))
      for (const a of aliases) aliasOf.set(a.name, `${a.kind} of ${tool}`);
    const lines = [...derived.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([prefix, versions]) =>
          `${prefix} (${prefix}Input, in ${versions.length === 1 ? versions[0] : `${versions.length} releases, ${versions[0]} … ${versions[versions.length - 1]}`}${aliasOf.has(prefix) ? `; ${aliasOf.get(prefix)} in ${display(options.names)}` : ''})`,
      );
    console.log(`${NAME}: names derived from type prefixes missing in ${display(options.names)}: ${lines.join('; ')}`);
  }
  for (const s of skipped) console.log(`${NAME}: skipped ${s.version} (read: false): ${s.why}`);
  console.log(
    `${NAME}: ${changed ? 'wrote' : 'unchanged:'} ${display(options.out)} (${duration(Date.now() - started)})`,
  );
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
