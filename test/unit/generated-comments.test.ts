/**
 * Captured text in the comments of generated code (issue 22): a tool named
 * `pwntool\nwindow.__pwned=11;//` must not put a statement into the validator
 * module a tool page imports, nor into its `input.d.ts`. The assertions use
 * independent references: the TypeScript scanner, parser and printer, and an
 * actual import of the module.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ts from 'typescript';
import { commentSafeLiteral } from '../../src/lib/core/comment-text.ts';
import { declarationFromSchema } from '../../src/lib/shapes/declarations.ts';
import { minimalInstance } from '../../src/lib/shapes/minimal-instance.ts';
import { toolExportFiles, toolSchema } from '../../src/lib/site/tool-exports.ts';
import { payloadCheckTarget } from '../../src/lib/check/payload-check-ui.ts';
import { validatorBanner, validatorModule } from '../../src/lib/check/payload-validator.ts';
import { realContent } from '../helpers/real-content.ts';

const site = realContent();
const ORIGIN = { site: 'https://site.invalid' };

/** Each would set globalThis.__pwned if any of it ran. */
const HOSTILE_NAMES = [
  'pwntool\nglobalThis.__pwned=11;//',
  'pwntool\r\nglobalThis.__pwned=11;//',
  'pwntool\rglobalThis.__pwned=11;//',
  'pwntool\u2028globalThis.__pwned=11;//',
  'pwntool\u2029globalThis.__pwned=11;//',
  'pwntool*/globalThis.__pwned=11;/*',
  'pwntool</script><script>globalThis.__pwned=11</script>',
  'pwntool`${globalThis.__pwned=11}`',
  'pwntool"\\"\u0000\u001b*/\nglobalThis.__pwned=11;/*',
];

/**
 * As `$id`s: Ajv's own compile (new Function) already fails on the last name,
 * whose star-slash is followed by an escape outside any string; nothing is written.
 */
const HOSTILE_IDS = HOSTILE_NAMES.filter((name) => !name.includes('\u0000'));

/** The line terminators of ECMAScript source (and of TypeScript's scanner). */
const sourceLines = (text: string): string[] => text.split(/\r\n|[\n\r\u2028\u2029]/);

const pwned = () => (globalThis as { __pwned?: unknown }).__pwned;

/** Token kinds of `text`, trivia included, as TypeScript scans them. */
function tokenKinds(text: string): ts.SyntaxKind[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const kinds: ts.SyntaxKind[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) kinds.push(kind);
  return kinds;
}

/** The program text of `source` without its comments, printed back from TypeScript's syntax tree. */
function withoutComments(source: ts.SourceFile): string {
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

/** Type-checks declaration files (by label) in one program with the compiler API; returns their diagnostics as text. */
function compileErrors(texts: Map<string, string>): string[] {
  // .ts names: skipLibCheck would skip a .d.ts file itself.
  const files = new Map([...texts].map(([label, text], i) => [`/decl/input${i}.ts`, { label, text }]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => files.has(f) || fileExists(f);
  host.getSourceFile = (f, v, ...rest) =>
    files.has(f) ? ts.createSourceFile(f, files.get(f)!.text, v) : getSourceFile(f, v, ...rest);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${files.get(d.file?.fileName ?? '')?.label ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

/** Declaration files (by label): they compile, declare types only, and have no captured code outside their comments. */
function assertOnlyDeclarations(texts: Map<string, string>): void {
  assert.deepEqual(compileErrors(texts), []);
  for (const [label, text] of texts) {
    const source = ts.createSourceFile('/decl/input.d.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    for (const statement of source.statements) {
      const isType =
        ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement);
      assert.ok(isType, `${label}: a ${ts.SyntaxKind[statement.kind]} at the top level`);
    }
    assert.doesNotMatch(withoutComments(source), /__pwned/, label);
  }
}

test('commentSafeLiteral: any text stays one comment, `//` or block, and reads back as JSON', () => {
  for (const name of HOSTILE_NAMES) {
    const literal = commentSafeLiteral(name);
    assert.deepEqual(tokenKinds(`// ${literal}`), [ts.SyntaxKind.SingleLineCommentTrivia], JSON.stringify(name));
    assert.deepEqual(tokenKinds(`/* ${literal} */`), [ts.SyntaxKind.MultiLineCommentTrivia], JSON.stringify(name));
    assert.deepEqual(
      tokenKinds(`/**\n * ${literal}\n */`),
      [ts.SyntaxKind.MultiLineCommentTrivia],
      JSON.stringify(name),
    );
    assert.equal(JSON.parse(literal), name);
  }
  // Ordinary text stays readable.
  assert.equal(
    commentSafeLiteral('https://site.invalid/codex/x/0.1.0/input.schema.json'),
    '"https://site.invalid/codex/x/0.1.0/input.schema.json"',
  );
});

test('a hostile tool name leaves the validator module its banner comments, and nothing of it runs', async () => {
  const bash = site.tools.find((t) => t.agent === 'claude-code' && t.slug === 'bash')!;
  for (const name of HOSTILE_NAMES) {
    const label = JSON.stringify(name);
    const tool = { ...bash, fullName: name };
    const schema = toolSchema(tool, payloadCheckTarget(tool)!.section, ORIGIN)!;
    assert.ok(String(schema.title).includes(name), `${label}: the title carries the name`);
    const banner = validatorBanner(schema);
    const code = validatorModule(schema, { banner });

    delete (globalThis as { __pwned?: unknown }).__pwned;
    const { validate } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      validate: (v: unknown) => boolean;
    };
    assert.equal(pwned(), undefined, `${label}: importing runs none of it`);
    assert.equal(validate(minimalInstance(schema)), true, label);
    assert.equal(validate({}), false, label);
    assert.equal(pwned(), undefined, `${label}: validating runs none of it`);

    const lines = sourceLines(code);
    for (const line of lines.slice(0, banner.length))
      assert.match(line, /^\/\/ /, `${label}: a banner line is a comment`);
    assert.doesNotMatch(lines[banner.length]!, /^\/\//, `${label}: the banner has ${banner.length} lines`);
    const source = ts.createSourceFile('/validate.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    assert.doesNotMatch(withoutComments(source), /__pwned/, label);
  }
});

test('a hostile $id stays in its comments: the banner and the sourceURL Ajv writes for a referenced schema', async () => {
  for (const name of HOSTILE_IDS) {
    const label = JSON.stringify(name);
    const inner = `https://site.invalid/inner/${name}`;
    const schema = {
      $id: `https://site.invalid/${name}`,
      title: name,
      type: 'object',
      properties: { a: { $ref: inner }, b: { $ref: inner } },
      required: ['a'],
      $defs: { inner: { $id: inner, type: 'object', properties: { c: { $ref: inner } } } },
    };
    const banner = validatorBanner(schema);
    const code = validatorModule(schema, { banner });
    delete (globalThis as { __pwned?: unknown }).__pwned;
    const { validate } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      validate: (v: unknown) => boolean;
    };
    assert.equal(validate({ a: { c: {} } }), true, label);
    assert.equal(validate({ a: 1 }), false, label);
    assert.equal(pwned(), undefined, `${label}: nothing of it ran`);

    for (const line of sourceLines(code).slice(0, banner.length)) assert.match(line, /^\/\/ /, label);
    const source = ts.createSourceFile('/validate.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    assert.doesNotMatch(withoutComments(source), /__pwned/, label);
  }
});

test('a banner line with a line break is refused rather than written', () => {
  assert.throws(
    () => validatorModule({ type: 'string' }, { banner: ['a\nglobalThis.__pwned=1'] }),
    /breaks its \/\/ comment/,
  );
  assert.throws(
    () => validatorModule({ type: 'string' }, { banner: ['a\u2028globalThis.__pwned=1'] }),
    /breaks its \/\/ comment/,
  );
});

test('a hostile tool name stays inside the JSDoc banner of input.d.ts', async () => {
  const post = site.tools.find((t) => t.agent === 'codex' && t.slug === 'collaboration.post')!;
  const texts = new Map<string, string>();
  for (const name of HOSTILE_NAMES) {
    const label = JSON.stringify(name);
    const text = (await toolExportFiles({ ...post, fullName: name }, ORIGIN)).get('input.d.ts')!;
    const lines = sourceLines(text);
    const end = lines.indexOf(' */');
    assert.equal(lines[0], '/**', label);
    assert.equal(end, 4, `${label}: three banner lines`);
    for (const line of lines.slice(1, end)) assert.match(line, /^ \* /, `${label}: every banner line is a JSDoc line`);
    texts.set(label, text);
  }
  assertOnlyDeclarations(texts);
});

test('hostile descriptions and the generator’s own keywords put nothing outside a comment of a declaration', async () => {
  const texts = new Map<string, string>();
  for (const name of HOSTILE_NAMES) {
    const label = JSON.stringify(name);
    const text = await declarationFromSchema(
      {
        description: name,
        type: 'object',
        properties: {
          described: { type: 'string', description: name },
          list: { type: 'array', items: { type: 'string', description: name }, description: name },
          either: { anyOf: [{ type: 'string', description: name }, { type: 'number' }] },
          referenced: { $ref: '#/$defs/shared' },
          // json-schema-to-typescript writes `tsType` as raw TypeScript.
          raw: { tsType: 'string }\nexport declare const __pwned: 11;\ninterface Q {' },
          viaRef: { $ref: '#/x-raw' },
          named: { enum: ['a', 'b'], tsEnumNames: ['A', 'B = (globalThis.__pwned = 11)'] },
          // A property that is only called tsType is kept.
          tsType: { type: 'string' },
        },
        $defs: {
          shared: {
            type: 'object',
            title: name,
            description: name,
            properties: { x: { type: 'string', description: name } },
          },
        },
        'x-raw': { tsType: ['number; export declare const __pwned: 11; type R = 1'] },
      },
      'HostileInput',
      ['banner'],
    );
    assert.match(text, /tsType\?: string;/, label);
    texts.set(label, text);
  }
  assertOnlyDeclarations(texts);
});

test('fields named like Object.prototype members (hasOwnProperty, constructor, toString, __proto__) are declared under their own names, required ones required', async () => {
  // Parsed, as content is: an object literal's `__proto__` would set the prototype instead of a key.
  const schema = JSON.parse(`{
    "type": "object",
    "properties": {
      "hasOwnProperty": { "type": "string" },
      "constructor": { "type": "object", "properties": { "toString": { "type": "number" } }, "required": ["toString"] },
      "valueOf": { "type": "boolean" },
      "__proto__": { "type": "integer" },
      "plain": { "type": "string" }
    },
    "required": ["hasOwnProperty", "plain"],
    "additionalProperties": false
  }`) as Parameters<typeof declarationFromSchema>[0];
  const text = await declarationFromSchema(schema, 'ShadowInput', ['test']);
  assert.doesNotMatch(text, /__shadowedKey/);
  // Compared with what the schema says, read independently of the generator's layout.
  const fields = [...text.matchAll(/^\s*(\w+)(\??): ([^;{]+|\{)/gm)].map((m) => `${m[1]}${m[2]}: ${m[3]!.trim()}`);
  assert.deepEqual(
    fields,
    [
      'hasOwnProperty: string',
      'constructor?: {',
      'toString: number',
      'valueOf?: boolean',
      '__proto__?: number',
      'plain: string',
    ],
    text,
  );
});
