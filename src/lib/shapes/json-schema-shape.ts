/**
 * JSON Schema → Shape, for the schemas the CLIs send their models.
 *
 * Every keyword of a schema is either turned into part of the Shape, known to
 * be an annotation that field tables do not show, or refused with a
 * DefinitionShapeError naming its place: a schema is never shown with parts
 * silently missing. `$ref` is resolved by Ajv (JSON pointers with
 * percent-encoding, `$anchor`, `$id`-relative references), so a reference
 * resolves here exactly when it resolves for validation.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { isObject } from '../core/json.ts';
import {
  DefinitionShapeError,
  intersectShapes,
  isPlainUnion,
  pointerToken,
  ShapeMergeError,
  type Condition,
  type Constraints,
  type LiteralValue,
  type ObjectShape,
  type Property,
  type Shape,
} from './shape.ts';
import { decodePointerToken, type JsonRecord } from '../core/json.ts';

type Schema = Record<string, unknown> | boolean;

/** Keywords that neither add fields nor restrict values, so field tables leave them out. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$comment',
  '$defs',
  'definitions',
  '$vocabulary',
  'title',
  'examples',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  // Codex sets `encrypted: true` on some message parameters; the value's shape is the same.
  'encrypted',
  // OpenCode 1.1.x names a type for its own API docs with zod's `.meta({ ref: "QuestionInfo" })`,
  // which zod copies into the schema as a plain string: a name, not a $ref and no constraint.
  'ref',
]);

const NUMBER_CONSTRAINTS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'multipleOf',
  'minProperties',
  'maxProperties',
] as const;

/** Keywords this module turns into (part of) the Shape. */
const HANDLED = new Set<string>([
  ...NUMBER_CONSTRAINTS,
  'description',
  'deprecated',
  'default',
  'format',
  'pattern',
  'uniqueItems',
  'type',
  'enum',
  'const',
  'nullable',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  'anyOf',
  'oneOf',
  'if',
  'then',
  'else',
  '$ref',
]);

/** Object-only keywords: a schema using them without `type` describes an object. */
const OBJECT_KEYWORDS = ['properties', 'additionalProperties', 'patternProperties', 'required', 'propertyNames'];
const ARRAY_KEYWORDS = ['items', 'prefixItems'];

/** Where subschemas sit (as json-schema-traverse lists them), to tell $ref targets from other values. */
const SUBSCHEMA = [
  'additionalProperties',
  'items',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'contentSchema',
];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** Base URI of a schema without its own absolute `$id` (never fetched: .invalid). */
const DOCUMENT_BASE = 'https://definition.invalid/schema.json';

/**
 * Subschema conversions per definition before $ref expansion counts as runaway (committed schemas have at most ~40
 * subschemas).
 */
const MAX_CONVERSIONS = 20000;

const has = (node: JsonRecord, key: string): boolean => Object.hasOwn(node, key);
const UNKNOWN: Shape = { kind: 'primitive', type: 'unknown' };

function isLiteral(value: unknown): value is LiteralValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** The name a `$ref` is shown by: its last JSON pointer token, its anchor, or the target's place. */
function refName(ref: string, targetPointer: string | undefined): string {
  const hash = ref.indexOf('#');
  const fragment = hash < 0 ? '' : ref.slice(hash + 1);
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const lastToken = (pointer: string): string => decodePointerToken(decode(pointer.split('/').pop()!));
  if (fragment.startsWith('/')) return lastToken(fragment) || 'root';
  if (fragment !== '') return decode(fragment);
  return targetPointer ? lastToken(targetPointer) : 'root';
}

interface Place {
  pointer: string;
  /** Base URI for relative references inside this subschema. */
  base: string;
}

class JsonSchemaConverter {
  private readonly root: Schema;
  /** Every subschema of the document, with its JSON pointer and base URI (filled when the first $ref needs it). */
  private readonly places = new Map<object, Place>();
  /** $ref targets being expanded: a reference back to one of them becomes a `ref` shape. */
  private readonly expanding: unknown[] = [];
  private ajv: Ajv2020 | undefined;
  /** The root as given to Ajv: a copy carrying the base URI as `$id`. */
  private rootForAjv: JsonRecord | undefined;
  private conversions = 0;

  constructor(root: Schema) {
    this.root = root;
  }

  shape(): Shape {
    this.expanding.push(this.root);
    return this.convert(this.root, '');
  }

  private convert(node: unknown, pointer: string): Shape {
    if (++this.conversions > MAX_CONVERSIONS) {
      throw new DefinitionShapeError(
        pointer,
        'json-schema-expansion-bounded',
        `expanding $ref takes more than ${MAX_CONVERSIONS} subschemas; the field table would be too large`,
      );
    }
    if (node === true) return { ...UNKNOWN };
    if (node === false) return { kind: 'primitive', type: 'never' };
    if (!isObject(node))
      throw new DefinitionShapeError(pointer, 'json-schema-keyword-value', 'a schema must be an object or a boolean');
    this.checkKeywords(node, pointer);
    let shape = this.ownShape(node, pointer);
    if (has(node, '$ref'))
      shape = this.intersect(shape, this.refShape(node, pointer), `${pointer}/$ref`, 'the $ref target');
    this.list(node, 'allOf', pointer).forEach((member, i) => {
      const at = `${pointer}/allOf/${i}`;
      shape = this.intersect(shape, this.convert(member, at), at, `allOf member ${i}`);
    });
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      if (has(node, keyword))
        shape = this.intersect(shape, this.alternatives(node, keyword, pointer), `${pointer}/${keyword}`, keyword);
    }
    const condition = this.condition(node, pointer);
    if (condition) shape = { ...shape, conditions: [...(shape.conditions ?? []), condition] };
    if (node.nullable === true) shape = { kind: 'union', variants: [shape, { kind: 'primitive', type: 'null' }] };
    const out: Shape = { ...shape };
    // The schema's own description is more specific than one its $ref or allOf members bring.
    if (typeof node.description === 'string') out.description = node.description;
    if (node.deprecated === true) out.deprecated = true;
    return out;
  }

  private checkKeywords(node: JsonRecord, pointer: string): void {
    for (const key of Object.keys(node)) {
      if (key.startsWith('x-') || ANNOTATIONS.has(key) || HANDLED.has(key)) continue;
      throw new DefinitionShapeError(
        `${pointer}/${pointerToken(key)}`,
        'json-schema-keyword-supported',
        `the keyword ${JSON.stringify(key)} is not supported: the field table cannot show what it requires`,
      );
    }
    for (const key of ['unevaluatedProperties', 'unevaluatedItems']) {
      if (has(node, key) && typeof node[key] !== 'boolean') {
        throw new DefinitionShapeError(
          `${pointer}/${key}`,
          'json-schema-keyword-supported',
          `${key} is supported as true or false only, not as a schema`,
        );
      }
    }
  }

  /** A keyword whose value must be a non-empty list of subschemas (absent = empty). */
  private list(node: JsonRecord, keyword: string, pointer: string): unknown[] {
    if (!has(node, keyword)) return [];
    const value = node[keyword];
    if (!Array.isArray(value) || value.length === 0) {
      throw new DefinitionShapeError(
        `${pointer}/${keyword}`,
        'json-schema-keyword-value',
        `${keyword} must be a non-empty array of schemas`,
      );
    }
    return value;
  }

  private intersect(a: Shape, b: Shape, pointer: string, what: string): Shape {
    try {
      return intersectShapes(a, b);
    } catch (error) {
      if (!(error instanceof ShapeMergeError)) throw error;
      throw new DefinitionShapeError(
        pointer,
        'json-schema-allof-mergeable',
        `${what} cannot be merged with the rest of the schema: ${error.message}`,
      );
    }
  }

  /** What the schema itself says (type, enum, const, properties, items, bounds), before $ref and combinators. */
  private ownShape(node: JsonRecord, pointer: string): Shape {
    let shape: Shape;
    if (has(node, 'const')) {
      shape = { kind: 'literal', value: this.literal(node.const, `${pointer}/const`) };
    } else if (has(node, 'enum')) {
      if (!Array.isArray(node.enum))
        throw new DefinitionShapeError(`${pointer}/enum`, 'json-schema-keyword-value', 'enum must be an array');
      const variants: Shape[] = node.enum.map((v, i) => ({
        kind: 'literal',
        value: this.literal(v, `${pointer}/enum/${i}`),
      }));
      shape =
        variants.length === 0
          ? { kind: 'primitive', type: 'never' }
          : variants.length === 1
            ? variants[0]!
            : { kind: 'union', variants };
    } else {
      const shapes = this.typeNames(node, pointer).map((type) => this.typed(type, node, pointer));
      shape =
        shapes.length === 0 ? { ...UNKNOWN } : shapes.length === 1 ? shapes[0]! : { kind: 'union', variants: shapes };
    }
    const constraints = this.constraints(node, pointer);
    if (constraints) shape.constraints = constraints;
    return shape;
  }

  private literal(value: unknown, pointer: string): LiteralValue {
    if (isLiteral(value)) return value;
    throw new DefinitionShapeError(
      pointer,
      'json-schema-keyword-supported',
      `the ${Array.isArray(value) ? 'array' : 'object'} value of enum/const cannot be shown; only strings, ` +
        `numbers, booleans and null can`,
    );
  }

  private typeNames(node: JsonRecord, pointer: string): string[] {
    if (!has(node, 'type')) {
      if (OBJECT_KEYWORDS.some((k) => has(node, k))) return ['object'];
      if (ARRAY_KEYWORDS.some((k) => has(node, k))) return ['array'];
      return [];
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    types.forEach((t, i) => {
      if (!['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'].includes(t as string)) {
        throw new DefinitionShapeError(
          Array.isArray(node.type) ? `${pointer}/type/${i}` : `${pointer}/type`,
          'json-schema-keyword-value',
          `unknown JSON Schema type ${JSON.stringify(t)}`,
        );
      }
    });
    return types as string[];
  }

  private typed(type: string, node: JsonRecord, pointer: string): Shape {
    switch (type) {
      case 'object':
        return this.object(node, pointer);
      case 'array':
        return this.array(node, pointer);
      default:
        return { kind: 'primitive', type: type as 'string' | 'number' | 'integer' | 'boolean' | 'null' };
    }
  }

  private map(node: JsonRecord, keyword: string, pointer: string): [string, unknown][] {
    if (!has(node, keyword)) return [];
    const value = node[keyword];
    if (!isObject(value))
      throw new DefinitionShapeError(
        `${pointer}/${keyword}`,
        'json-schema-keyword-value',
        `${keyword} must be an object`,
      );
    return Object.entries(value);
  }

  private object(node: JsonRecord, pointer: string): Shape {
    let required: string[] = [];
    if (has(node, 'required')) {
      if (!Array.isArray(node.required) || !node.required.every((n) => typeof n === 'string')) {
        throw new DefinitionShapeError(
          `${pointer}/required`,
          'json-schema-keyword-value',
          'required must be an array of strings',
        );
      }
      required = node.required;
    }
    const properties: Property[] = this.map(node, 'properties', pointer).map(([name, sub]) => {
      const shape = this.convert(sub, `${pointer}/properties/${pointerToken(name)}`);
      const prop: Property = { name, required: required.includes(name), shape };
      if (shape.description) prop.description = shape.description;
      if (shape.deprecated) prop.deprecated = true;
      return prop;
    });
    const shape: ObjectShape = { kind: 'object', properties };
    const patterns = this.map(node, 'patternProperties', pointer).map(([pattern, sub]) => ({
      pattern,
      shape: this.convert(sub, `${pointer}/patternProperties/${pointerToken(pattern)}`),
    }));
    if (patterns.length > 0) shape.patternProperties = patterns;
    const extra = node.additionalProperties;
    if (extra !== undefined && extra !== false) {
      shape.additional = this.convert(extra, `${pointer}/additionalProperties`);
      shape.additionalKeyName = 'key';
    }
    // A name that is required but not described still gets a row (typed like any other key).
    for (const name of required) {
      if (!properties.some((p) => p.name === name))
        properties.push({ name, required: true, shape: shape.additional ?? { ...UNKNOWN } });
    }
    return shape;
  }

  private array(node: JsonRecord, pointer: string): Shape {
    const minItems = typeof node.minItems === 'number' ? node.minItems : 0;
    const tuple = (items: Shape[]): Shape =>
      minItems >= items.length ? { kind: 'tuple', items } : { kind: 'tuple', items, requiredCount: minItems };
    if (has(node, 'prefixItems')) {
      const items = this.list(node, 'prefixItems', pointer).map((s, i) =>
        this.convert(s, `${pointer}/prefixItems/${i}`),
      );
      if (node.items !== undefined && node.items !== false) {
        throw new DefinitionShapeError(
          `${pointer}/items`,
          'json-schema-keyword-supported',
          'items beside prefixItems (elements after the tuple) is not supported',
        );
      }
      return tuple(items);
    }
    if (Array.isArray(node.items)) {
      // Draft 2019-09 and earlier: an items array is a tuple.
      const items = node.items.map((s, i) => this.convert(s, `${pointer}/items/${i}`));
      if (node.additionalItems !== undefined && node.additionalItems !== false) {
        throw new DefinitionShapeError(
          `${pointer}/additionalItems`,
          'json-schema-keyword-supported',
          'additionalItems (elements after the tuple) is not supported',
        );
      }
      return tuple(items);
    }
    return {
      kind: 'array',
      items: node.items === undefined ? { ...UNKNOWN } : this.convert(node.items, `${pointer}/items`),
    };
  }

  private constraints(node: JsonRecord, pointer: string): Constraints | undefined {
    const c: Constraints = {};
    for (const k of NUMBER_CONSTRAINTS) {
      if (!has(node, k)) continue;
      if (typeof node[k] !== 'number')
        throw new DefinitionShapeError(`${pointer}/${k}`, 'json-schema-keyword-value', `${k} must be a number`);
      c[k] = node[k];
    }
    if (has(node, 'default')) c.default = node.default;
    for (const k of ['pattern', 'format'] as const) {
      if (!has(node, k)) continue;
      if (typeof node[k] !== 'string')
        throw new DefinitionShapeError(`${pointer}/${k}`, 'json-schema-keyword-value', `${k} must be a string`);
      if (k === 'pattern') c.patterns = [node[k]];
      else c.format = node[k];
    }
    if (has(node, 'uniqueItems')) {
      if (typeof node.uniqueItems !== 'boolean')
        throw new DefinitionShapeError(
          `${pointer}/uniqueItems`,
          'json-schema-keyword-value',
          'uniqueItems must be a boolean',
        );
      if (node.uniqueItems) c.uniqueItems = true;
    }
    if (has(node, 'propertyNames')) {
      const keys = this.keyConstraints(node.propertyNames, `${pointer}/propertyNames`);
      if (keys) c.keys = keys;
    }
    return Object.keys(c).length > 0 ? c : undefined;
  }

  /** propertyNames: keys are strings already; a pattern, lengths and a format are shown as key constraints. */
  private keyConstraints(value: unknown, pointer: string): Constraints | undefined {
    if (value === true) return undefined;
    if (!isObject(value))
      throw new DefinitionShapeError(
        pointer,
        'json-schema-keyword-supported',
        'propertyNames false (an object without keys) is not supported',
      );
    for (const key of Object.keys(value)) {
      if (
        key.startsWith('x-') ||
        ANNOTATIONS.has(key) ||
        ['description', 'pattern', 'minLength', 'maxLength', 'format'].includes(key)
      )
        continue;
      if (key === 'type' && value.type === 'string') continue;
      throw new DefinitionShapeError(
        `${pointer}/${pointerToken(key)}`,
        'json-schema-keyword-supported',
        `propertyNames can only state type "string", pattern, minLength, maxLength and format; ` +
          `${JSON.stringify(key)} is not supported there`,
      );
    }
    return this.constraints(value, pointer);
  }

  private alternatives(node: JsonRecord, keyword: 'anyOf' | 'oneOf', pointer: string): Shape {
    const variants = this.list(node, keyword, pointer)
      .map((s, i) => this.convert(s, `${pointer}/${keyword}/${i}`))
      // `anyOf: [{enum: [a, b]}, {const: c}]` is one list of allowed values.
      .flatMap((v) => (v.kind === 'union' && isPlainUnion(v) ? v.variants : [v]));
    return variants.length === 1 ? variants[0]! : { kind: 'union', variants };
  }

  private condition(node: JsonRecord, pointer: string): Condition | undefined {
    // Without `if`, then/else have no effect; without then/else, `if` has none.
    if (!has(node, 'if') || (!has(node, 'then') && !has(node, 'else'))) return undefined;
    const condition: Condition = { if: this.convert(node.if, `${pointer}/if`) };
    if (has(node, 'then')) condition.then = this.convert(node.then, `${pointer}/then`);
    if (has(node, 'else')) condition.else = this.convert(node.else, `${pointer}/else`);
    return condition;
  }

  private refShape(node: JsonRecord, pointer: string): Shape {
    const ref = node.$ref;
    if (typeof ref !== 'string')
      throw new DefinitionShapeError(`${pointer}/$ref`, 'json-schema-keyword-value', '$ref must be a string');
    const { target, place } = this.resolveRef(node, ref, `${pointer}/$ref`);
    const name = refName(ref, place?.pointer);
    if (typeof target === 'boolean') return { ...this.convert(target, `${pointer}/$ref`), typeName: name };
    if (this.expanding.includes(target)) return { kind: 'ref', name };
    this.expanding.push(target);
    try {
      return { ...this.convert(target, place!.pointer), typeName: name };
    } finally {
      this.expanding.pop();
    }
  }

  /** Ajv for resolving references, with every subschema's place indexed; made when the first $ref needs it. */
  private resolver(): Ajv2020 {
    if (this.ajv) return this.ajv;
    const root = this.root as JsonRecord; // a boolean schema has no $ref
    const ajv = new Ajv2020({
      strict: false,
      meta: false,
      validateSchema: false,
      validateFormats: false,
      logger: false,
    });
    const base = typeof root.$id === 'string' ? ajv.opts.uriResolver.resolve(DOCUMENT_BASE, root.$id) : DOCUMENT_BASE;
    this.rootForAjv = { ...root, $id: base };
    try {
      ajv.addSchema(this.rootForAjv);
    } catch (error) {
      throw new DefinitionShapeError(
        '',
        'json-schema-ref-resolves',
        `Ajv cannot index the schema's $id and $anchor values: ${(error as Error).message}`,
      );
    }
    this.index(ajv, root, '', base);
    this.places.set(this.rootForAjv, this.places.get(root)!);
    this.ajv = ajv;
    return ajv;
  }

  private index(ajv: Ajv2020, node: unknown, pointer: string, parentBase: string): void {
    if (!isObject(node) || this.places.has(node)) return;
    const base =
      pointer !== '' && typeof node.$id === 'string' ? ajv.opts.uriResolver.resolve(parentBase, node.$id) : parentBase;
    this.places.set(node, { pointer, base });
    for (const k of SUBSCHEMA) if (has(node, k)) this.index(ajv, node[k], `${pointer}/${k}`, base);
    for (const k of SUBSCHEMA_LISTS) {
      const list = node[k];
      if (has(node, k) && Array.isArray(list)) list.forEach((s, i) => this.index(ajv, s, `${pointer}/${k}/${i}`, base));
    }
    for (const k of SUBSCHEMA_MAPS) {
      const map = node[k];
      if (has(node, k) && isObject(map))
        for (const [name, s] of Object.entries(map)) this.index(ajv, s, `${pointer}/${k}/${pointerToken(name)}`, base);
    }
  }

  /** The `$ref` whose resolved URI is `uri` (as Ajv reports a missing one), with the place of its schema. */
  private refAt(ajv: Ajv2020, uri: string): { pointer: string; ref: string } | undefined {
    const normalize = (u: string): string => u.replace(/#\/?$/, '');
    for (const [node, place] of this.places) {
      const ref = (node as JsonRecord).$ref;
      if (
        typeof ref === 'string' &&
        normalize(ajv.opts.uriResolver.resolve(place.base, normalize(ref))) === normalize(uri)
      )
        return { pointer: place.pointer, ref };
    }
    return undefined;
  }

  private resolveRef(node: JsonRecord, ref: string, pointer: string): { target: Schema; place?: Place } {
    const ajv = this.resolver();
    const uri = ajv.opts.uriResolver.resolve(this.places.get(node)?.base ?? DOCUMENT_BASE, ref);
    let target: unknown;
    try {
      target = ajv.getSchema(uri)?.schema;
    } catch (error) {
      // Ajv compiles the whole document first, so the broken reference may be another one than this.
      const missing = (error as { missingRef?: unknown }).missingRef;
      const broken = typeof missing === 'string' ? this.refAt(ajv, missing) : undefined;
      if (broken)
        throw new DefinitionShapeError(
          `${broken.pointer}/$ref`,
          'json-schema-ref-resolves',
          `$ref ${JSON.stringify(broken.ref)} does not resolve to a schema in this definition (other documents ` +
            `are not fetched)`,
        );
      throw new DefinitionShapeError(
        pointer,
        'json-schema-ref-resolves',
        `$ref ${JSON.stringify(ref)} cannot be resolved: ${(error as Error).message}`,
      );
    }
    if (target === undefined) {
      throw new DefinitionShapeError(
        pointer,
        'json-schema-ref-resolves',
        `$ref ${JSON.stringify(ref)} does not resolve to a schema in this definition (other documents are not fetched)`,
      );
    }
    if (typeof target === 'boolean') return { target };
    const place = typeof target === 'object' && target !== null ? this.places.get(target) : undefined;
    if (!place) {
      // e.g. `#/$defs/constructor`: a JSON pointer walk reaches an inherited JavaScript property.
      throw new DefinitionShapeError(
        pointer,
        'json-schema-ref-resolves',
        `$ref ${JSON.stringify(ref)} does not resolve to a subschema of this definition`,
      );
    }
    return { target: target === this.rootForAjv ? this.root : (target as JsonRecord), place };
  }
}

/** Throws DefinitionShapeError (with the JSON pointer of the offending keyword) for what a field table cannot show. */
export function shapeFromJsonSchema(schema: Schema): Shape {
  return new JsonSchemaConverter(schema).shape();
}
