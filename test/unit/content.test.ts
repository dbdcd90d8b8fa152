import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentErrors, loadContent } from '../../src/lib/content.ts';

const ROOT = join(import.meta.dirname, '../..');
const GOOD = join(ROOT, 'test/fixtures/content');

/** A copy of the good fixture tree, changed by `mutate`, loaded; returns the errors. */
function errorsAfter(mutate: (dir: string) => void): ContentErrors['problems'] {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  try {
    cpSync(GOOD, dir, { recursive: true });
    mutate(dir);
    try {
      loadContent({ root: ROOT, contentDir: dir });
    } catch (error) {
      assert.ok(error instanceof ContentErrors, `expected ContentErrors, got ${String(error)}`);
      return error.problems;
    }
    assert.fail('content loaded although it is invalid');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function editJson(path: string, edit: (data: any) => void): void {
  const data = JSON.parse(readFileSync(path, 'utf8'));
  edit(data);
  writeFileSync(path, JSON.stringify(data));
}

test('the good fixture loads, merges editorial notes and derives rows from both definition kinds', () => {
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  assert.deepEqual(site.tools.map((t) => t.fullName), ['Read', 'Shell']);
  const read = site.tools[0]!;
  assert.equal(read.editorial?.summary, 'Reads a file');
  assert.deepEqual(read.input.rows.map((r) => r.id), ['input.file_path', 'input.limit']);
  const shell = site.tools[1]!;
  assert.deepEqual(shell.input.rows.map((r) => [r.id, r.required, r.constraints]), [
    ['input.cmd', true, []],
    ['input.timeout', false, ['default: 1000', 'minimum: 1']],
  ]);
  assert.equal(shell.output.code?.text, 'start: "ok"');
});

test('unparsable JSON names the file and the json-parse rule', () => {
  const [e, ...rest] = errorsAfter((d) => writeFileSync(join(d, 'tools/claude-code/read.json'), '{ "agent": '));
  assert.equal(rest.length, 0);
  assert.match(e!.file, /tools\/claude-code\/read\.json$/);
  assert.equal(e!.rule, 'json-parse');
});

test('a schema violation names the file, the JSON pointer and the schema rule', () => {
  const errors = errorsAfter((d) => editJson(join(d, 'tools/claude-code/read.json'), (t) => (t.input.kind = 'typescrpt')));
  assert.ok(errors.length >= 1);
  assert.ok(errors.every((e) => e.file.endsWith('tools/claude-code/read.json')));
  assert.ok(errors.some((e) => e.pointer === '/input/kind' && /tool\.schema\.json#\/\$defs\/definition/.test(e.rule)), errors.map((e) => e.message).join('\n'));
});

test('a missing required field inside a definition points at that definition', () => {
  const errors = errorsAfter((d) => editJson(join(d, 'tools/claude-code/shell.json'), (t) => delete t.input.origin));
  assert.ok(errors.some((e) => e.pointer === '/input' && /required/.test(e.message) && /origin/.test(e.message)), errors.map((e) => e.message).join('\n'));
  assert.ok(!errors.some((e) => /must be equal to constant/.test(e.message)), 'errors of the other definition kinds are left out');
});

test('an unknown job id is refused with its pointer', () => {
  const errors = errorsAfter((d) => editJson(join(d, 'editorial/claude-code/read.json'), (t) => t.jobs.push('no-such-job')));
  assert.deepEqual(errors.map((e) => [e.pointer, e.rule]), [['/jobs/1', 'known-job']]);
  assert.match(errors[0]!.message, /editorial\/claude-code\/read\.json: \/jobs\/1: unknown job id no-such-job/);
});

test('two tools claiming one name (or alias) are refused', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) => t.aliases.push({ name: 'read', kind: 'accepted-alias', evidence: 'x' })),
  );
  assert.deepEqual(errors.map((e) => [e.pointer, e.rule]), [['/aliases/1/name', 'unique-tool-name']]);
});

test('field anchors that would collide on a page are refused', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) => {
      // A variant keyed by either "x" or "y" is labelled `x|y`, as is one keyed by the single value "x|y".
      t.input.schema = {
        oneOf: [
          { type: 'object', properties: { k: { enum: ['x', 'y'] }, v: { type: 'string' } }, required: ['k'] },
          { type: 'object', properties: { k: { const: 'x|y' }, v: { type: 'string' } }, required: ['k'] },
        ],
      };
    }),
  );
  assert.ok(errors.some((e) => e.rule === 'unique-field-anchor' && /input:/.test(e.message)), errors.map((e) => e.message).join('\n'));
});

test('a JSON Schema definition Ajv cannot compile is refused at its pointer', () => {
  const errors = errorsAfter((d) => editJson(join(d, 'tools/claude-code/shell.json'), (t) => (t.input.schema.properties.cmd.type = 'strin')));
  assert.deepEqual(errors.map((e) => [e.pointer, e.rule]), [['/input/schema', 'definition-compiles']]);
});

test('a TypeScript definition that does not parse is refused at its pointer', () => {
  const errors = errorsAfter((d) => editJson(join(d, 'tools/claude-code/read.json'), (t) => (t.input.source = 'export interface FileReadInput {')));
  assert.deepEqual(errors.map((e) => [e.pointer, e.rule]), [['/input', 'definition-readable']]);
});

test('editorial notes for a tool that does not exist are refused', () => {
  const errors = errorsAfter((d) => cpSync(join(d, 'editorial/claude-code/read.json'), join(d, 'editorial/claude-code/write.json')));
  assert.deepEqual(errors.map((e) => e.rule), ['editorial-has-tool']);
});

test('every problem is reported at once', () => {
  const errors = errorsAfter((d) => {
    writeFileSync(join(d, 'tools/claude-code/read.json'), 'nope');
    editJson(join(d, 'editorial/claude-code/shell.json'), (t) => (t.jobs = ['ghost']));
  });
  assert.deepEqual(errors.map((e) => e.rule).sort(), ['json-parse', 'known-job'], 'the notes of the broken tool are not reported twice');
});
