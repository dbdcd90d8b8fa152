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
  if (broken !== undefined)
    throw new Error(`a banner line of a declaration breaks its line: ${JSON.stringify(broken)}`);
  return ['/**', ...lines.map((l) => ` * ${l.replace(/\*\//g, '*\\/')}`.trimEnd()), ' */'].join('\n');
}

/**
 * json-schema-to-typescript's own keywords: `tsType` is written into the declaration as raw TypeScript, `tsEnumNames`
 * turns a union into an enum.
 */
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
 * Names every object has from Object.prototype: the generator calls `schema.hasOwnProperty(…)`, so a key with such a
 * name breaks it.
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * A copy of `value` whose keys named like Object.prototype members (a field called
 * `hasOwnProperty` or `constructor`) are stood in for by placeholders, and the way back:
 * the generator reads schemas with `schema.hasOwnProperty(…)` and `obj[key]`, so such a key
 * makes it throw or read the prototype instead of the field.
 */
function withPlaceholderKeys(value: unknown): { value: unknown; restore: (text: string) => string } {
  const names: string[] = [];
  const placeholder = (name: string) => {
    let i = names.indexOf(name);
    if (i < 0) i = names.push(name) - 1;
    return `__shadowedKey${i}__`;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(
      Object.entries(v).map(([key, inner]) => {
        // `required` names keys: the same stand-ins, so that the field stays required.
        if (key === 'required' && Array.isArray(inner))
          return [key, inner.map((n) => (typeof n === 'string' && PROTOTYPE_NAMES.has(n) ? placeholder(n) : n))];
        return [PROTOTYPE_NAMES.has(key) ? placeholder(key) : key, walk(inner)];
      }),
    );
  };
  const copy = walk(value);
  const restore = (text: string) =>
    text.replace(/__shadowedKey(\d+)__/g, (whole, i: string) => names[Number(i)] ?? whole);
  return { value: copy, restore };
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
  const keys = withPlaceholderKeys(withoutGeneratorKeywords(body));
  const compiled = await compile(keys.value as JSONSchema, typeName, {
    bannerComment: blockComment(banner),
    additionalProperties: true,
    unreachableDefinitions: false,
    strictIndexSignatures: false,
    format: true,
    // References are resolved inside the schema only; nothing is read from disk or the network.
    $refOptions: { resolve: { external: false } },
  });
  const text = keys.restore(compiled);
  return text.endsWith('\n') ? text : `${text}\n`;
}
