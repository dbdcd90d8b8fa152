/**
 * The pinned CLI releases, installed with npm into a cache folder outside the repo and
 * reused when already there: <cache>/capture-cli/<package>@<version>/ (`package` the agent's
 * own, whichever package the release came from). A release the agent's package lacks is
 * installed from the first of its standalone packages whose registry listing has it (the
 * platform package with the native program: scripts/lib/releases/runnable-release.ts), and its program
 * must print that release for `--version`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AGENTS, type AgentId } from '../../../src/lib/agents/index.ts';
import { listedVersions } from '../releases/registry.ts';
import { printsVersion, runnablePackage, type PackageListing } from '../releases/runnable-release.ts';
import {
  binaryCandidates,
  fallbackProgram,
  holderPackage,
  movedProgram,
  platformFolder,
  releaseLauncher,
  type PackageManifest,
} from './release-binary.ts';

export class InstallError extends Error {
  /**
   * The failure is this machine's (the network, the disk, a time limit), not the release's: retried, never recorded as
   * the release's.
   */
  readonly ours: boolean;
  constructor(message: string, options: { ours?: boolean } = {}) {
    super(message);
    this.ours = options.ours ?? false;
  }
}

/** npm's error codes that say the machine or the network failed, not the release. */
const OUR_NPM_FAILURES =
  /\b(?:code|errno) (?:ETIMEDOUT|ESOCKETTIMEDOUT|ECONNRESET|ECONNREFUSED|EAI_AGAIN|ENOTFOUND|ENETUNREACH|ENOSPC|EMFILE|ENOMEM|EINTEGRITY)\b/;

/** The package npm could not find (E404) or found no such version of (ETARGET), as its error names it. */
const MISSING_PACKAGE =
  /'((?:@[^/\s']+\/)?[^@\s']+)@[^\s']*' could not be found|No matching version found for ((?:@[^/\s]+\/)?[^@\s]+)@/;

/**
 * Whether npm's standard error, or the way it ended, puts an install's failure on this machine. `own` are the agent's
 * packages: when npm cannot find one of them, the release itself is missing; when it cannot find another package (a
 * dependency), the registry this machine reaches does not serve it, which says nothing about the release (absence is
 * not evidence), so the failure is ours too.
 */
export function npmFailureIsOurs(
  stderr: string,
  error?: { code?: string; signal?: string | null },
  own: readonly string[] = [],
): boolean {
  if (OUR_NPM_FAILURES.test(stderr) || error?.code === 'ETIMEDOUT' || error?.signal) return true;
  const missing = MISSING_PACKAGE.exec(stderr);
  const name = missing?.[1] ?? missing?.[2];
  return own.length > 0 && name !== undefined && !own.includes(name);
}

/**
 * What npm said went wrong, in one line: its `npm error` lines without the prefix, without
 * npm's boilerplate (the note on other install sources, where its log was written: a path
 * and time of this machine) and without lines naming an address (the registry this machine
 * uses), neither of which may reach committed content; each line said once.
 */
export function npmErrorSummary(stderr: string): string {
  const boilerplate =
    /^(A complete log of this run can be found in|Note that you can also install from a|tarball, folder, http url, or git url\.?$|Log files were not written)/i;
  const lines = stderr
    .split('\n')
    .map((l) =>
      l
        .replace(/^npm (?:error|ERR!)\s*/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((l) => {
      const text = l.replace(/^\d{3}\b\s*/, '');
      return (
        text !== '' &&
        !/^(?:code|errno) \S+$/.test(text) &&
        !boilerplate.test(text) &&
        !/[a-z][a-z0-9+.-]*:\/\//i.test(text)
      );
    });
  return [...new Set(lines)].slice(0, 3).join(' ');
}

export function installDir(cacheRoot: string, pkg: string, version: string): string {
  return join(cacheRoot, 'capture-cli', `${pkg}@${version}`);
}

function manifest(dir: string, pkg: string): (PackageManifest & { version?: string }) | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as PackageManifest & {
      version?: string;
    };
  } catch {
    return undefined;
  }
}

function installedVersion(dir: string, pkg: string): string | undefined {
  return manifest(dir, pkg)?.version;
}

/** The agent's packages that can each hold a release: its own (the wrapper), then its standalone packages. */
export function agentPackages(agent: AgentId, pkg: string): string[] {
  return [pkg, ...(AGENTS[agent].standalonePackages ?? []).filter((p) => p !== pkg)];
}

/** Which of the agent's packages the install in `dir` holds at `version` (the wrapper first), if any. */
function packageIn(agent: AgentId, dir: string, pkg: string, version: string): string | undefined {
  return agentPackages(agent, pkg).find((p) => installedVersion(dir, p) === version);
}

const listings = new Map<string, string[]>();
/** The registry's listing of each of the agent's packages, asked once per process. */
export function agentListings(agent: AgentId, pkg: string): PackageListing[] {
  return agentPackages(agent, pkg).map((p) => {
    const known = listings.get(p) ?? listedVersions(p);
    listings.set(p, known);
    return { package: p, versions: known };
  });
}

/** Files under `folder` of the install in `dir`, relative to `dir`. */
function filesUnder(dir: string, folder: string): string[] {
  if (!existsSync(join(dir, folder))) return [];
  return readdirSync(join(dir, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/**
 * The program of the install in `dir`: the module's path, or the file the release's own `bin`
 * names, or the one file of the same name its platform package moved, or, when npm did not
 * install the platform package, the script the release's own launcher imports instead on this
 * Node.js, else that launcher itself, which fails saying why (release-binary.ts).
 */
function programIn(agent: AgentId, dir: string, pkg: string): string | undefined {
  const binary = AGENTS[agent].binary;
  const listed = binaryCandidates(binary, pkg, manifest(dir, pkg))
    .map((b) => join(dir, b))
    .find((b) => existsSync(b));
  if (listed !== undefined) return listed;
  const folder = platformFolder(binary);
  const moved = folder === undefined ? undefined : movedProgram(binary, filesUnder(dir, folder));
  if (moved !== undefined) return join(dir, moved);
  // No platform package: what the release's own launcher runs instead on this Node.js (the one the runs use).
  const read = (path: string): string | undefined => {
    try {
      return readFileSync(join(dir, path), 'utf8');
    } catch {
      return undefined;
    }
  };
  const fallback = fallbackProgram(binary, pkg, manifest(dir, pkg), Number(process.versions.node.split('.')[0]), read);
  if (fallback !== undefined) return join(dir, fallback);
  // No fallback: the launcher itself, which says why it cannot start when it is run.
  const launcher = releaseLauncher(binary, pkg, manifest(dir, pkg));
  return launcher !== undefined && read(launcher) !== undefined ? join(dir, launcher) : undefined;
}

/** The binary of an existing install, or undefined when the install is missing or incomplete. */
export function installedBinary(agent: AgentId, cacheRoot: string, pkg: string, version: string): string | undefined {
  const dir = installDir(cacheRoot, pkg, version);
  const from = packageIn(agent, dir, pkg, version);
  return from === undefined ? undefined : programIn(agent, dir, from);
}

/** The package an existing install of `version` came from: `pkg`, or the standalone package installed in its place. */
export function installedPackage(agent: AgentId, cacheRoot: string, pkg: string, version: string): string | undefined {
  return packageIn(agent, installDir(cacheRoot, pkg, version), pkg, version);
}

/**
 * The package to install for `version`: `pkg` itself for an agent without standalone
 * packages (the registry is not asked); otherwise the first of its packages whose listing
 * has the release. Throws when none does.
 */
function packageToInstall(agent: AgentId, pkg: string, version: string): string {
  if ((AGENTS[agent].standalonePackages ?? []).length === 0) return pkg;
  const listed = agentListings(agent, pkg);
  const from = runnablePackage(listed, version);
  if (from === undefined)
    throw new InstallError(`no package of ${agent} lists ${version} (${listed.map((l) => l.package).join(', ')})`);
  return from;
}

/** Runs a standalone package's program with `--version` (in a throwaway HOME) and checks it prints `version`. */
function checkPrintsVersion(binary: string, from: string, version: string): void {
  const home = mkdtempSync(join(tmpdir(), 'version-check-'));
  try {
    const result = spawnSync(binary, ['--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
    });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    if (result.error || result.status !== 0 || !printsVersion(output, version)) {
      // A check that hit its time limit says nothing of the release (a busy machine).
      const ours = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
      throw new InstallError(
        `${from}@${version}: \`${binary.split('/').pop()} --version\` ` +
          (result.error
            ? `failed: ${result.error.message}`
            : `printed ${JSON.stringify(output.slice(0, 200))} ` +
              `(exit ${result.status ?? result.signal}), not ${version}`),
        { ours },
      );
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Refuses a standalone package (installed where `pkg` lacks the release) that does not hold the agent's program. */
function refuseStandaloneWithoutProgram(agent: AgentId, pkg: string, from: string): void {
  if (from !== pkg && holderPackage(AGENTS[agent].binary) !== from) {
    throw new InstallError(
      `${from} (a standalone package of ${agent}) does not hold its program ${AGENTS[agent].binary}`,
    );
  }
}

/** `npm install from@version` into the fresh folder `partial`, without running any install script of the package. */
function npmInstall(partial: string, from: string, version: string, own: readonly string[]): void {
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(
    join(partial, 'package.json'),
    JSON.stringify({ private: true, description: `capture install of ${from}@${version}` }) + '\n',
  );
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--save-exact',
        '--loglevel=error',
        `${from}@${version}`,
      ],
      { cwd: partial, stdio: ['ignore', 'pipe', 'pipe'], timeout: 15 * 60_000, encoding: 'utf8' },
    );
  } catch (error) {
    const e = error as { stderr?: string; message: string; code?: string; signal?: string | null };
    throw new InstallError(
      `npm install ${from}@${version} failed: ${npmErrorSummary(e.stderr || e.message) || 'npm said nothing'}`,
      { ours: npmFailureIsOurs(e.stderr ?? '', e, own) },
    );
  }
}

/**
 * Throws unless `partial` holds the release and its program: a standalone package's program must also print the
 * version, since nothing else vouches for it.
 */
function checkInstall(agent: AgentId, partial: string, pkg: string, from: string, version: string): void {
  if (from !== pkg) {
    const program = installedVersion(partial, from) === version ? programIn(agent, partial, from) : undefined;
    if (program === undefined)
      throw new InstallError(`npm install ${from}@${version} did not bring ${AGENTS[agent].binary}`);
    checkPrintsVersion(program, from, version);
  } else if (installedVersion(partial, pkg) !== version || programIn(agent, partial, pkg) === undefined) {
    // A native binary lives in a platform package, an optional dependency npm skips without an
    // error when it cannot get it: name that package rather than a missing file.
    const holder = holderPackage(AGENTS[agent].binary);
    const missing =
      holder !== undefined && holder !== pkg && !existsSync(join(partial, 'node_modules', holder, 'package.json'));
    throw new InstallError(
      missing
        ? `npm install ${pkg}@${version} did not install its platform package ${holder}, which holds the program ` +
            `(${AGENTS[agent].binary})`
        : `npm install ${pkg}@${version} did not bring ${AGENTS[agent].binary} (nor a program its package.json ` +
            `names as its command)`,
    );
  }
}

/**
 * Installs `version` of the agent (from `pkg`, or the standalone package that has it) unless present; returns the
 * native binary's path. The install goes to a folder of its own, renamed into place only once checked, so that a
 * failed or interrupted one is never taken for a release.
 */
export function ensureInstalled(
  agent: AgentId,
  cacheRoot: string,
  pkg: string,
  version: string,
  log: (line: string) => void,
): string {
  const present = installedBinary(agent, cacheRoot, pkg, version);
  if (present) return present;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new InstallError(`capture runs the linux-x64 builds; this is ${process.platform}-${process.arch}`);
  const from = packageToInstall(agent, pkg, version);
  refuseStandaloneWithoutProgram(agent, pkg, from);
  const dir = installDir(cacheRoot, pkg, version);
  const partial = `${dir}.partial-${process.pid}`;
  log(`installing ${from}@${version}${from === pkg ? '' : ` (${pkg} lists no ${version})`} into ${dir} …`);
  try {
    npmInstall(partial, from, version, agentPackages(agent, pkg));
    checkInstall(agent, partial, pkg, from, version);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(partial, dir);
  return programIn(agent, dir, from)!;
}
