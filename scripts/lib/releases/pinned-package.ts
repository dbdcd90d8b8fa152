/**
 * What the ingest scripts share (scripts/ingest-*.ts): their one option, fetching the
 * package their pin names (scripts/pins.json), and the report of a failure.
 *
 * withPinnedPackage downloads the pinned release with npm (scripts/lib/releases/npm-package.ts)
 * into a temporary folder, checks the tarball's sha512 against the pin before anything
 * is unpacked (judgeIntegrity: a tarball with other bytes is refused, naming the package,
 * both integrities and where each comes from), unpacks it, checks that its package.json
 * names the pinned package and version, and hands the folder to the script; the temporary
 * folder is removed on every path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DownloadError,
  downloadTarball,
  IntegrityError,
  judgeIntegrity,
  registryNamer,
  unpackTarball,
  type IntegrityVerdict,
} from './npm-package.ts';
import type { Pin } from '../pins.ts';
import { display, readJson, ScriptError } from '../script-files.ts';

/** The option that moves an integrity pin on purpose. */
export const ACCEPT_FLAG = '--accept-new-integrity';

/** The arguments of an ingest script: only ACCEPT_FLAG; anything else is a ScriptError. */
export function parseIngestArgs(argv: readonly string[]): { acceptNewIntegrity: boolean } {
  let acceptNewIntegrity = false;
  for (const arg of argv) {
    if (arg === ACCEPT_FLAG) acceptNewIntegrity = true;
    else throw new ScriptError(`unknown argument ${JSON.stringify(arg)} (the only option is ${ACCEPT_FLAG})`);
  }
  return { acceptNewIntegrity };
}

export interface PinnedFetch {
  pin: Pin;
  /** The pins file the pin comes from (for messages). */
  pinsFile: string;
  acceptNewIntegrity: boolean;
  /** The command that moves the pin on purpose, for the refusal message. */
  acceptCommand: string;
  /**
   * The integrity the committed content records for the pinned version, and the file it is in: enforced when the pin
   * has none.
   */
  recorded?: { integrity: string | undefined; file: string };
  /** Prefix of the temporary folder in os.tmpdir(). */
  workPrefix: string;
  /** Where a failure to remove the temporary folder is reported (it does not hide the script's own outcome). */
  warn: (line: string) => void;
}

export interface PinnedPackage {
  /** The unpacked package. */
  dir: string;
  /** `package@version`. */
  spec: string;
  /** sha512 SRI string of the tarball, computed from its bytes. */
  integrity: string;
  /** Whether the pins file is to record `integrity`, and what to tell the user. */
  verdict: IntegrityVerdict;
}

/**
 * Runs `use` with the pinned package unpacked (see the module comment); the temporary folder is gone when it returns or
 * throws.
 */
export function withPinnedPackage<T>(fetch: PinnedFetch, use: (pkg: PinnedPackage) => T): T {
  const { pin } = fetch;
  const spec = `${pin.package}@${pin.version}`;
  const work = mkdtempSync(join(tmpdir(), fetch.workPrefix));
  try {
    // The bytes are checked against the pin before anything is unpacked.
    const registry = registryNamer(pin.package);
    const tarball = downloadTarball(pin.package, pin.version, work);
    const verdict = judgeIntegrity({
      spec,
      actual: tarball.integrity,
      pinned: pin.integrity,
      pinFile: display(fetch.pinsFile),
      ...(fetch.recorded ? { recorded: fetch.recorded.integrity, recordedFrom: display(fetch.recorded.file) } : {}),
      registry,
      acceptNew: fetch.acceptNewIntegrity,
      acceptCommand: fetch.acceptCommand,
    });
    const dir = unpackTarball(tarball.file, work, spec);
    const manifest = readJson<{ name?: unknown; version?: unknown }>(join(dir, 'package.json'), 'the package manifest');
    if (manifest.name !== pin.package)
      throw new ScriptError(`downloaded package ${String(manifest.name)}, pinned ${pin.package}`);
    if (manifest.version !== pin.version)
      throw new ScriptError(`downloaded version ${String(manifest.version)}, pinned ${pin.version}`);
    return use({ dir, spec, integrity: tarball.integrity, verdict });
  } finally {
    try {
      rmSync(work, { recursive: true, force: true });
    } catch (error) {
      fetch.warn(`could not remove the temporary folder ${work}: ${(error as Error).message}`);
    }
  }
}

/** An error class whose message is meant for the user as it is (no stack trace). */
type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs an ingest's `main` with the files it replaces listed in `written`; a failure is
 * reported once (after main's own cleanup has run), each line prefixed with `name`,
 * saying what was written before it, and the exit status is set to 1. Errors of
 * ScriptError, DownloadError, IntegrityError and `expected` are shown by their message
 * alone; any other with its stack.
 */
export function runIngest(
  name: string,
  main: (argv: readonly string[], written: string[]) => void,
  expected: readonly ErrorClass[] = [],
  argv: readonly string[] = process.argv.slice(2),
): void {
  const written: string[] = [];
  try {
    main(argv, written);
  } catch (error) {
    const known = [ScriptError, DownloadError, IntegrityError, ...expected].some((type) => error instanceof type);
    const text = known
      ? (error as Error).message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
    for (const line of text.split('\n')) console.error(`${name}: ${line}`);
    console.error(
      written.length === 0
        ? `${name}: nothing was written.`
        : `${name}: failed after writing ${written.join(', ')}; the rest is unchanged. Fix the cause and run again.`,
    );
    process.exitCode = 1;
  }
}
