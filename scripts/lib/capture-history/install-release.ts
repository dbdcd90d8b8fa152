/**
 * Installs an earlier release of an agent for a run over releases (the capture history, the
 * hook behaviour history): into the history's own folder, with a throwaway npm cache or the one
 * $HISTORY_NPM_CACHE names, kept across installs (Gemini CLI's releases share hundreds of
 * dependencies); the pinned release reuses the capture's install.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentId } from '../../../src/lib/agents/index.ts';
import { ensureInstalled, installDir, installedBinary } from '../capture/install.ts';

export interface InstalledRelease {
  binary: string;
  /** Whether npm fetched it now (not a pinned install, not an interrupted run's leftover). */
  downloaded: boolean;
  /** Removes the release's install (nothing for the pinned one). */
  remove(): void;
}

export function installRelease(agent: AgentId, pkg: string, version: string, roots: { cacheRoot: string; historyRoot: string }, log: (line: string) => void): InstalledRelease {
  const pinned = installedBinary(agent, roots.cacheRoot, pkg, version);
  if (pinned) return { binary: pinned, downloaded: false, remove: () => {} };
  const leftover = installedBinary(agent, roots.historyRoot, pkg, version);
  const shared = process.env['HISTORY_NPM_CACHE'] || undefined;
  const npmCache = shared ?? mkdtempSync(join(roots.historyRoot, 'npm-cache-'));
  const previous = process.env['npm_config_cache'];
  process.env['npm_config_cache'] = npmCache;
  try {
    const binary = ensureInstalled(agent, roots.historyRoot, pkg, version, log);
    return { binary, downloaded: leftover === undefined, remove: () => rmSync(installDir(roots.historyRoot, pkg, version), { recursive: true, force: true }) };
  } finally {
    if (previous === undefined) delete process.env['npm_config_cache'];
    else process.env['npm_config_cache'] = previous;
    if (shared === undefined) rmSync(npmCache, { recursive: true, force: true });
  }
}
