/**
 * Modules of src/ served to the browser as plain ES modules, each compiled on its own by
 * TypeScript (types erased, comments dropped, relative `.ts` imports pointed at `.js`), for the
 * features a page loads only when a reader opens them (the payload checker, the release
 * comparison). Why not through Vite: a dynamic import that Vite bundles brings Vite's preload
 * helper, which Vite then splits out of Starlight's search script into a chunk every page
 * loads. A page's opener imports the module's URL as a string, which Vite leaves alone.
 */
import ts from 'typescript';

/**
 * `import … from './x.ts'`, `export … from './x.ts'`: the relative imports between modules (type-only ones are gone
 * by then).
 */
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

function compile(
  path: string,
  sources: Readonly<Record<string, string>>,
  feature: string,
): { text: string; imports: string[] } {
  const source = sources[path];
  if (source === undefined)
    throw new Error(`${feature}: its modules reach ${path}, which is not among the sources its endpoint reads`);
  const { outputText } = ts.transpileModule(source, {
    fileName: path,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: true,
      removeComments: true,
    },
  });
  const imports: string[] = [];
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  const text = outputText.replace(RELATIVE_FROM, (_m, from: string, quote: string, specifier: string) => {
    imports.push(normalise(`${folder}${specifier}.ts`));
    return `${from}${quote}${specifier}.js${quote}`;
  });
  return { text, imports };
}

/**
 * The entries and every module they reach, as `.js` paths under src/ with their text.
 * `sources`: by path under src/ (`lib/shapes/anchors.ts`), the raw text of every module the
 * entries may reach; a module outside them stops the build, naming `feature`.
 */
export function browserModules(
  entries: readonly string[],
  sources: Readonly<Record<string, string>>,
  feature: string,
): Map<string, string> {
  const out = new Map<string, string>();
  const todo = [...entries];
  for (let path = todo.pop(); path !== undefined; path = todo.pop()) {
    const name = path.replace(/\.ts$/, '.js');
    if (out.has(name)) continue;
    const { text, imports } = compile(path, sources, feature);
    out.set(name, text);
    todo.push(...imports);
  }
  return out;
}

/** Vite's glob keys (`../../lib/core/x.ts`) as paths under src/. */
export function underSrc(globbed: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(globbed).map(([path, text]) => [path.replace(/^(\.\.\/)+/, ''), text]));
}
