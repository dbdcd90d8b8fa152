import { isObject, resolveLocalRef, type JsonRecord } from '../../../src/lib/core/json.ts';
import { unescapeSegment } from '../../../src/lib/shapes/anchors.ts';
/**
 * Reading one field of a tool's JSON Schema input, written for `npm run verify` apart from
 * the site's own reading (src/lib/shapes/json-schema-shape.ts, field-rows.ts), so that a history
 * event is checked against the schema the CLI sent by other code than the code that made it.
 * Pure.
 *
 * - `locateField(schema, anchor)` follows a history event's field anchor (docs/pages.md "URLs and field anchors":
 *   `.name` a property, array items transparent, `.*` any other key of a map, `:value` a
 *   union variant selected by a discriminator value, `:+name` the variant that alone has a
 *   property `name`, `:=type` the variant that alone has that type text, `:N` the N-th
 *   variant, `@N` a tuple element) and says whether the field is there, its type text, its
 *   description, whether it is required, and its literal values.
 * - `schemaTypeText(schema)` is the compact type text the site shows (`string`, `object[]`,
 *   `"a" | "b"`, `map of object`, `string | null`, `unknown`), written from the JSON Schema
 *   vocabulary: `type` (also an array of types, and the upper-case names the Gemini API
 *   uses), `enum`, `const`, `anyOf`/`oneOf`, `items`/`prefixItems`, `properties`,
 *   `additionalProperties`, `nullable`, local `$ref`s and single-member `allOf`.
 */

export class UnsupportedAnchor extends Error {}

/** `#/$defs/X` or `#/definitions/X` (JSON pointer) inside `root`. */
function resolvePointer(root: JsonRecord, ref: string): JsonRecord | undefined {
  const node = resolveLocalRef(root, ref);
  return isObject(node) ? node : undefined;
}

/** The schema with local `$ref`s followed and a lone `allOf` member merged in (its own keys win). */
export function resolveSchema(schema: JsonRecord, root: JsonRecord): JsonRecord {
  let s = schema;
  for (let depth = 0; depth < 20; depth++) {
    if (typeof s['$ref'] === 'string') {
      const target = resolvePointer(root, s['$ref']);
      if (!target) return s;
      const { $ref: _ref, ...rest } = s;
      s = { ...target, ...rest };
      continue;
    }
    const all = s['allOf'];
    if (Array.isArray(all) && all.length === 1 && isObject(all[0])) {
      const { allOf: _all, ...rest } = s;
      s = { ...all[0], ...rest };
      continue;
    }
    return s;
  }
  return s;
}

function typesOf(s: JsonRecord): string[] {
  const t = s['type'];
  const list =
    typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
  return list.map((x) => x.toLowerCase());
}

function variantsOf(s: JsonRecord): JsonRecord[] | undefined {
  const v = s['anyOf'] ?? s['oneOf'];
  return Array.isArray(v) ? v.filter(isObject) : undefined;
}

const isNullSchema = (s: JsonRecord): boolean =>
  typesOf(s).length === 1 && typesOf(s)[0] === 'null' && s['enum'] === undefined;

/** Texts of a union, each once, with `null` last (the site shows a nullable field as `T | null`). */
function joinTexts(texts: string[]): string {
  const unique = [...new Set(texts.flatMap((t) => t.split(' | ')))];
  const nonNull = unique.filter((t) => t !== 'null');
  return [...nonNull, ...(unique.includes('null') ? ['null'] : [])].join(' | ');
}

function literalTexts(values: unknown[]): string[] {
  return values.map((v) => JSON.stringify(v));
}

/** The compact type text of a schema (see above). */
export function schemaTypeText(schema: JsonRecord, root: JsonRecord = schema): string {
  const s = resolveSchema(schema, root);
  const nullable = s['nullable'] === true ? ['null'] : [];
  if ('const' in s) return joinTexts([...literalTexts([s['const']]), ...nullable]);
  if (Array.isArray(s['enum'])) return joinTexts([...literalTexts(s['enum']), ...nullable]);
  const variants = variantsOf(s);
  if (variants && variants.length > 0) return joinTexts([...variants.map((v) => schemaTypeText(v, root)), ...nullable]);
  let types = typesOf(s);
  if (types.length === 0) {
    if (isObject(s['properties']) || isObject(s['additionalProperties'])) types = ['object'];
    else if (s['items'] !== undefined || s['prefixItems'] !== undefined) types = ['array'];
    else return joinTexts(['unknown', ...nullable]);
  }
  const texts = types.map((t) => {
    if (t === 'array') {
      if (Array.isArray(s['prefixItems']) || Array.isArray(s['items'])) {
        const items = (Array.isArray(s['prefixItems']) ? s['prefixItems'] : s['items']) as unknown[];
        return `[${items
          .filter(isObject)
          .map((i) => schemaTypeText(i, root))
          .join(', ')}]`;
      }
      if (!isObject(s['items'])) return 'unknown[]';
      const inner = schemaTypeText(s['items'], root);
      return inner.includes(' | ') ? `(${inner})[]` : `${inner}[]`;
    }
    if (t === 'object') {
      const props = isObject(s['properties']) ? Object.keys(s['properties']) : [];
      const extra = s['additionalProperties'];
      const patterns = isObject(s['patternProperties']) ? Object.keys(s['patternProperties']) : [];
      if (props.length === 0 && patterns.length === 0 && isObject(extra))
        return `map of ${schemaTypeText(extra, root)}`;
      return 'object';
    }
    return t;
  });
  return joinTexts([...texts, ...nullable]);
}

/**
 * Literal values a field allows, as JSON texts (`enum`, `const`, or a union of them; an array's items), or undefined.
 */
export function schemaLiterals(schema: JsonRecord, root: JsonRecord = schema): string[] | undefined {
  const s = resolveSchema(schema, root);
  if ('const' in s) return literalTexts([s['const']]);
  if (Array.isArray(s['enum'])) return literalTexts(s['enum']);
  const variants = variantsOf(s);
  if (variants) {
    const parts = variants.filter((v) => !isNullSchema(v)).map((v) => schemaLiterals(v, root));
    if (parts.length > 0 && parts.every((p) => p !== undefined)) return parts.flat();
    return undefined;
  }
  if (typesOf(s).includes('array') && isObject(s['items'])) return schemaLiterals(s['items'], root);
  return undefined;
}

/** One step of an anchor: its separator and its text. */
export function anchorSteps(anchor: string): { sep: '.' | ':' | '@'; text: string }[] {
  const steps: { sep: '.' | ':' | '@'; text: string }[] = [];
  const re = /([.:@])([^.:@]*)/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(anchor)) !== null) {
    if (m.index !== consumed) break;
    steps.push({ sep: m[1] as '.' | ':' | '@', text: m[2]! });
    consumed = re.lastIndex;
  }
  if (consumed !== anchor.length) throw new UnsupportedAnchor(`cannot read the anchor ${JSON.stringify(anchor)}`);
  return steps;
}

/** Array items are transparent on a path: the innermost items of nested arrays. */
function throughArrays(s: JsonRecord, root: JsonRecord): JsonRecord {
  let cur = resolveSchema(s, root);
  for (let i = 0; i < 20 && typesOf(cur).includes('array') && isObject(cur['items']); i++)
    cur = resolveSchema(cur['items'] as JsonRecord, root);
  // A nullable wrapper (`T | null` as anyOf) is the field itself, not a union to choose in.
  const variants = variantsOf(cur);
  if (variants) {
    const nonNull = variants.filter((v) => !isNullSchema(v));
    if (nonNull.length === 1 && nonNull.length < variants.length) return throughArrays(nonNull[0]!, root);
  }
  return cur;
}

function propertiesOf(s: JsonRecord): JsonRecord | undefined {
  return isObject(s['properties']) ? s['properties'] : undefined;
}

/** Does `variant` carry `value` (a JSON-ish literal) as the const or enum of one of its properties? */
function carriesValue(variant: JsonRecord, values: unknown[], root: JsonRecord): boolean {
  const props = propertiesOf(resolveSchema(variant, root)) ?? {};
  return Object.values(props).some((p) => {
    if (!isObject(p)) return false;
    const lits = schemaLiterals(p, root);
    return lits !== undefined && values.every((v) => lits.includes(JSON.stringify(v)));
  });
}

/** The union member an anchor's `:label` selects, or undefined. */
function selectVariant(variants: JsonRecord[], label: string, root: JsonRecord): JsonRecord | undefined {
  if (/^[0-9]+$/.test(label)) return variants[Number(label) - 1];
  if (label.startsWith('+')) {
    const name = unescapeSegment(label.slice(1));
    const having = variants.filter((v) => propertiesOf(resolveSchema(v, root))?.[name] !== undefined);
    return having.length === 1 ? having[0] : undefined;
  }
  if (label.startsWith('=')) {
    const type = unescapeSegment(label.slice(1));
    const having = variants.filter((v) => schemaTypeText(v, root) === type);
    return having.length === 1 ? having[0] : undefined;
  }
  const values: unknown[] = label.split('~7C').map((part) => {
    if (part.startsWith('!')) return JSON.parse(part.slice(1)) as unknown;
    return unescapeSegment(part).replaceAll(',', '|');
  });
  const having = variants.filter((v) => carriesValue(v, values, root));
  return having.length === 1 ? having[0] : undefined;
}

export interface FieldReading {
  /** Where the path ends: the field's schema, or undefined when the field is not there. */
  schema?: JsonRecord;
  /** Why not: the first step that could not be followed. */
  missing?: string;
  /** Is the field listed in `required` by the object that holds it? null for variants and elements. */
  required: boolean | null;
  /** The schema at the end of the path, before it: the field's holder (to tell a union). */
  parent?: JsonRecord;
}

/**
 * Follows `anchor` (relative, as a history event's `field`: `.a.b`, `.x:value.y`) from the
 * input schema `root`. A step that does not exist gives `missing`; a form this reader does
 * not know throws UnsupportedAnchor.
 */
export function locateField(root: JsonRecord, anchor: string): FieldReading {
  let cur: JsonRecord = root;
  let required: boolean | null = null;
  let parent: JsonRecord | undefined;
  const steps = anchorSteps(anchor);
  if (steps.some((s) => s.sep === ':' && /^!(then|else)/.test(s.text)))
    throw new UnsupportedAnchor(`the verifier does not follow if/then/else branches (${anchor})`);
  let walked = '';
  for (const { sep, text } of steps) {
    const here = throughArrays(cur, root);
    parent = here;
    walked += sep + text;
    if (sep === '.') {
      if (text === '*') {
        const extra = here['additionalProperties'];
        if (!isObject(extra)) return { missing: `no map values at ${walked}`, required: null };
        cur = extra;
        required = null;
      } else if (text.startsWith('*')) {
        const pattern = unescapeSegment(text.slice(1));
        const pats = isObject(here['patternProperties']) ? here['patternProperties'] : {};
        if (!isObject(pats[pattern])) return { missing: `no keys matching ${pattern} at ${walked}`, required: null };
        cur = pats[pattern] as JsonRecord;
        required = null;
      } else {
        const name = unescapeSegment(text);
        const props = propertiesOf(here);
        const next = props?.[name];
        if (!isObject(next)) return { missing: `no property ${JSON.stringify(name)} at ${walked}`, required: null };
        cur = next;
        const req = here['required'];
        required = Array.isArray(req) && req.includes(name);
      }
    } else if (sep === ':') {
      const variants = variantsOf(here);
      if (!variants) return { missing: `no union at ${walked}`, required: null };
      const chosen = selectVariant(variants, text, root);
      if (!chosen) return { missing: `no variant ${text} at ${walked}`, required: null };
      cur = chosen;
      required = null;
    } else {
      const index = Number(text);
      const items = (
        Array.isArray(here['prefixItems'])
          ? here['prefixItems']
          : Array.isArray(here['items'])
            ? here['items']
            : undefined
      ) as unknown[] | undefined;
      if (!items || !isObject(items[index])) return { missing: `no element ${index} at ${walked}`, required: null };
      cur = items[index] as JsonRecord;
      required = null;
    }
  }
  return { schema: resolveSchema(cur, root), required, ...(parent ? { parent } : {}) };
}

/** Is the schema a union (anyOf/oneOf with two or more members that are not null)? */
export function isUnion(schema: JsonRecord, root: JsonRecord): boolean {
  const s = throughArrays(schema, root);
  const variants = variantsOf(s);
  return variants !== undefined && variants.filter((v) => !isNullSchema(v)).length >= 2;
}
