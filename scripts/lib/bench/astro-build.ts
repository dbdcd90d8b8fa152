/**
 * Child process of the benchmark: one Astro build, so that each build starts
 * from a fresh Node (its time includes start-up, as `npm run build` does) and
 * two builds never share Vite's or Starlight's in-process state.
 *
 *   node scripts/lib/bench/astro-build.ts <root> <outDir> <cacheDir>
 *
 * Astro is imported from <root>/node_modules, the copy the site's own config
 * and Starlight load, so that one Astro instance runs the whole build.
 */
import { realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [root, outDir, cacheDir] = process.argv.slice(2);
if (!root || !outDir || !cacheDir) {
  console.error('usage: astro-build.ts <root> <outDir> <cacheDir>');
  process.exit(2);
}
// Resolution gives the real path; the project's node_modules may be a symlink (a git worktree sharing another
// checkout's).
const ownEntry = fileURLToPath(import.meta.resolve('astro'));
const entry = join(
  root,
  'node_modules',
  relative(realpathSync(join(import.meta.dirname, '../../../node_modules')), ownEntry),
);
const astro = (await import(pathToFileURL(entry).href)) as typeof import('astro');
await astro.build({ root, outDir, cacheDir, logLevel: 'warn' });
