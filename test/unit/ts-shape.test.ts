import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  declarationClosure,
  parseDeclarations,
  shapeFromTypeScript,
  TypeScriptDefinitionError,
} from '../../src/lib/shapes/ts-shape.ts';
import { duplicateIds, fieldRows, type FieldRow } from '../../src/lib/shapes/field-rows.ts';

const rowsOf = (source: string, type: string): FieldRow[] =>
  fieldRows(shapeFromTypeScript(source, type), { root: 'input' });
const brief = (rows: FieldRow[]) => rows.map((r) => [r.id, r.label, r.type, r.required]);

test("interface B extends A lists A's members first; a redeclared member replaces A's in place and keeps its JSDoc", () => {
  const source = `
    interface A {
      a: string;
      /** How many */
      b?: number;
    }
    interface B extends A {
      c: boolean;
      b: number;
    }`;
  const rows = rowsOf(source, 'B');
  assert.deepEqual(brief(rows), [
    ['input.a', 'a', 'string', true],
    ['input.b', 'b', 'number', true],
    ['input.c', 'c', 'boolean', true],
  ]);
  assert.equal(rows[1]!.description, 'How many');
});

test('extends several interfaces, and their index signatures', () => {
  const source = `
    interface A { a: string }
    interface M { [name: string]: unknown }
    export interface N extends A, M { n?: number }`;
  assert.deepEqual(brief(rowsOf(source, 'N')), [
    ['input.a', 'a', 'string', true],
    ['input.n', 'n', 'number', false],
    ['input.*', '[name: string]', 'unknown', false],
  ]);
});

test('extends what the definition cannot expand fails with the reason', () => {
  const fails = (source: string, message: RegExp) =>
    assert.throws(
      () => shapeFromTypeScript(source, 'B'),
      (e: unknown) => e instanceof TypeScriptDefinitionError && message.test(e.message),
    );
  fails('interface B extends Missing { a: string }', /B: extends Missing, which is not declared in the definition/);
  fails(
    'interface A<T> { a: T }\ninterface B extends A<string> { b: string }',
    /B: extends the generic type A<…>, which is not supported/,
  );
  fails('interface B extends ns.A { a: string }', /B: extends ns\.A, which is not a type declared/);
  fails('type A = string;\ninterface B extends A { a: string }', /B: extends A, which is not an object type/);
});

test('an intersection merges members of the same name: required if either part requires them, objects member by member', () => {
  const source = `
    interface B {
      /** From B */
      a: string;
      o: { p: string };
      opt?: number;
    }
    type C = B & { a: "x"; o: { q?: number }; opt: number; extra?: boolean };`;
  const rows = rowsOf(source, 'C');
  assert.deepEqual(
    rows.map((r) => [r.id, r.type, r.required, r.literals]),
    [
      ['input.a', '"x"', true, ['x']],
      ['input.o', 'object', true, undefined],
      ['input.o.p', 'string', true, undefined],
      ['input.o.q', 'number', false, undefined],
      ['input.opt', 'number', true, undefined],
      ['input.extra', 'boolean', false, undefined],
    ],
  );
  assert.equal(rows[0]!.description, 'From B', "the first part's JSDoc is kept");
  assert.deepEqual(duplicateIds(rows), []);
});

test('an intersection whose members have no value in common fails and says which member', () => {
  assert.throws(
    () => shapeFromTypeScript('interface B { a: string }\ntype C = B & { a: number };', 'C'),
    (e: unknown) =>
      e instanceof TypeScriptDefinitionError &&
      /^C: the intersection B & \{ a: number \} cannot be merged: a cannot be both string and number$/.test(e.message),
  );
});

test('an intersection with {} adds nothing; one with a union is distributed', () => {
  assert.deepEqual(brief(rowsOf('type S = { s: string & {} };', 'S')), [['input.s', 's', 'string', true]]);
  const rows = rowsOf('type U = ({ k: "a"; a: string } | { k: "b"; b: number }) & { common: boolean };', 'U');
  assert.deepEqual(brief(rows), [
    ['input:a', 'k: "a"', 'object', null],
    ['input:a.k', 'k', '"a"', true],
    ['input:a.a', 'a', 'string', true],
    ['input:a.common', 'common', 'boolean', true],
    ['input:b', 'k: "b"', 'object', null],
    ['input:b.k', 'k', '"b"', true],
    ['input:b.b', 'b', 'number', true],
    ['input:b.common', 'common', 'boolean', true],
  ]);
});

test('a tuple inside a union lists its positions instead of an empty variant header', () => {
  const rows = rowsOf('type U = { a: string } | [{ x: string }, number];', 'U');
  assert.deepEqual(
    rows.map((r) => [r.id, r.path, r.label, r.role, r.type, r.required]),
    [
      ['input:1', '(with a)', 'with a', 'variant', 'object', null],
      ['input:1.a', '(with a).a', 'a', 'property', 'string', true],
      ['input:2', '([object, number])', '[object, number]', 'variant', '[object, number]', null],
      ['input:2@0', '([object, number])[0]', '[0]', 'position', 'object', true],
      ['input:2@0.x', '([object, number])[0].x', '.x', 'property', 'string', true],
      ['input:2@1', '([object, number])[1]', '[1]', 'position', 'number', true],
    ],
  );
});

test('a tuple property lists its positions', () => {
  assert.deepEqual(brief(rowsOf('interface R { range: [number, string] }', 'R')), [
    ['input.range', 'range', '[number, string]', true],
    ['input.range@0', '[0]', 'number', true],
    ['input.range@1', '[1]', 'string', true],
  ]);
});

test('discriminators "1" and 1 give different variant ids', () => {
  const rows = rowsOf('type U = { k: "1"; a: string } | { k: 1; b: string };', 'U');
  assert.deepEqual(
    rows.map((r) => r.id),
    ['input:1', 'input:1.k', 'input:1.a', 'input:!1', 'input:!1.k', 'input:!1.b'],
  );
  assert.deepEqual(duplicateIds(rows), []);
});

test('the declarations a type needs include the interfaces it extends', () => {
  const parsed = parseDeclarations(
    'interface Unused { u: string }\ninterface Base { b: Meta }\ntype Meta = { m: number };\ninterface T extends Base { t: string }',
  );
  assert.deepEqual(declarationClosure(parsed, 'T'), ['Base', 'Meta', 'T']);
});
