/**
 * Ajv as the scripts use it for the project's schemas: the content loader's (src/lib/content/read.ts), with the shared
 * schemas of this checkout.
 */
import { join } from 'node:path';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { contentAjv, sharedSchemas } from '../../../src/lib/content/read.ts';

const ROOT = join(import.meta.dirname, '../../..');

export function schemaAjv(): Ajv2020 {
  return contentAjv(sharedSchemas(ROOT).values());
}

/**
 * The one wording of a value a schema refused, for every script: `<what> does not
 * match <schema>:` then one line per error, `  /pointer: message (schema path)`
 * (`/` for the whole value); past `max` errors, how many more there were.
 */
export function schemaRefusal(
  what: string,
  schema: string,
  errors: readonly ErrorObject[] | null | undefined,
  max = 20,
): string {
  const all = errors ?? [];
  const lines = all
    .slice(0, max)
    .map((e) => `  ${e.instancePath || '/'}: ${e.message ?? 'is invalid'} (${e.schemaPath})`);
  if (all.length > max) lines.push(`  … and ${all.length - max} more`);
  return `${what} does not match ${schema}:\n${lines.join('\n')}`;
}
