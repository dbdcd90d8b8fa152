/**
 * Where a history that reads package files (not runs) gets its releases: the npm registry, through a cache outside
 * the repository, or a folder of releases for tests. The release driver's counterpart for the SDK history: list the
 * releases (with when each was published), fetch one release's manifest and one file of it, say which releases
 * state a manifest field.
 *
 * From the registry, each release's tarball is downloaded once with `npm pack` into
 * <cache>/<package name without scope>/tarballs/, beside its sha512 integrity; a cached tarball whose bytes no longer
 * match is downloaded again. Every entry of a tarball is checked (no link, device or path leaving the package) before
 * the two files are read. A folder holds <dir>/registry.json (`{versions, time}` as `npm view <package> versions time
 * --json` prints them) and <dir>/<version>/ with package.json and the file.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareReleases, isRelease } from '../../../src/lib/core/version-order.ts';
import { DownloadError, downloadTarball, sha512Integrity } from './npm-package.ts';
import { statedFromView } from '../history/lines.ts';
import { display, readJson, ScriptError } from '../script-files.ts';
import { tarballFiles, UnsafeTarballError } from './tarball.ts';
import { npmView } from './driver.ts';

export interface Listing {
  versions: string[];
  time: Record<string, string>;
}

export interface ReleaseFiles {
  manifest: string;
  /** undefined when the package does not have the file. */
  file: string | undefined;
}

/** What one run fetched, for its summary. */
export const fetchStats = { downloads: 0, downloadBytes: 0, tarballsFromCache: 0 };

export interface PackageSource {
  readonly pkg: string;
  list(): Listing;
  files(version: string): ReleaseFiles;
  /** The release each release up to `to` states in its manifest's `field`, for those that state one. */
  statedVersions(to: string, field: string): Map<string, string>;
  /** Where computed readings (and downloaded tarballs) are kept. */
  cacheDir: string;
  /** Whether computed readings may be kept in (and read from) the cache. */
  cachesReadings: boolean;
}

/** `{versions, time}` as npm prints them (one version comes as a string). */
export function listingFrom(raw: unknown, where: string): Listing {
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

/** A package's releases from the npm registry, through the cache folder `cacheDir`. */
export class NpmSource implements PackageSource {
  readonly cachesReadings = true;
  readonly pkg: string;
  readonly cacheDir: string;
  private readonly fileName: string;
  private readonly warn: (line: string) => void;
  constructor(pkg: string, cacheDir: string, fileName: string, warn: (line: string) => void) {
    this.pkg = pkg;
    this.cacheDir = cacheDir;
    this.fileName = fileName;
    this.warn = warn;
  }

  statedVersions(to: string, field: string): Map<string, string> {
    const spec = `${this.pkg}@<=${to}`;
    try {
      return statedFromView(npmView(spec, ['version', 'name', field]), `npm view ${spec}`, field);
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      throw new ScriptError((error as Error).message);
    }
  }

  list(): Listing {
    return listingFrom(npmView(this.pkg, ['versions', 'time']), `npm view ${this.pkg}`);
  }

  /** The cached tarball of `version`, downloaded first when the cache lacks it (or holds other bytes). */
  tarball(version: string): string {
    const dir = join(this.cacheDir, 'tarballs');
    const file = join(dir, `${this.pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
    const sidecar = `${file}.integrity`;
    if (existsSync(file) && existsSync(sidecar)) {
      if (sha512Integrity(readFileSync(file)) === readFileSync(sidecar, 'utf8').trim()) {
        fetchStats.tarballsFromCache++;
        return file;
      }
      this.warn(`the cached ${display(file)} does not match its recorded integrity; downloading it again`);
    }
    mkdirSync(dir, { recursive: true });
    const work = mkdtempSync(join(dir, '.download-'));
    try {
      const packed = downloadTarball(this.pkg, version, work);
      const size = statSync(packed.file).size;
      renameSync(packed.file, file);
      writeFileSync(sidecar, `${packed.integrity}\n`);
      fetchStats.downloads++;
      fetchStats.downloadBytes += size;
      return file;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  /**
   * package.json and the file of the release, and nothing else: the CLI package's tarballs hold 35–55 MB of other
   * files. A missing file is an answer (the release is listed unread), a missing package.json is an error.
   */
  files(version: string): ReleaseFiles {
    const tarball = this.tarball(version);
    let files: Map<string, Buffer>;
    try {
      files = tarballFiles(
        readFileSync(tarball),
        `${this.pkg}@${version} (${display(tarball)})`,
        (path) => path === 'package.json' || path === this.fileName,
      );
    } catch (error) {
      if (error instanceof UnsafeTarballError) throw new DownloadError(`refusing the tarball: ${error.message}`);
      throw error;
    }
    const manifest = files.get('package.json');
    if (!manifest) throw new ScriptError(`${this.pkg}@${version}: the tarball has no package/package.json`);
    return { manifest: manifest.toString('utf8'), file: files.get(this.fileName)?.toString('utf8') };
  }
}

/** A package's releases from a folder (tests): nothing is downloaded, nothing computed is cached. */
export class FolderSource implements PackageSource {
  readonly cachesReadings = false;
  readonly pkg: string;
  readonly cacheDir: string;
  private readonly dir: string;
  private readonly fileName: string;
  constructor(pkg: string, cacheDir: string, dir: string, fileName: string) {
    this.pkg = pkg;
    this.cacheDir = cacheDir;
    this.dir = dir;
    this.fileName = fileName;
  }

  statedVersions(to: string, field: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const version of this.list().versions) {
      if (!isRelease(version) || compareReleases(version, to) > 0) continue;
      const file = join(this.dir, version, 'package.json');
      if (!existsSync(file)) continue;
      const stated = readJson<Record<string, unknown>>(file, 'a release manifest')?.[field];
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
    const path = join(at, this.fileName);
    let manifest: string;
    try {
      manifest = readFileSync(join(at, 'package.json'), 'utf8');
    } catch {
      throw new ScriptError(`${display(at)} has no package.json`);
    }
    return { manifest, file: existsSync(path) ? readFileSync(path, 'utf8') : undefined };
  }
}
