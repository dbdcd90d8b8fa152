/**
 * A definition-language-neutral model of a tool's input or result.
 *
 * TypeScript declarations (SDK types) and JSON Schemas (captured from the CLIs)
 * are both turned into a Shape; field tables, anchors and cross-definition diffs
 * are computed from Shapes only, so they behave the same whatever the source.
 */

export type LiteralValue = string | number | boolean | null;

/** Validation facts a definition states explicitly (not prose). */
export interface Constraints {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
}

interface ShapeBase {
  /** Description attached to the type itself (JSON Schema `description`, or a type's JSDoc). */
  description?: string;
  deprecated?: boolean;
  /** Named type this shape came from, when it was a reference (`FileReadInput`). */
  typeName?: string;
  constraints?: Constraints;
}

export type PrimitiveName =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'null'
  | 'undefined'
  | 'unknown'
  | 'any'
  | 'never'
  | 'object';

export interface PrimitiveShape extends ShapeBase {
  kind: 'primitive';
  type: PrimitiveName;
}

export interface LiteralShape extends ShapeBase {
  kind: 'literal';
  value: LiteralValue;
}

export interface Property {
  name: string;
  required: boolean;
  shape: Shape;
  description?: string;
  deprecated?: boolean;
}

export interface ObjectShape extends ShapeBase {
  kind: 'object';
  properties: Property[];
  /**
   * Properties not listed: `false`/absent = not allowed or not stated,
   * a Shape = allowed with that type (index signature / additionalProperties).
   */
  additional?: Shape;
  /** Name of the index signature key, e.g. `k` in `[k: string]: unknown`. */
  additionalKeyName?: string;
}

export interface ArrayShape extends ShapeBase {
  kind: 'array';
  items: Shape;
}

export interface TupleShape extends ShapeBase {
  kind: 'tuple';
  items: Shape[];
}

export interface UnionShape extends ShapeBase {
  kind: 'union';
  variants: Shape[];
}

/** A reference that could not be expanded (recursive type, or defined elsewhere). */
export interface RefShape extends ShapeBase {
  kind: 'ref';
  name: string;
}

export type Shape =
  | PrimitiveShape
  | LiteralShape
  | ObjectShape
  | ArrayShape
  | TupleShape
  | UnionShape
  | RefShape;

/** True when the shape is `null` or `undefined` (the "nullable" part of a union). */
export function isNullish(shape: Shape): boolean {
  return (
    (shape.kind === 'primitive' && (shape.type === 'null' || shape.type === 'undefined')) ||
    (shape.kind === 'literal' && shape.value === null)
  );
}

/** Splits `T | null` into T and a nullable flag; leaves other shapes alone. */
export function stripNullable(shape: Shape): { shape: Shape; nullable: boolean } {
  if (shape.kind !== 'union') return { shape, nullable: false };
  const rest = shape.variants.filter((v) => !isNullish(v));
  if (rest.length === shape.variants.length) return { shape, nullable: false };
  if (rest.length === 0) return { shape: { kind: 'primitive', type: 'null' }, nullable: false };
  if (rest.length > 1) return { shape: { ...shape, variants: rest }, nullable: true };
  const only = rest[0]!;
  const description = only.description ?? shape.description;
  return { shape: description === undefined ? only : { ...only, description }, nullable: true };
}

/** The literal values of a union made only of literals, else undefined. */
export function literalValues(shape: Shape): LiteralValue[] | undefined {
  if (shape.kind === 'literal') return [shape.value];
  if (shape.kind !== 'union') return undefined;
  const values: LiteralValue[] = [];
  for (const v of shape.variants) {
    if (v.kind !== 'literal') return undefined;
    values.push(v.value);
  }
  return values;
}
