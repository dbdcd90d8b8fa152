/** The project's own source files and their import graph, as scripts/architecture.ts and its test read them. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importsOf, type ImportGraph } from './graph.ts';

/** Folders whose sources make up the architecture: the site's code and the scripts that write its content. */
export const SOURCE_FOLDERS = ['src', 'scripts'];

/** Every .ts and .astro file under the source folders (generated types included: they take part in type cycles). */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|astro)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const folder of SOURCE_FOLDERS) walk(join(root, folder));
  return out.sort();
}

/** The script part of a file: an Astro component's frontmatter, or the whole of a .ts file. */
export function scriptOf(path: string, text: string): string {
  if (!path.endsWith('.astro')) return text;
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  return match ? match[1]! : '';
}

export function importGraph(files: readonly string[]): ImportGraph {
  return new Map(files.map((f) => [f, importsOf(scriptOf(f, readFileSync(f, 'utf8')), f)]));
}
