/**
 * A definition as a page shows it: the field rows derived from it and the text
 * of the full definition. JSON Schemas are compiled with Ajv first; a problem is
 * recorded as a ContentError instead of stopping at the first one.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ContentError } from './content-errors.ts';
import { fieldRows, type FieldRow } from './field-rows.ts';
import { shapeFromJsonSchema } from './json-schema-shape.ts';
import { shapeFromTypeScript } from './ts-shape.ts';
import type { Definition } from './content-types.ts';

export interface DefinitionView {
  definition: Definition;
  rows: FieldRow[];
  /** The definition as text for the highlighted block, with its language. */
  code?: { lang: string; text: string };
}

export function definitionView(
  definition: Definition,
  root: 'input' | 'output' | 'model-input',
  file: string,
  pointer: string,
  errors: ContentError[],
  ajv: Ajv2020,
): DefinitionView {
  try {
    switch (definition.kind) {
      case 'typescript':
        return {
          definition,
          rows: fieldRows(shapeFromTypeScript(definition.source, definition.typeName, `${file}#${pointer}/source`), { root }),
          code: { lang: 'ts', text: definition.source },
        };
      case 'json-schema': {
        try {
          ajv.compile(definition.schema);
        } catch (error) {
          errors.push(new ContentError(file, `${pointer}/schema`, 'definition-compiles', `Ajv cannot compile this JSON Schema: ${(error as Error).message}`));
          return { definition, rows: [] };
        }
        return {
          definition,
          rows: fieldRows(shapeFromJsonSchema(definition.schema), { root }),
          code: { lang: 'json', text: JSON.stringify(definition.schema, null, 2) },
        };
      }
      case 'grammar':
        return { definition, rows: [], code: { lang: 'text', text: definition.definition } };
      case 'unavailable':
        return { definition, rows: [] };
    }
  } catch (error) {
    errors.push(new ContentError(file, pointer, 'definition-readable', (error as Error).message));
    return { definition, rows: [] };
  }
}
