import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractSdkTools, IngestError, type NameTable } from '../../scripts/lib/claude-sdk.ts';
import { shapeFromTypeScript } from '../../src/lib/shapes/ts-shape.ts';
import { fieldRows } from '../../src/lib/shapes/field-rows.ts';

const DTS = readFileSync(join(import.meta.dirname, '../fixtures/sdk-tools.fixture.d.ts'), 'utf8');
const ORIGIN = { package: 'fixture-sdk', version: '1.0.0', file: 'sdk-tools.d.ts', checked: '2026-01-01' };
const NAMES: NameTable = {
  types: {
    FileRead: { name: 'Read', group: 'built-in', evidence: 'fixture' },
    TaskStop: { name: 'TaskStop', group: 'built-in', evidence: 'fixture' },
    Mcp: { name: 'mcp__<server>__<tool>', group: 'mcp', evidence: 'fixture' },
  },
  aliases: { TaskStop: [{ name: 'KillShell', kind: 'former-name', evidence: 'fixture' }] },
};

test('each Input type becomes a tool, paired with its Output type, named through the table', () => {
  const tools = extractSdkTools(DTS, NAMES, ORIGIN);
  assert.deepEqual(
    tools.map((t) => t.name),
    ['Read', 'TaskStop', 'mcp__<server>__<tool>'],
  );
  const read = tools[0]!;
  assert.equal(read.input.kind, 'typescript');
  assert.equal(read.output.kind, 'typescript');
  assert.deepEqual(
    read.aliases.map((a) => [a.name, a.kind]),
    [
      ['FileReadInput', 'sdk-type'],
      ['FileReadOutput', 'sdk-type'],
    ],
  );
  assert.deepEqual(
    tools[1]!.aliases.map((a) => a.name),
    ['KillShell', 'TaskStopInput', 'TaskStopOutput'],
  );
  const mcp = tools[2]!;
  assert.equal(mcp.output.kind, 'unavailable');
  assert.equal(mcp.group, 'mcp');
  assert.deepEqual(read.provenance, [
    {
      package: 'fixture-sdk',
      version: '1.0.0',
      file: 'sdk-tools.d.ts',
      method: 'TypeScript compiler API over the published declaration file',
      date: '2026-01-01',
    },
  ]);
});

test('a definition carries the type and every declaration it refers to, verbatim with JSDoc', () => {
  const read = extractSdkTools(DTS, NAMES, ORIGIN)[0]!;
  assert.ok(read.output.kind === 'typescript');
  const source = read.output.source;
  assert.match(source, /^export type FileReadOutput =/);
  assert.match(source, /export interface Shared \{\n  base64: string;\n\}/);
  assert.match(source, /\* Path read/);
  assert.doesNotMatch(source, /TaskStop/);
  const rows = fieldRows(shapeFromTypeScript(source, 'FileReadOutput'), { root: 'output' });
  assert.deepEqual(
    rows.map((r) => r.id),
    [
      'output:text',
      'output:text.type',
      'output:text.file',
      'output:text.file.filePath',
      'output:text.file.content',
      'output:image',
      'output:image.type',
      'output:image.file',
      'output:image.file.base64',
    ],
  );
});

test('the same input gives the same output', () => {
  assert.equal(
    JSON.stringify(extractSdkTools(DTS, NAMES, ORIGIN)),
    JSON.stringify(extractSdkTools(DTS, NAMES, ORIGIN)),
  );
});

test('a type missing from the name table stops the ingest and names the type', () => {
  const names: NameTable = { ...NAMES, types: { ...NAMES.types } };
  delete names.types.TaskStop;
  assert.throws(
    () => extractSdkTools(DTS, names, ORIGIN),
    (e: Error) =>
      e instanceof IngestError && /TaskStopInput/.test(e.message) && /claude-sdk-names\.json/.test(e.message),
  );
});

test('an Output type without an Input type stops the ingest', () => {
  const dts = DTS.replace(
    'export type ToolOutputSchemas = FileReadOutput | TaskStopOutput;',
    'export type ToolOutputSchemas = FileReadOutput | TaskStopOutput | GhostOutput;\nexport interface GhostOutput { a: string }',
  );
  assert.throws(() => extractSdkTools(dts, NAMES, ORIGIN), /GhostOutput has no matching …Input type/);
});

test('a declaration the field table cannot read stops the ingest', () => {
  const dts = DTS.replace('limit?: number;', 'limit?: Partial<Shared>;');
  assert.throws(
    () => extractSdkTools(dts, NAMES, ORIGIN),
    /FileReadInput cannot be turned into a field table: .*generic type Partial/,
  );
});

test('a file that does not parse stops the ingest', () => {
  assert.throws(
    () => extractSdkTools(DTS + '\nexport interface Broken {', NAMES, ORIGIN),
    /sdk-tools\.d\.ts does not parse/,
  );
});

test('aliases for a tool the SDK does not declare are refused', () => {
  const names: NameTable = { ...NAMES, aliases: { ...NAMES.aliases, Ghost: [] } };
  assert.throws(() => extractSdkTools(DTS, names, ORIGIN), /aliases listed for tools the SDK does not declare: Ghost/);
});
