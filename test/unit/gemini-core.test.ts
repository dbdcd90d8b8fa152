/**
 * The mapping from a Gemini CLI tool name to its published params type
 * (scripts/lib/gemini-core.ts), on a small package laid out like
 * @google/gemini-cli-core: name constants, tool classes declared
 * `extends BaseDeclarativeTool<Params, Result>`, and the compiled .js beside
 * each .d.ts (test/fixtures/gemini-core/).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coreToolRecords, declarationFiles, GeminiCoreError, mapCoreTools } from '../../scripts/lib/gemini-core.ts';
import { shapeFromTypeScript } from '../../src/lib/shapes/ts-shape.ts';
import { fieldRows } from '../../src/lib/shapes/field-rows.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/gemini-core');
const ORIGIN = { package: 'fixture-gemini-core', version: '1.0.0', checked: '2026-01-01' };
const NAMES = ['read_file', 'run_shell_command', 'grep_search', 'list_processes', 'no_such_tool'];

const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture with one file rewritten. */
function editedFixture(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-core-fixture-'));
  scratch.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

test('the declaration files read are every .d.ts but the tests', () => {
  const files = declarationFiles(FIXTURE);
  assert.ok(files.includes('src/tools/read-file.d.ts'));
  assert.ok(!files.some((f) => f.endsWith('.test.d.ts')), files.join(', '));
});

test('a tool name maps through its constant and class to the params type the class is declared with', () => {
  const { mapped } = mapCoreTools(FIXTURE, NAMES);
  const read = mapped.find((t) => t.name === 'read_file');
  assert.ok(read);
  assert.equal(read.className, 'ReadFileTool');
  assert.equal(read.classFile, 'src/tools/read-file.d.ts');
  // The compiled class imports the constant through a re-export; the constant's own declaration is named.
  assert.deepEqual(read.link.constant, { name: 'READ_FILE_TOOL_NAME', file: 'src/tools/tool-names.d.ts' });
  assert.equal(read.link.jsFile, 'src/tools/read-file.js');
  assert.equal(read.params.typeName, 'ReadFileToolParams');
  assert.deepEqual(read.params.files, ['src/tools/read-file.d.ts', 'src/services/modes.d.ts']);
  assert.deepEqual(read.result, {
    typeName: 'ToolResult',
    file: 'src/tools/tools.d.ts',
    generic: true,
    extendsGeneric: false,
  });
});

test('the params source holds the type and what it refers to, verbatim with JSDoc, computed keys and enums written out', () => {
  const read = mapCoreTools(FIXTURE, ['read_file']).mapped[0]!;
  const source = read.params.source;
  assert.match(source, /^\/\*\*\n \* Parameters for the ReadFile tool\n \*\/\nexport interface ReadFileToolParams \{/);
  assert.match(source, /     \* The path to the file to read\n     \*\/\n    file_path: string;/);
  assert.match(source, /line_range \/\* \[PARAM_LINE_RANGE\] \*\/\?: LineRange;/);
  assert.match(
    source,
    /\/\* export declare enum ReadMode \{ TEXT = "text", BINARY = "binary" \}, written as the union of its values: \*\/\nexport type ReadMode = "text" \| "binary";/,
  );
  assert.match(source, /export interface LineRange \{/);
  assert.doesNotMatch(source, /@license/);
  assert.doesNotMatch(source, /GrepToolParams|class /);
  const rows = fieldRows(shapeFromTypeScript(source, 'ReadFileToolParams'), { root: 'input' });
  assert.deepEqual(
    rows.map((r) => [r.fieldKey, r.required, r.type]),
    [
      ['file_path', true, 'string'],
      ['mode', false, '"text" | "binary"'],
      ['line_range', false, 'object'],
      ['line_range.start', true, 'number'],
      ['line_range.end', false, 'number'],
      ['tags', false, 'string[]'],
    ],
  );
});

test('a class named by a string of its own maps too, and says there is no constant', () => {
  const list = mapCoreTools(FIXTURE, ['list_processes']).mapped[0]!;
  assert.equal(list.link.constant, undefined);
  assert.equal(list.params.typeName, 'ListProcessesParams');
  assert.deepEqual(list.result, {
    typeName: 'ListProcessesResult',
    file: 'src/tools/background.d.ts',
    generic: false,
    extendsGeneric: true,
  });
});

test('names with no class, with two classes, or with inline params are reported, not guessed', () => {
  const { mapped, unmapped } = mapCoreTools(FIXTURE, NAMES);
  assert.deepEqual(
    mapped.map((t) => t.name),
    ['list_processes', 'read_file'],
  );
  assert.deepEqual(
    unmapped.map((t) => t.name),
    ['grep_search', 'no_such_tool', 'run_shell_command'],
  );
  const reason = (name: string) => unmapped.find((t) => t.name === name)!.reason;
  assert.match(
    reason('grep_search'),
    /^2 classes pass this name to BaseDeclarativeTool: GrepTool \(src\/tools\/grep\.d\.ts, params GrepToolParams\), RipGrepTool/,
  );
  assert.match(reason('no_such_tool'), /^no class extending BaseDeclarativeTool passes this name/);
  // ShellTool is named through an aliased import (`SHELL_TOOL_NAME as NAME`) passed straight to super().
  assert.equal(
    reason('run_shell_command'),
    'ShellTool (src/tools/shell.d.ts) declares its params as { command: string; }, not as a named type',
  );
});

test('each mapped tool becomes a generated record: typed input, unavailable result, provenance and name evidence', () => {
  const tools = coreToolRecords(mapCoreTools(FIXTURE, NAMES), ORIGIN);
  const read = tools.find((t) => t.name === 'read_file')!;
  assert.equal(read.agent, 'gemini-cli');
  assert.equal(read.group, 'built-in');
  assert.match(
    read.nameEvidence,
    /^the constant READ_FILE_TOOL_NAME = "read_file" in src\/tools\/tool-names\.d\.ts of fixture-gemini-core 1\.0\.0; ReadFileTool/,
  );
  assert.deepEqual(read.aliases, [
    {
      name: 'ReadFileToolParams',
      kind: 'sdk-type',
      evidence: 'params type of ReadFileTool in src/tools/read-file.d.ts',
    },
  ]);
  assert.ok(read.input.kind === 'typescript');
  assert.deepEqual(read.input.origin, {
    package: 'fixture-gemini-core',
    version: '1.0.0',
    file: 'src/tools/read-file.d.ts',
  });
  assert.ok(read.output.kind === 'unavailable');
  assert.match(
    read.output.reason,
    /declares the result of ReadFileTool only as the generic ToolResult \(src\/tools\/tools\.d\.ts\)/,
  );
  assert.deepEqual(
    read.provenance.map((p) => [p.package, p.version, p.file, p.date]),
    [
      ['fixture-gemini-core', '1.0.0', 'src/tools/read-file.d.ts', '2026-01-01'],
      ['fixture-gemini-core', '1.0.0', 'src/services/modes.d.ts', '2026-01-01'],
    ],
  );
  const list = tools.find((t) => t.name === 'list_processes')!;
  assert.match(list.nameEvidence, /passes the string "list_processes".*declares no constant/);
  assert.ok(list.output.kind === 'unavailable');
  assert.match(
    list.output.reason,
    /as ListProcessesResult \(src\/tools\/background\.d\.ts\), which extends the generic ToolResult/,
  );
});

test('the same package gives the same records', () => {
  assert.equal(
    JSON.stringify(coreToolRecords(mapCoreTools(FIXTURE, NAMES), ORIGIN)),
    JSON.stringify(coreToolRecords(mapCoreTools(FIXTURE, NAMES), ORIGIN)),
  );
});

test('a .d.ts name that contradicts the compiled class stops the ingest', () => {
  const dir = editedFixture('src/tools/read-file.d.ts', (t) =>
    t.replace('static readonly Name = "read_file"', 'static readonly Name = "read_files"'),
  );
  assert.throws(
    () => mapCoreTools(dir, ['read_file']),
    (e: unknown) =>
      e instanceof GeminiCoreError &&
      /declares ReadFileTool\.Name as "read_files", but src\/tools\/read-file\.js names it "read_file"/.test(e.message),
  );
});

test('a class whose compiled name cannot be read is left unmapped with the reason', () => {
  const dir = editedFixture('src/tools/read-file.js', (t) => t.replace('super(ReadFileTool.Name', 'super(pickName()'));
  const { unmapped } = mapCoreTools(dir, ['read_file']);
  assert.match(
    unmapped[0]!.reason,
    /no class extending BaseDeclarativeTool passes this name .*named by the expression pickName\(\)/,
  );
});

test('a params type the field tables cannot read stops the ingest, naming the tool', () => {
  const dir = editedFixture('src/tools/read-file.d.ts', (t) =>
    t.replace('tags?: Array<string>;', 'tags?: Partial<LineRange>;'),
  );
  assert.throws(
    () => mapCoreTools(dir, ['read_file']),
    (e: unknown) => e instanceof GeminiCoreError && /uses the global type Partial/.test(e.message),
  );
});

test('a package without BaseDeclarativeTool is not read at all', () => {
  const dir = editedFixture('src/tools/tools.d.ts', (t) => t.replaceAll('BaseDeclarativeTool', 'BaseTool'));
  assert.throws(
    () => mapCoreTools(dir, ['read_file']),
    (e: unknown) =>
      e instanceof GeminiCoreError && /no class in the package extends BaseDeclarativeTool/.test(e.message),
  );
});
