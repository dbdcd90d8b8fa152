/**
 * Builds the site without ever losing the published one: Astro writes into a
 * staging folder beside dist/, and only a build that succeeds replaces dist/
 * (two renames). A failed or interrupted build leaves dist/ exactly as it was,
 * removes its staging folder and says which content file the failing page came
 * from. Staging folders left by builds that were killed outright are removed by
 * the next build.
 *
 *   npm run build                 → dist/
 *   node scripts/build.ts --out X → X/ (tests)
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { ContentErrors } from '../src/lib/content/problems.ts';
import { lastRendering } from '../src/lib/site/rendering.ts';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * The largest page one HTML file may be. The largest real page is about 250 kB
 * (claude-code/artifact/, 2026-12); four times that leaves room for growth and
 * still stops a runaway page (a definition or capture repeated into every page)
 * before it is published.
 */
export const PAGE_SIZE_LIMIT_BYTES = 1_000_000;

function outDirFromArgs(argv: string[]): string {
  const i = argv.indexOf('--out');
  const value = i >= 0 ? argv[i + 1] : undefined;
  return value ? resolve(value) : join(ROOT, 'dist');
}

const stagingName = (outName: string, pid: number) => `.${outName}.staging-${pid}`;
/** Where Astro builds, in the project's folder, when the output is on another file system. */
const CROSS_DEVICE = 'cross-device-build';

/** The file system of `path`, or of its nearest existing ancestor. */
function deviceOf(path: string): number {
  for (let p = resolve(path); ; p = dirname(p)) if (existsSync(p) || p === dirname(p)) return statSync(p).dev;
}
const retiredName = (outName: string, pid: number) => `.${outName}.old-${pid}`;

/**
 * Which of `names` (entries beside the output folder `outName`) are staging or
 * retired folders of builds that are no longer running.
 */
export function staleLeftovers(names: readonly string[], outName: string, isAlive: (pid: number) => boolean): string[] {
  const escaped = outName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const leftover = new RegExp(`^\\.${escaped}\\.(?:staging|old)-([0-9]+)$`);
  return names.filter((name) => {
    const pid = leftover.exec(name)?.[1];
    return pid !== undefined && !isAlive(Number(pid));
  });
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function removeStaleLeftovers(outDir: string): void {
  const parent = dirname(outDir);
  if (!existsSync(parent)) return;
  for (const name of staleLeftovers(readdirSync(parent), basename(outDir), isProcessAlive)) {
    rmSync(join(parent, name), { recursive: true, force: true });
    console.log(`build: removed ${join(parent, name)}, left by an interrupted build`);
  }
}

/** The page-size limit; PAGE_SIZE_LIMIT_BYTES in the environment lowers it (for tests). */
function pageSizeLimit(): number {
  const fromEnv = process.env.PAGE_SIZE_LIMIT_BYTES;
  if (fromEnv === undefined) return PAGE_SIZE_LIMIT_BYTES;
  const limit = Number(fromEnv);
  if (!Number.isSafeInteger(limit) || limit <= 0)
    throw new Error(`PAGE_SIZE_LIMIT_BYTES must be a positive whole number of bytes, not "${fromEnv}"`);
  return limit;
}

function formatSize(bytes: number): string {
  const [unit, scale] = bytes >= 1_000_000 ? ['MB', 1_000_000] : bytes >= 1_000 ? ['kB', 1_000] : ['bytes', 1];
  return `${Number((bytes / scale).toFixed(1))} ${unit}`;
}

/** One line per HTML file under `staging` larger than `limit`, named as it would be in the output. */
function pagesOverLimit(staging: string, outName: string, limit: number): string[] {
  const problems: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html')) {
        const size = statSync(path).size;
        if (size <= limit) continue;
        // Rounded sizes can read the same when a test sets the limit just below a page.
        let [shown, limitShown] = [formatSize(size), formatSize(limit)];
        if (shown === limitShown)
          [shown, limitShown] = [`${size.toLocaleString('en')} bytes`, `${limit.toLocaleString('en')} bytes`];
        problems.push(
          `${join(outName, relative(staging, path))} is ${shown}, over the ${limitShown}` +
            ` limit for one page [rule: page-size]`,
        );
      }
    }
  };
  walk(staging);
  return problems;
}

/** Moves a folder to another file system (a copy, then the original removed): a rename cannot. */
function moveAcross(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
  rmSync(from, { recursive: true, force: true });
}

/**
 * Removes the folders, pauses, and removes them again until they stay gone (at most five rounds): synchronous, for a
 * signal handler.
 */
function removeUntilGone(dirs: readonly string[]): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let round = 0; round < 5; round++) {
    for (const dir of new Set(dirs)) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    Atomics.wait(pause, 0, 0, 100);
    if (!dirs.some((dir) => existsSync(dir))) return;
  }
}

/** Replaces `target` by `staging` with two renames; the old folder is removed last. */
function swapIn(staging: string, target: string): void {
  const retired = join(dirname(target), retiredName(basename(target), process.pid));
  if (existsSync(target)) renameSync(target, retired);
  renameSync(staging, target);
  rmSync(retired, { recursive: true, force: true });
}

/**
 * The content, checked before Astro starts, so that invalid content is reported by our message alone: the same error
 * thrown inside Starlight's config:setup hook is first announced by Astro as "An unhandled error occurred".
 */
async function checkContent(untouched: () => string): Promise<void> {
  const { loadSiteContent } = await import('../src/lib/content/cached.ts');
  try {
    loadSiteContent(ROOT);
  } catch (error) {
    if (error instanceof ContentErrors) throw new Error(`${error.message}\n${untouched()}`, { cause: error });
    throw error;
  }
}

/**
 * SITE_URL, checked before the content: astro.config.mjs reads it too, but only after the content check's seconds of
 * work.
 */
async function checkSiteUrl(untouched: () => string): Promise<void> {
  try {
    // Loading the settings reads SITE_URL, and throws on a malformed value.
    const { siteUrlFrom } = await import('../src/lib/site/site-settings.ts');
    siteUrlFrom(process.env['SITE_URL']);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${untouched()}`, { cause: error });
  }
}

export async function buildSite(outDir: string): Promise<void> {
  const untouched = () => (existsSync(outDir) ? `${outDir} is unchanged.` : 'Nothing was written.');
  const pageLimit = pageSizeLimit();
  await checkSiteUrl(untouched);
  removeStaleLeftovers(outDir);
  await checkContent(untouched);
  const staging = join(dirname(outDir), stagingName(basename(outDir), process.pid));
  rmSync(staging, { recursive: true, force: true });
  // Astro moves files from the project's .astro/ into its output with renames, which cannot cross
  // file systems (EXDEV): for an output elsewhere it builds beside the project, and the result is copied.
  const crossDevice = deviceOf(ROOT) !== deviceOf(dirname(outDir));
  const astroOut = crossDevice ? join(ROOT, stagingName(CROSS_DEVICE, process.pid)) : staging;
  if (crossDevice) removeStaleLeftovers(join(ROOT, CROSS_DEVICE));
  // Synchronous, so that the folder is gone before the process ends; 128 + signal number is the shell's convention.
  // Writes Astro had already handed to the thread pool may still add files while the folder is removed
  // (ENOTEMPTY, seen once in CI; a folder made again just after it was removed, seen once in a full run):
  // those writes finish in the pool's threads while this handler waits, and no new one starts, since no
  // callback runs meanwhile; so the folder is removed again after a pause, until it stays gone.
  // Should it still stay, the next build removes it (removeStaleLeftovers); the exit code is kept.
  const onSignal = (signal: NodeJS.Signals) => {
    try {
      removeUntilGone([staging, astroOut]);
    } finally {
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { build } = await import('astro');
    try {
      await build({ root: ROOT, outDir: astroOut, telemetry: false } as Parameters<typeof build>[0]);
    } catch (error) {
      const rendering = lastRendering();
      const where = rendering
        ? `\nThe build failed while rendering ${rendering.page} (content: ${rendering.files.join(', ')}).`
        : '';
      throw new Error(`${(error as Error).message}${where}\n${untouched()}`, { cause: error });
    }
    const oversized = pagesOverLimit(astroOut, basename(outDir), pageLimit);
    if (oversized.length > 0) throw new Error(`${oversized.join('\n')}\n${untouched()}`);
    if (crossDevice) moveAcross(astroOut, staging);
    swapIn(staging, outDir);
  } catch (error) {
    for (const dir of new Set([staging, astroOut])) rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

if (import.meta.main) {
  const outDir = outDirFromArgs(process.argv.slice(2));
  try {
    await buildSite(outDir);
    console.log(`build: ${outDir} replaced by the new build`);
  } catch (error) {
    console.error(`build failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
