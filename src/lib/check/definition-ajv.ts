/**
 * The Ajv instance that compiles the schemas the CLIs send their models (lenient: upstream schemas are not ours to
 * fix).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import draft07MetaSchema from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };

/** Instances made by definitionAjv: one configuration, so a schema compiles alike in any of them. */
const made = new WeakSet<Ajv2020>();

/**
 * Functions compiled by such instances, by the schema's JSON text. A process loads content many times over the same
 * definitions (a refresh's every check, the tests' fixture and real loads), each load with an instance of its own;
 * compiling them again was seconds of each.
 */
const compiledByText = new Map<string, ValidateFunction>();

export function definitionAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  // Some CLIs declare their tools' schemas as draft-07 (Gemini CLI's activate_skill): compile them too.
  ajv.addMetaSchema(draft07MetaSchema);
  made.add(ajv);
  return ajv;
}

/**
 * `schema` compiled by `ajv` (or Ajv's error, thrown), the instance left without it: the same schema (or `$id`) may
 * come again. From an instance of definitionAjv, the function an earlier one compiled for the same text is returned
 * instead: it is the function this one would compile (each is removed from its instance after compiling, so none
 * refers to another). An error is never kept: the schema is compiled, and fails, again.
 */
export function compileDefinition(ajv: Ajv2020, schema: object): ValidateFunction {
  const text = made.has(ajv) ? JSON.stringify(schema) : undefined;
  const known = text === undefined ? undefined : compiledByText.get(text);
  if (known) return known;
  const validate = ajv.compile(schema);
  ajv.removeSchema(schema);
  if (text !== undefined) compiledByText.set(text, validate);
  return validate;
}
