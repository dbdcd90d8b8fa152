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
 * A release that does depend on the platform package and whose launcher has no fallback
 * (fallbackProgram) runs its launcher, as its users would, and fails in its own words.
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
  return [manifest.dependencies, manifest.optionalDependencies].some(
    (deps) => deps !== null && typeof deps === 'object' && Object.hasOwn(deps, pkg),
  );
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

/** What a launcher script runs when the platform package it looks for cannot be resolved. */
export interface LoaderFallback {
  /** The script it imports instead, relative to its own folder (`index.js`). */
  file: string;
  /** The lowest Node.js major release it imports it with; below that it exits with an error. */
  nodeMajor: number;
}

/**
 * The fallback of a launcher script (`bin`) that runs a platform package's program and, when
 * that package cannot be resolved, imports a script of its own package instead, provided
 * Node.js is recent enough: GitHub Copilot CLI's `npm-loader.js` (1.0.42:
 * `parseInt(process.versions.node.split(".")[0],10)<24&&(…process.exit(1));try{await
 * import("./index.js")}`; 0.0.390 asks for 22). Undefined when the text says no such thing:
 * a launcher without both the version check and a relative import has no fallback. Pure.
 */
export function loaderFallback(loaderText: string): LoaderFallback | undefined {
  const check = /process\.versions\.node\.split\(\s*["']\.["']\s*\)\s*\[\s*0\s*\]\s*(?:,\s*10\s*)?\)\s*<\s*(\d+)/.exec(
    loaderText,
  );
  if (check === null) return undefined;
  const imported = /\bimport\(\s*["']\.\/([^"'\s]+\.m?js)["']\s*\)/.exec(loaderText.slice(check.index));
  if (imported === null) return undefined;
  const file = posix.normalize(imported[1]!);
  if (file.startsWith('../') || posix.isAbsolute(file)) return undefined;
  return { file, nodeMajor: Number(check[1]) };
}

/**
 * The release's own launcher (its package's single `bin`, relative to the install folder)
 * when the module's program lies in a platform package the release declares: what a user's
 * `npm install` leaves them to run when npm skipped that package. Run, it says in its own
 * words why it cannot start (Copilot CLI 1.0.77: "no platform package found"), so a failed
 * run quotes the release rather than our install. Undefined for anything else. Pure.
 */
export function releaseLauncher(
  binary: string,
  pkg: string,
  manifest: PackageManifest | undefined,
): string | undefined {
  const holder = holderPackage(binary);
  if (manifest === undefined || holder === undefined || holder === pkg || !declares(manifest, holder)) return undefined;
  const bin = manifest.bin;
  const targets =
    typeof bin === 'string'
      ? [bin]
      : bin !== null && typeof bin === 'object'
        ? Object.values(bin as Record<string, unknown>).filter((v): v is string => typeof v === 'string')
        : [];
  if (new Set(targets).size !== 1) return undefined;
  const launcher = posix.normalize(targets[0]!.replace(/^\.\//, ''));
  if (launcher.startsWith('../') || launcher === '..' || posix.isAbsolute(launcher)) return undefined;
  return `node_modules/${pkg}/${launcher}`;
}

/**
 * The script the release's own launcher falls back to on this Node.js (major release
 * `nodeMajor`), relative to the install folder: when the module's program lies in a platform
 * package the release declares but npm did not install, and the package's single `bin` is a
 * launcher with a fallback (loaderFallback) this Node.js is recent enough for. `read` gives
 * the text of a file relative to the install folder, or undefined when it is absent.
 */
export function fallbackProgram(
  binary: string,
  pkg: string,
  manifest: PackageManifest | undefined,
  nodeMajor: number,
  read: (path: string) => string | undefined,
): string | undefined {
  const launcher = releaseLauncher(binary, pkg, manifest);
  const text = launcher === undefined ? undefined : read(launcher);
  const fallback = text === undefined ? undefined : loaderFallback(text);
  if (launcher === undefined || fallback === undefined || nodeMajor < fallback.nodeMajor) return undefined;
  const script = posix.join(posix.dirname(launcher), fallback.file);
  return read(script) === undefined ? undefined : script;
}
