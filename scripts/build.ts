/**
 * Builds the site without ever losing the published one: Astro writes into a
 * staging folder beside dist/, and only a build that succeeds replaces dist/
 * (two renames). A failed build leaves dist/ exactly as it was and says which
 * content file the failing page came from.
 *
 *   npm run build                 → dist/
 *   node scripts/build.ts --out X → X/ (tests)
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { build } from 'astro';
import { lastRendering } from '../src/lib/rendering.ts';

const ROOT = resolve(import.meta.dirname, '..');

function outDirFromArgs(argv: string[]): string {
  const i = argv.indexOf('--out');
  const value = i >= 0 ? argv[i + 1] : undefined;
  return value ? resolve(value) : join(ROOT, 'dist');
}

/** Replaces `target` by `staging` with two renames; the old folder is removed last. */
function swapIn(staging: string, target: string): void {
  const retired = join(dirname(target), `.${basename(target)}.old-${process.pid}`);
  if (existsSync(target)) renameSync(target, retired);
  renameSync(staging, target);
  rmSync(retired, { recursive: true, force: true });
}

export async function buildSite(outDir: string): Promise<void> {
  const staging = join(dirname(outDir), `.${basename(outDir)}.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    await build({ root: ROOT, outDir: staging, telemetry: false } as Parameters<typeof build>[0]);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const rendering = lastRendering();
    const where = rendering ? `\nThe build failed while rendering ${rendering.page} (content: ${rendering.files.join(', ')}).` : '';
    throw new Error(`${(error as Error).message}${where}\n${existsSync(outDir) ? `${outDir} is unchanged.` : 'Nothing was written.'}`, { cause: error });
  }
  swapIn(staging, outDir);
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
