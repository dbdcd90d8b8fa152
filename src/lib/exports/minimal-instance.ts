/**
 * A small value that a JSON Schema accepts, derived from the schema alone:
 * only required properties, the fewest items, the shortest strings, the
 * lowest numbers in range, the first listed value. Used to check that each
 * published schema validates something (and to show an example). Local
 * `$ref`s (`#/…`) are followed; a `pattern` is not solved, so a schema whose
 * strings must match one may need another value. Pure.
 */
import { isObject } from '../json.ts';
type Schema = Record<string, unknown> | boolean;


/** Well-known `format` values: a valid example of each. */
const FORMAT_EXAMPLES: Record<string, string> = {
  date: '2026-01-01',
  'date-time': '2026-01-01T00:00:00Z',
  time: '00:00:00Z',
  email: 'a@example.invalid',
  uri: 'file:///a',
  'uri-reference': 'a',
  url: 'file:///a',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'localhost',
};

/** Type names in the order a minimal value is picked when several are allowed. */
const TYPE_ORDER = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

function resolve(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#')) throw new Error(`only local references are followed, not ${ref}`);
  let node: unknown = root;
  for (const token of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (node === undefined) throw new Error(`reference ${ref} does not resolve`);
  return node as Schema;
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return TYPE_ORDER.find((name) => t.includes(name));
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema || 'patternProperties' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema) return 'array';
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema || 'exclusiveMinimum' in schema || 'exclusiveMaximum' in schema) return 'number';
  return undefined;
}

function number(schema: Record<string, unknown>, integer: boolean): number {
  let value = 0;
  if (typeof schema.minimum === 'number') value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + (integer ? 1 : 0.5);
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) value = schema.exclusiveMaximum - 1;
  if (integer) value = Math.ceil(value);
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0) value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  return value;
}

export function minimalInstance(schema: Schema, root: Schema = schema, depth = 0): unknown {
  if (depth > 64) throw new Error('the schema nests too deeply (a reference cycle with required members?)');
  if (schema === true) return null;
  if (schema === false) throw new Error('the schema false accepts no value');
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    const target = minimalInstance(resolve($ref, root), root, depth + 1);
    // Keywords beside $ref (2020-12) add to it; an object's required members are merged.
    const more = Object.keys(rest).some((k) => !['description', 'title', '$comment', 'default', 'examples', 'deprecated'].includes(k));
    return more && isObject(target) ? { ...target, ...(minimalInstance(rest, root, depth + 1) as object) } : target;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const { allOf, ...rest } = schema;
    const parts = [rest, ...allOf].map((part) => minimalInstance(part as Schema, root, depth + 1));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts.find((p) => p !== null) ?? parts[0];
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = schema[key];
    if (Array.isArray(variants) && variants.length > 0) {
      const { [key]: _variants, ...rest } = schema;
      const variant = minimalInstance(variants[0] as Schema, root, depth + 1);
      const base = typeOf(rest) === undefined ? undefined : minimalInstance(rest, root, depth + 1);
      return isObject(base) && isObject(variant) ? { ...base, ...variant } : variant;
    }
  }
  switch (typeOf(schema)) {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
      return number(schema, true);
    case 'number':
      return number(schema, false);
    case 'string': {
      if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
      return 'a'.repeat(typeof schema.minLength === 'number' ? schema.minLength : 0);
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
      const items = (schema.items ?? true) as Schema;
      return Array.from({ length: count }, (_, i) => minimalInstance(prefix[i] ?? items, root, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
        const property = (properties[name] ?? (isObject(schema.additionalProperties) ? schema.additionalProperties : true)) as Schema;
        out[name] = minimalInstance(property, root, depth + 1);
      }
      return out;
    }
    default:
      return null;
  }
}
