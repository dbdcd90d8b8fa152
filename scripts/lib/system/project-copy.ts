/**
 * A copy of this project in another folder that builds on its own and leaves the
 * project untouched: the benchmark builds one (scripts/bench.ts), and so do tests
 * that must not write in the checkout.
 *
 * node_modules is hard links to the project's files, not a symlink: Astro 7
 * takes a compiled component whose real path shares no folder with the root
 * (/work/… seen from /tmp/…) for a root-relative one and fails ("No cached
 * compile metadata found"). Links cost no space and a second or two.
 */
import { copyFileSync, cpSync, linkSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Caches a build writes in place: never shared through a hard link. */
const NOT_LINKED = new Set(['.astro', '.vite', '.cache']);

/** node_modules at `to`: directories made, files hard-linked (copied across file systems), symlinks kept. */
export function linkNodeModules(root: string, to: string): void {
  const walk = (from: string, dest: string, top: boolean): void => {
    mkdirSync(dest, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (top && NOT_LINKED.has(entry.name)) continue;
      const [src, dst] = [join(from, entry.name), join(dest, entry.name)];
      if (entry.isDirectory()) walk(src, dst, false);
      else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
      else {
        try {
          linkSync(src, dst);
        } catch {
          copyFileSync(src, dst);
        }
      }
    }
  };
  walk(join(root, 'node_modules'), join(to, 'node_modules'), true);
}

/** What a build does not read: outputs, caches, history, other people's staging folders. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.astro', '.git', 'test-results']);

/** A copy of the project at `to` (a build of it leaves the project untouched). */
export function copyProject(root: string, to: string): void {
  cpSync(root, to, {
    recursive: true,
    filter: (src) => {
      const top = src === root ? '' : src.slice(root.length + 1).split('/')[0]!;
      return !NOT_COPIED.has(top) && !top.startsWith('.dist.');
    },
  });
  linkNodeModules(root, to);
}
