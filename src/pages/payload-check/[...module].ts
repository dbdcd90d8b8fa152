/**
 * The "Check a payload" form's logic as plain ES modules, loaded only when a
 * reader opens the form: src/scripts/payload-check.ts, the worker it starts
 * (src/scripts/payload-check-worker.ts) and the modules they import, each
 * compiled on its own by TypeScript (types erased, comments dropped, relative
 * `.ts` imports pointed at `.js`), at `/payload-check/scripts/payload-check.js`,
 * `/payload-check/lib/shapes/anchors.js`…
 *
 * Why not through Vite like the page's other scripts: a dynamic import that
 * Vite bundles brings Vite's preload helper (1.7 KB), which Vite then splits
 * out of Starlight's search script into a chunk that every page would load.
 * The form's opener (PayloadCheck.astro) imports this URL as a string, which
 * Vite leaves alone, so no page loads anything more before the form is opened.
 */
import ts from 'typescript';
import type { APIRoute, GetStaticPaths } from 'astro';

/** Sources the entries may reach, by path under src/ (`lib/shapes/anchors.ts`): the layers the checker's modules live in (src/lib/README.md); a module outside them stops the build. */
const SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries(import.meta.glob<string>(['../../scripts/*.ts', '../../lib/core/*.ts', '../../lib/shapes/*.ts', '../../lib/check/*.ts'], { query: '?raw', import: 'default', eager: true })).map(([path, text]) => [
    path.replace(/^\.\.\/\.\.\//, ''),
    text,
  ]),
);
/** The form's script, and its worker (started by URL, not imported). */
const ENTRIES = ['scripts/payload-check.ts', 'scripts/payload-check-worker.ts'];

/** `import … from './x.ts'`, `export … from './x.ts'`: the relative imports between modules (type-only ones are gone by then). */
const RELATIVE_FROM = /(\bfrom\s*)(['"])(\.\.?\/[^'"]+)\.ts\2/g;

/** `a/b/../c.ts` → `a/c.ts`. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.') out.push(part);
  }
  return out.join('/');
}

function compile(path: string): { text: string; imports: string[] } {
  const source = SOURCES[path];
  if (source === undefined) throw new Error(`payload-check: ${ENTRIES.join(' or ')} reaches ${path}, which is not among the sources this endpoint reads`);
  const { outputText } = ts.transpileModule(source, {
    fileName: path,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true, removeComments: true },
  });
  const imports: string[] = [];
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  const text = outputText.replace(RELATIVE_FROM, (_m, from: string, quote: string, specifier: string) => {
    imports.push(normalise(`${folder}${specifier}.ts`));
    return `${from}${quote}${specifier}.js${quote}`;
  });
  return { text, imports };
}

/** The entries and every module they reach, as `.js` paths under src/, with their text. */
function checkerModules(): Map<string, string> {
  const out = new Map<string, string>();
  const todo = [...ENTRIES];
  for (let path = todo.pop(); path !== undefined; path = todo.pop()) {
    const name = path.replace(/\.ts$/, '.js');
    if (out.has(name)) continue;
    const { text, imports } = compile(path);
    out.set(name, text);
    todo.push(...imports);
  }
  return out;
}

export const getStaticPaths = (() => [...checkerModules()].map(([module, text]) => ({ params: { module }, props: { text } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response((props as { text: string }).text, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
