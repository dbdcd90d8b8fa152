/**
 * Where a release keeps the program an agent runs. An agent module names the path of the
 * pinned release (`binary`, relative to the install folder). An earlier release of a
 * Node-script CLI can start from another file (Qwen Code up to 0.15 from `cli.js`, later
 * from `cli-entry.js`): when the module's path lies inside the package's own folder, the
 * release's `package.json` says which file its command runs (`bin`). A native binary of a
 * platform package (Codex, OpenCode, Copilot CLI) has no such fallback.
 */
import { posix } from 'node:path';

export interface PackageManifest {
  name?: unknown;
  bin?: unknown;
}

/**
 * The paths (relative to the install folder) where a release's program may be, in order:
 * the module's own path first, then the file the package's `bin` gives the same command,
 * or its only command. A `bin` that leaves the package folder is ignored.
 */
export function binaryCandidates(binary: string, pkg: string, manifest: PackageManifest | undefined): string[] {
  const out = [binary];
  const folder = `node_modules/${pkg}/`;
  if (!binary.startsWith(folder) || manifest === undefined) return out;
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
