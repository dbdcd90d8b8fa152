/**
 * Shape → rows of a field table (Field / Type / Required / Meaning and defaults).
 *
 * One row per property at every depth, with the path that reaches it; arrays of
 * objects list their items' fields under `list[]`, union variants get a header
 * row labelled by their discriminator (`status: "completed"`) and list their own
 * fields under it. Every row carries its anchor id (see anchors.ts).
 */
import { anchorFor, displayPath, unescapeSegment, type PathSegment, type Root } from './anchors.ts';
import { literalValues, stripNullable, type Constraints, type LiteralValue, type ObjectShape, type Shape } from './shape.ts';

export interface FieldRow {
  id: string;
  /** Path as shown, e.g. `structuredPatch[].lines`, `(status: "completed").agentId`. */
  path: string;
  /** Last part of the path, shown indented by `depth`. */
  name: string;
  /** What the Field column shows: the path relative to the row above it (`.read`, `[].lines`). */
  label: string;
  depth: number;
  /** `property`, `variant` (a union member header), `map-value` (index signature), `items`, `root`. */
  role: 'property' | 'variant' | 'map-value' | 'items' | 'root';
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
      return shape.properties.length === 0 && shape.additional ? `map of ${typeText(shape.additional)}` : 'object';
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
  if (c.pattern !== undefined) out.push(`pattern: ${c.pattern}`);
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
      if (!prop || !prop.required || !lits) {
        ok = false;
        break;
      }
      values.push(...lits);
    }
    if (ok && new Set(values.map((v) => JSON.stringify(v))).size === values.length) return candidate.name;
  }
  return undefined;
}

interface VariantLabel {
  /** Shown: `status: "completed"` or `variant 2 (string)`. */
  text: string;
  /** Used in the anchor: `completed`, `2`. */
  key: string;
}

function variantLabels(variants: readonly Shape[]): VariantLabel[] {
  const disc = discriminatorOf(variants);
  return variants.map((v, i) => {
    const inner = stripNullable(v).shape;
    if (disc && inner.kind === 'object') {
      const lits = literalValues(stripNullable(inner.properties.find((p) => p.name === disc)!.shape).shape)!;
      return {
        text: `${disc}: ${lits.map(literalText).join(' | ')}`,
        key: lits.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('|'),
      };
    }
    return { text: `variant ${i + 1} (${typeText(inner)})`, key: String(i + 1) };
  });
}

/** Whether a shape has fields to list below it (objects, arrays of them, unions of them). */
function hasChildren(shape: Shape): boolean {
  const inner = stripNullable(shape).shape;
  switch (inner.kind) {
    case 'object':
      return inner.properties.length > 0 || inner.additional !== undefined;
    case 'array':
      return hasChildren(inner.items) || stripNullable(inner.items).shape.kind === 'array';
    case 'union':
      return inner.variants.some(hasChildren);
    case 'tuple':
      return inner.items.some(hasChildren);
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
  extra: { name: string; required: boolean | null; description?: string | undefined; deprecated?: boolean | undefined },
): FieldRow {
  const { shape: inner, nullable } = stripNullable(shape);
  const row: FieldRow = {
    id: anchorFor(root, segments),
    path: displayPath(segments),
    name: extra.name,
    label: relativeLabel(segments, parentLength, extra.name),
    depth,
    role,
    type: typeText(inner) + (nullable ? ' | null' : ''),
    required: extra.required,
    nullable,
    deprecated: Boolean(extra.deprecated || inner.deprecated),
    constraints: constraintTexts({ ...inner.constraints, ...(shape === inner ? {} : shape.constraints) }),
  };
  const description = extra.description ?? inner.description ?? shape.description;
  if (description) row.description = description;
  const lits = literalValues(inner);
  if (lits) row.literals = lits;
  return row;
}

/** `.read` under `file_system`, `[].lines` under `structuredPatch`, `file_path` at the top. */
function relativeLabel(segments: PathSegment[], parentLength: number, name: string): string {
  const last = segments[segments.length - 1];
  if (last?.kind === 'variant' || last?.kind === 'map-value') return name;
  let start = parentLength;
  while (start > 0 && segments[start - 1]!.kind === 'items') start--; // show `[].lines`, not `.lines`
  const rel = displayPath(segments.slice(start));
  const parent = segments.slice(0, start);
  const parentIsVariantOrRoot = parent.length === 0 || parent[parent.length - 1]!.kind === 'variant';
  if (parentIsVariantOrRoot || rel.startsWith('[')) return rel;
  return '.' + rel;
}

/** Emits rows for what lies below `shape` (not `shape` itself). */
function walkChildren(shape: Shape, segments: PathSegment[], depth: number, root: Root, rows: FieldRow[]): void {
  const inner = stripNullable(shape).shape;
  switch (inner.kind) {
    case 'object': {
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
      return;
    }
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
    case 'tuple':
      // Positional tuples are rare in tool definitions; their members are shown by type only.
      return;
    case 'union': {
      if (!hasChildren(inner)) return;
      const labels = variantLabels(inner.variants);
      inner.variants.forEach((variant, i) => {
        const segs: PathSegment[] = [...segments, { kind: 'variant', label: labels[i]!.key, display: labels[i]!.text }];
        rows.push(makeRow(root, segs, segments.length, depth, 'variant', variant, { name: labels[i]!.text, required: null }));
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

/**
 * The row's path without union-variant labels, as plain property names joined
 * by dots (`structuredPatch.lines`, `answers.*`): what two definitions of one
 * tool are compared on.
 */
export function plainPath(row: FieldRow, root: Root): string {
  return row.id
    .slice(root.length)
    .replace(/:[A-Za-z0-9_~-]*/g, '')
    .split('.')
    .filter((s) => s !== '' && s !== '~5B~5D')
    .map((s) => (s === '*' ? '*' : unescapeSegment(s)))
    .join('.');
}

export interface FieldDifference {
  path: string;
  kind: 'only-in-first' | 'only-in-second' | 'required' | 'type';
  first?: string;
  second?: string;
}

/** Field-level differences between two definitions of one tool (first vs second). */
export function diffRows(first: FieldRow[], firstRoot: Root, second: FieldRow[], secondRoot: Root): FieldDifference[] {
  const index = (rows: FieldRow[], root: Root) => {
    const map = new Map<string, { required: Set<string>; types: Set<string> }>();
    for (const r of rows) {
      if (r.role !== 'property' && r.role !== 'map-value') continue;
      const key = plainPath(r, root);
      const entry = map.get(key) ?? { required: new Set(), types: new Set() };
      entry.required.add(r.required ? 'required' : 'optional');
      entry.types.add(r.type);
      map.set(key, entry);
    }
    return map;
  };
  const a = index(first, firstRoot);
  const b = index(second, secondRoot);
  const out: FieldDifference[] = [];
  const text = (set: Set<string>) => [...set].sort().join(' / ');
  for (const [path, ea] of a) {
    const eb = b.get(path);
    if (!eb) {
      out.push({ path, kind: 'only-in-first' });
      continue;
    }
    if (text(ea.required) !== text(eb.required)) out.push({ path, kind: 'required', first: text(ea.required), second: text(eb.required) });
    if (text(ea.types) !== text(eb.types)) out.push({ path, kind: 'type', first: text(ea.types), second: text(eb.types) });
  }
  for (const path of b.keys()) if (!a.has(path)) out.push({ path, kind: 'only-in-second' });
  return out.sort((x, y) => x.path.localeCompare(y.path) || x.kind.localeCompare(y.kind));
}
