/**
 * Fetching one published npm package version with the npm client (and a time
 * limit), and checking the tarball against a pinned integrity hash.
 *
 * The integrity is computed here from the downloaded bytes (sha512, base64, as
 * a subresource-integrity string) and must agree with what npm reports; it is
 * then compared with the pin before the tarball is unpacked.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { extractTarball, UnsafeTarballError } from './tarball.ts';

/** The download (or unpacking) failed; the message says why in one line. */
export class DownloadError extends Error {
  override name = 'DownloadError';
}

/** The tarball is not the pinned one (or the pin itself is unusable). */
export class IntegrityError extends Error {
  override name = 'IntegrityError';
}

export interface PackedTarball {
  /** Path of the downloaded `.tgz`. */
  file: string;
  /** sha512 subresource-integrity string of the tarball bytes, computed here. */
  integrity: string;
}

const SHA512_SRI = /^sha512-[A-Za-z0-9+/]{86}==$/;

/** `sha512-<base64>` of `bytes`: the form npm records in lockfiles and `dist.integrity`. */
export function sha512Integrity(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/** Whether `value` is one well-formed sha512 SRI string (and nothing else). */
export function isSha512Integrity(value: unknown): value is string {
  return typeof value === 'string' && SHA512_SRI.test(value);
}

/** Whether an SRI string as npm reports it (possibly several space-separated hashes) includes `integrity`. */
export function reportedIntegrityIncludes(reported: string, integrity: string): boolean {
  return reported
    .trim()
    .split(/\s+/)
    .some((token) => token.replace(/\?.*$/, '') === integrity);
}

/** One space-separated line: newlines and runs of blanks collapsed. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The registry npm uses for `name` (the scope's registry when one is set), or undefined if npm cannot say. */
export function npmRegistryFor(name: string, timeoutMs = 30_000): string | undefined {
  const scope = name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined;
  const keys = scope ? [`${scope}:registry`, 'registry'] : ['registry'];
  let out: string;
  try {
    out = execFileSync('npm', ['config', 'get', ...keys], {
      encoding: 'utf8',
      timeout: timeoutMs,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    return undefined;
  }
  if (keys.length === 1) return out.trim() || undefined;
  // Several keys print as `key=value` lines; an unset key prints `undefined`.
  const values = new Map<string, string>();
  for (const line of out.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) values.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  for (const key of keys) {
    const value = values.get(key);
    if (value && value !== 'undefined' && value !== 'null') return value;
  }
  return undefined;
}

/** npmRegistryFor(name), asked of npm the first time it is called and kept: for messages that may never be written. */
export function registryNamer(name: string): () => string | undefined {
  let asked: { registry: string | undefined } | undefined;
  return () => {
    asked ??= { registry: npmRegistryFor(name) };
    return asked.registry;
  };
}

/** What a failed `execFileSync('npm', …)` leaves on its error object. */
export interface NpmFailure {
  stdout?: string | Buffer | null;
  stderr?: string | Buffer | null;
  message?: string;
  /** Spawn error code (e.g. ENOENT, ETIMEDOUT) or, for a finished process, absent. */
  code?: string | number;
  signal?: NodeJS.Signals | null;
  status?: number | null;
}

/**
 * The underlying reason npm gave, in one readable line: the error code and summary
 * npm prints as JSON on stdout with `--json` (else its `npm error` lines on stderr),
 * followed by the registry npm used and the path of npm's debug log.
 */
export function describeNpmFailure(
  failure: NpmFailure,
  context: { registry?: string | undefined; timeoutMs?: number },
): string {
  const stdout = String(failure.stdout ?? '');
  const stderr = String(failure.stderr ?? '');
  let reason: string | undefined;

  if (failure.code === 'ENOENT') {
    reason = 'the npm command was not found on PATH';
  } else if (failure.code === 'ETIMEDOUT') {
    // execFileSync's own time limit: npm was killed, whatever it printed is incomplete.
    reason = context.timeoutMs
      ? `npm did not finish within ${Math.round(context.timeoutMs / 1000)} s and was stopped`
      : 'npm timed out and was stopped';
  } else if (failure.signal) {
    reason = `npm was stopped by ${failure.signal}`;
  }

  if (!reason) {
    // `npm … --json` prints {"error": {"code", "summary", "detail"}} on stdout when it fails.
    const json = parseJsonError(stdout);
    if (json) reason = json;
  }
  if (!reason) reason = stderrReason(stderr);
  if (!reason) reason = oneLine(failure.message ?? 'npm failed without saying why');

  const parts = [reason];
  if (context.registry) parts.push(`registry ${context.registry}`);
  const log = /A complete log of this run can be found in:?\s*(?:npm (?:error|ERR!)\s*)?(\S+)/.exec(stderr)?.[1];
  if (log) parts.push(`npm log ${log}`);
  return parts.join('; ');
}

function parseJsonError(stdout: string): string | undefined {
  const start = stdout.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(stdout.slice(start)) as {
      error?: { code?: unknown; summary?: unknown; detail?: unknown };
    };
    const error = parsed.error;
    if (!error || typeof error !== 'object') return undefined;
    const code = typeof error.code === 'string' ? error.code : undefined;
    let summary = typeof error.summary === 'string' ? oneLine(error.summary) : '';
    // "FetchError: request to … failed, reason: …" → drop the JavaScript class name (and a final period: more
    // follows).
    summary = summary.replace(/^[A-Z][A-Za-z]*Error: /, '').replace(/\.$/, '');
    if (!summary && typeof error.detail === 'string') summary = oneLine(error.detail);
    if (!code && !summary) return undefined;
    return [code, summary].filter(Boolean).join(': ');
  } catch {
    return undefined;
  }
}

/** From npm's stderr: the `code` line and the first message line, without stack frames or the object dump. */
function stderrReason(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^npm (?:error|ERR!)\s?/, ''))
    .filter((line) => line.trim() !== '');
  const code = lines.find((line) => /^code \S+$/.test(line))?.slice(5);
  const message = lines.find(
    (line) =>
      !/^(code|syscall|errno|path|dest) /.test(line) &&
      !/^\s/.test(line) &&
      !/^}$/.test(line) &&
      !/A complete log of this run/.test(line) &&
      !/^npm (warn|notice|http)/.test(line),
  );
  const text = [code, message && oneLine(message.replace(/^[A-Z][A-Za-z]*Error: /, '').replace(/ \{$/, ''))]
    .filter(Boolean)
    .join(': ');
  return text || undefined;
}

/**
 * `npm pack name@version` into `into` (honouring the user's npm registry settings), then
 * computes the tarball's integrity from its bytes and checks that npm reports the same.
 */
export function downloadTarball(name: string, version: string, into: string, timeoutMs = 120_000): PackedTarball {
  const spec = `${name}@${version}`;
  // Named in failures only: npm is asked for it (a start of the client) once one is to be told.
  const registry = registryNamer(name);
  const where = () => (registry() ? ` from ${registry()}` : '');
  let out: string;
  try {
    out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', into, '--fetch-retries=1'], {
      encoding: 'utf8',
      timeout: timeoutMs,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    throw new DownloadError(
      `could not download ${spec}: ${describeNpmFailure(error as NpmFailure, { registry: registry(), timeoutMs })}`,
    );
  }
  let packed: { filename?: unknown; integrity?: unknown }[];
  try {
    packed = JSON.parse(out);
  } catch {
    throw new DownloadError(`npm pack ${spec}${where()} printed no readable JSON: ${oneLine(out).slice(0, 200)}`);
  }
  const entry = Array.isArray(packed) ? packed[0] : undefined;
  if (!entry || typeof entry.filename !== 'string')
    throw new DownloadError(`npm pack ${spec}${where()} reported no file`);
  const file = join(into, entry.filename);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new DownloadError(
      `npm pack ${spec}${where()} reported ${entry.filename}, which cannot be read: ${(error as Error).message}`,
    );
  }
  const integrity = sha512Integrity(bytes);
  const reported = typeof entry.integrity === 'string' ? entry.integrity : '';
  if (!reportedIntegrityIncludes(reported, integrity)) {
    throw new IntegrityError(
      `npm pack ${spec}${where()} reported integrity ${reported || '(none)'}, but the downloaded tarball hashes ` +
        `to ${integrity}`,
    );
  }
  return { file, integrity };
}

/**
 * Unpacks `tarball` into `<into>/package` (whatever its top folder is called) and returns that folder.
 * Every entry is read and checked first (scripts/lib/releases/tarball.ts): a link, a device node or a path
 * leaving the package refuses the whole tarball (DownloadError naming the entry and the rule) before
 * any file is written.
 */
export function unpackTarball(tarball: string, into: string, label = basename(tarball)): string {
  const dir = join(into, 'package');
  let bytes: Buffer;
  try {
    bytes = readFileSync(tarball);
  } catch (error) {
    throw new DownloadError(`could not read ${tarball}: ${(error as Error).message}`);
  }
  try {
    extractTarball(bytes, dir, label);
  } catch (error) {
    if (error instanceof UnsafeTarballError) throw new DownloadError(`refusing the tarball: ${error.message}`);
    throw new DownloadError(`could not unpack ${label}: ${(error as Error).message}`);
  }
  return dir;
}

/** How a downloaded tarball's integrity stands against the pin. */
export interface IntegrityVerdict {
  /** Whether the pin file must be (re)written with `actual`. */
  record: boolean;
  /** What to tell the user about the pin, when anything changes. */
  note?: string;
}

export interface IntegrityCheck {
  spec: string;
  /** Integrity of the downloaded tarball. */
  actual: string;
  /** The pinned integrity, if the pin file has one. */
  pinned: string | undefined;
  /** Integrity recorded for this same version elsewhere (the committed content), used when the pin has none. */
  recorded?: string | undefined;
  /** Names for messages: the pin file and the place `recorded` came from. */
  pinFile: string;
  recordedFrom?: string;
  /** The registry the tarball came from, for messages (a function: asked only when a message names it). */
  registry?: string | (() => string | undefined) | undefined;
  /** The user asked to move the pin to whatever the registry serves now. */
  acceptNew: boolean;
  /** The command that moves the pin on purpose, for the refusal message. */
  acceptCommand: string;
}

/**
 * Compares the downloaded tarball with the pin. A mismatch is refused (IntegrityError naming
 * both hashes) unless `acceptNew`; a version with no integrity pinned (and none recorded for
 * it) has its integrity recorded.
 */
export function judgeIntegrity(check: IntegrityCheck): IntegrityVerdict {
  const { spec, actual, pinned, recorded, pinFile, acceptNew } = check;
  if (pinned !== undefined && !isSha512Integrity(pinned)) {
    throw new IntegrityError(
      `${pinFile}: the pinned integrity of ${spec} must be one sha512-… SRI string (88 base64 characters), got ` +
        `${JSON.stringify(pinned)}`,
    );
  }
  const expected = pinned ?? recorded;
  const expectedFrom = pinned !== undefined ? pinFile : (check.recordedFrom ?? 'the committed content');
  if (expected === undefined) {
    return {
      record: true,
      note: `recorded the integrity of ${spec} in ${pinFile} (no integrity was pinned for this version): ${actual}`,
    };
  }
  if (expected === actual) {
    if (pinned === undefined) {
      return {
        record: true,
        note: `recorded the integrity of ${spec} in ${pinFile} (it matches ${expectedFrom}): ${actual}`,
      };
    }
    return { record: false };
  }
  if (acceptNew) {
    return {
      record: true,
      note:
        `moved the pinned integrity of ${spec} in ${pinFile} from ${expected} to ${actual} ` +
        `(--accept-new-integrity)`,
    };
  }
  const registry = typeof check.registry === 'function' ? check.registry() : check.registry;
  const from = registry ? ` from ${registry}` : '';
  throw new IntegrityError(
    [
      `integrity mismatch for ${spec}${from}: refusing the tarball.`,
      `  expected ${expected} (${expectedFrom})`,
      `  actual   ${actual} (sha512 of the downloaded tarball)`,
      `A published version never changes on the public registry, so this is a different tarball (a mirror or proxy ` +
        `serving other bytes?).`,
      `If you changed the pinned version or mean to move the pin, run: ${check.acceptCommand}`,
    ].join('\n'),
  );
}

export interface FetchedPackage {
  /** Folder holding the unpacked package (the tarball's top folder). */
  dir: string;
  /** sha512 subresource-integrity string of the tarball, computed from its bytes. */
  integrity: string;
}

/**
 * `npm pack name@version` into `into`, then unpack it there (as `<into>/package`).
 * With `expectedIntegrity`, a tarball with any other integrity is refused before unpacking.
 */
export function fetchPackage(
  name: string,
  version: string,
  into: string,
  timeoutMs = 120_000,
  expectedIntegrity?: string,
): FetchedPackage {
  const { file, integrity } = downloadTarball(name, version, into, timeoutMs);
  if (expectedIntegrity !== undefined && integrity !== expectedIntegrity) {
    throw new IntegrityError(
      `integrity mismatch for ${name}@${version}: expected ${expectedIntegrity}, actual ${integrity}`,
    );
  }
  return { dir: unpackTarball(file, into, `${name}@${version}`), integrity };
}

/** Runs the binary with a fresh HOME and no network, so that it writes out its files; returns that HOME. */
export function unpackByRunning(binary: string, args: readonly string[], work: string): string {
  // Unpacked tarballs hold plain 0644 files (tarball.ts): only the program the registry module names is made runnable.
  if (!lstatSync(binary).isFile()) throw new DownloadError(`${binary} is not a plain file`);
  chmodSync(binary, 0o755);
  const home = mkdtempSync(join(work, 'home-'));
  const isRoot = process.getuid?.() === 0;
  const [command, argv] = isRoot ? ['unshare', ['-n', binary, ...args]] : ['unshare', ['-rn', binary, ...args]];
  try {
    execFileSync(command, argv, {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 180_000,
    });
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    throw new DownloadError(`${binary} ${args.join(' ')} failed: ${String(e.stderr ?? '').trim() || e.message}`);
  }
  return home;
}
