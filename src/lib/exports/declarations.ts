/**
 * TypeScript declarations generated from a captured JSON Schema with
 * json-schema-to-typescript, for agents that publish no types of their own
 * (`/codex/exec_command/input.d.ts`). Pure: schema in, text out.
 */
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import type { JsonSchema } from './json-schema.ts';

/** `exec_command` → `ExecCommandInput`, `collaboration.post` → `CollaborationPostInput`. */
export function declarationTypeName(fullName: string, suffix = 'Input'): string {
  const words = fullName.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? `${name}${suffix}` : `Tool${name}${suffix}`;
}

/** A block comment whose text cannot end it early. */
function blockComment(lines: string[]): string {
  return ['/**', ...lines.map((l) => ` * ${l.replace(/\*\//g, '*\\/')}`.trimEnd()), ' */'].join('\n');
}

/**
 * The declaration of `typeName` (exported, with every type it needs) for the
 * value the schema describes. The schema's own root `title` and `$id` do not
 * name the type: `typeName` does. Objects that do not forbid other keys get an
 * index signature, as JSON Schema means them.
 */
export async function declarationFromSchema(schema: JsonSchema, typeName: string, banner: string[]): Promise<string> {
  const { $schema: _s, $id: _i, title: _t, ...body } = schema;
  const text = await compile(body as JSONSchema, typeName, {
    bannerComment: blockComment(banner),
    additionalProperties: true,
    unreachableDefinitions: false,
    strictIndexSignatures: false,
    format: true,
    // References are resolved inside the schema only; nothing is read from disk or the network.
    $refOptions: { resolve: { external: false } },
  });
  return text.endsWith('\n') ? text : `${text}\n`;
}
