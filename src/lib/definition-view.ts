/**
 * A definition as a page shows it: the field rows derived from it and the text
 * of the full definition. JSON Schemas are compiled with Ajv first. A problem is
 * reported with the JSON pointer of the exact place in the content file (the
 * definition's own pointer plus the place inside it) instead of stopping at the
 * first one.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { fieldRows } from './field-rows.ts';
import { shapeFromJsonSchema } from './json-schema-shape.ts';
import { shapeFromTypeScript } from './ts-shape.ts';
import type { Definition } from './content-types.ts';
import { DefinitionShapeError } from './shape.ts';
import type { DefinitionView } from './model.ts';
import type { Problems } from './content/problems.ts';

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
function checkCompiles(ajv: Ajv2020, schema: object): void {
  const compiled = compiledBy.get(ajv) ?? new WeakSet<object>();
  if (compiled.has(schema)) return;
  try {
    ajv.compile(schema);
  } catch (error) {
    compiledBy.delete(ajv);
    throw error;
  }
  ajv.removeSchema(schema); // the same schema (or $id) may come again from another configuration
  compiled.add(schema);
  compiledBy.set(ajv, compiled);
}

export function definitionView(definition: Definition, root: 'input' | 'output' | 'model-input', place: DefinitionPlace, problems: Problems, ajv: Ajv2020): DefinitionView {
  const prefix = place.tool ? `tool ${place.tool}: ` : '';
  const fail = (error: unknown, rule: string, what: string): DefinitionView => {
    // A shape builder's error knows where inside the definition it is and which rule it breaks.
    if (error instanceof DefinitionShapeError) problems.error(place.file, place.pointer + error.pointer, error.rule, prefix + error.message);
    else problems.error(place.file, place.pointer, rule, `${prefix}${what}: ${(error as Error).message}`);
    return { definition, rows: [], broken: error instanceof DefinitionShapeError ? error.rule : rule };
  };
  switch (definition.kind) {
    case 'typescript':
      try {
        return {
          definition,
          rows: fieldRows(shapeFromTypeScript(definition.source, definition.typeName, `${place.file}#${place.pointer}`), { root }),
          code: { lang: 'ts', text: definition.source },
        };
      } catch (error) {
        return fail(error, 'definition-readable', 'the TypeScript declaration cannot be read');
      }
    case 'json-schema': {
      try {
        checkCompiles(ajv, definition.schema);
      } catch (error) {
        return fail(error, 'definition-compiles', 'Ajv cannot compile this JSON Schema');
      }
      try {
        return {
          definition,
          rows: fieldRows(shapeFromJsonSchema(definition.schema), { root }),
          code: { lang: 'json', text: JSON.stringify(definition.schema, null, 2) },
        };
      } catch (error) {
        return fail(error, 'definition-readable', 'the JSON Schema cannot be turned into field rows');
      }
    }
    case 'grammar':
      return { definition, rows: [], code: { lang: 'text', text: definition.definition } };
    case 'unavailable':
      return { definition, rows: [] };
  }
}
