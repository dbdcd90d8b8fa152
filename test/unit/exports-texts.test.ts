/**
 * Generated declarations (src/lib/exports/declarations.ts), llms.txt and
 * llms-full.txt (src/lib/exports/llms.ts), minimal instances
 * (src/lib/minimal-instance.ts) and the export texts of one tool.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadContent } from '../../src/lib/content/load.ts';
import { declarationFromSchema, declarationTypeName } from '../../src/lib/exports/declarations.ts';
import { llmsFullTxt, llmsTxt } from '../../src/lib/exports/llms.ts';
import { minimalInstance } from '../../src/lib/minimal-instance.ts';
import { toolExportFiles } from '../../src/lib/exports/tool-exports.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = loadContent({ root: ROOT });
const ORIGIN = { site: 'https://site.invalid' };

/** Type-checks one declaration file with the compiler API; returns its diagnostics as text. */
function compileErrors(text: string): string[] {
  // A .ts name: skipLibCheck would skip a .d.ts file itself.
  const fileName = '/decl/input.ts';
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === fileName ? text : readFile(f));
  host.fileExists = ((exists) => (f: string) => f === fileName || exists(f))(host.fileExists.bind(host));
  host.getSourceFile = (f, v, ...rest) => (f === fileName ? ts.createSourceFile(f, text, v) : getSourceFile(f, v, ...rest));
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('declaration type names come from the callable name', () => {
  assert.equal(declarationTypeName('exec_command'), 'ExecCommandInput');
  assert.equal(declarationTypeName('collaboration.post'), 'CollaborationPostInput');
  assert.equal(declarationTypeName('mcp__server.tool'), 'McpServerToolInput');
  assert.equal(declarationTypeName('2fa'), 'Tool2faInput');
});

test('a declaration generated from a schema compiles and says what the schema says', async () => {
  const text = await declarationFromSchema(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://site.invalid/codex/x/0.1.0/input.schema.json',
      title: 'ignored as a type name',
      type: 'object',
      properties: { cmd: { type: 'string', description: 'Command */ to run.' }, tty: { type: 'boolean' }, mode: { enum: ['a', 'b'] } },
      required: ['cmd'],
      additionalProperties: false,
    },
    'XInput',
    ['x input (Codex CLI 0.1.0)', 'has */ inside'],
  );
  assert.match(text, /^\/\*\*\n \* x input \(Codex CLI 0\.1\.0\)\n \* has \*\\\/ inside\n \*\//);
  assert.match(text, /export interface XInput \{/);
  assert.match(text, /cmd: string;/);
  assert.match(text, /tty\?: boolean;/);
  assert.match(text, /mode\?: "a" \| "b";/);
  assert.doesNotMatch(text, /\[k: string\]/);
  assert.deepEqual(compileErrors(text), []);
  // Without additionalProperties: false, other keys are allowed, as the schema means.
  assert.match(await declarationFromSchema({ type: 'object', properties: { a: { type: 'string' } } }, 'Open', ['o']), /\[k: string\]: unknown;/);
});

test('the export files of a tool: schemas with their $id, and the Codex declaration', async () => {
  const post = site.tools.find((t) => t.agent === 'codex' && t.slug === 'collaboration.post')!;
  const codex = site.agents.find((a) => a.id === 'codex')!;
  const files = await toolExportFiles(post, ORIGIN);
  assert.deepEqual([...files.keys()], ['input.schema.json', 'result.schema.json', 'input.d.ts']);
  const schema = JSON.parse(files.get('input.schema.json')!);
  assert.equal(schema.$id, `https://site.invalid/codex/collaboration.post/${codex.version}/input.schema.json`);
  assert.equal(schema.title, `collaboration.post input (Codex CLI ${codex.version})`);
  assert.match(files.get('input.d.ts')!, /export interface CollaborationPostInput \{/);
  assert.deepEqual(compileErrors(files.get('input.d.ts')!), []);
});

test('minimal instances: required members only, bounds and formats honoured', () => {
  const schema = {
    type: 'object',
    required: ['n', 'list', 'kind', 'when', 'ref', 'either'],
    properties: {
      n: { type: 'integer', exclusiveMinimum: 0 },
      list: { type: 'array', minItems: 2, items: { type: 'string', minLength: 3 } },
      kind: { enum: ['x', 'y'] },
      when: { type: 'string', format: 'date-time' },
      ref: { $ref: '#/$defs/r' },
      either: { anyOf: [{ type: 'null' }, { type: 'string' }] },
      optional: { type: 'string' },
    },
    $defs: { r: { type: 'object', required: ['a'], properties: { a: { const: 1 } } } },
  };
  const value = minimalInstance(schema);
  assert.deepEqual(value, { n: 1, list: ['aaa', 'aaa'], kind: 'x', when: '2026-01-01T00:00:00Z', ref: { a: 1 }, either: null });
  assert.ok(new Ajv2020({ strict: false }).compile(schema)(value));
  assert.throws(() => minimalInstance(false), /accepts no value/);
});

test('llms.txt: an H1, a blockquote, then sections of links with notes, one per tool page', () => {
  const text = llmsTxt(site, ORIGIN);
  const lines = text.split('\n');
  assert.match(lines[0]!, /^# Agent tool reference$/);
  assert.equal(lines[1], '');
  assert.match(lines[2]!, new RegExp(`^> Every built-in tool of ${site.agents.length} coding-agent CLIs \\(${site.agents[0]!.product} `));
  const sections = lines.filter((l) => l.startsWith('## '));
  // Each agent's section names it with every release its sources come from, read from the files:
  // the capture matrix's pin, and the CLI release its agent record's types bundle.
  const matrixFile = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as { agents: Record<string, { version: string }> };
  site.agents.forEach((a, i) => {
    const heading = sections[i]!;
    assert.ok(heading.startsWith(`## ${a.product} `), heading);
    const recordFile = join(ROOT, 'content/agents', `${a.id}.json`);
    const releases = [matrixFile.agents[a.id]?.version, existsSync(recordFile) ? (JSON.parse(readFileSync(recordFile, 'utf8')) as { version: string }).version : undefined];
    for (const release of releases) if (release) assert.ok(heading.includes(` ${release}`), `${heading} names ${release}`);
  });
  assert.ok(sections.includes('## Optional'));
  for (const tool of site.tools) {
    const line = lines.find((l) => l.startsWith(`- [${tool.fullName.replace(/[[\]]/g, '\\$&')}](https://site.invalid/${tool.agent}/${tool.slug}/)`));
    assert.ok(line, `${tool.agent}/${tool.slug} is listed`);
    assert.ok(line.endsWith(`: ${tool.editorial!.summary.replace(/\s+/g, ' ').trim()}`));
  }
  // Every list line is a link with a note.
  for (const line of lines.filter((l) => l.startsWith('- '))) assert.match(line, /^- \[[^\]]+\]\(https:\/\/site\.invalid\/[^)\s]*\): \S/);
  assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'));
});

test('llms-full.txt: each tool with its summary and its fields (path, type, required)', () => {
  const text = llmsFullTxt(site, ORIGIN);
  assert.ok(text.startsWith('# Agent tool reference\n\n> '));
  for (const tool of site.tools) assert.ok(text.includes(`### ${tool.fullName}\n\nhttps://site.invalid/${tool.agent}/${tool.slug}/\n`), tool.fullName);
  const bash = text.slice(text.indexOf('### Bash\n'), text.indexOf('\n### ', text.indexOf('### Bash\n') + 1));
  assert.match(bash, /#### Input\n\nTypeScript; JSON Schema: https:\/\/site\.invalid\/claude-code\/bash\/input\.schema\.json\n\n\| Field \| Type \| Required \|/);
  assert.match(bash, /\| `command` \| `string` \| yes \|/);
  assert.match(bash, /\| `timeout` \| `number` \| no \|/);
  assert.match(bash, /#### Result\n/);
  assert.match(bash, /#### Model-facing input\n/);
  // A pipe inside a type cannot break the table: it is inside a code span, escaped.
  for (const line of text.split('\n').filter((l) => l.startsWith('| `'))) assert.equal(line.replace(/\\\|/g, '').split('|').length, 5, line);
});
