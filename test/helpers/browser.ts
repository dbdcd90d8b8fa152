/**
 * Shared set-up for end-to-end tests: build the site once, serve it on
 * 127.0.0.1 at a port the system picks (scripts/lib/system/static-server.ts, the one
 * static server of the tests and the benchmark), and drive Debian's Chromium
 * (never a downloaded browser) with playwright-core.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const ROOT = join(import.meta.dirname, '../..');
export const DIST = join(ROOT, 'dist');
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/system/chromium.ts';
import { serveStatic } from '../../scripts/lib/system/static-server.ts';
export { CHROMIUM };

/** Installs Debian's chromium when it is missing (CI machines start without it). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0)
    throw new Error(`${CHROMIUM} is missing; install Debian's chromium package (apt-get install chromium)`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    timeout: 600_000,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/**
 * Runs the project's build (scripts/build.ts: Astro into a staging folder,
 * swapped in on success) with this Node; returns the process result.
 */
export function runBuild(args: string[] = [], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  return spawnSync(process.execPath, [...nodeArgs, join(ROOT, 'scripts/build.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env },
  });
}

let built = process.env.SITE_BUILT === '1';
/**
 * Builds the site into dist/ once: `npm test` builds it before the test files
 * run and sets SITE_BUILT=1; a test file run on its own builds it here.
 */
export function buildSite(): void {
  if (built) return;
  const result = runBuild();
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  built = true;
}

export interface Served {
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Serves the built site in `dir` (dist/, built first if need be) on 127.0.0.1
 * at a free port the system picks, and launches Chromium; `base` is the
 * server's real address.
 */
export async function serveAndLaunch(dir: string = DIST): Promise<Served> {
  ensureChromium();
  if (dir === DIST) buildSite();
  const server = await serveStatic(dir);
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    });
    return {
      base: server.base,
      browser,
      async close() {
        await browser.close();
        await server.close();
      },
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}
