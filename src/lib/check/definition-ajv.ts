/**
 * The Ajv instance that compiles the schemas the CLIs send their models (lenient: upstream schemas are not ours to
 * fix).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import draft07MetaSchema from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };

export function definitionAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  // Some CLIs declare their tools' schemas as draft-07 (Gemini CLI's activate_skill): compile them too.
  ajv.addMetaSchema(draft07MetaSchema);
  return ajv;
}
