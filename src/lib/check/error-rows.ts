/**
 * From a JSON Schema validation error (Ajv's ErrorObject, or what the
 * precompiled standalone validators report, which is the same) to the row of
 * a field table it is about: the one mapping used both by the build (findings
 * of recorded payloads, src/lib/check/payload-check.ts) and by the browser ("Check a
 * payload", src/lib/check/payload-check-ui.ts).
 *
 * A table is given as its row ids in page order: that is all the browser has
 * (the rows' `id`s), and the build passes the same ids. Ids are read back
 * only through anchors.ts. Pure, imports nothing but anchors.ts: it is served
 * to the browser as is (pages/payload-check/[...module].ts).
 */
import { rowSteps, type AnchorStep } from '../shapes/anchors.ts';

/** What a validator reports per error (Ajv's ErrorObject, without importing Ajv). */
export interface ValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string | undefined;
}

/** `/questions/0/options/1/label` → `['questions', '0', 'options', '1', 'label']` (RFC 6901 `~1` and `~0` undone). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/**
 * The property an error is about, when the validator names it in `params` rather than in the path (a missing required
 * field, one not allowed).
 */
function namedProperty(error: ValidationError): string | undefined {
  const p = error.params;
  const name =
    error.keyword === 'required' || error.keyword === 'dependentRequired'
      ? p.missingProperty
      : error.keyword === 'additionalProperties'
        ? p.additionalProperty
        : error.keyword === 'unevaluatedProperties'
          ? p.unevaluatedProperty
          : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** The instance path an error is about: where it happened, plus the property it names (missing or not allowed). */
export function errorSegments(error: ValidationError): string[] {
  const segments = pointerSegments(error.instancePath);
  const named = namedProperty(error);
  return named === undefined ? segments : [...segments, named];
}

const isIndex = (s: string) => /^(0|[1-9][0-9]*)$/.test(s);

function patternMatches(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key);
  } catch {
    return true; // a pattern this browser cannot compile: the row is still the best place to point at
  }
}

/**
 * How many instance segments a row's anchor accounts for, when every step of
 * the anchor is matched (else -1). Array items are transparent in anchors, so
 * an index in the path may be skipped; union variants say nothing about the
 * path and match nothing.
 */
function consumed(steps: readonly AnchorStep[], segments: readonly string[]): number {
  const match = (step: number, at: number): number => {
    if (step === steps.length) {
      // What is left may only be array indices: `/questions/0` is the `questions` row.
      return segments.slice(at).every(isIndex) ? segments.length : at;
    }
    const s = steps[step]!;
    if (s.kind === 'variant') return match(step + 1, at);
    const here = segments[at];
    if (here === undefined) return -1;
    let best = -1;
    const fits =
      (s.kind === 'property' && here === s.name) ||
      (s.kind === 'map-value' && (s.pattern === undefined || patternMatches(s.pattern, here))) ||
      (s.kind === 'position' && here === String(s.index)) ||
      (s.kind === 'nested-items' && isIndex(here));
    if (fits) best = match(step + 1, at + 1);
    // An index the anchor does not show: the items of an array.
    if (isIndex(here) && s.kind !== 'nested-items') best = Math.max(best, match(step, at + 1));
    return best;
  };
  return match(0, 0);
}

/**
 * Which member of each union the error came from, by where the union is:
 * `#/properties/source/oneOf/1/properties/kind/enum` → `source` ↦ 1. The place
 * is the property names leading to it (`*` for any key), items left out.
 */
function unionBranches(schemaPath: string): Map<string, number> {
  const branches = new Map<string, number>();
  const names: string[] = [];
  const parts = schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === 'properties' && i + 1 < parts.length) names.push(parts[++i]!);
    else if (part === 'patternProperties' || part === 'additionalProperties') {
      names.push('*');
      if (part === 'patternProperties') i++;
    } else if ((part === 'anyOf' || part === 'oneOf') && i + 1 < parts.length)
      branches.set(names.join('.'), Number(parts[++i]));
  }
  return branches;
}

/** A row of the table, read back into its steps. */
interface TableRow {
  id: string;
  steps: AnchorStep[];
}

/** The place in a table that the steps before `end` lead to (where a union's variants sit). */
const placeOf = (steps: readonly AnchorStep[], end: number): string => JSON.stringify(steps.slice(0, end));

/** Per place in a table, the keys of its union variants in page order. */
function variantPlaces(rows: readonly TableRow[]): Map<string, string[]> {
  const places = new Map<string, string[]>();
  for (const { steps } of rows) {
    steps.forEach((s, i) => {
      if (s.kind !== 'variant') return;
      const place = placeOf(steps, i);
      const keys = places.get(place) ?? [];
      if (!keys.includes(s.key)) keys.push(s.key);
      places.set(place, keys);
    });
  }
  return places;
}

/**
 * How many of a row's union variants are the members the validator reported
 * from: the n-th variant of a place in the table (its keys in page order) is
 * member n of the union there.
 */
function variantAgreement(
  steps: readonly AnchorStep[],
  branches: ReadonlyMap<string, number>,
  variantsAt: ReadonlyMap<string, string[]>,
): number {
  let agree = 0;
  const names: string[] = [];
  steps.forEach((s, i) => {
    if (s.kind === 'variant') {
      const ordinal = variantsAt.get(placeOf(steps, i))?.indexOf(s.key) ?? -1;
      if (ordinal >= 0 && branches.get(names.join('.')) === ordinal) agree++;
    } else if (s.kind === 'property') names.push(s.name);
    else if (s.kind === 'map-value') names.push('*');
  });
  return agree;
}

/**
 * A table to map errors onto: `rowIds` are its row ids in page order, all
 * under `root` (the table's own id, its heading's); ids of other tables are
 * left out.
 */
export function errorTable(rowIds: readonly string[], root: string): (error: ValidationError) => string {
  const rows: TableRow[] = [];
  for (const id of rowIds) {
    const steps = rowSteps(id, root);
    if (steps) rows.push({ id, steps });
  }
  const places = variantPlaces(rows);
  return (error) => {
    const segments = errorSegments(error);
    const branches = unionBranches(error.schemaPath);
    let best = { id: root, depth: 0, agree: -1 };
    for (const { id, steps } of rows) {
      const depth = consumed(steps, segments);
      if (depth < 0) continue;
      const agree = variantAgreement(steps, branches, places);
      if (depth > best.depth || (depth === best.depth && depth > 0 && agree > best.agree)) best = { id, depth, agree };
    }
    return best.id;
  };
}

/**
 * The anchor of the row of `rowIds` (a table's row ids in page order, all under
 * `root`) nearest to where a validation error is: the row of the deepest field
 * of the error's path that the table has (`/questions/0/options/1/label` →
 * `input.questions.options.label`; a missing required property → its own row;
 * a property the schema does not allow → the object that holds it). When
 * several rows fit equally (the same field in several union variants), the
 * variant in the position of the union member the error came from (`oneOf/1`
 * → the second variant) wins, else the first. No row → `root` itself, the id
 * of the table's heading.
 */
export function nearestAnchor(rowIds: readonly string[], root: string, error: ValidationError): string {
  return errorTable(rowIds, root)(error);
}
