/**
 * npm run architecture: the import cycles among src/ and scripts/ (type-only
 * imports included), the cycles between the folders of src/lib (its layers:
 * src/lib/README.md), and the functions longer than 60 lines. Exits 1 when
 * there is a cycle or more long functions than the project allows.
 *
 *   npm run architecture               # summary
 *   npm run architecture -- --list     # also every long function
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  folderGraph,
  importCycles,
  LONG_FUNCTION_LINES,
  LONG_FUNCTIONS_ALLOWED,
  LONGEST_FUNCTION_LINES,
  longFunctions,
} from './lib/architecture/graph.ts';
import { importGraph, scriptOf, sourceFiles } from './lib/architecture/files.ts';

const root = join(import.meta.dirname, '..');
const rel = (p: string) => relative(root, p);
const files = sourceFiles(root);
const graph = importGraph(files);
const cycles = importCycles(graph);
const layerCycles = importCycles(folderGraph(graph, join(root, 'src/lib')));
const long = files.flatMap((f) =>
  longFunctions(scriptOf(f, readFileSync(f, 'utf8')), f, LONG_FUNCTION_LINES).map((l) => ({ ...l, file: rel(f) })),
);
long.sort((a, b) => b.lines - a.lines);

console.log(
  `${files.length} files; ${cycles.length} import cycle(s); ${layerCycles.length} cycle(s) between the folders of ` +
    `src/lib; ${long.length} function(s) over ${LONG_FUNCTION_LINES} lines (at most ` +
    `${LONG_FUNCTIONS_ALLOWED} allowed)`,
);
for (const cycle of cycles) console.log(`cycle of ${cycle.length}: ${cycle.map(rel).join(' ↔ ')}`);
for (const cycle of layerCycles) console.log(`folders of src/lib that import one another: ${cycle.join(' ↔ ')}`);
if (process.argv.includes('--list'))
  for (const l of long) console.log(`  ${l.lines} lines  ${l.file}:${l.line}  ${l.name}`);
process.exitCode =
  cycles.length > 0 ||
  layerCycles.length > 0 ||
  long.length > LONG_FUNCTIONS_ALLOWED ||
  long.some((l) => l.lines > LONGEST_FUNCTION_LINES)
    ? 1
    : 0;
