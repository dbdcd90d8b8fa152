/**
 * Installs an earlier release of an agent for a run over releases (the capture history, the
 * hook behaviour history): into the history's own folder, with a throwaway npm cache or the one
 * $HISTORY_NPM_CACHE names, kept across installs (Gemini CLI's releases share hundreds of
 * dependencies); the pinned release reuses the capture's install. Its lock (install-locks/ beside the
 * installs) keeps two runs over one agent's releases (a capture history and a hook behaviour history)
 * from sharing an install that the first to finish would delete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentId } from '../../../src/lib/agents/index.ts';
import { ensureInstalled, installDir, installedBinary } from '../capture/install.ts';
import { waitForRunFolder } from '../capture/namespace.ts';

export interface InstalledRelease {
  binary: string;
  /** Whether npm fetched it now (not a pinned install, not an interrupted run's leftover). */
  downloaded: boolean;
  /** Removes the release's install (nothing for the pinned one). */
  remove(): void;
}

/** How long a run waits for another run over the same release to be done with its install. */
const INSTALL_WAIT_MS = 15 * 60_000;

export function installRelease(
  agent: AgentId,
  pkg: string,
  version: string,
  roots: { cacheRoot: string; historyRoot: string },
  log: (line: string) => void,
): InstalledRelease {
  const pinned = installedBinary(agent, roots.cacheRoot, pkg, version);
  if (pinned) return { binary: pinned, downloaded: false, remove: () => {} };
  // One run at a time uses a release's install: another run's remove() would delete it under this one.
  const unlock = waitForRunFolder(
    join(roots.historyRoot, 'install-locks', `${pkg}@${version}`),
    `another run over ${agent}'s releases, using ${pkg}@${version}`,
    INSTALL_WAIT_MS,
  );
  try {
    const installed = installUnlocked(agent, pkg, version, roots, log);
    return {
      ...installed,
      remove: () => {
        installed.remove();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

function installUnlocked(
  agent: AgentId,
  pkg: string,
  version: string,
  roots: { cacheRoot: string; historyRoot: string },
  log: (line: string) => void,
): InstalledRelease {
  const leftover = installedBinary(agent, roots.historyRoot, pkg, version);
  const shared = process.env['HISTORY_NPM_CACHE'] || undefined;
  const npmCache = shared ?? mkdtempSync(join(roots.historyRoot, 'npm-cache-'));
  const previous = process.env['npm_config_cache'];
  process.env['npm_config_cache'] = npmCache;
  try {
    const binary = ensureInstalled(agent, roots.historyRoot, pkg, version, log);
    return {
      binary,
      downloaded: leftover === undefined,
      remove: () => rmSync(installDir(roots.historyRoot, pkg, version), { recursive: true, force: true }),
    };
  } finally {
    if (previous === undefined) delete process.env['npm_config_cache'];
    else process.env['npm_config_cache'] = previous;
    if (shared === undefined) rmSync(npmCache, { recursive: true, force: true });
  }
}
