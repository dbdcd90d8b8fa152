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

/**
 * A block comment whose text cannot end it early. Untrusted parts of `lines`
 * go through commentSafeLiteral first; a line break left here would only start
 * a line without its ` * `, so it is refused.
 */
function blockComment(lines: string[]): string {
  const broken = lines.find((line) => /[\n\r\u2028\u2029]/.test(line));
  if (broken !== undefined) throw new Error(`a banner line of a declaration breaks its line: ${JSON.stringify(broken)}`);
  return ['/**', ...lines.map((l) => ` * ${l.replace(/\*\//g, '*\\/')}`.trimEnd()), ' */'].join('\n');
}

/** json-schema-to-typescript's own keywords: `tsType` is written into the declaration as raw TypeScript, `tsEnumNames` turns a union into an enum. */
const GENERATOR_KEYWORDS = new Set(['tsType', 'tsEnumNames']);

/**
 * A copy of a captured schema without the generator's own keywords, which are
 * not JSON Schema: `tsType: "string }\nexport declare const x: 1;\ninterface Q {"`
 * would put a statement into the declaration. Every object is cleaned, not
 * only schema positions, since a `$ref` can point anywhere in the document; an
 * object value is kept (a property named `tsType` has an object schema, and
 * the generator could only print it as `[object Object]`, which does not compile).
 */
function withoutGeneratorKeywords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutGeneratorKeywords);
  if (typeof value !== 'object' || value === null) return value;
  const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !GENERATOR_KEYWORDS.has(key) || isPlainObject(v))
      .map(([key, v]) => [key, withoutGeneratorKeywords(v)]),
  );
}

/**
 * The declaration of `typeName` (exported, with every type it needs) for the
 * value the schema describes. The schema's own root `title` and `$id` do not
 * name the type: `typeName` does. Objects that do not forbid other keys get an
 * index signature, as JSON Schema means them.
 */
export async function declarationFromSchema(schema: JsonSchema, typeName: string, banner: string[]): Promise<string> {
  const { $schema: _s, $id: _i, title: _t, ...body } = schema;
  // Descriptions need no cleaning: the generator breaks a star-slash in them and puts each line after ` * `.
  const text = await compile(withoutGeneratorKeywords(body) as JSONSchema, typeName, {
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
