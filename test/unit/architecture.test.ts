import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  folderGraph,
  importCycles,
  importsOf,
  LONG_FUNCTION_LINES,
  LONG_FUNCTIONS_ALLOWED,
  LONGEST_FUNCTION_LINES,
  longFunctions,
} from '../../scripts/lib/architecture/graph.ts';
import { importGraph, scriptOf, sourceFiles } from '../../scripts/lib/architecture/files.ts';

const ROOT = join(import.meta.dirname, '../..');

test('importsOf: relative imports of every form, type-only ones included, resolved; packages left out', () => {
  const source = [
    "import a from './a.ts';",
    "import type { B } from '../b.ts';",
    "import { type C } from './c/c.ts';",
    "export { d } from './d.ts';",
    "export type { E } from './e.ts';",
    "const f = await import('./f.ts');",
    "import ts from 'typescript';",
    "import { join } from 'node:path';",
  ].join('\n');
  assert.deepEqual(importsOf(source, '/p/src/x.ts'), [
    '/p/b.ts',
    '/p/src/a.ts',
    '/p/src/c/c.ts',
    '/p/src/d.ts',
    '/p/src/e.ts',
    '/p/src/f.ts',
  ]);
});

test('importCycles: each group of files that reach one another, a self-import, nothing for a tree', () => {
  const graph = new Map<string, string[]>([
    ['a', ['b']],
    ['b', ['c', 'x']],
    ['c', ['a']], // a → b → c → a
    ['d', ['d']], // imports itself
    ['e', ['f', 'outside']], // 'outside' is not in the graph: left out
    ['f', []],
    ['g', ['h']],
    ['h', ['i']],
    ['i', ['h', 'a']], // h ↔ i, and into the first cycle (one way only)
    ['x', []],
  ]);
  assert.deepEqual(importCycles(graph), [['a', 'b', 'c'], ['d'], ['h', 'i']]);
  assert.deepEqual(
    importCycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
});

test('importCycles: a long chain closing on itself is one cycle (no recursion limit)', () => {
  const n = 20_000;
  const graph = new Map(Array.from({ length: n }, (_, i) => [`m${i}`, [`m${(i + 1) % n}`]] as [string, string[]]));
  const cycles = importCycles(graph);
  assert.equal(cycles.length, 1);
  assert.equal(cycles[0]!.length, n);
});

test('longFunctions: functions, methods and arrows over the limit, by name and first line', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const source = [
    `function short() {\n${body(3)}\n}`, // 5 lines
    `export function long() {\n${body(8)}\n}`, // 10 lines, starts on line 6
    `class K {\n  method() {\n${body(9)}\n  }\n}`, // method: 11 lines
    `const arrow = () => {\n${body(10)}\n};`, // 12 lines
  ].join('\n');
  const found = longFunctions(source, 'x.ts', 9).map((f) => `${f.name}:${f.line}:${f.lines}`);
  assert.deepEqual(found, ['long:6:10', 'K.method:17:11', 'arrow:29:12']);
});

test('sourceFiles and importGraph read .ts files and the frontmatter of .astro components', () => {
  const root = mkdtempSync(join(tmpdir(), 'architecture-'));
  mkdirSync(join(root, 'src/components'), { recursive: true });
  mkdirSync(join(root, 'scripts'), { recursive: true });
  writeFileSync(join(root, 'src/a.ts'), "import { b } from './components/B.astro';\n");
  writeFileSync(
    join(root, 'src/components/B.astro'),
    "---\nimport { a } from '../a.ts';\n---\n<p>import x from './not-code.ts'</p>\n",
  );
  writeFileSync(join(root, 'scripts/run.ts'), "import '../src/a.ts';\n");
  writeFileSync(join(root, 'src/types.d.ts'), "import './a.ts';\n");
  const files = sourceFiles(root);
  assert.deepEqual(
    files.map((f) => relative(root, f)),
    ['src/a.ts', 'src/components/B.astro', 'scripts/run.ts'].sort(),
  );
  assert.deepEqual(
    importCycles(importGraph(files)).map((c) => c.map((f) => relative(root, f))),
    [['src/a.ts', 'src/components/B.astro']],
  );
});

test('the project has no import cycles, type-only imports included (npm run architecture lists them)', () => {
  const cycles = importCycles(importGraph(sourceFiles(ROOT))).map((c) => c.map((f) => relative(ROOT, f)).join(' ↔ '));
  assert.deepEqual(cycles, []);
});

test('folderGraph: one edge per pair of folders under the base, files outside or at its top left out', () => {
  const graph = new Map<string, string[]>([
    ['/p/lib/a/x.ts', ['/p/lib/b/y.ts', '/p/lib/a/z.ts', '/p/lib/top.ts', '/p/other/w.ts']],
    ['/p/lib/a/z.ts', ['/p/lib/b/y.ts']],
    ['/p/lib/b/y.ts', ['/p/lib/c/deep/v.ts']],
    ['/p/lib/c/deep/v.ts', []],
    ['/p/lib/top.ts', ['/p/lib/a/x.ts']],
  ]);
  assert.deepEqual(
    [...folderGraph(graph, '/p/lib')],
    [
      ['a', ['b']],
      ['b', ['c']],
      ['c', []],
    ],
  );
  assert.deepEqual(
    importCycles(
      folderGraph(
        new Map([
          ['/l/a/1.ts', ['/l/b/1.ts']],
          ['/l/b/1.ts', ['/l/a/2.ts']],
          ['/l/a/2.ts', []],
        ]),
        '/l',
      ),
    ),
    [['a', 'b']],
  );
});

test('the folders of src/lib form layers: no two of them import each other, directly or around a loop (src/lib/README.md)', () => {
  assert.deepEqual(importCycles(folderGraph(importGraph(sourceFiles(ROOT)), join(ROOT, 'src/lib'))), []);
});

test('src/lib/README.md names every folder of src/lib, in an order where each imports only folders above it', () => {
  const folders = readdirSync(join(ROOT, 'src/lib'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const readme = readFileSync(join(ROOT, 'src/lib/README.md'), 'utf8');
  const listed = [...readme.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]!);
  assert.deepEqual([...listed].sort(), folders, 'the table lists each folder once');
  const graph = folderGraph(importGraph(sourceFiles(ROOT)), join(ROOT, 'src/lib'));
  const late: string[] = [];
  listed.forEach((folder, i) => {
    for (const target of graph.get(folder) ?? [])
      if (listed.indexOf(target) > i) late.push(`${folder} imports ${target}, listed below it`);
  });
  assert.deepEqual(late, []);
});

test(`the project keeps at most ${LONG_FUNCTIONS_ALLOWED} functions over ${LONG_FUNCTION_LINES} lines (npm run architecture -- --list)`, () => {
  const long = sourceFiles(ROOT).flatMap((f) =>
    longFunctions(scriptOf(f, readFileSync(f, 'utf8')), f, LONG_FUNCTION_LINES).map(
      (l) => `${relative(ROOT, f)}:${l.line} ${l.name} (${l.lines} lines)`,
    ),
  );
  assert.ok(
    long.length <= LONG_FUNCTIONS_ALLOWED,
    `${long.length} functions over ${LONG_FUNCTION_LINES} lines:\n${long.join('\n')}`,
  );
  const longest = long.filter((l) => Number(/\((\d+) lines\)$/.exec(l)![1]) > LONGEST_FUNCTION_LINES);
  assert.deepEqual(longest, [], `functions over ${LONGEST_FUNCTION_LINES} lines`);
});
