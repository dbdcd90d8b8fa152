/** Ajv as the scripts use it for the project's schemas: the content loader's (src/lib/content/read.ts), with the shared schemas of this checkout. */
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { contentAjv, sharedSchemas } from '../../../src/lib/content/read.ts';

const ROOT = join(import.meta.dirname, '../../..');

export function schemaAjv(): Ajv2020 {
  return contentAjv(sharedSchemas(ROOT).values());
}
