/**
 * The capture history's cache, outside the repo: one small file per release and
 * configuration, <root>/captures/<agent>/<version>/<configuration>.json, holding the
 * masked capture or the reason the configuration could not be captured in that
 * release. A rerun reads these instead of installing the release again.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CaptureFile } from '../../../src/lib/wire/index.ts';

export type CachedRun = { ok: true; capture: CaptureFile } | { ok: false; error: string };

export function cachePath(root: string, agent: string, version: string, configuration: string): string {
  return join(root, 'captures', agent, version, `${configuration}.json`);
}

export function readCached(root: string, agent: string, version: string, configuration: string): CachedRun | undefined {
  try {
    const data = JSON.parse(readFileSync(cachePath(root, agent, version, configuration), 'utf8')) as CachedRun;
    return typeof data === 'object' && data !== null && typeof data.ok === 'boolean' ? data : undefined;
  } catch {
    return undefined;
  }
}

export function writeCached(root: string, agent: string, version: string, configuration: string, run: CachedRun): void {
  const path = cachePath(root, agent, version, configuration);
  mkdirSync(dirname(path), { recursive: true });
  const staging = `${path}.new-${process.pid}`;
  writeFileSync(staging, JSON.stringify(run) + '\n');
  renameSync(staging, path);
}

/** Forgets one cached run, so that the next read captures it again. */
export function removeCached(root: string, agent: string, version: string, configuration: string): void {
  rmSync(cachePath(root, agent, version, configuration), { force: true });
}
