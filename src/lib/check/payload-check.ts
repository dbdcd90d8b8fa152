/**
 * Real payloads (content/payloads/, recorded by `npm run payloads`) against what the
 * site declares for their tool:
 * - each input as the model stub sent it, validated with Ajv (draft 2020-12, the site's
 *   lenient instance for upstream schemas) against the model-facing JSON Schema of the
 *   tool's primary captured configuration;
 * - the input the before-event hook (PreToolUse) received, against the tool's Input rows
 *   (for Claude Code's SDK-typed tools: the SDK input type);
 * - each structured result (Claude Code's stream-json `tool_use_result`, the after-event
 *   hook's response, PostToolUse's `tool_response`) against the tool's Result rows (the
 *   SDK result type, or code mode's declared result).
 * Hook payloads are read through the agent's hook shape (hook-shape.ts).
 * Rows are the site's field rows (src/lib/shapes/field-rows.ts), so every finding names a field
 * anchor of the tool page: a field present in the payload but not declared, a field
 * declared required but absent, a value of another JSON type than declared, a value
 * outside a listed set. A value the masking replaced (`"$DURATION"`) is not type-checked.
 * Pure: no file is read here.
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { PayloadFile } from '../core/content-types.ts';
import { anchorFor, type PathSegment, type Root } from '../shapes/anchors.ts';
import { primaryConfiguration } from '../model/captures.ts';
import { compileDefinition, definitionAjv } from './definition-ajv.ts';
import { errorTable } from './error-rows.ts';
import type { FieldRow } from '../shapes/field-rows.ts';
import type { Finding, FindingKind, PayloadPart, ToolModel } from '../model/model.ts';
import { pointerToken } from '../core/json.ts';
import {
  hasHookInput,
  hasHookResponse,
  hookInput,
  hookMember,
  hookOfEvent,
  hookShapeOf,
  hookToolName,
} from '../agents/hook-shape.ts';

// ---------------------------------------------------------------------------
// What the site declares

export interface Declarations {
  /**
   * The JSON Schema the model is sent, from the tool's primary captured configuration, and
   * the table of the page that shows it (`model-input`, or `input` when the input is that schema).
   */
  modelInput?: { schema: Record<string, unknown>; config: string; table: CheckedTable };
  /** The Input rows of the tool page (root `input`). */
  inputRows: FieldRow[];
  /** The Result rows of the tool page (root `output`); empty when the result is not declared. */
  resultRows: FieldRow[];
  /** Whether the page declares a result at all (SDK result type, code mode's result type). */
  resultDeclared: boolean;
}

/** A field table an input is checked against: its root (the id of its heading) and its rows. */
export interface CheckedTable {
  root: Root;
  rows: readonly FieldRow[];
}

/** What a tool page declares, as the check reads it. */
export function declarationsOf(tool: ToolModel): Declarations {
  const out: Declarations = {
    inputRows: tool.input.rows,
    resultRows: tool.output.rows,
    resultDeclared: tool.output.definition.kind !== 'unavailable',
  };
  const model = tool.modelInput?.view.definition;
  // A schema that does not compile is already an error of its own; it is not compiled again to check payloads.
  if (model?.kind === 'json-schema') {
    if (!tool.modelInput!.view.broken) {
      out.modelInput = {
        schema: model.schema as Record<string, unknown>,
        config: tool.modelInput!.config,
        table: { root: 'model-input', rows: tool.modelInput!.view.rows },
      };
    }
  } else if (tool.input.definition.kind === 'json-schema' && tool.captured && !tool.input.broken) {
    out.modelInput = {
      schema: tool.input.definition.schema as Record<string, unknown>,
      config: primaryConfiguration(tool.captured),
      table: { root: 'input', rows: tool.input.rows },
    };
  }
  return out;
}

// ---------------------------------------------------------------------------
// Findings

export type { Finding, FindingKind, PayloadPart };

// ---------------------------------------------------------------------------
// Values against field rows

type JsonKind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonKind;
}

/** A string that only names a masked value (`$DURATION`, `$SESSION_ID`). */
export function isPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && /^\$[A-Z][A-Z0-9_]*$/.test(value);
}

/** Splits a type text at its top-level ` | `. */
function alternatives(type: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || c === '>') depth--;
    else if (depth === 0 && type.startsWith(' | ', i)) {
      out.push(type.slice(start, i));
      start = i + 3;
      i += 2;
    }
  }
  out.push(type.slice(start));
  return out.map((t) => t.trim());
}

/**
 * The JSON kinds a row's type text allows, or undefined when the text does not say
 * (`unknown`, `any`, a named type that was not expanded).
 */
export function kindsOfType(type: string): Set<JsonKind> | undefined {
  const kinds = new Set<JsonKind>();
  for (const alt of alternatives(type)) {
    if (alt === 'undefined' || alt === 'never') continue;
    if (alt.endsWith('[]') || alt.startsWith('[')) kinds.add('array');
    else if (alt === 'string' || alt.startsWith('"')) kinds.add('string');
    else if (alt === 'number' || alt === 'integer' || /^-?\d/.test(alt)) kinds.add('number');
    else if (alt === 'boolean' || alt === 'true' || alt === 'false') kinds.add('boolean');
    else if (alt === 'null') kinds.add('null');
    else if (alt === 'object' || alt.startsWith('map of')) kinds.add('object');
    else return undefined;
  }
  return kinds.size === 0 ? undefined : kinds;
}

const segmentsKey = (segments: readonly PathSegment[]): string =>
  JSON.stringify(segments.map(({ display: _d, ...rest }: PathSegment & { display?: string }) => rest));

/** A raw finding of the row walk, before it is given its call and parts. */
interface RowProblem {
  kind: Exclude<FindingKind, 'schema' | 'hook-tool-name' | 'rule-contradicted'>;
  anchor: string;
  pointer: string;
  message: string;
}

/** Field rows indexed by the segments of the place they sit under. */
class RowTree {
  readonly root: Root;
  private readonly children = new Map<string, FieldRow[]>();
  constructor(rows: readonly FieldRow[], root: Root) {
    this.root = root;
    for (const row of rows) {
      const key = segmentsKey(row.segments.slice(0, -1));
      const list = this.children.get(key) ?? [];
      list.push(row);
      this.children.set(key, list);
    }
  }
  under(segments: readonly PathSegment[]): FieldRow[] {
    return this.children.get(segmentsKey(segments)) ?? [];
  }
}

const isVariant = (row: FieldRow): boolean => row.role === 'variant';
const lastSegment = (row: FieldRow): PathSegment => row.segments[row.segments.length - 1]!;

function article(kind: JsonKind): string {
  return kind === 'object' || kind === 'array' ? `an ${kind}` : kind === 'null' ? 'null' : `a ${kind}`;
}

function typeProblem(row: FieldRow, value: unknown, pointer: string): RowProblem | undefined {
  if (isPlaceholder(value)) return undefined;
  const kinds = kindsOfType(row.type);
  if (!kinds) return undefined;
  const kind = kindOf(value);
  if (kinds.has(kind)) return undefined;
  return {
    kind: 'type',
    anchor: row.id,
    pointer,
    message: `${row.path} is ${article(kind)} in the payload; declared ${row.type}`,
  };
}

function literalProblem(row: FieldRow, value: unknown, pointer: string): RowProblem | undefined {
  if (!row.literals || isPlaceholder(value) || (value !== null && typeof value === 'object')) return undefined;
  if (row.literals.some((l) => l === value)) return undefined;
  return {
    kind: 'not-listed',
    anchor: row.id,
    pointer,
    message: `${row.path} is ${JSON.stringify(value)} in the payload; declared ${row.type}`,
  };
}

/**
 * `value` against the variants of a union: the problems of the variant it fits best (of the right JSON type, then the
 * fewest problems, then the first).
 */
function matchVariants(
  tree: RowTree,
  value: unknown,
  segments: PathSegment[],
  pointer: string,
  variants: readonly FieldRow[],
  out: RowProblem[],
): void {
  // The variant the value fits best: of the right JSON type, then the fewest problems, then the first.
  let best: { problems: RowProblem[]; score: number } | undefined;
  let typedOut = 0;
  for (const variant of variants) {
    const problems: RowProblem[] = [];
    const typed = typeProblem(variant, value, pointer);
    if (typed) {
      typedOut++;
      continue;
    }
    matchValue(tree, value, variant.segments, pointer, problems);
    if (!best || problems.length < best.problems.length) best = { problems, score: problems.length };
  }
  if (best) out.push(...best.problems);
  else if (typedOut === variants.length) {
    // No variant has the value's JSON type: one problem at the union itself.
    const anchor = anchorFor(tree.root, segments);
    const where =
      segments.length === 0
        ? `the ${tree.root}`
        : (tree.under(segments.slice(0, -1)).find((r) => r.id === anchor)?.path ?? anchor);
    const types = [...new Set(variants.map((v) => v.type))];
    const declared =
      types.length === 1 && types[0] === 'object'
        ? `an object (one of ${variants.length} variants)`
        : types.join(' | ');
    out.push({
      kind: 'type',
      anchor,
      pointer,
      message: `${where} is ${article(kindOf(value))} in the payload; declared ${declared}`,
    });
  }
}

/** An object's members against the rows of its properties, of its if/then/else branches and of its keyed values. */
function matchObject(
  tree: RowTree,
  object: Record<string, unknown>,
  children: readonly FieldRow[],
  segments: PathSegment[],
  pointer: string,
  out: RowProblem[],
): void {
  const properties = children.filter((r) => r.role === 'property');
  const maps = children.filter((r) => r.role === 'map-value');
  // Fields of if/then/else branches are declared too (which branch applies is not worked out).
  const branchFields = children
    .filter((r) => lastSegment(r).kind === 'condition')
    .flatMap((b) => tree.under(b.segments))
    .filter((r) => r.role === 'property');
  // Nothing said about this object's fields.
  if (properties.length === 0 && maps.length === 0 && branchFields.length === 0) return;
  for (const [key, v] of Object.entries(object)) {
    const at = `${pointer}/${pointerToken(key)}`;
    const row =
      properties.find((r) => r.name === key) ??
      branchFields.find((r) => r.name === key) ??
      maps.find((r) => {
        const seg = lastSegment(r);
        return seg.kind === 'map-value' && seg.pattern !== undefined && new RegExp(seg.pattern, 'u').test(key);
      }) ??
      maps.find((r) => {
        const seg = lastSegment(r);
        return seg.kind === 'map-value' && seg.pattern === undefined;
      });
    if (!row) {
      const anchor = anchorFor(tree.root, [...segments, { kind: 'property', name: key }]);
      out.push({ kind: 'undeclared', anchor, pointer: at, message: `${key} is in the payload but not declared` });
      continue;
    }
    const typed = typeProblem(row, v, at);
    if (typed) {
      out.push(typed);
      continue;
    }
    const listed = literalProblem(row, v, at);
    if (listed) out.push(listed);
    matchValue(tree, v, row.segments, at, out);
  }
  for (const row of properties) {
    if (row.required === true && !(row.name in object)) {
      out.push({
        kind: 'missing-required',
        anchor: row.id,
        pointer: `${pointer}/${pointerToken(row.name)}`,
        message: `${row.path} is declared required but absent`,
      });
    }
  }
}

/** `value`, found at `pointer`, against the rows under `segments` (the place of a row, or the root). */
function matchValue(tree: RowTree, value: unknown, segments: PathSegment[], pointer: string, out: RowProblem[]): void {
  const children = tree.under(segments);
  if (Array.isArray(value)) {
    const nested = children.find((r) => lastSegment(r).kind === 'nested-items');
    value.forEach((element, i) => {
      const at = `${pointer}/${i}`;
      if (nested) {
        const p = typeProblem(nested, element, at);
        if (p) out.push(p);
        else matchValue(tree, element, nested.segments, at, out);
      } else matchValue(tree, element, [...segments, { kind: 'items' }], at, out);
    });
    return;
  }
  const variants = children.filter((r) => isVariant(r) && lastSegment(r).kind !== 'condition');
  if (variants.length > 0) matchVariants(tree, value, segments, pointer, variants, out);
  if (value === null || typeof value !== 'object') return;
  matchObject(tree, value as Record<string, unknown>, children, segments, pointer, out);
}

/**
 * `value` against a table of field rows whose root is `root` (`input`, `output`): what
 * is in the value and not declared, declared required and absent, of another type, or
 * outside listed values. Rows with nothing to say (no rows) give no findings.
 */
export function checkAgainstRows(value: unknown, rows: readonly FieldRow[], root: Root): RowProblem[] {
  if (rows.length === 0) return [];
  const tree = new RowTree(rows, root);
  const out: RowProblem[] = [];
  const top = tree.under([]);
  if (
    top.some((r) => r.role === 'property' || r.role === 'map-value') &&
    !top.some(isVariant) &&
    (value === null || typeof value !== 'object' || Array.isArray(value))
  ) {
    return [
      {
        kind: 'type',
        anchor: String(root),
        pointer: '',
        message: `the ${root} is ${article(kindOf(value))} in the payload; declared an object`,
      },
    ];
  }
  matchValue(tree, value, [], '', out);
  return out;
}

// ---------------------------------------------------------------------------
// The input against the model-facing JSON Schema

/** Pointers of the strings in `value` that only name a masked value. */
function placeholderPointers(value: unknown, pointer = '', out: Set<string> = new Set()): Set<string> {
  if (isPlaceholder(value)) out.add(pointer);
  else if (Array.isArray(value)) value.forEach((v, i) => placeholderPointers(v, `${pointer}/${i}`, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) placeholderPointers(v, `${pointer}/${pointerToken(k)}`, out);
  return out;
}

/**
 * Validators compiled per Ajv instance and schema object: a tool's model-facing
 * schema is the same object for every payload and call, and compiling it again
 * gives the same function (it keeps no state between calls but its `errors`).
 */
const compiledValidators = new WeakMap<Ajv2020, WeakMap<object, ValidateFunction>>();

function validatorOf(ajv: Ajv2020, schema: Record<string, unknown>): ValidateFunction {
  let bySchema = compiledValidators.get(ajv);
  if (!bySchema) compiledValidators.set(ajv, (bySchema = new WeakMap()));
  let validate = bySchema.get(schema);
  if (!validate) {
    validate = compileDefinition(ajv, schema);
    bySchema.set(schema, validate);
  }
  return validate;
}

/**
 * `input` against the model-facing JSON Schema; errors at masked values are left out. Each
 * error names the row of `table` it is about, as the page's "Check a payload" form links it
 * (error-rows.ts): the deepest row of its path, in the union variant it came from.
 */
export function checkModelInput(
  input: unknown,
  schema: Record<string, unknown>,
  table: CheckedTable,
  ajv: Ajv2020 = definitionAjv(),
): { anchor: string; pointer: string; message: string }[] {
  const validate = validatorOf(ajv, schema);
  if (validate(input)) return [];
  const masked = placeholderPointers(input);
  const anchorOf = errorTable(
    table.rows.map((r) => r.id),
    table.root,
  );
  return (validate.errors ?? [])
    .filter((e) => !masked.has(e.instancePath))
    .map((e) => {
      const params = e.params as { additionalProperty?: string; missingProperty?: string };
      const detail = params.additionalProperty !== undefined ? ` (${params.additionalProperty})` : '';
      return {
        anchor: anchorOf(e),
        pointer: e.instancePath,
        message: `${e.instancePath || 'the input'} ${e.message ?? 'is invalid'}${detail}`,
      };
    });
}

// ---------------------------------------------------------------------------
// A whole payload

/**
 * Every finding of one payload. `declarationsFor` gives what the site declares for a
 * tool by its name (a follow-up may call another tool); a tool it does not know is not
 * checked. Findings are in call order, then part, then the order of the walk.
 */
export function checkPayload(
  payload: PayloadFile,
  declarationsFor: (tool: string) => Declarations | undefined,
  ajv: Ajv2020 = definitionAjv(),
): Finding[] {
  const findings: Finding[] = [];
  // Hook payloads are read through the agent's hook shape; an agent without one has none to check.
  const shape = hookShapeOf(payload.agent);
  payload.calls.forEach((call, index) => {
    const declared = declarationsFor(call.tool);
    if (!declared) return;
    const push = (
      parts: PayloadPart[],
      p: { kind: FindingKind; anchor: string; pointer: string; message: string },
    ): void => {
      findings.push({ call: index, tool: call.tool, parts, ...p });
    };
    if (declared.modelInput && typeof call.input === 'object') {
      for (const e of checkModelInput(call.input, declared.modelInput.schema, declared.modelInput.table, ajv))
        push(['input'], { kind: 'schema', ...e });
    }
    const pre = shape && hookOfEvent(call.hooks, shape, shape.before, call.hookEvents);
    if (shape && pre && hasHookInput(pre, shape)) {
      const name = hookToolName(pre, shape);
      if (name !== undefined && name !== call.tool) {
        push(['hook tool_input'], {
          kind: 'hook-tool-name',
          anchor: 'input',
          pointer: '',
          message:
            `the hooks name the call ${JSON.stringify(name)}, with their own tool_input; not checked ` +
            `against ${call.tool}'s input`,
        });
      } else {
        for (const p of checkAgainstRows(hookInput(pre, shape), declared.inputRows, 'input'))
          push(['hook tool_input'], p);
      }
    }
    if (!declared.resultDeclared) return;
    // The structured results; a value the hook and stream-json both carry is checked once.
    const results: { parts: PayloadPart[]; value: unknown }[] = [];
    const add = (part: PayloadPart, value: unknown): void => {
      const same = results.find((r) => JSON.stringify(r.value) === JSON.stringify(value));
      if (same) same.parts.push(part);
      else results.push({ parts: [part], value });
    };
    if ('toolUseResult' in call) add('tool_use_result', call.toolUseResult);
    const post = shape && hookOfEvent(call.hooks, shape, shape.after, call.hookEvents);
    if (shape && post && hasHookResponse(post, shape) && [undefined, call.tool].includes(hookToolName(post, shape)))
      add('hook tool_response', hookMember(post, shape.responseField));
    for (const r of results) for (const p of checkAgainstRows(r.value, declared.resultRows, 'output')) push(r.parts, p);
  });
  return findings;
}

/**
 * One line per finding: `call 1 Bash [tool_use_result] undeclared output.noOutputExpected: noOutputExpected is in the
 * payload but not declared`.
 */
export function findingLine(f: Finding): string {
  return `call ${f.call + 1} ${f.tool} [${f.parts.join(', ')}] ${f.kind} ${f.anchor}: ${f.message}`;
}
