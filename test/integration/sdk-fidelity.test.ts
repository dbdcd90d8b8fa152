/**
 * Every generated Claude Code tool's field table matches the pinned
 * sdk-tools.d.ts field for field. The expected fields come from the TypeScript
 * type checker over the published file, independently of the AST walker that
 * produced the tables.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import ts from 'typescript';
import type { FieldRow } from '../../src/lib/shapes/field-rows.ts';
import { pinnedSdkDir } from '../helpers/pinned-sdk.ts';
import { realContent } from '../helpers/real-content.ts';

let checker: ts.TypeChecker;
let sourceFile: ts.SourceFile;

before(() => {
  const file = join(pinnedSdkDir(), 'sdk-tools.d.ts');
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true });
  checker = program.getTypeChecker();
  sourceFile = program.getSourceFile(file)!;
});

function declaredType(name: string): ts.Type {
  for (const statement of sourceFile.statements) {
    if (
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      statement.name.text === name
    ) {
      return checker.getTypeAtLocation(statement.name);
    }
  }
  throw new Error(`${name} is not declared in the pinned sdk-tools.d.ts`);
}

/** `path|required`, `path|optional` and `path.*|map` for every field the checker sees. */
function checkerFields(type: ts.Type, prefix: string, out: Set<string>, stack: ts.Type[] = []): void {
  if (stack.includes(type)) return;
  const inner = [...stack, type];
  if (type.isUnion()) {
    for (const part of type.types) checkerFields(part, prefix, out, inner);
    return;
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const element of checker.getTypeArguments(type as ts.TypeReference))
      checkerFields(element, prefix, out, inner);
    return;
  }
  if (!(type.flags & ts.TypeFlags.Object)) return;
  for (const prop of checker.getPropertiesOfType(type)) {
    const path = prefix ? `${prefix}.${prop.name}` : prop.name;
    out.add(`${path}|${prop.flags & ts.SymbolFlags.Optional ? 'optional' : 'required'}`);
    checkerFields(checker.getNonNullableType(checker.getTypeOfSymbol(prop)), path, out, inner);
  }
  const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  if (index) {
    const path = prefix ? `${prefix}.*` : '*';
    out.add(`${path}|map`);
    checkerFields(index.type, path, out, inner);
  }
}

/** The same facts read off the rows the site renders. */
function rowFields(rows: FieldRow[]): Set<string> {
  const out = new Set<string>();
  for (const row of rows) {
    if (row.role !== 'property' && row.role !== 'map-value') continue;
    const path = row.fieldKey;
    out.add(`${path}|${row.role === 'map-value' ? 'map' : row.required ? 'required' : 'optional'}`);
  }
  return out;
}

test('every Claude Code tool in the pinned SDK has a page', () => {
  const site = realContent();
  const typeNames = new Set(
    site.tools
      .filter((t) => t.agent === 'claude-code')
      .flatMap((t) => [t.input, t.output])
      .map((v) => (v.definition.kind === 'typescript' ? v.definition.typeName : '')),
  );
  const union = declaredType('ToolInputSchemas') as ts.UnionType;
  const declared = union.types
    .map((t) => (t.aliasSymbol ?? t.symbol)?.name)
    .filter((n): n is string => Boolean(n) && n!.endsWith('Input'));
  assert.ok(declared.length >= 40, `only ${declared.length} input types found`);
  assert.deepEqual(
    declared.filter((n) => !typeNames.has(n)),
    [],
  );
});

test('each generated tool matches its SDK type field for field', () => {
  const site = realContent();
  let compared = 0;
  for (const tool of site.tools.filter((t) => t.agent === 'claude-code')) {
    for (const [view, root] of [
      [tool.input, 'input'],
      [tool.output, 'output'],
    ] as const) {
      if (view.definition.kind !== 'typescript') continue;
      const expected = new Set<string>();
      checkerFields(declaredType(view.definition.typeName), '', expected);
      const actual = rowFields(view.rows);
      const missing = [...expected].filter((f) => !actual.has(f));
      const extra = [...actual].filter((f) => !expected.has(f));
      assert.deepEqual(
        { missing, extra },
        { missing: [], extra: [] },
        `${tool.fullName} ${root} (${view.definition.typeName})`,
      );
      compared += expected.size;
    }
  }
  assert.ok(compared > 500, `only ${compared} fields compared`);
});
