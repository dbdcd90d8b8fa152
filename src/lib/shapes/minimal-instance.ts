/**
 * A small value that a JSON Schema accepts, derived from the schema alone: `const` or
 * the first `enum` value; an object of its required properties only; the fewest items
 * (`minItems`, and every `prefixItems` entry); the lowest bound of a number, or
 * `defaultNumber` when nothing bounds it from below; false; null. `anyOf` / `oneOf`
 * take their first branch and `allOf` all its parts, merged into the schema beside them
 * (properties merged, required names added, other keywords replaced); a `$ref`
 * (local, `#/…`) is its target with the keywords beside it merged in the same way.
 * `type` is read case-insensitively (Gemini's OpenAPI subset writes `OBJECT`); of a
 * list of types, the first that is not `null`. A string with a `pattern` is the one RandExp
 * makes taking the lowest option at every choice (default options only). Not a solver: `not`,
 * conditionals and `uniqueItems` are not looked at. Pure.
 *
 * Two users, one each way:
 * - tests of the published schemas (src/lib/exports), with the default options: the
 *   shortest strings (a valid example of a well-known `format`), 0 for an unbounded
 *   number, null where the schema allows anything; a schema that cannot be satisfied
 *   or read throws;
 * - the capture stub's reply to a Gemini request for JSON output
 *   (src/lib/wire/gemini-api.ts): `{ text: STUB_REPLY_TEXT, defaultNumber: 1,
 *   lenient: true }`.
 */
import RandExp from 'randexp';
import { isObject, resolveLocalRef, type JsonRecord } from '../core/json.ts';

export interface MinimalInstanceOptions {
  /**
   * Strings are made of this text: repeated until `minLength` is reached (at least
   * once), cut to `maxLength` (never below `minLength`); formats are not looked at.
   * Without it, a string is the shortest one: `minLength` letters `a`, or an example
   * of its well-known `format`.
   */
  text?: string;
  /** The value of a number nothing bounds from below (default 0). */
  defaultNumber?: number;
  /**
   * A reply that must not fail, to a schema in Gemini's OpenAPI subset: counts
   * (`minLength`, `maxLength`, `minItems`) may be strings (`"2"`); a schema that says
   * nothing of its type (`true`, absent, no `type`, an unknown type) gives a string;
   * what cannot be satisfied or read (`false`, a reference that is not local or does
   * not resolve, nesting deeper than MAX_DEPTH) gives a string too, instead of an error.
   */
  lenient?: boolean;
}

/** How deep the schema is followed (references, combinators, members, items). */
const MAX_DEPTH = 32;

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

class Unsatisfiable extends Error {}

/** `base` with the keywords of `part` merged in: properties merged, required names added, other keywords replaced. */
function merge(base: JsonRecord, part: unknown): JsonRecord {
  const out = { ...base };
  if (!isObject(part)) return out;
  for (const [key, value] of Object.entries(part)) {
    if (key === 'properties' && isObject(out['properties']) && isObject(value))
      out['properties'] = { ...out['properties'], ...value };
    else if (key === 'required' && Array.isArray(out['required']) && Array.isArray(value))
      out['required'] = [...out['required'], ...value];
    else out[key] = value;
  }
  return out;
}

/** A count keyword (minLength, minItems, …): a number, or with `lenient` anything Number() reads. */
function countOf(s: JsonRecord, key: string, lenient: boolean): number | undefined {
  const value = s[key];
  if (lenient) return value === undefined ? undefined : Number(value);
  return typeof value === 'number' ? value : undefined;
}

/**
 * The string RandExp makes from a `pattern` when every choice takes its lowest option (fewest
 * repetitions, first character of each class): deterministic, and accepted by the pattern.
 * Undefined when RandExp cannot read the pattern or its string breaks the length bounds.
 */
function patternString(pattern: string, min: number, max: number | undefined): string | undefined {
  try {
    const generator = new RandExp(pattern);
    generator.randInt = (low: number) => low;
    const value = generator.gen();
    return value.length >= min && (max === undefined || value.length <= max) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shortest string the schema allows (its format's example, or its pattern's lowest string), or `text` repeated to
 * fit its length bounds.
 */
function minimalString(s: JsonRecord, text: string | undefined, lenient: boolean): string {
  const min = countOf(s, 'minLength', lenient) ?? 0;
  if (text === undefined) {
    const example = typeof s['format'] === 'string' ? FORMAT_EXAMPLES[s['format']] : undefined;
    const patterned =
      typeof s['pattern'] === 'string' ? patternString(s['pattern'], min, countOf(s, 'maxLength', lenient)) : undefined;
    return example ?? patterned ?? 'a'.repeat(min);
  }
  const max = countOf(s, 'maxLength', lenient);
  const repeated = text.repeat(Math.max(1, Math.ceil(min / text.length)));
  return max !== undefined ? repeated.slice(0, Math.max(min, max)) : repeated;
}

/** The smallest number the bounds allow, from `defaultNumber` when there is no lower bound. */
function minimalNumber(s: JsonRecord, integer: boolean, defaultNumber: number): number {
  const num = (key: string): number | undefined => (typeof s[key] === 'number' ? s[key] : undefined);
  const [minimum, exclusiveMinimum, maximum, exclusiveMaximum, multipleOf] = [
    'minimum',
    'exclusiveMinimum',
    'maximum',
    'exclusiveMaximum',
    'multipleOf',
  ].map(num);
  let low = minimum;
  if (exclusiveMinimum !== undefined && (low === undefined || low <= exclusiveMinimum))
    low = exclusiveMinimum + (integer ? 1 : 0.5);
  let n = low ?? defaultNumber;
  if (integer) n = Math.ceil(n);
  if (maximum !== undefined && n > maximum) n = integer ? Math.floor(maximum) : maximum;
  if (exclusiveMaximum !== undefined && n >= exclusiveMaximum)
    n = (integer ? Math.ceil(exclusiveMaximum) : exclusiveMaximum) - 1;
  if (multipleOf !== undefined && multipleOf > 0) n = Math.ceil(n / multipleOf) * multipleOf;
  return n;
}

/**
 * What a schema's composition keywords make of it: the value const or enum fixes, the schema to
 * read instead ($ref resolved, the first anyOf/oneOf branch, allOf merged, each with the keywords
 * beside it), a reason no value fits, or undefined when it has none of them.
 */
function composed(
  root: unknown,
  s: JsonRecord,
): { value: unknown } | { node: JsonRecord } | { unsatisfiable: string } | undefined {
  if (typeof s['$ref'] === 'string') {
    const { $ref: ref, ...beside } = s;
    const target = resolveLocalRef(root, ref);
    if (target === undefined)
      return {
        unsatisfiable: ref.startsWith('#')
          ? `reference ${ref} does not resolve`
          : `only local references are followed, not ${ref}`,
      };
    if (target === false) return { unsatisfiable: `reference ${ref} is the schema false, which accepts no value` };
    return { node: merge(isObject(target) ? target : {}, beside) };
  }
  if (Object.hasOwn(s, 'const')) return { value: s['const'] };
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return { value: s['enum'][0] };
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const { [key]: _branches, ...beside } = s;
      return { node: merge(beside, branches[0]) };
    }
  }
  const parts = s['allOf'];
  if (Array.isArray(parts) && parts.length > 0) {
    const { allOf: _parts, ...beside } = s;
    return { node: parts.reduce<JsonRecord>(merge, beside) };
  }
  return undefined;
}

export function minimalInstance(schema: unknown, options: MinimalInstanceOptions = {}): unknown {
  const { text, defaultNumber = 0, lenient = false } = options;
  return instance({ root: schema, text, defaultNumber, lenient }, schema, 0);
}

/** One making: the whole schema (references resolve against it) and the options, defaults filled in. */
interface Making {
  root: unknown;
  text: string | undefined;
  defaultNumber: number;
  lenient: boolean;
}

/** The value of a schema that allows any value. */
function anything(m: Making): unknown {
  return m.lenient ? minimalString({}, m.text, m.lenient) : null;
}

/** What no value satisfies: an error, or with `lenient` a value anyway (a reply must not fail). */
function unsatisfiable(m: Making, why: string): unknown {
  if (m.lenient) return anything(m);
  throw new Unsatisfiable(why);
}

/** The value of one node of the schema, `depth` steps below the root. */
function instance(m: Making, node: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH)
    return unsatisfiable(m, 'the schema nests too deeply (a reference cycle with required members?)');
  if (node === false) return unsatisfiable(m, 'the schema false accepts no value');
  if (!isObject(node)) return anything(m);
  const made = composed(m.root, node);
  if (made && 'unsatisfiable' in made) return unsatisfiable(m, made.unsatisfiable);
  if (made && 'value' in made) return made.value;
  if (made) return instance(m, made.node, depth + 1);
  return typedInstance(m, node, depth);
}

/**
 * The type a node is read as: the first of its types that is not null (case-insensitive), else an
 * object or an array when its keywords say so.
 */
function typeOf(s: JsonRecord): string | undefined {
  const types = (Array.isArray(s['type']) ? s['type'] : [s['type']])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.toLowerCase());
  if (types.length > 0) return types.find((t) => t !== 'null') ?? types[0];
  if (isObject(s['properties']) || Array.isArray(s['required'])) return 'object';
  return s['items'] !== undefined ? 'array' : undefined;
}

/** The value of a node with no composition keyword, by its type. */
function typedInstance(m: Making, s: JsonRecord, depth: number): unknown {
  switch (typeOf(s)) {
    case 'object':
      return objectInstance(m, s, depth);
    case 'array':
      return arrayInstance(m, s, depth);
    case 'integer':
      return minimalNumber(s, true, m.defaultNumber);
    case 'number':
      return minimalNumber(s, false, m.defaultNumber);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return minimalString(s, m.text, m.lenient);
    default:
      return m.lenient ? minimalString(s, m.text, m.lenient) : null;
  }
}

/** Its required members only, each the value of its property's schema (else of additionalProperties). */
function objectInstance(m: Making, s: JsonRecord, depth: number): unknown {
  const properties = isObject(s['properties']) ? s['properties'] : {};
  const others = isObject(s['additionalProperties']) ? s['additionalProperties'] : true;
  const required = Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [];
  return Object.fromEntries(
    required.map((name) => [name, instance(m, Object.hasOwn(properties, name) ? properties[name] : others, depth + 1)]),
  );
}

/** The fewest items: minItems, and every prefixItems entry. */
function arrayInstance(m: Making, s: JsonRecord, depth: number): unknown {
  const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : [];
  const length = Math.max(countOf(s, 'minItems', m.lenient) ?? 0, prefix.length);
  return Array.from({ length }, (_, i) => instance(m, i < prefix.length ? prefix[i] : (s['items'] ?? true), depth + 1));
}
