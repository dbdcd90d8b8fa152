/** Fetching one published npm package version, with the npm client and a time limit. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export class DownloadError extends Error {}

export interface FetchedPackage {
  /** Folder holding the unpacked package (the tarball's `package/`). */
  dir: string;
  /** Subresource-integrity hash of the tarball, as the registry reports it. */
  integrity: string;
}

/** `npm pack name@version` into `into`, then unpack it there. */
export function fetchPackage(name: string, version: string, into: string, timeoutMs = 120_000): FetchedPackage {
  const spec = `${name}@${version}`;
  let packed: { filename: string; integrity: string }[];
  try {
    const out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', into, '--fetch-retries=1'], {
      encoding: 'utf8',
      timeout: timeoutMs,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    packed = JSON.parse(out);
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new DownloadError(`could not download ${spec}: ${(e.stderr || e.message).trim().split('\n').slice(-3).join(' ')}`);
  }
  const entry = packed[0];
  if (!entry) throw new DownloadError(`npm pack ${spec} reported no file`);
  execFileSync('tar', ['-xzf', join(into, entry.filename), '-C', into], { timeout: timeoutMs });
  return { dir: join(into, 'package'), integrity: entry.integrity };
}
