/**
 * "Check a payload" on a tool page: which schema a tool's checker validates
 * against, how a pasted text is read (a tool input, or a hook payload whose
 * `tool_input` is checked), and how each Ajv error becomes a message that links
 * to the nearest row of the field table (error-rows.ts, which the build's
 * payload findings use too).
 *
 * Pure and small: the page's on-demand script (src/scripts/payload-check.ts)
 * bundles it, and tool-page.ts asks it whether a page has the section. Only
 * types come from the model.
 */
import { parseAnchor } from './anchors.ts';
import { errorSegments, errorTable, pointerSegments, type ValidationError } from './error-rows.ts';
import type { ToolModel } from './model.ts';

/** The table (and schema) a tool's checker uses: its root is also the id of that table's heading. */
export type CheckedSection = 'input' | 'model-input';

export interface PayloadCheckTarget {
  section: CheckedSection;
  /** The published schema, beside the page: `model-input.schema.json`. */
  schemaFile: string;
  /** The precompiled validator, beside the page: `validate-model-input.js`. */
  validatorFile: string;
}

const hasSchema = (kind: string | undefined) => kind === 'json-schema' || kind === 'typescript';

/**
 * The schema a tool's checker validates against: the model-facing schema when
 * the page has one (that is what a model sends; the published type is what an
 * SDK declares), else the input's, when it is a JSON Schema or a TypeScript type.
 * Grammars (freeform tools) and unavailable inputs have no checker.
 */
export function payloadCheckTarget(tool: Pick<ToolModel, 'input' | 'modelInput'>): PayloadCheckTarget | undefined {
  const section: CheckedSection | undefined = hasSchema(tool.modelInput?.view.definition.kind)
    ? 'model-input'
    : hasSchema(tool.input.definition.kind)
      ? 'input'
      : undefined;
  return section && { section, schemaFile: `${section}.schema.json`, validatorFile: `validate-${section}.js` };
}

const isIndex = (s: string) => /^(0|[1-9][0-9]*)$/.test(s);

/** `questions[0].options[1].label`, `env["a.b"]`: a path as a reader writes it. */
export function pathText(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) {
    if (isIndex(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += (out === '' ? '' : '.') + s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** The JSON type of a value, as schemas name types. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The value at a JSON Pointer, or undefined. */
export function valueAt(value: unknown, pointer: string): unknown {
  let here = value;
  for (const s of pointerSegments(pointer)) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[s];
  }
  return here;
}

const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** One error in words, without its path: `must be string, not integer (5)`, `is required`. */
export function errorText(error: ValidationError, value: unknown): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
    case 'dependentRequired':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not a field the schema allows';
    case 'type': {
      const actual = valueAt(value, error.instancePath);
      const wanted = String(p.type).split(',').join(' or ');
      return `must be ${wanted}, not ${jsonType(actual)} (${shown(actual)})`;
    }
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map(shown).join(', ')}`;
    case 'const':
      return `must be ${shown(p.allowedValue)}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

export interface ErrorLine {
  /** Where, as a reader writes the path; `(the whole input)` at the root. */
  path: string;
  text: string;
  /** The row id to link to. */
  anchor: string;
}

/**
 * Every error as a line with its anchor, duplicates (same place and text,
 * which unions repeat) once each, in Ajv's order.
 */
export function errorLines(errors: readonly ValidationError[], value: unknown, rowIds: readonly string[], root: string): ErrorLine[] {
  const lines: ErrorLine[] = [];
  const seen = new Set<string>();
  const anchorOf = errorTable(rowIds, root);
  for (const error of errors) {
    const segments = errorSegments(error);
    const line = { path: segments.length === 0 ? '(the whole input)' : pathText(segments), text: errorText(error, value), anchor: anchorOf(error) };
    const key = `${line.path}\u0000${line.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(line);
  }
  return lines;
}

/** What a pasted text is. */
export type Payload =
  | { kind: 'empty' }
  | { kind: 'not-json'; message: string }
  | { kind: 'input'; value: unknown }
  /** A hook payload (Claude Code's PreToolUse, …): its `tool_input` is what gets checked. */
  | { kind: 'hook'; value: unknown; event?: string; toolName?: string };

// Its own one-line guard rather than ../json.ts: this module is served to the browser as is, and
// opening the checker fetches no module beyond the ones it needs (test/e2e/payload-check.test.ts).
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the pasted text: JSON, and either the tool's input itself or a hook
 * payload, an object with `tool_input` beside hook fields (`hook_event_name`,
 * `tool_name`, `session_id`…). An object is read as the input when the table
 * has a top-level `tool_input` field of its own (`ownFields`: the table's
 * top-level field names).
 */
export function readPayload(text: string, ownFields: ReadonlySet<string> = new Set()): Payload {
  if (text.trim() === '') return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'not-json', message: (error as Error).message };
  }
  if (isObject(value) && 'tool_input' in value && !ownFields.has('tool_input')) {
    const hook: Payload = { kind: 'hook', value: value.tool_input };
    if (typeof value.hook_event_name === 'string') hook.event = value.hook_event_name;
    if (typeof value.tool_name === 'string') hook.toolName = value.tool_name;
    return hook;
  }
  return { kind: 'input', value };
}

/** The top-level field names of a table, from its row ids (`input.command` → `command`). */
export function topLevelFields(rowIds: readonly string[], root: string): Set<string> {
  const names = new Set<string>();
  for (const id of rowIds) {
    try {
      const steps = parseAnchor(id, root).filter((s) => s.kind !== 'variant');
      const first = steps[0];
      if (steps.length === 1 && first?.kind === 'property') names.add(first.name);
    } catch {
      // not a row of this table
    }
  }
  return names;
}

/** Words for the verdict, around the error list. */
export interface Verdict {
  valid: boolean | undefined;
  /** The first line: `Valid.`, `Not valid: 2 errors.`, `Not JSON: …`. */
  headline: string;
  /** What was checked, and how: `Checked the tool_input of this PreToolUse hook payload…`. */
  notes: string[];
}

/**
 * The verdict's words. `schemaLabel` names what was checked against (`the
 * model-facing schema of Bash, Claude Code 2.1.332`); `names` are the names the
 * tool answers to, for telling a hook payload meant for another tool.
 */
export function verdict(payload: Payload, result: { valid: boolean; errorCount: number } | undefined, schemaLabel: string, names: readonly string[]): Verdict {
  switch (payload.kind) {
    case 'empty':
      return { valid: undefined, headline: 'Nothing to check: paste a JSON input first.', notes: [] };
    case 'not-json':
      return { valid: undefined, headline: `Not JSON: ${payload.message}`, notes: [] };
    default: {
      const notes: string[] = [];
      if (payload.kind === 'hook') {
        const event = payload.event === undefined ? 'hook payload' : `${payload.event} hook payload`;
        notes.push(`This is a ${event}: only its tool_input was checked, the other fields were not.`);
        if (payload.toolName !== undefined && !names.includes(payload.toolName)) {
          notes.push(`Its tool_name is ${payload.toolName}, not ${names[0] ?? 'this tool'}: checked against this page's schema anyway.`);
        }
      }
      const n = result?.errorCount ?? 0;
      const headline = result?.valid ? `Valid against ${schemaLabel}.` : `Not valid against ${schemaLabel}: ${n} ${n === 1 ? 'error' : 'errors'}.`;
      return { valid: result?.valid ?? false, headline, notes };
    }
  }
}
