/**
 * JSON Schema → Shape, for the schemas the CLIs send their models.
 * Handles the vocabulary those schemas use: type (incl. arrays of types), enum,
 * const, properties/required, additionalProperties, items/prefixItems,
 * anyOf/oneOf, nullable, $ref to local $defs/definitions, and the
 * validation keywords that become constraints.
 */
import type { Constraints, LiteralValue, Property, Shape } from './shape.ts';

type Schema = Record<string, unknown> | boolean;

const CONSTRAINT_KEYS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
] as const;

function constraintsOf(s: Record<string, unknown>): Constraints | undefined {
  const c: Constraints = {};
  for (const k of CONSTRAINT_KEYS) if (typeof s[k] === 'number') c[k] = s[k] as number;
  if ('default' in s) c.default = s.default;
  if (typeof s.pattern === 'string') c.pattern = s.pattern;
  if (typeof s.format === 'string') c.format = s.format;
  return Object.keys(c).length > 0 ? c : undefined;
}

function resolveRef(root: Record<string, unknown>, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`$ref ${ref} is not local to the schema`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  if (node === undefined) throw new Error(`$ref ${ref} does not resolve`);
  return node as Schema;
}

export function shapeFromJsonSchema(schema: Schema, root: Record<string, unknown> = typeof schema === 'object' ? schema : {}, seen: string[] = []): Shape {
  if (schema === true) return { kind: 'primitive', type: 'unknown' };
  if (schema === false) return { kind: 'primitive', type: 'never' };
  const s = schema;
  const annotate = (shape: Shape): Shape => {
    const out: Shape = { ...shape };
    if (typeof s.description === 'string' && !out.description) out.description = s.description;
    if (s.deprecated === true) out.deprecated = true;
    const c = constraintsOf(s);
    if (c) out.constraints = { ...out.constraints, ...c };
    return out;
  };
  if (typeof s.$ref === 'string') {
    const name = s.$ref.split('/').pop()!;
    if (seen.includes(s.$ref)) return annotate({ kind: 'ref', name });
    const target = shapeFromJsonSchema(resolveRef(root, s.$ref), root, [...seen, s.$ref]);
    return annotate({ ...target, typeName: name });
  }
  if ('const' in s) return annotate({ kind: 'literal', value: s.const as LiteralValue });
  if (Array.isArray(s.enum)) {
    const variants: Shape[] = s.enum.map((v) => ({ kind: 'literal', value: v as LiteralValue }));
    return annotate(variants.length === 1 ? variants[0]! : { kind: 'union', variants });
  }
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) {
    const variants = alternatives.map((a) => shapeFromJsonSchema(a, root, seen));
    return annotate(variants.length === 1 ? variants[0]! : { kind: 'union', variants });
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  if (types.length === 0) {
    if (s.properties || s.additionalProperties !== undefined) types.push('object');
    else if (s.items || s.prefixItems) types.push('array');
  }
  const build = (type: string): Shape => {
    switch (type) {
      case 'object': {
        const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
        const properties: Property[] = Object.entries((s.properties ?? {}) as Record<string, Schema>).map(([name, sub]) => {
          const shape = shapeFromJsonSchema(sub, root, seen);
          const prop: Property = { name, required: required.has(name), shape };
          if (shape.description) prop.description = shape.description;
          if (shape.deprecated) prop.deprecated = true;
          return prop;
        });
        const shape: Shape = { kind: 'object', properties };
        const extra = s.additionalProperties;
        if (extra !== undefined && extra !== false) {
          shape.additional = shapeFromJsonSchema(extra as Schema, root, seen);
          shape.additionalKeyName = 'key';
        }
        return shape;
      }
      case 'array':
        if (Array.isArray(s.prefixItems)) {
          return { kind: 'tuple', items: (s.prefixItems as Schema[]).map((i) => shapeFromJsonSchema(i, root, seen)) };
        }
        return { kind: 'array', items: s.items === undefined ? { kind: 'primitive', type: 'unknown' } : shapeFromJsonSchema(s.items as Schema, root, seen) };
      case 'string':
      case 'number':
      case 'integer':
      case 'boolean':
      case 'null':
        return { kind: 'primitive', type };
      default:
        throw new Error(`unknown JSON Schema type ${JSON.stringify(type)}`);
    }
  };
  if (types.length === 0) return annotate({ kind: 'primitive', type: 'unknown' });
  const shapes = types.map(build);
  let shape: Shape = shapes.length === 1 ? shapes[0]! : { kind: 'union', variants: shapes };
  if (s.nullable === true) shape = { kind: 'union', variants: [shape, { kind: 'primitive', type: 'null' }] };
  return annotate(shape);
}
