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
  /** Every pattern the value must match (an allOf can state several). */
  patterns?: string[];
  format?: string;
  minItems?: number;
  maxItems?: number;
  multipleOf?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  /** What every key of an object must satisfy (JSON Schema `propertyNames`). */
  keys?: Constraints;
}

/**
 * A definition that cannot be shown as a field table, or not faithfully.
 * `pointer` is an RFC 6901 JSON pointer relative to the definition's root (the
 * JSON Schema object), `rule` a short kebab-case id of the broken rule; the
 * message names the keyword but not the place, so callers can prefix their own.
 */
export class DefinitionShapeError extends Error {
  readonly pointer: string;
  readonly rule: string;
  constructor(pointer: string, rule: string, message: string) {
    super(message);
    this.name = 'DefinitionShapeError';
    this.pointer = pointer;
    this.rule = rule;
  }
}

/** Escapes one JSON pointer token (RFC 6901: `~` → `~0`, `/` → `~1`). */
export { pointerToken } from '../core/json.ts';

/** If/then/else: when a value matches `if`, `then` applies too, otherwise `else`. */
export interface Condition {
  if: Shape;
  then?: Shape;
  else?: Shape;
}

interface ShapeBase {
  /** Description attached to the type itself (JSON Schema `description`, or a type's JSDoc). */
  description?: string;
  deprecated?: boolean;
  /** Named type this shape came from, when it was a reference (`FileReadInput`). */
  typeName?: string;
  constraints?: Constraints;
  /** Conditional parts (JSON Schema if/then/else), shown as extra variants below the shape's fields. */
  conditions?: Condition[];
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

/** Keys matching `pattern` (a JSON Schema regular expression) have values of `shape`. */
export interface PatternProperty {
  pattern: string;
  shape: Shape;
}

export interface ObjectShape extends ShapeBase {
  kind: 'object';
  properties: Property[];
  /** JSON Schema patternProperties, in declaration order. */
  patternProperties?: PatternProperty[];
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
  /** How many leading elements must be present; all of them when absent. */
  requiredCount?: number;
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

export type Shape = PrimitiveShape | LiteralShape | ObjectShape | ArrayShape | TupleShape | UnionShape | RefShape;

/** True when the shape is `null` or `undefined` (the "nullable" part of a union). */
export function isNullish(shape: Shape): boolean {
  return (
    (shape.kind === 'primitive' && (shape.type === 'null' || shape.type === 'undefined')) ||
    (shape.kind === 'literal' && shape.value === null)
  );
}

/** True for a shape that says nothing about the value's type (`unknown`, `any`, an empty JSON Schema). */
export function isUnconstrainedType(shape: Shape): boolean {
  return shape.kind === 'primitive' && (shape.type === 'unknown' || shape.type === 'any');
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

export function literalText(value: LiteralValue): string {
  return JSON.stringify(value);
}

/** Compact type text: `string`, `object[]`, `"a" | "b"`, `string | null`. */
export function typeText(shape: Shape): string {
  switch (shape.kind) {
    case 'primitive':
      return shape.type;
    case 'literal':
      return literalText(shape.value);
    case 'object':
      return shape.properties.length === 0 && shape.additional && !shape.patternProperties?.length
        ? `map of ${typeText(shape.additional)}`
        : 'object';
    case 'array': {
      const inner = typeText(shape.items);
      return shape.items.kind === 'union' ? `(${inner})[]` : `${inner}[]`;
    }
    case 'tuple':
      return `[${shape.items.map(typeText).join(', ')}]`;
    case 'union':
      return [...new Set(shape.variants.map(typeText))].join(' | ');
    case 'ref':
      return shape.name;
  }
}

/**
 * Two shapes a value must match at once (JSON Schema allOf, TypeScript `&`)
 * cannot be combined into one shape. `path` is the field inside the shapes
 * (`a.b`, empty at the top) where they conflict.
 */
export class ShapeMergeError extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(path === '' ? message : `${path}: ${message}`);
    this.name = 'ShapeMergeError';
    this.path = path;
  }
}

/** Result of intersecting two structures: a shape, or why no value can match both. */
type Intersection = { shape: Shape } | { conflict: string };

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const SINGLE_VALUED = ['default', 'format', 'multipleOf'] as const;

/** Constraints that both hold: the tighter bound, every pattern; different defaults or formats cannot both hold. */
export function mergeConstraints(
  a: Constraints | undefined,
  b: Constraints | undefined,
  path = '',
): Constraints | undefined {
  if (!a || !b) return a ?? b;
  const out: Constraints = { ...a };
  for (const k of LOWER_BOUNDS) if (b[k] !== undefined) out[k] = a[k] === undefined ? b[k] : Math.max(a[k], b[k]);
  for (const k of UPPER_BOUNDS) if (b[k] !== undefined) out[k] = a[k] === undefined ? b[k] : Math.min(a[k], b[k]);
  for (const k of SINGLE_VALUED) {
    if (b[k] === undefined) continue;
    if (a[k] !== undefined && JSON.stringify(a[k]) !== JSON.stringify(b[k])) {
      throw new ShapeMergeError(
        path,
        `the parts state different ${k} values, ${JSON.stringify(a[k])} and ${JSON.stringify(b[k])}`,
      );
    }
    (out as Record<string, unknown>)[k] = b[k];
  }
  if (b.patterns) out.patterns = [...new Set([...(a.patterns ?? []), ...b.patterns])];
  if (b.uniqueItems) out.uniqueItems = true;
  if (b.keys) out.keys = mergeConstraints(a.keys, b.keys, path)!;
  return out;
}

/** The shape without its annotations: what intersecting compares. */
function structure(shape: Shape): Shape {
  const { description: _d, deprecated: _p, typeName: _t, constraints: _c, conditions: _k, ...rest } = shape;
  return rest as Shape;
}

const joinPath = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

function literalFits(value: LiteralValue, type: Shape & { kind: 'primitive' }): boolean {
  switch (type.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === type.type;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return false;
  }
}

function intersectObjects(
  a: Extract<Shape, { kind: 'object' }>,
  b: Extract<Shape, { kind: 'object' }>,
  path: string,
): Intersection {
  const properties: Property[] = [];
  const names = [
    ...a.properties.map((p) => p.name),
    ...b.properties.map((p) => p.name).filter((n) => !a.properties.some((p) => p.name === n)),
  ];
  for (const name of names) {
    const pa = a.properties.find((p) => p.name === name);
    const pb = b.properties.find((p) => p.name === name);
    // A property only one side declares must still fit the other side's "any other key" type.
    const sa = pa?.shape ?? a.additional;
    const sb = pb?.shape ?? b.additional;
    let shape: Shape;
    if (sa && sb) {
      const r = intersect(sa, sb, joinPath(path, name));
      if ('conflict' in r) return r;
      shape = r.shape;
    } else {
      shape = (sa ?? sb)!;
    }
    const property: Property = { name, required: Boolean(pa?.required || pb?.required), shape };
    const description = pa?.description ?? pb?.description;
    if (description !== undefined) property.description = description;
    if (pa?.deprecated || pb?.deprecated) property.deprecated = true;
    properties.push(property);
  }
  const out: Extract<Shape, { kind: 'object' }> = { kind: 'object', properties };
  const patterns = [...(a.patternProperties ?? [])];
  for (const p of b.patternProperties ?? []) {
    const same = patterns.findIndex((q) => q.pattern === p.pattern);
    if (same < 0) {
      patterns.push(p);
      continue;
    }
    const r = intersect(patterns[same]!.shape, p.shape, joinPath(path, `[key matching /${p.pattern}/]`));
    if ('conflict' in r) return r;
    patterns[same] = { pattern: p.pattern, shape: r.shape };
  }
  if (patterns.length > 0) out.patternProperties = patterns;
  if (a.additional && b.additional) {
    const r = intersect(a.additional, b.additional, joinPath(path, '[key]'));
    // No value fits both: no other key is allowed.
    if ('shape' in r) out.additional = r.shape;
  } else if (a.additional ?? b.additional) {
    out.additional = (a.additional ?? b.additional)!;
  }
  if (out.additional) out.additionalKeyName = a.additionalKeyName ?? b.additionalKeyName ?? 'key';
  return { shape: out };
}

/** (A | B) & C = (A & C) | (B & C); variants that cannot match drop out. */
function intersectUnions(a: Shape, b: Shape, path: string): Intersection {
  const left = a.kind === 'union' ? a.variants : [structure(a)];
  const right = b.kind === 'union' ? b.variants : [structure(b)];
  const variants: Shape[] = [];
  let firstConflict: string | undefined;
  for (const l of left) {
    for (const r of right) {
      const result = intersect(l, r, path);
      if ('conflict' in result) firstConflict ??= result.conflict;
      else
        variants.push(
          ...(result.shape.kind === 'union' && isPlainUnion(result.shape) ? result.shape.variants : [result.shape]),
        );
    }
  }
  if (variants.length === 0) return { conflict: `no variant of ${typeText(a)} fits ${typeText(b)} (${firstConflict})` };
  return { shape: variants.length === 1 ? variants[0]! : { kind: 'union', variants } };
}

/** A tuple and a tuple or an array, item by item; undefined when the tuples' lengths differ. */
function intersectTuples(a: Shape, b: Shape, path: string): Intersection | undefined {
  const tuples = [a, b].filter((s) => s.kind === 'tuple') as Extract<Shape, { kind: 'tuple' }>[];
  const length = tuples[0]!.items.length;
  if (tuples.some((t) => t.items.length !== length)) return undefined;
  const at = (s: Shape, i: number): Shape =>
    s.kind === 'tuple' ? s.items[i]! : (s as Extract<Shape, { kind: 'array' }>).items;
  const items: Shape[] = [];
  for (let i = 0; i < length; i++) {
    const r = intersect(at(a, i), at(b, i), `${path}[${i}]`);
    if ('conflict' in r) return r;
    items.push(r.shape);
  }
  const out: Extract<Shape, { kind: 'tuple' }> = { kind: 'tuple', items };
  const counts = tuples.map((t) => t.requiredCount ?? length);
  if (Math.max(...counts) < length) out.requiredCount = Math.max(...counts);
  return { shape: out };
}

function intersectStructures(a: Shape, b: Shape, path: string): Intersection {
  if (isUnconstrainedType(a)) return { shape: structure(b) };
  if (isUnconstrainedType(b)) return { shape: structure(a) };
  if (a.kind === 'primitive' && a.type === 'never') return { shape: structure(a) };
  if (b.kind === 'primitive' && b.type === 'never') return { shape: structure(b) };
  if (a.kind === 'union' || b.kind === 'union') return intersectUnions(a, b, path);
  if (a.kind === 'ref' || b.kind === 'ref') {
    if (a.kind === 'ref' && b.kind === 'ref' && a.name === b.name) return { shape: structure(a) };
    throw new ShapeMergeError(
      path,
      `the recursive reference ${a.kind === 'ref' ? a.name : (b as { name: string }).name} cannot be combined with ` +
        `${typeText(a.kind === 'ref' ? b : a)}`,
    );
  }
  const conflict = { conflict: `${path === '' ? 'the value' : path} cannot be both ${typeText(a)} and ${typeText(b)}` };
  if (a.kind === 'primitive' && b.kind === 'primitive') {
    if (a.type === b.type) return { shape: structure(a) };
    if ((a.type === 'integer' && b.type === 'number') || (a.type === 'number' && b.type === 'integer'))
      return { shape: { kind: 'primitive', type: 'integer' } };
    return conflict;
  }
  if (a.kind === 'literal' || b.kind === 'literal') {
    const lit = (a.kind === 'literal' ? a : b) as Extract<Shape, { kind: 'literal' }>;
    const other = a.kind === 'literal' ? b : a;
    if (other.kind === 'literal') return other.value === lit.value ? { shape: structure(lit) } : conflict;
    if (other.kind === 'primitive' && literalFits(lit.value, other)) return { shape: structure(lit) };
    return conflict;
  }
  // TypeScript's `object` keyword is any non-primitive value.
  if (a.kind === 'primitive' && a.type === 'object' && b.kind !== 'primitive') return { shape: structure(b) };
  if (b.kind === 'primitive' && b.type === 'object' && a.kind !== 'primitive') return { shape: structure(a) };
  if (a.kind === 'object' && b.kind === 'object') return intersectObjects(a, b, path);
  if (a.kind === 'array' && b.kind === 'array') {
    const r = intersect(a.items, b.items, joinPath(path, '[]'));
    return 'conflict' in r ? r : { shape: { kind: 'array', items: r.shape } };
  }
  if ((a.kind === 'tuple' || a.kind === 'array') && (b.kind === 'tuple' || b.kind === 'array'))
    return intersectTuples(a, b, path) ?? conflict;
  return conflict;
}

/** A union that only groups its variants: nothing would be lost by flattening it into an enclosing union. */
export function isPlainUnion(shape: Shape): boolean {
  return (
    shape.kind === 'union' &&
    shape.description === undefined &&
    !shape.deprecated &&
    shape.typeName === undefined &&
    shape.constraints === undefined &&
    shape.conditions === undefined
  );
}

function intersect(a: Shape, b: Shape, path: string): Intersection {
  const result = intersectStructures(a, b, path);
  if ('conflict' in result) return result;
  const shape: Shape = { ...result.shape };
  // The first part's annotations win; the second fills in what the first lacks.
  const description = a.description ?? b.description;
  if (description !== undefined) shape.description = description;
  if (a.deprecated || b.deprecated) shape.deprecated = true;
  const typeName = isUnconstrainedType(a)
    ? b.typeName
    : isUnconstrainedType(b)
      ? a.typeName
      : a.typeName === b.typeName
        ? a.typeName
        : undefined;
  if (typeName !== undefined) shape.typeName = typeName;
  const constraints = mergeConstraints(a.constraints, b.constraints, path);
  if (constraints) shape.constraints = constraints;
  const conditions = [...(a.conditions ?? []), ...(b.conditions ?? [])];
  if (conditions.length > 0) shape.conditions = conditions;
  return { shape };
}

/**
 * The shape of values that match both `a` and `b` (allOf, `A & B`): object
 * members are merged by name (required if either requires it, member types
 * intersected the same way), unions are distributed, literals narrow their
 * primitive type, and bounds tighten. Annotations of `a` win over those of `b`.
 * Throws ShapeMergeError when no value can match both or the parts cannot be
 * combined into one shape.
 */
export function intersectShapes(a: Shape, b: Shape): Shape {
  const result = intersect(a, b, '');
  if ('conflict' in result) throw new ShapeMergeError('', result.conflict);
  return result.shape;
}
