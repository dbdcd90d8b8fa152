/**
 * JSON Schema (draft 2020-12) of a tool's input or result, as published beside
 * its page (`/claude-code/bash/input.schema.json`).
 *
 * - A `json-schema` definition is published as it was captured; only a schema
 *   that declares an older draft is rewritten to 2020-12 (`definitions` →
 *   `$defs`, array-form `items` → `prefixItems`, `dependencies` split).
 * - A `typescript` definition is converted by ts-json-schema-generator over an
 *   in-memory program holding only the declaration text (no file is read): JSDoc
 *   becomes `description`, `@default`/`@minItems`… become keywords, and `//`
 *   comments above a member (how Codex's code-mode declarations document fields)
 *   are read as its documentation, as the tool page reads them. An object type
 *   without an index signature keeps TypeScript's meaning: other keys are not
 *   forbidden, so no `additionalProperties: false` is added.
 * - `grammar` and `unavailable` definitions have no JSON Schema.
 *
 * Pure: text in, objects out.
 */
import ts from 'typescript';
import { createGenerator } from 'ts-json-schema-generator';
import type { Definition } from '../core/content-types.ts';
import { isObject, keptCopy } from '../core/json.ts';
import type { JsonRecord } from '../core/json.ts';

export const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** A JSON Schema as this module writes it: a JSON object. */
export type JsonSchema = JsonRecord;

export class SchemaConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaConversionError';
  }
}

/** Drafts before 2019-09, whose `items`, `definitions` and `dependencies` mean what 2020-12 spells otherwise. */
const OLD_DRAFT = /^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/;

// Where subschemas sit in a schema object (2020-12 and the older spellings).
const SINGLE = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * Rewrites a draft-04…07 schema in 2020-12 terms, subschema by subschema:
 * `definitions` → `$defs` (and `#/definitions/…` references with it), `items: [..]`
 * → `prefixItems` (its `additionalItems` becoming `items`), `dependencies` →
 * `dependentRequired` / `dependentSchemas`. `$schema` is dropped; keyword order
 * is kept. Values that are data (`enum`, `const`, `default`, `examples`) are
 * never walked.
 */
export function toDraft2020(schema: JsonSchema): JsonSchema {
  const convert = (node: unknown): unknown => {
    if (!isObject(node)) return node;
    const out: JsonSchema = {};
    const tuple = Array.isArray(node.items);
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema') continue;
      if (key === '$ref' && typeof value === 'string') {
        out.$ref = value.replace(/^#\/definitions(?=\/|$)/, '#/$defs');
      } else if (key === 'definitions' && isObject(value) && !('$defs' in node)) {
        out.$defs = mapValues(value, convert);
      } else if (key === 'items') {
        if (tuple) out.prefixItems = (value as unknown[]).map(convert);
        else out.items = convert(value);
      } else if (key === 'additionalItems') {
        // Without array-form items, additionalItems never applied.
        if (tuple) out.items = convert(value);
      } else if (key === 'dependencies' && isObject(value)) {
        const required: Record<string, unknown> = {};
        const schemas: Record<string, unknown> = {};
        for (const [name, dep] of Object.entries(value)) {
          if (Array.isArray(dep)) required[name] = dep;
          else schemas[name] = convert(dep);
        }
        if (Object.keys(required).length > 0) out.dependentRequired = required;
        if (Object.keys(schemas).length > 0) out.dependentSchemas = schemas;
      } else if (SINGLE.includes(key)) {
        out[key] = convert(value);
      } else if (LISTS.includes(key) && Array.isArray(value)) {
        out[key] = value.map(convert);
      } else if (MAPS.includes(key) && isObject(value)) {
        out[key] = mapValues(value, convert);
      } else {
        out[key] = value;
      }
    }
    return out;
  };
  return convert(schema) as JsonSchema;
}

function mapValues(map: JsonSchema, f: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, f(v)]));
}

/** The captured schema in 2020-12 terms: as it is, unless it declares an older draft. */
export function capturedSchema2020(schema: JsonSchema): JsonSchema {
  if (typeof schema.$schema === 'string' && OLD_DRAFT.test(schema.$schema)) return toDraft2020(schema);
  const { $schema: _schema, ...rest } = schema;
  return rest;
}

/**
 * The declaration text with every `//` comment block that stands directly
 * above a member or declaration without JSDoc turned into a JSDoc comment,
 * so that the generator reads it as documentation (ts-shape.ts does the same).
 */
export function lineCommentsAsJsDoc(source: string): string {
  const file = ts.createSourceFile('definition.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    const documented =
      ts.isPropertySignature(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isIndexSignatureDeclaration(node);
    if (documented && ((node as { jsDoc?: unknown[] }).jsDoc ?? []).length === 0) {
      const ranges = (ts.getLeadingCommentRanges(source, node.getFullStart()) ?? []).filter(
        (r) => r.kind === ts.SyntaxKind.SingleLineCommentTrivia,
      );
      if (ranges.length > 0) {
        const lines = ranges.map((r) =>
          source
            .slice(r.pos + 2, r.end)
            .trim()
            .replace(/\*\//g, '*\\/'),
        );
        edits.push({
          start: ranges[0]!.pos,
          end: ranges[ranges.length - 1]!.end,
          text: `/**\n${lines.map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = source;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

const FILE_NAME = '/definition.ts';

/**
 * Property names the schema generator cannot carry through: `__proto__` (assigned as a key
 * of a plain object, it becomes the prototype and the field vanishes) and quoted names with
 * escapes (`"evil\nname"` comes out as the source text, backslash included). Each is
 * renamed in the source to a placeholder identifier; `restoreKeys` puts the exact name back.
 */
export function placeholderKeys(source: string): { text: string; names: Map<string, string> } {
  const file = ts.createSourceFile('definition.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number; text: string }[] = [];
  const names = new Map<string, string>();
  let n = 0;
  const placeholder = (): string => {
    let name: string;
    do name = `__exported_key_${n++}__`;
    while (source.includes(name));
    return name;
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertySignature(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isNoSubstitutionTemplateLiteral(node.name))
    ) {
      const value = node.name.text;
      const raw = node.name.getText(file);
      const quoted = ts.isStringLiteral(node.name) || ts.isNoSubstitutionTemplateLiteral(node.name);
      if (value === '__proto__' || (quoted && raw.slice(1, -1) !== value)) {
        const name = placeholder();
        names.set(name, value);
        edits.push({ start: node.name.getStart(file), end: node.name.getEnd(), text: name });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let text = source;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return { text, names };
}

/**
 * `schema` with every placeholder of `names` (in `properties` keys, `required` and `dependentRequired`) back to its
 * exact name.
 */
export function restoreKeys(schema: JsonSchema, names: ReadonlyMap<string, string>): JsonSchema {
  if (names.size === 0) return schema;
  const name = (key: string): string => names.get(key) ?? key;
  const walk = (value: unknown, parentKey?: string): unknown => {
    if (Array.isArray(value))
      return parentKey === 'required'
        ? value.map((v) => (typeof v === 'string' ? name(v) : v))
        : value.map((v) => walk(v));
    if (!isObject(value)) return value;
    // Object.fromEntries defines keys (a `__proto__` key stays a key).
    if (parentKey === 'properties' || parentKey === 'dependentRequired' || parentKey === 'dependentSchemas') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          name(k),
          parentKey === 'dependentRequired' ? walk(v, 'required') : walk(v),
        ]),
      );
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
  };
  return walk(schema) as JsonSchema;
}

/**
 * JSON Schema 2020-12 (without `$schema`) of the type `typeName` declared in
 * `source`, which must hold every declaration it refers to.
 */
export function schemaFromTypeScript(source: string, typeName: string): JsonSchema {
  return keptCopy(converted, `${typeName}\n${source}`, () => convertTypeScript(source, typeName));
}

const SLOT = Symbol.for('agent-tool-reference.typescript-schemas');
/**
 * Schemas already converted from TypeScript in this process, as JSON text by type name and source. A build asks for
 * the same one up to five times (the content load, a validator route's paths and module, a tool's schema file and
 * its declaration), each a TypeScript program of its own; on globalThis, since the load and the pages evaluate this
 * module apart.
 */
const converted: Map<string, string> = ((globalThis as { [SLOT]?: Map<string, string> })[SLOT] ??= new Map());

function convertTypeScript(source: string, typeName: string): JsonSchema {
  const keys = placeholderKeys(lineCommentsAsJsDoc(source));
  const text = keys.text;
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    noLib: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
  };
  const sourceFile = ts.createSourceFile(FILE_NAME, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (name) => (name === FILE_NAME ? sourceFile : undefined);
  host.fileExists = (name) => name === FILE_NAME;
  host.readFile = (name) => (name === FILE_NAME ? text : undefined);
  host.writeFile = () => {};
  const program = ts.createProgram({ rootNames: [FILE_NAME], options, host });
  const root = sourceFile.statements.find(
    (s): s is ts.InterfaceDeclaration | ts.TypeAliasDeclaration =>
      (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === typeName,
  );
  if (!root) throw new SchemaConversionError(`type ${typeName} is not declared in the definition`);
  // Declarations need not be exported: the root is found here.
  const generate = (expose: 'none' | 'all'): JsonSchema => {
    const generator = createGenerator({
      tsProgram: program,
      expose,
      topRef: false,
      jsDoc: 'extended',
      sortProps: false,
      additionalProperties: true,
      skipTypeCheck: true,
      functions: 'fail',
    });
    try {
      return generator.createSchemaFromNodes([root]) as JsonSchema;
    } catch (error) {
      throw new SchemaConversionError(`type ${typeName}: ${(error as Error).message}`);
    }
  };
  // Every type inlined, so that each field's schema stands on its own; only a
  // recursive type needs a definition to refer to, and then the named types
  // become definitions under their own names (inlined, they would get made-up ones).
  let schema = generate('none');
  if (Object.keys((schema.definitions ?? {}) as object).length > 0) schema = generate('all');
  const { definitions, ...rest } = schema;
  const hasDefinitions = Object.keys((definitions ?? {}) as object).length > 0;
  return restoreKeys(simplify(toDraft2020(hasDefinitions ? schema : rest)), keys.names);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The element schema and length of an array schema of exactly n equal elements, with nothing else said. */
function fixedRun(variant: unknown): { item: unknown; length: number } | undefined {
  if (!isObject(variant) || variant.type !== 'array') return undefined;
  const { type: _t, minItems, maxItems, prefixItems, items, ...rest } = variant;
  if (Object.keys(rest).length > 0 || typeof minItems !== 'number' || minItems !== maxItems || minItems < 1)
    return undefined;
  if (Array.isArray(prefixItems)) {
    if (prefixItems.length !== minItems || !prefixItems.every((p) => same(p, prefixItems[0]))) return undefined;
    if (items !== undefined && !same(items, prefixItems[0])) return undefined;
    return { item: prefixItems[0], length: minItems };
  }
  return isObject(items) ? { item: items, length: minItems } : undefined;
}

/**
 * Folds back two spellings json-schema-to-typescript gives array bounds in the
 * SDK's declarations, as the field table reads the TypeScript (ts-shape.ts):
 * `[T, ...T[]]` (`prefixItems: [T], items: T`) is an array of T with
 * `minItems`, and `[T] | [T, T] | [T, T, T]` (an anyOf of fixed-length tuples
 * of one element type, lengths consecutive) is an array of T with `minItems`
 * and `maxItems`. Both say exactly what they said before.
 */
function simplify(node: unknown): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isObject(value)) return value;
    const out = mapValues(value, walk);
    const prefix = out.prefixItems;
    if (Array.isArray(prefix) && isObject(out.items) && prefix.every((p) => same(p, out.items))) {
      const { prefixItems: _p, ...rest } = out;
      const minItems = Math.max(prefix.length, typeof rest.minItems === 'number' ? rest.minItems : 0);
      return { ...rest, minItems };
    }
    if (Array.isArray(out.anyOf) && out.anyOf.length > 1 && out.type === undefined) {
      const runs = out.anyOf.map(fixedRun);
      if (runs.every((r) => r !== undefined && same(r.item, runs[0]!.item))) {
        const lengths = runs.map((r) => r!.length).sort((a, b) => a - b);
        if (lengths.every((l, i) => i === 0 || l === lengths[i - 1]! + 1)) {
          const { anyOf: _a, ...rest } = out;
          return {
            type: 'array',
            items: runs[0]!.item,
            ...rest,
            minItems: lengths[0],
            maxItems: lengths[lengths.length - 1],
          };
        }
      }
    }
    return out;
  };
  return walk(node) as JsonSchema;
}

/**
 * The schema body of a definition (2020-12, without `$schema`), or undefined for grammars and unavailable definitions.
 */
export function definitionSchema(definition: Definition): JsonSchema | undefined {
  switch (definition.kind) {
    case 'json-schema':
      return capturedSchema2020(definition.schema as JsonSchema);
    case 'typescript':
      return schemaFromTypeScript(definition.source, definition.typeName);
    default:
      return undefined;
  }
}

/**
 * A schema as a published file: `$schema`, `$id` and `title` first, then the
 * body. A title the definition has itself is kept. A body with an `$id` of its
 * own is refused: replacing it would change what its references resolve to.
 */
export function publishedSchema(body: JsonSchema, meta: { id: string; title: string }): JsonSchema {
  if ('$id' in body) throw new SchemaConversionError(`the schema has its own $id ${JSON.stringify(body.$id)}`);
  const { $schema: _schema, title, ...rest } = body;
  return { $schema: JSON_SCHEMA_2020, $id: meta.id, title: typeof title === 'string' ? title : meta.title, ...rest };
}
