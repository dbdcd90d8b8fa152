/**
 * The project's import graph and its long functions, read with the
 * TypeScript parser (no type checking): what `npm run architecture` reports
 * and test/unit/architecture.test.ts holds to.
 *
 * Every import counts, `import type` included: a cycle through types still
 * ties the files' meaning together (and Node's type stripping turns
 * `import { type X }` into `import {}`, which still loads the module).
 */
import ts from 'typescript';
import { dirname, resolve } from 'node:path';

/** A function longer than this is a long one… */
export const LONG_FUNCTION_LINES = 60;
/** …and the project keeps at most this many (npm run architecture -- --list names them). */
export const LONG_FUNCTIONS_ALLOWED = 5;
/** …and none is longer than this. Lines are counted as the formatter (Biome, width 120) lays them out. */
export const LONGEST_FUNCTION_LINES = 100;

/** Relative import specifiers of a TypeScript (or Astro frontmatter) source, resolved to absolute paths. */
export function importsOf(source: string, file: string): string[] {
  const found = ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
  return [...new Set(found.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s)))].sort();
}

/** Graph from file to the files it imports; files outside the graph's keys are left out. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The graph's cycles: each strongly connected component of more than one
 * file, or a file importing itself (Tarjan's algorithm, iterative so deep
 * graphs cannot overflow the stack). Files sorted inside a cycle; cycles
 * sorted by their first file.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  const targets = (file: string) => (graph.get(file) ?? []).filter((t) => graph.has(t));
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    // Each frame: a file and how many of its targets have been visited.
    const frames: { file: string; at: number }[] = [{ file: start, at: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const out = targets(frame.file);
      if (frame.at < out.length) {
        const target = out[frame.at++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ file: target, at: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      if (component.length > 1 || targets(frame.file).includes(frame.file)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The graph between the folders directly under `base` (`src/lib/model/…` is
 * `model`): one edge where some file of one imports some file of another.
 * Files outside `base`, or directly in it, are left out.
 */
export function folderGraph(graph: ImportGraph, base: string): ImportGraph {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const folderOf = (file: string): string | undefined => {
    if (!file.startsWith(prefix)) return undefined;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf('/');
    return slash < 0 ? undefined : rest.slice(0, slash);
  };
  const out = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const edges = out.get(from) ?? out.set(from, new Set()).get(from)!;
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== undefined && to !== from) edges.add(to);
    }
  }
  return new Map([...out].map(([folder, targets]) => [folder, [...targets].sort()]));
}

export interface LongFunction {
  /** Its name as written (`main`, `Class.method`, `const name = () =>`), or `(anonymous)`. */
  name: string;
  /** First line, 1-based. */
  line: number;
  lines: number;
}

/** Name of a function-like node: its own, or the variable, property or method it is assigned to. */
function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) {
    const owner = node.parent && ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : '';
    return owner + named.name.text;
  }
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  return '(anonymous)';
}

/**
 * Functions, methods and arrow functions whose text spans more than `limit`
 * lines, counted from the line of their first token to the line of their
 * last (a nested function counts in its own length and in its parent's).
 */
export function longFunctions(source: string, file: string, limit: number): LongFunction[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.push({ name: functionName(node), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
