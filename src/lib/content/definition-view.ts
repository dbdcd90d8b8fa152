/**
 * A definition as a page shows it: the field rows derived from it and the text
 * of the full definition. JSON Schemas are compiled with Ajv first. A problem is
 * reported with the JSON pointer of the exact place in the content file (the
 * definition's own pointer plus the place inside it) instead of stopping at the
 * first one.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { fieldRows } from '../shapes/field-rows.ts';
import { shapeFromJsonSchema } from '../shapes/json-schema-shape.ts';
import { shapeFromTypeScript } from '../shapes/ts-shape.ts';
import type { Definition } from '../core/content-types.ts';
import { DefinitionShapeError } from '../shapes/shape.ts';
import type { DefinitionView } from '../model/model.ts';
import type { Problems } from './problems.ts';
import { jsonPointer, pointerToken } from '../core/json.ts';
import { compileDefinition } from '../check/definition-ajv.ts';

export interface DefinitionPlace {
  /** Content file, relative to the project root. */
  file: string;
  /**
   * JSON pointer, in that file, of the definition's body: the JSON Schema
   * object itself, or the TypeScript declaration text.
   */
  pointer: string;
  /** The tool's name, for files that hold many tools (captures). */
  tool?: string;
}

/**
 * Schema objects each Ajv instance compiled without error since its last
 * failure: the loader checks the same object more than once (every distinct
 * configuration's schema, then the one a page shows), and one that compiled
 * compiles again. A failure can leave a schema registered in the instance (its
 * `$id` taken), so it forgets them all and later schemas are compiled again.
 */
const compiledBy = new WeakMap<Ajv2020, WeakSet<object>>();

/** Ajv compiles `schema` (or throws), leaving the instance as it was for the next schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * The pointer (inside the schema) of the first `$id` the schema declares, at its root or in a
 * subschema (data values and property names are not looked into), or undefined. A published
 * schema's `$id` is its versioned URL: one of its own would be replaced (changing what its
 * references resolve to) or published as it is (a `javascript:` URL in an export file).
 */
export function ownIdPointer(schema: unknown): string | undefined {
  const stack: { node: unknown; pointer: string }[] = [{ node: schema, pointer: '' }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push({ node: item, pointer: `${pointer}/${i}` }));
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (Object.hasOwn(node, '$id')) return `${pointer}/$id`;
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [name, sub] of Object.entries(value))
          stack.push({ node: sub, pointer: `${pointer}/${pointerToken(key)}/${pointerToken(name)}` });
      } else {
        stack.push({ node: value, pointer: `${pointer}/${pointerToken(key)}` });
      }
    }
  }
  return undefined;
}

function checkCompiles(ajv: Ajv2020, schema: object): void {
  const compiled = compiledBy.get(ajv) ?? new WeakSet<object>();
  if (compiled.has(schema)) return;
  try {
    compileDefinition(ajv, schema);
  } catch (error) {
    compiledBy.delete(ajv);
    throw error;
  }
  compiled.add(schema);
  compiledBy.set(ajv, compiled);
}

/**
 * The first key of a JSON Schema (at any depth) that a URL, an anchor or a JSON pointer cannot
 * carry: a lone surrogate (not well-formed UTF-16: percent-encoding fails, Ajv says only "URI
 * malformed") or a control character (U+0000 to U+001F). Its pointer is relative to the schema,
 * with such characters written as `\uXXXX` so that the message prints them.
 */
export function unwritableKey(schema: unknown, at = ''): { pointer: string; key: string; why: string } | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const shown = (key: string) =>
    key.replace(/[\u0000-\u001f]|[\ud800-\udfff]/g, (c) =>
      key.isWellFormed() && c >= '\ud800' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  for (const [key, value] of Object.entries(schema)) {
    const pointer = jsonPointer(at, shown(key));
    if (!key.isWellFormed()) return { pointer, key, why: 'a lone surrogate (half of a UTF-16 pair)' };
    const control = /[\u0000-\u001f]/.exec(key);
    if (control)
      return {
        pointer,
        key,
        why: `the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
      };
    const inner = unwritableKey(value, pointer);
    if (inner) return inner;
  }
  return undefined;
}

export function definitionView(
  definition: Definition,
  root: 'input' | 'output' | 'model-input',
  place: DefinitionPlace,
  problems: Problems,
  ajv: Ajv2020,
): DefinitionView {
  switch (definition.kind) {
    case 'typescript':
      try {
        return {
          definition,
          rows: fieldRows(
            shapeFromTypeScript(definition.source, definition.typeName, `${place.file}#${place.pointer}`),
            { root },
          ),
          code: { lang: 'ts', text: definition.source },
        };
      } catch (error) {
        return refused(definition, place, problems, error, {
          rule: 'definition-readable',
          what: 'the TypeScript declaration cannot be read',
        });
      }
    case 'json-schema':
      return jsonSchemaView(definition, root, place, problems, ajv);
    case 'grammar':
      return { definition, rows: [], code: { lang: 'text', text: definition.definition } };
    case 'unavailable':
      return { definition, rows: [] };
  }
}

/** The text before every message about a definition: the tool it is of, in files that hold many tools. */
function toolPrefix(place: DefinitionPlace): string {
  return place.tool ? `tool ${place.tool}: ` : '';
}

/**
 * A definition that could not be read, compiled or turned into rows: reported, and shown without rows. A shape
 * builder's error knows where inside the definition it is and which rule it breaks; any other is reported under `rule`.
 */
function refused(
  definition: Definition,
  place: DefinitionPlace,
  problems: Problems,
  error: unknown,
  { rule, what }: { rule: string; what: string },
): DefinitionView {
  const prefix = toolPrefix(place);
  if (error instanceof DefinitionShapeError)
    problems.error(place.file, place.pointer + error.pointer, error.rule, prefix + error.message);
  else problems.error(place.file, place.pointer, rule, `${prefix}${what}: ${(error as Error).message}`);
  return { definition, rows: [], broken: error instanceof DefinitionShapeError ? error.rule : rule };
}

/** A JSON Schema's view: refused when its keys cannot be published, compiled, then turned into rows. */
function jsonSchemaView(
  definition: Extract<Definition, { kind: 'json-schema' }>,
  root: 'input' | 'output' | 'model-input',
  place: DefinitionPlace,
  problems: Problems,
  ajv: Ajv2020,
): DefinitionView {
  const refusal = unpublishableSchema(definition.schema, place, problems);
  if (refusal !== undefined) return { definition, rows: [], broken: refusal };
  try {
    checkCompiles(ajv, definition.schema);
  } catch (error) {
    return refused(definition, place, problems, error, {
      rule: 'definition-compiles',
      what: 'Ajv cannot compile this JSON Schema',
    });
  }
  try {
    return {
      definition,
      rows: fieldRows(shapeFromJsonSchema(definition.schema), { root }),
      code: { lang: 'json', text: JSON.stringify(definition.schema, null, 2) },
    };
  } catch (error) {
    return refused(definition, place, problems, error, {
      rule: 'definition-readable',
      what: 'the JSON Schema cannot be turned into field rows',
    });
  }
}

/**
 * The rule a schema breaks that keeps it off the site (reported), or undefined: a published schema's `$id` is its
 * versioned URL here, and every key must be one a URL, anchor or JSON pointer can carry.
 */
function unpublishableSchema(schema: object, place: DefinitionPlace, problems: Problems): string | undefined {
  const prefix = toolPrefix(place);
  const id = ownIdPointer(schema);
  if (id !== undefined) {
    problems.error(
      place.file,
      place.pointer + id,
      'definition-no-id',
      `${prefix}the schema declares its own $id; a published schema's $id is its versioned URL on this site, so a ` +
        `definition may not declare one`,
    );
    return 'definition-no-id';
  }
  const unwritable = unwritableKey(schema);
  if (unwritable !== undefined) {
    problems.error(
      place.file,
      place.pointer + unwritable.pointer,
      'definition-keys-writable',
      `${prefix}the key ${JSON.stringify(unwritable.key)} holds ${unwritable.why}, which no URL, anchor or JSON ` +
        `pointer can carry: the field could not be linked to, so the definition is refused`,
    );
    return 'definition-keys-writable';
  }
  return undefined;
}
