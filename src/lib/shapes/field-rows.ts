/**
 * Shape → rows of a field table (Field / Type / Required / Meaning and defaults).
 *
 * One row per property at every depth, with the path that reaches it; arrays of
 * objects list their items' fields under `list[]`, union variants get a header
 * row labelled by their discriminator (`status: "completed"`) and list their own
 * fields under it; tuple elements get a row per position (`[0]`), keys matching
 * a pattern a row per pattern, if/then/else a header row per branch. Every row
 * carries its anchor id (see anchors.ts).
 */
import { anchorFor, displayPath, stableAnchorFor, type PathSegment, type Root } from './anchors.ts';
import { variantIdentities } from './variant-identity.ts';
import {
  isUnconstrainedType,
  literalText,
  mergeConstraints,
  literalValues,
  stripNullable,
  typeText,
  type Condition,
  type Constraints,
  type LiteralValue,
  type ObjectShape,
  type Shape,
} from './shape.ts';

export { literalText, typeText };

export interface FieldRow {
  /** The table the row belongs to (`input`, `output`, `model-input`): the id of its heading. */
  root: Root;
  /** The structured path from the root: the id, the display path and the comparison key are derived from it. */
  segments: PathSegment[];
  /** Anchor id: the root followed by `anchorFor` of the segments (`input.file_path`, `output:completed.agentId`). */
  id: string;
  /**
   * The stable anchor (anchors.ts): `id` with every union variant known by position spelled by
   * its identity when it has one (`output:+asset_upload.id` for `output:7.id`); equal to `id`
   * otherwise. Release histories name fields by it; the page gives the row both.
   */
  stableId: string;
  /**
   * The path without union-variant labels (`structuredPatch.lines`, `answers.*`,
   * `range[0]`): what two definitions of one tool are compared on, whatever the
   * variants are called or numbered.
   */
  fieldKey: string;
  /** Path as shown, e.g. `structuredPatch[].lines`, `(status: "completed").agentId`. */
  path: string;
  /** Last part of the path, shown indented by `depth`. */
  name: string;
  /** What the Field column shows: the path relative to the row above it (`.read`, `[].lines`). */
  label: string;
  depth: number;
  /**
   * `property`, `variant` (a union member or if/then/else branch header),
   * `map-value` (index signature, additionalProperties, patternProperties),
   * `position` (a tuple element), `items`, `root`.
   */
  role: 'property' | 'variant' | 'map-value' | 'position' | 'items' | 'root';
  type: string;
  /** null where requiredness does not apply (variant headers, the root). */
  required: boolean | null;
  nullable: boolean;
  deprecated: boolean;
  description?: string;
  /** The allowed values when the type is a union of literals (or one literal). */
  literals?: LiteralValue[];
  /** Explicit facts from the definition: default, bounds, format, pattern. */
  constraints: string[];
}

function constraintTexts(c: Constraints | undefined): string[] {
  if (!c) return [];
  const out: string[] = [];
  if (c.default !== undefined) out.push(`default: ${JSON.stringify(c.default)}`);
  if (c.minimum !== undefined) out.push(`minimum: ${c.minimum}`);
  if (c.exclusiveMinimum !== undefined) out.push(`greater than ${c.exclusiveMinimum}`);
  if (c.maximum !== undefined) out.push(`maximum: ${c.maximum}`);
  if (c.exclusiveMaximum !== undefined) out.push(`less than ${c.exclusiveMaximum}`);
  if (c.minLength !== undefined) out.push(`min length: ${c.minLength}`);
  if (c.maxLength !== undefined) out.push(`max length: ${c.maxLength}`);
  if (c.minItems !== undefined) out.push(`min items: ${c.minItems}`);
  if (c.maxItems !== undefined) out.push(`max items: ${c.maxItems}`);
  if (c.format !== undefined) out.push(`format: ${c.format}`);
  for (const pattern of c.patterns ?? []) out.push(`pattern: ${pattern}`);
  if (c.multipleOf !== undefined) out.push(`multiple of: ${c.multipleOf}`);
  if (c.uniqueItems) out.push('unique items');
  if (c.minProperties !== undefined) out.push(`min properties: ${c.minProperties}`);
  if (c.maxProperties !== undefined) out.push(`max properties: ${c.maxProperties}`);
  for (const text of constraintTexts(c.keys)) out.push(`key ${text}`);
  return out;
}

/** The property whose literal value tells the object variants of a union apart. */
export function discriminatorOf(variants: readonly Shape[]): string | undefined {
  const objects = variants.map((v) => stripNullable(v).shape);
  if (objects.length < 2 || !objects.every((o): o is ObjectShape => o.kind === 'object')) return undefined;
  for (const candidate of objects[0]!.properties) {
    const values: LiteralValue[] = [];
    let ok = true;
    for (const o of objects) {
      const prop = o.properties.find((p) => p.name === candidate.name);
      const lits = prop && literalValues(stripNullable(prop.shape).shape);
      if (!prop?.required || !lits) {
        ok = false;
        break;
      }
      values.push(...lits);
    }
    if (ok && new Set(values.map((v) => JSON.stringify(v))).size === values.length) return candidate.name;
  }
  return undefined;
}

/** The path segment (anchor key and shown label) of each variant of a union. */
function variantSegments(variants: readonly Shape[]): Extract<PathSegment, { kind: 'variant' | 'discriminated' }>[] {
  const disc = discriminatorOf(variants);
  const identities = disc ? [] : variantIdentities(variants);
  return variants.map((v, i) => {
    const inner = stripNullable(v).shape;
    if (disc && inner.kind === 'object') {
      const lits = literalValues(stripNullable(inner.properties.find((p) => p.name === disc)!.shape).shape)!;
      return { kind: 'discriminated', values: lits, display: `${disc}: ${lits.map(literalText).join(' | ')}` };
    }
    const identity = identities[i];
    const segment: PathSegment & { kind: 'variant' } = {
      kind: 'variant',
      label: String(i + 1),
      display: identity?.label ?? `variant ${i + 1} (${typeText(inner)})`,
    };
    if (identity) segment.identity = identity.key;
    return segment;
  });
}

/** `kind: "a" and mode: "b"` when the `if` of a condition only tests literal property values. */
function conditionSummary(test: Shape): string | undefined {
  const inner = stripNullable(test).shape;
  if (inner.kind !== 'object' || inner.properties.length === 0) return undefined;
  const parts: string[] = [];
  for (const p of inner.properties) {
    const lits = literalValues(stripNullable(p.shape).shape);
    if (!lits) return undefined;
    parts.push(`${p.name}: ${lits.map(literalText).join(' | ')}`);
  }
  return parts.join(' and ');
}

function conditionLabel(condition: Condition, branch: 'then' | 'else'): string {
  const summary = conditionSummary(condition.if);
  if (branch === 'then') return summary ? `if ${summary}` : 'if the "if" schema matches';
  if (condition.then) return 'else';
  return summary ? `unless ${summary}` : 'unless the "if" schema matches';
}

/**
 * A branch as listed under its header: the fields it mentions. A field the
 * branch only names (`required: ["x"]`) or leaves untyped takes its type and
 * meaning from the same field of the shape the condition is attached to.
 */
function branchShape(base: Shape, branch: Shape): Shape {
  const baseObject = stripNullable(base).shape;
  const inner = stripNullable(branch).shape;
  if (baseObject.kind !== 'object' || inner.kind !== 'object') return branch;
  const properties = inner.properties.map((p) => {
    const from = baseObject.properties.find((b) => b.name === p.name);
    if (!from || !isUnconstrainedType(p.shape)) return p;
    const shape: Shape = { ...from.shape };
    const constraints = mergeConstraints(from.shape.constraints, p.shape.constraints);
    if (constraints) shape.constraints = constraints;
    const merged = { ...p, shape };
    const description = p.description ?? from.description;
    if (description !== undefined) merged.description = description;
    return merged;
  });
  return { ...inner, properties };
}

/** Whether a shape has fields to list below it (objects, arrays of them, unions of them, tuples, conditions). */
function hasChildren(shape: Shape): boolean {
  if (shape.conditions?.some((c) => c.then || c.else)) return true;
  const inner = stripNullable(shape).shape;
  if (inner !== shape && inner.conditions?.some((c) => c.then || c.else)) return true;
  switch (inner.kind) {
    case 'object':
      return (
        inner.properties.length > 0 || inner.additional !== undefined || (inner.patternProperties?.length ?? 0) > 0
      );
    case 'array':
      return hasChildren(inner.items) || stripNullable(inner.items).shape.kind === 'array';
    case 'union':
      return inner.variants.some(hasChildren);
    case 'tuple':
      return inner.items.length > 0;
    default:
      return false;
  }
}

export interface RowsOptions {
  root: Root;
}

export function fieldRows(shape: Shape, options: RowsOptions): FieldRow[] {
  const rows: FieldRow[] = [];
  walkChildren(shape, [], 0, options.root, rows);
  return rows;
}

function makeRow(
  root: Root,
  segments: PathSegment[],
  parentLength: number,
  depth: number,
  role: FieldRow['role'],
  shape: Shape,
  extra: {
    name: string;
    required: boolean | null;
    description?: string | undefined;
    deprecated?: boolean | undefined;
    /** Shown instead of the shape's own type (a branch that only adds constraints shows its base's type). */
    typeOf?: Shape | undefined;
  },
): FieldRow {
  const { shape: inner, nullable } = stripNullable(extra.typeOf ?? shape);
  const row: FieldRow = {
    root,
    segments,
    id: anchorFor(root, segments),
    stableId: stableAnchorFor(root, segments),
    fieldKey: fieldKeyOf(segments),
    path: displayPath(segments),
    name: extra.name,
    label: relativeLabel(segments, parentLength, extra.name),
    depth,
    role,
    type: typeText(inner) + (nullable ? ' | null' : ''),
    required: extra.required,
    nullable,
    deprecated: Boolean(extra.deprecated || inner.deprecated),
    constraints: constraintTexts(
      extra.typeOf ? shape.constraints : { ...inner.constraints, ...(shape === inner ? {} : shape.constraints) },
    ),
  };
  const description =
    extra.description ?? (extra.typeOf ? shape.description : (inner.description ?? shape.description));
  if (description) row.description = description;
  const lits = literalValues(inner);
  if (lits) row.literals = lits;
  return row;
}

const isVariantSegment = (seg: PathSegment): boolean =>
  seg.kind === 'variant' || seg.kind === 'discriminated' || seg.kind === 'condition';
/** Rows whose label is their own name rather than a path: variant headers, map values, tuple positions. */
const isHeaderSegment = (seg: PathSegment): boolean =>
  isVariantSegment(seg) || seg.kind === 'map-value' || seg.kind === 'position';

/** `.read` under `file_system`, `[].lines` under `structuredPatch`, `file_path` at the top. */
function relativeLabel(segments: PathSegment[], parentLength: number, name: string): string {
  const last = segments[segments.length - 1];
  if (last && isHeaderSegment(last)) return name;
  let start = parentLength;
  while (start > 0 && segments[start - 1]!.kind === 'items') start--; // show `[].lines`, not `.lines`
  const rel = displayPath(segments.slice(start));
  const parent = segments.slice(0, start);
  const parentIsVariantOrRoot = parent.length === 0 || isVariantSegment(parent[parent.length - 1]!);
  if (parentIsVariantOrRoot || rel.startsWith('[')) return rel;
  return '.' + rel;
}

/** Emits rows for what lies below `shape` (not `shape` itself). */
function walkChildren(shape: Shape, segments: PathSegment[], depth: number, root: Root, rows: FieldRow[]): void {
  walkStructure(shape, segments, depth, root, rows);
  const inner = stripNullable(shape).shape;
  const conditions = [...(shape.conditions ?? []), ...(inner !== shape ? (inner.conditions ?? []) : [])];
  conditions.forEach((condition, index) => {
    for (const branch of ['then', 'else'] as const) {
      const part = condition[branch];
      if (!part) continue;
      const display = conditionLabel(condition, branch);
      const segs: PathSegment[] = [...segments, { kind: 'condition', index, branch, display }];
      const typeOf = isUnconstrainedType(stripNullable(part).shape) ? inner : undefined;
      rows.push(
        makeRow(root, segs, segments.length, depth, 'variant', part, { name: display, required: null, typeOf }),
      );
      walkChildren(branchShape(shape, part), segs, depth + 1, root, rows);
    }
  });
}

/** Rows for an object's properties, its pattern-keyed values and its other keys' values. */
function walkObject(
  inner: Extract<Shape, { kind: 'object' }>,
  segments: PathSegment[],
  depth: number,
  root: Root,
  rows: FieldRow[],
): void {
  for (const prop of inner.properties) {
    const segs: PathSegment[] = [...segments, { kind: 'property', name: prop.name }];
    rows.push(
      makeRow(root, segs, segments.length, depth, 'property', prop.shape, {
        name: prop.name,
        required: prop.required,
        description: prop.description,
        deprecated: prop.deprecated,
      }),
    );
    walkChildren(prop.shape, segs, depth + 1, root, rows);
  }
  for (const { pattern, shape: value } of inner.patternProperties ?? []) {
    const segs: PathSegment[] = [...segments, { kind: 'map-value', pattern }];
    const row = makeRow(root, segs, segments.length, depth, 'map-value', value, {
      name: `[key matching /${pattern}/]`,
      required: false,
    });
    if (!row.description) row.description = 'Any key matching this pattern; its value has this type.';
    rows.push(row);
    walkChildren(value, segs, depth + 1, root, rows);
  }
  if (inner.additional) {
    const segs: PathSegment[] = [...segments, { kind: 'map-value' }];
    const row = makeRow(root, segs, segments.length, depth, 'map-value', inner.additional, {
      name: `[${inner.additionalKeyName ?? 'key'}: string]`,
      required: false,
    });
    if (!row.description) row.description = 'Any other key; its value has this type.';
    rows.push(row);
    walkChildren(inner.additional, segs, depth + 1, root, rows);
  }
}

/** Rows for the fields of the shape's own structure (properties, items, variants, tuple elements). */
function walkStructure(shape: Shape, segments: PathSegment[], depth: number, root: Root, rows: FieldRow[]): void {
  const inner = stripNullable(shape).shape;
  switch (inner.kind) {
    case 'object':
      walkObject(inner, segments, depth, root, rows);
      return;
    case 'array': {
      const items = stripNullable(inner.items).shape;
      if (items.kind === 'array') {
        const segs: PathSegment[] = [...segments, { kind: 'nested-items' }];
        rows.push(makeRow(root, segs, segments.length, depth, 'items', inner.items, { name: '[]', required: null }));
        walkChildren(inner.items, segs, depth + 1, root, rows);
        return;
      }
      walkChildren(inner.items, [...segments, { kind: 'items' }], depth, root, rows);
      return;
    }
    case 'tuple': {
      const requiredCount = inner.requiredCount ?? inner.items.length;
      inner.items.forEach((item, index) => {
        const segs: PathSegment[] = [...segments, { kind: 'position', index }];
        rows.push(
          makeRow(root, segs, segments.length, depth, 'position', item, {
            name: `[${index}]`,
            required: index < requiredCount,
          }),
        );
        walkChildren(item, segs, depth + 1, root, rows);
      });
      return;
    }
    case 'union': {
      if (!hasChildren(inner)) return;
      const labels = variantSegments(inner.variants);
      inner.variants.forEach((variant, i) => {
        const seg = labels[i]!;
        const segs: PathSegment[] = [...segments, seg];
        rows.push(
          makeRow(root, segs, segments.length, depth, 'variant', variant, { name: seg.display!, required: null }),
        );
        walkChildren(variant, segs, depth + 1, root, rows);
      });
      return;
    }
    default:
      return;
  }
}

/** Anchor ids that occur more than once (a build error: links must be unambiguous). */
export function duplicateIds(rows: readonly FieldRow[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const r of rows) (seen.has(r.id) ? dups : seen).add(r.id);
  return [...dups];
}

/** The path without union-variant labels, as plain property names joined by dots. */
export function fieldKeyOf(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    switch (segment.kind) {
      case 'property':
        out += (out === '' ? '' : '.') + segment.name;
        break;
      case 'map-value':
        out += (out === '' ? '' : '.') + (segment.pattern === undefined ? '*' : `/${segment.pattern}/`);
        break;
      case 'position':
        out += `[${segment.index}]`;
        break;
      case 'items':
      case 'nested-items':
      case 'variant':
      case 'discriminated':
      case 'condition':
        break;
    }
  }
  return out;
}

export interface FieldDifference {
  path: string;
  kind: 'only-in-first' | 'only-in-second' | 'required' | 'type';
  first?: string;
  second?: string;
}

/** Field-level differences between two definitions of one tool (first vs second). */
export function diffRows(first: FieldRow[], second: FieldRow[]): FieldDifference[] {
  const index = (rows: FieldRow[]) => {
    const map = new Map<string, { required: Set<string>; types: Set<string> }>();
    for (const r of rows) {
      if (r.role !== 'property' && r.role !== 'map-value' && r.role !== 'position') continue;
      const key = r.fieldKey;
      const entry = map.get(key) ?? { required: new Set(), types: new Set() };
      entry.required.add(r.required ? 'required' : 'optional');
      entry.types.add(r.type);
      map.set(key, entry);
    }
    return map;
  };
  const a = index(first);
  const b = index(second);
  const out: FieldDifference[] = [];
  const text = (set: Set<string>) => [...set].sort().join(' / ');
  for (const [path, ea] of a) {
    const eb = b.get(path);
    if (!eb) {
      out.push({ path, kind: 'only-in-first' });
      continue;
    }
    if (text(ea.required) !== text(eb.required))
      out.push({ path, kind: 'required', first: text(ea.required), second: text(eb.required) });
    if (text(ea.types) !== text(eb.types))
      out.push({ path, kind: 'type', first: text(ea.types), second: text(eb.types) });
  }
  for (const path of b.keys()) if (!a.has(path)) out.push({ path, kind: 'only-in-second' });
  return out.sort((x, y) => x.path.localeCompare(y.path) || x.kind.localeCompare(y.kind));
}
