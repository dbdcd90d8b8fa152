/**
 * Where a release keeps the program an agent runs. An agent module names the path of the
 * pinned release (`binary`, relative to the install folder). An earlier release can start
 * from another file, and the release's `package.json` then says which one its command runs
 * (`bin`):
 * - a Node-script CLI whose entry moved (Qwen Code up to 0.15 runs `cli.js`, later
 *   `cli-entry.js`): the module's path lies inside the package's own folder;
 * - a CLI that moved into a platform package (Claude Code up to 2.1.112 ran its bundled
 *   `cli.js`; Codex up to 0.2x carried its binaries beside a `bin/codex.js` launcher): the
 *   module's path lies in a package this release does not depend on.
 * - a platform package that keeps the program in another folder of the same platform
 *   (Codex 0.99.0 and 0.101.0: `vendor/<target>/codex/codex` instead of
 *   `vendor/<target>/bin/codex`): the one file of that name under the platform's folder.
 * A release that does depend on the platform package has no other fallback: when npm skipped
 * that package, the release cannot run, and the install says so.
 */
import { posix } from 'node:path';

export interface PackageManifest {
  name?: unknown;
  bin?: unknown;
  dependencies?: unknown;
  optionalDependencies?: unknown;
}

/** The package folder a path relative to the install folder lies in (`node_modules/<pkg>/…`). */
export function holderPackage(path: string): string | undefined {
  return /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
}

function declares(manifest: PackageManifest, pkg: string): boolean {
  return [manifest.dependencies, manifest.optionalDependencies].some((deps) => deps !== null && typeof deps === 'object' && Object.hasOwn(deps, pkg));
}

/**
 * The paths (relative to the install folder) where a release's program may be, in order:
 * the module's own path first, then the file the package's `bin` gives its only command.
 * A `bin` that leaves the package folder is ignored.
 */
export function binaryCandidates(binary: string, pkg: string, manifest: PackageManifest | undefined): string[] {
  const out = [binary];
  const folder = `node_modules/${pkg}/`;
  const holder = holderPackage(binary);
  if (manifest === undefined || holder === undefined) return out;
  if (holder !== pkg && declares(manifest, holder)) return out;
  const bin = manifest.bin;
  let target: unknown;
  if (typeof bin === 'string') target = bin;
  else if (bin !== null && typeof bin === 'object') {
    const entries = Object.entries(bin as Record<string, unknown>).filter(([, v]) => typeof v === 'string');
    // The command the pinned release's file is run as is unknown here; a single command is unambiguous.
    if (entries.length === 1) target = entries[0]![1];
  }
  if (typeof target !== 'string' || target.length === 0) return out;
  const relative = posix.normalize(target.replace(/^\.\//, ''));
  if (relative.startsWith('../') || relative === '..' || posix.isAbsolute(relative)) return out;
  const candidate = folder + relative;
  if (!out.includes(candidate)) out.push(candidate);
  return out;
}

/**
 * The folder, relative to the install folder, where a moved program of a platform package is
 * looked for: the parent of the folder holding the module's binary (`…/vendor/<target>/`), or
 * undefined when that is the package's own folder (nothing narrower to look in).
 */
export function platformFolder(binary: string): string | undefined {
  const holder = holderPackage(binary);
  const folder = posix.dirname(posix.dirname(binary));
  return holder !== undefined && folder.startsWith(`node_modules/${holder}/`) ? folder : undefined;
}

/**
 * The program of a platform package that moved it inside its platform's folder: among `files`
 * (paths relative to the install folder), the only one under `platformFolder(binary)` with the
 * binary's file name; undefined when there is none or more than one (no guessing between two).
 */
export function movedProgram(binary: string, files: readonly string[]): string | undefined {
  const folder = platformFolder(binary);
  if (folder === undefined) return undefined;
  const name = posix.basename(binary);
  const found = files.filter((f) => f.startsWith(`${folder}/`) && posix.basename(f) === name && f !== binary);
  return found.length === 1 ? found[0] : undefined;
}
