/**
 * The agent registry (src/lib/agents/) is the only code that names an agent: no
 * string in shared code (src/, scripts/, astro.config.mjs) holds an agent id. Ids in
 * comments are examples and allowed. The ids come from the registry itself, so a new
 * agent is covered without editing this test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { AGENT_IDS, AGENT_PRODUCTS } from '../../src/lib/agents/index.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Where an agent may be named: its module, and data files (not code). */
// The generated AgentId union is written from the registry (npm run generate:types) and checked against it
// (content-types test).
const ALLOWED = [/^src\/lib\/agents\//, /^src\/lib\/generated\/agent-ids\.ts$/];
const CODE = /\.(ts|mts|mjs|astro)$/;

/**
 * Every code file of src/, scripts/ and the Astro config, read from the tree (a copy of the project without .git is
 * checked the same way).
 */
function sharedCodeFiles(): string[] {
  const listed = ['src', 'scripts'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f.split(sep).join('/')}`),
  );
  return [...listed, 'astro.config.mjs'].filter((f) => CODE.test(f) && !ALLOWED.some((a) => a.test(f)));
}

const ID = new RegExp(
  `(?<![A-Za-z0-9_-])(${AGENT_IDS.map((id) => id.replace(/[-]/g, '\\-')).join('|')})(?![A-Za-z0-9_-])`,
);

/** An import of an agent module (`…/lib/agents/<id>.ts`): a script about one agent reading the registry. */
const AGENT_MODULE = /\/lib\/agents\/[a-z0-9-]+\.ts$/;

/**
 * The text of every string and template literal of a TypeScript text, except imports of agent modules (comments are not
 * nodes).
 */
function stringLiterals(text: string): string[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      AGENT_MODULE.test(node.moduleSpecifier.text)
    )
      return;
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** An .astro file: its frontmatter as TypeScript, its template with comments removed. */
function astroTexts(text: string): string[] {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  const frontmatter = match ? match[1]! : '';
  const template = (match ? text.slice(match[0].length) : text)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, '');
  return [...stringLiterals(frontmatter), template];
}

test('the scanner finds ids in strings and templates and ignores comments (the check can fail)', () => {
  const id = AGENT_IDS[0]!;
  assert.deepEqual(
    stringLiterals(`// ${id}\nconst a = '${id}'; /* ${id} */ const b = \`x/\${a}/${id}/\`; const r = /'/;`).filter(
      (s) => ID.test(s),
    ),
    [id, `/${id}/`],
  );
  assert.deepEqual(
    stringLiterals(`import { x } from '../lib/agents/${id}.ts';\nimport { y } from './${id}/helpers.ts';`).filter((s) =>
      ID.test(s),
    ),
    [`./${id}/helpers.ts`],
  );
  assert.equal(ID.test(`${id}-extra`), false);
  assert.equal(
    astroTexts(`---\nconst x = 1;\n---\n<!-- ${id} --><p>{/* ${id} */}</p>`).some((s) => ID.test(s)),
    false,
  );
  assert.equal(
    astroTexts(`---\nconst x = 1;\n---\n<code>${id} run</code>`).some((s) => ID.test(s)),
    true,
  );
});

test('no shared code outside the registry holds an agent id in a string', () => {
  const found: string[] = [];
  for (const file of sharedCodeFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const texts = file.endsWith('.astro') ? astroTexts(text) : stringLiterals(text);
    for (const s of texts) {
      const m = ID.exec(s);
      if (m)
        found.push(`${file}: ${JSON.stringify(s.length > 80 ? s.slice(Math.max(0, m.index - 30), m.index + 50) : s)}`);
    }
  }
  assert.deepEqual(found, []);
});

test("the wire formats name no agent: no product name in a string of src/lib/wire (an agent's words live in its WireQuirks)", () => {
  const found: string[] = [];
  const wireFiles = readdirSync(join(ROOT, 'src/lib/wire')).filter((f) => CODE.test(f));
  assert.ok(wireFiles.length > 0);
  for (const file of wireFiles) {
    for (const s of stringLiterals(readFileSync(join(ROOT, 'src/lib/wire', file), 'utf8'))) {
      const product = Object.values(AGENT_PRODUCTS).find((p) => s.includes(p));
      if (product) found.push(`src/lib/wire/${file}: ${product} in ${JSON.stringify(s.slice(0, 80))}`);
    }
  }
  assert.deepEqual(found, []);
});
