/**
 * "Check a payload" on a tool page: which schema a tool's checker validates
 * against, how a pasted text is read (a tool input, or a hook payload whose
 * `tool_input` is checked; a byte-order mark is skipped, numbers out of range
 * are refused), what is said of a hook payload (its tool_name, and the
 * tool_input form the site recorded for the tool's hooks), and how each Ajv
 * error becomes a message that links to the nearest row of the field table
 * (error-rows.ts, which the build's payload findings use too).
 *
 * Pure, and bounded for huge payloads: at most `MAX_LINES` errors are mapped
 * to rows, values are quoted only in part, and past `LIST_ALL_UP_TO`
 * characters the check stops at the first error (`validateFirst`). It runs in
 * the form's worker (src/scripts/payload-check-worker.ts); tool-page.ts asks it
 * whether a page has the section. Only types come from the model.
 */
import { parseAnchor } from '../shapes/anchors.ts';
import { errorSegments, errorTable, pointerSegments, type ValidationError } from './error-rows.ts';
import type { ToolModel } from '../model/model.ts';
import type {
  CheckedSection,
  HookFields,
  HookForm,
  HookOutputCheck,
  HookRecord,
  PayloadCheckTarget,
} from '../model/payload-check-record.ts';

export type { CheckedSection, HookFields, HookForm, HookOutputCheck, HookRecord, PayloadCheckTarget };

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

/** At most this many lines are listed (and mapped to rows); the headline gives the count. */
export const MAX_LINES = 50;

/**
 * Up to this many characters of pasted text, every error is collected (Ajv
 * `allErrors`, an error per field the schema does not allow); past it the check
 * stops at the first error, so that a huge payload is answered quickly.
 */
export const LIST_ALL_UP_TO = 1_000_000;

/**
 * JSON text as a reader would recognise it, cut after `max` characters with
 * `…`: the start of what JSON.stringify writes, without writing the rest (an
 * array of 400,000 items is not turned into megabytes of text to show 40
 * characters; an object's keys are still listed once, as `for…in` does).
 */
export function preview(value: unknown, max = 40): string {
  let out = '';
  const add = (text: string): boolean => {
    out += text;
    return out.length > max;
  };
  const walk = (v: unknown): boolean => {
    if (Array.isArray(v)) {
      if (add('[')) return true;
      for (let i = 0; i < v.length; i++) if ((i > 0 && add(',')) || walk(v[i])) return true;
      return add(']');
    }
    if (v !== null && typeof v === 'object') {
      if (add('{')) return true;
      let first = true;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (
          (!first && add(',')) ||
          add(`${JSON.stringify(key.slice(0, max + 1))}:`) ||
          walk((v as Record<string, unknown>)[key])
        )
          return true;
        first = false;
      }
      return add('}');
    }
    return add(typeof v === 'string' ? JSON.stringify(v.slice(0, max + 1)) : (JSON.stringify(v) ?? String(v)));
  };
  walk(value);
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

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
      return `must be ${wanted}, not ${jsonType(actual)} (${preview(actual)})`;
    }
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => preview(v)).join(', ')}`;
    case 'const':
      return `must be ${preview(p.allowedValue)}`;
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

/** A path as a line shows it: each name cut to 60 characters (a pasted key can be a megabyte long). */
function shownPath(segments: readonly string[]): string {
  if (segments.length === 0) return '(the whole input)';
  return pathText(segments.map((s) => (s.length > 60 ? `${s.slice(0, 59)}…` : s)));
}

/**
 * The errors as lines, duplicates (same place and text, which unions repeat)
 * once each, in Ajv's order: every distinct line is counted (`total`), but only
 * the first `limit` are worded in full and mapped to a row.
 */
export function listErrors(
  errors: readonly ValidationError[],
  value: unknown,
  rowIds: readonly string[],
  root: string,
  limit: number = MAX_LINES,
): { lines: ErrorLine[]; total: number } {
  const lines: ErrorLine[] = [];
  const seen = new Set<string>();
  const anchorOf = errorTable(rowIds, root);
  for (const error of errors) {
    const segments = errorSegments(error);
    const text = errorText(error, value);
    const key = `${JSON.stringify(segments)}\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (lines.length < limit) lines.push({ path: shownPath(segments), text, anchor: anchorOf(error) });
  }
  return { lines, total: seen.size };
}

/** Every error as a line with its anchor (listErrors without a limit). */
export function errorLines(
  errors: readonly ValidationError[],
  value: unknown,
  rowIds: readonly string[],
  root: string,
): ErrorLine[] {
  return listErrors(errors, value, rowIds, root, Infinity).lines;
}

/** What a pasted text is. */
export type Payload =
  | { kind: 'empty' }
  | { kind: 'not-json'; message: string }
  /**
   * JSON with numbers out of range of a 64-bit float (`1e400`), which JSON.parse
   * reads as ±Infinity: where they are in the pasted document (at most
   * MAX_LINES), how many there are, and where the checked value sits
   * (`/tool_input` in a hook payload).
   */
  | { kind: 'out-of-range'; places: OutOfRange[]; total: number; checked: string; byteOrderMark?: true }
  | { kind: 'input'; value: unknown; byteOrderMark?: true }
  /**
   * A hook payload (Claude Code's PreToolUse, …): its input (`tool_input`, decoded when a JSON text) is what gets
   * checked; `envelope` is the whole payload.
   */
  | {
      kind: 'hook';
      value: unknown;
      envelope: Record<string, unknown>;
      event?: string;
      toolName?: string;
      byteOrderMark?: true;
      /** The form it was read as (its members' names); DEFAULT_HOOK_FIELDS when absent. */
      fields?: HookFields;
    }
  /**
   * A hook's answer (its JSON on standard output): every member is one the agent's hook outputs declare; `event` when
   * it names one (`hookSpecificOutput.hookEventName`).
   */
  | { kind: 'hook-output'; value: Record<string, unknown>; event?: string; byteOrderMark?: true };

/** The member at `path` (a name, or a dotted path) of a payload; undefined when absent. */
export function memberAt(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split('.')) {
    if (!isObject(v) || !Object.hasOwn(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

/** The members Claude Code's and Codex's hook payloads use: the fields read when the page names none. */
export const DEFAULT_HOOK_FIELDS: HookFields = {
  event: 'hook_event_name',
  toolName: 'tool_name',
  input: 'tool_input',
  inputEncoding: 'object',
};

// Its own one-line guard rather than ../json.ts: this module is served to the browser as is, and
// opening the checker fetches no module beyond the ones it needs (test/e2e/payload-check.test.ts).
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a JSON text may hold a number out of range. A number overflows only
 * when its digits before the point and its exponent add up past 308: with an
 * exponent of at most two digits (99) that takes 210 digits before the point.
 * Cheap and conservative: a match (`"e100"` in a string too) only means the
 * parsed value is searched.
 */
const MAY_OVERFLOW = /[eE][+-]?\d{3}|\d{209}/;

/** A number JSON.parse read as Infinity or -Infinity, and its JSON Pointer. */
export interface OutOfRange {
  pointer: string;
  value: number;
}

/** The numbers that are not finite in a parsed value (at most `limit`), and how many there are. */
export function outOfRange(value: unknown, limit: number = MAX_LINES): { places: OutOfRange[]; total: number } {
  const places: OutOfRange[] = [];
  let total = 0;
  const stack: [unknown, string][] = [[value, '']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, pointer] = next;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) continue;
      if (total++ < limit) places.push({ pointer, value: v });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${pointer}/${i}`]);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push([
          (v as Record<string, unknown>)[keys[i]!],
          `${pointer}/${keys[i]!.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        ]);
    }
  }
  return { places, total };
}

/**
 * Reads the pasted text: JSON (a byte-order mark before it is skipped, as RFC
 * 8259 lets a parser do), and either the tool's input itself or a hook
 * payload, an object with `tool_input` beside hook fields (`hook_event_name`,
 * `tool_name`, `session_id`…). An object is read as the input when the table
 * has a top-level `tool_input` field of its own (`ownFields`: the table's
 * top-level field names). Numbers out of range make it `out-of-range`.
 */
export function readPayload(
  text: string,
  ownFields: ReadonlySet<string> = new Set(),
  forms: HookFields | readonly HookFields[] = DEFAULT_HOOK_FIELDS,
  outputs?: HookOutputCheck,
): Payload {
  const byteOrderMark = text.charCodeAt(0) === 0xfeff;
  if (byteOrderMark) text = text.slice(1);
  if (!/\S/.test(text)) return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'not-json', message: (error as Error).message };
  }
  const mark = byteOrderMark ? { byteOrderMark: true as const } : {};
  const fields = hookFormOf(value, ownFields, forms);
  // Only a text with a long exponent or a long run of digits can hold a number JSON.parse made infinite.
  if (MAY_OVERFLOW.test(text)) {
    const found = outOfRange(value);
    if (found.total > 0)
      return { kind: 'out-of-range', ...found, checked: fields ? memberPointer(fields.input) : '', ...mark };
  }
  if (fields && isObject(value)) return hookPayload(value, fields, mark);
  if (outputs && isObject(value) && isHookOutput(value, outputs, ownFields)) {
    const event = outputs.eventField === undefined ? undefined : memberAt(value, outputs.eventField);
    return { kind: 'hook-output', value, ...(typeof event === 'string' ? { event } : {}), ...mark };
  }
  return { kind: 'input', value, ...mark };
}

/**
 * The first of the agent's forms whose input member the object has (and the tool's own input has no field of that
 * name).
 */
function hookFormOf(
  value: unknown,
  ownFields: ReadonlySet<string>,
  forms: HookFields | readonly HookFields[],
): HookFields | undefined {
  const list = (Array.isArray(forms) ? forms : [forms]) as readonly HookFields[];
  return list.find((f) => memberAt(value, f.input) !== undefined && !ownFields.has(f.input.split('.')[0]!));
}

/** The JSON pointer of a member at a dotted path (`output.args` → `/output/args`). */
function memberPointer(path: string): string {
  return path
    .split('.')
    .map((k) => `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}

/** A hook payload read by its form: its input (decoded when the form sends it as a JSON text), event and tool name. */
function hookPayload(
  envelope: Record<string, unknown>,
  fields: HookFields,
  mark: { byteOrderMark?: true },
): Extract<Payload, { kind: 'hook' }> {
  let input = memberAt(envelope, fields.input);
  if (fields.inputEncoding === 'json-string' && typeof input === 'string') {
    try {
      input = JSON.parse(input) as unknown;
    } catch {
      // not JSON after all: checked as the string it is
    }
  }
  const payload: Extract<Payload, { kind: 'hook' }> = { kind: 'hook', value: input, envelope, ...mark, fields };
  const event = fields.event === undefined ? undefined : memberAt(envelope, fields.event);
  const toolName = memberAt(envelope, fields.toolName);
  if (typeof event === 'string') payload.event = event;
  if (typeof toolName === 'string') payload.toolName = toolName;
  return payload;
}

/** A hook's answer: only members the agent's outputs declare, none of them a field of the tool's own input. */
function isHookOutput(
  value: Record<string, unknown>,
  outputs: HookOutputCheck,
  ownFields: ReadonlySet<string>,
): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => outputs.members.includes(k) && !ownFields.has(k));
}

/** One event's verdict on a hook's answer. */
export interface OutputVerdict {
  event: string;
  valid: boolean;
  errors: ValidationError[];
}

/**
 * The answer for a hook's answer: valid when some checked event's schema accepts it (the
 * event it names, else each of the tool-call events in turn); otherwise the errors of the
 * event it names, or of the first event tried.
 */
export function outputAnswer(
  verdicts: readonly OutputVerdict[],
  check: HookOutputCheck,
  named: string | undefined,
): Answer {
  const notes = [
    `Read as a hook's answer: every member is one ${named === undefined ? 'these events' : named} may return, as ` +
      `${check.source} declares it.`,
  ];
  const passed = verdicts.filter((v) => v.valid);
  if (verdicts.length === 0)
    return {
      valid: undefined,
      headline: `No schema of a ${named ?? 'tool'} hook's answer is published for this agent.`,
      notes,
      lines: [],
      total: 0,
    };
  if (passed.length > 0)
    return {
      valid: true,
      headline: `Valid as the answer of a ${passed.map((v) => v.event).join(' or ')} hook.`,
      notes,
      lines: [],
      total: 0,
    };
  const first = verdicts[0]!;
  const lines = [
    ...new Map(
      first.errors.map((e) => {
        const segments = pointerSegments(e.instancePath);
        const path = segments.length === 0 ? '(the whole answer)' : pathText(segments);
        return [
          `${path} ${e.message ?? ''}`,
          { path, text: e.message ?? 'is not valid', anchor: 'check-payload' },
        ] as const;
      }),
    ).values(),
  ];
  return {
    valid: false,
    headline:
      `Not valid as the answer of a ${verdicts.map((v) => v.event).join(' or ')} hook: ` +
      `${count(lines.length, 'error')}${verdicts.length > 1 ? ` against ${first.event}` : ''}.`,
    notes,
    lines: lines.slice(0, MAX_LINES),
    total: lines.length,
  };
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

// ---------------------------------------------------------------------------
// Hook payloads

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `name` is one of `names`: exactly, or for a name with placeholders
 * (`mcp__<server>__<tool>`, a family of tools) by its pattern, each placeholder
 * standing for one or more characters.
 */
export function nameMatches(names: readonly string[], name: string): boolean {
  return names.some(
    (n) =>
      n === name ||
      (/<[^<>]+>/.test(n) &&
        new RegExp(
          `^${n
            .split(/<[^<>]+>/)
            .map(escapeRegExp)
            .join('.+')}$`,
          's',
        ).test(name)),
  );
}

/** `a`, `a or b`, `a, b or c`. */
const either = (items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
/** `a`, `a and b`, `a, b and c`. */
const both = (items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;

/** The JSON type a form compares: integers are numbers. */
const formType = (v: unknown) => (typeof v === 'number' ? 'number' : jsonType(v));

/** A recorded form in words: `an object with command (string)`. */
export function formText(form: HookForm): string {
  const objects = form.types.includes('object');
  const fields = form.fields.map(
    (f) => `${f.name}${f.types.length > 0 ? ` (${either(f.types)}${f.always ? '' : ', not always'})` : ''}`,
  );
  const others = form.types.filter((t) => t !== 'object');
  const parts = [
    ...(objects ? [fields.length > 0 ? `an object with ${both(fields)}` : 'an empty object'] : []),
    ...others.map((t) => `a ${t}`),
  ];
  return either(parts);
}

/**
 * How `value` differs from a recorded hook form: a JSON type not recorded, a
 * field no recorded one had, one every recorded one had but this lacks, a
 * value of a type not recorded for its field. At most `limit` lines; `total`
 * counts them all.
 */
export function formDifferences(
  value: unknown,
  form: HookForm,
  anchor: string,
  limit: number = MAX_LINES,
): { lines: ErrorLine[]; total: number } {
  const lines: ErrorLine[] = [];
  let total = 0;
  const push = (path: string, text: string) => {
    if (total++ < limit) lines.push({ path, text, anchor });
  };
  const type = formType(value);
  if (!form.types.includes(type)) {
    push(
      '(the whole input)',
      `is ${type === 'object' || type === 'array' ? 'an' : 'a'} ${type} (${preview(value)}); the recorded ones are ` +
        `${formText(form)}`,
    );
    return { lines, total };
  }
  if (!isObject(value)) return { lines, total };
  const fields = new Map(form.fields.map((f) => [f.name, f]));
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = fields.get(key);
    const path = shownPath([key]);
    if (!field) push(path, 'is a field no recorded hook input has');
    else if (field.types.length > 0 && !field.types.includes(formType(value[key]))) {
      push(path, `must be ${either(field.types)}, as recorded, not ${jsonType(value[key])} (${preview(value[key])})`);
    }
  }
  for (const f of form.fields)
    if (f.always && !Object.hasOwn(value, f.name))
      push(shownPath([f.name]), 'is required: every recorded hook input has it');
  return { lines, total };
}

// ---------------------------------------------------------------------------
// The answer

/** A precompiled validator (validate-[schema].js): Ajv's standalone function. */
export interface Validator {
  (value: unknown): boolean;
  errors?: ValidationError[] | null;
}

/** The validator module's two functions: every error, and stopping at the first. */
export interface Validators {
  validate: Validator;
  validateFirst: Validator;
}

/** What the form knows of its page. */
export interface CheckSettings {
  /** The rows of the table checked against, in page order (ids of other tables are ignored). */
  rowIds: readonly string[];
  /** That table's id (`model-input`, `input`). */
  root: string;
  /** The names the tool answers to, its own first (a name with `<placeholders>` is a family). */
  names: readonly string[];
  /** What a schema verdict says it checked against: `the model-facing schema of Bash (Claude Code 2.1.332)`. */
  schemaLabel: string;
  /** What the site recorded of this tool's hook payloads. */
  hook: HookRecord;
  /** The id of the section showing the recorded payloads, when the page has one. */
  examples?: string;
}

/** The answer to one check: the verdict's words and the lines listed. */
export interface Answer {
  valid: boolean | undefined;
  /** The first line: `Valid against …`, `Not valid against …: 2 errors.`, `Not JSON: …`. */
  headline: string;
  /** What was checked, and how. */
  notes: string[];
  /** At most MAX_LINES. */
  lines: ErrorLine[];
  /** How many lines there are in all; undefined when the check stopped at the first error. */
  total: number | undefined;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const megabytes = (size: number) => `${(size / 1_000_000).toFixed(1)} MB`;

/** Schema validation, bounded: every error up to LIST_ALL_UP_TO characters of text, else the first. */
function schemaCheck(
  value: unknown,
  settings: CheckSettings,
  validators: Validators,
  size: number,
): { valid: boolean; lines: ErrorLine[]; total: number | undefined; note?: string } {
  const all = size <= LIST_ALL_UP_TO;
  const validate = all ? validators.validate : validators.validateFirst;
  const valid = validate(value);
  if (valid) return { valid, lines: [], total: 0 };
  const { lines, total } = listErrors(validate.errors ?? [], value, settings.rowIds, settings.root);
  if (all) return { valid, lines, total };
  return {
    valid,
    lines,
    total: undefined,
    note:
      `The text is ${megabytes(size)}: past ${megabytes(LIST_ALL_UP_TO)} the check stops at the first error ` +
      `instead of listing them all, so that it answers quickly.`,
  };
}

const errorsText = (total: number | undefined) =>
  total === undefined ? 'stopped at the first error' : count(total, 'error');

/**
 * The answer to a pasted text, read by readPayload. `validators` is needed for
 * an input or a hook payload (not for an empty text, a text that is not JSON
 * or one with numbers out of range); `size` is the text's length.
 */
export function answer(
  payload: Payload,
  settings: CheckSettings,
  validators: Validators | undefined,
  size: number,
  envelope?: EnvelopeCheck,
): Answer {
  const name = settings.names[0] ?? 'this tool';
  const notes: string[] = [];
  if ('byteOrderMark' in payload && payload.byteOrderMark)
    notes.push('A byte-order mark (U+FEFF) before the JSON was skipped.');
  switch (payload.kind) {
    case 'empty':
      return { valid: undefined, headline: 'Nothing to check: paste a JSON input first.', notes, lines: [], total: 0 };
    case 'hook-output':
      throw new Error("a hook's answer is checked against its event's output schemas (outputAnswer)");
    case 'not-json':
      return { valid: undefined, headline: `Not JSON: ${payload.message}`, notes, lines: [], total: 0 };
    case 'out-of-range': {
      const anchorOf = errorTable(settings.rowIds, settings.root);
      const lines = payload.places.map(({ pointer, value }): ErrorLine => {
        const inside = pointer === payload.checked || pointer.startsWith(`${payload.checked}/`);
        const anchor = inside
          ? anchorOf({
              instancePath: pointer.slice(payload.checked.length),
              schemaPath: '#',
              keyword: 'type',
              params: {},
            })
          : settings.root;
        return {
          path: shownPath(pointerSegments(pointer)),
          text: `is a number too large for a 64-bit float (past ±1.8e308): JSON.parse reads it as ${String(value)}`,
          anchor,
        };
      });
      const n = payload.total;
      return {
        valid: false,
        headline:
          `Not valid: ${n === 1 ? 'a number' : `${count(n, 'number')}`} in it ${n === 1 ? 'is' : 'are'} ` +
          `too large for a 64-bit float (JSON.parse reads ${n === 1 ? 'it' : 'them'} as Infinity), so it ` +
          `was not checked against ${settings.schemaLabel}.`,
        notes,
        lines,
        total: n,
      };
    }
    case 'input': {
      const result = schemaCheck(payload.value, settings, validators!, size);
      if (result.note) notes.push(result.note);
      const headline = result.valid
        ? `Valid against ${settings.schemaLabel}.`
        : `Not valid against ${settings.schemaLabel}: ${errorsText(result.total)}.`;
      return { valid: result.valid, headline, notes, lines: result.lines, total: result.total };
    }
    case 'hook':
      return withEnvelope(hookAnswer(payload, settings, validators!, size, name, notes), payload, settings, envelope);
  }
}

/** What the tool's hook validator (validate-hooks.js) said of a whole hook payload, or why it could not run. */
export type EnvelopeCheck = { valid: boolean; errors: readonly ValidationError[] } | { failed: string };

/** The answer about the input, with what the hook schema says of every member of the payload added. */
function withEnvelope(
  answer: Answer,
  payload: Extract<Payload, { kind: 'hook' }>,
  settings: CheckSettings,
  check: EnvelopeCheck | undefined,
): Answer {
  const schema = settings.hook.schema;
  if (!check || schema === undefined) return answer;
  if ('failed' in check) {
    answer.notes.push(check.failed);
    return answer;
  }
  if (check.valid) {
    answer.notes.push(
      `Every member of the payload was checked against ${schema}, the hook schema recorded for ` +
        `${settings.names[0] ?? 'this tool'}: valid.`,
    );
    return answer;
  }
  const { lines, total } = listErrors(check.errors, payload.envelope, [], settings.examples ?? settings.root);
  answer.notes.push(
    `Every member of the payload was checked against ${schema}, the hook schema recorded for ` +
      `${settings.names[0] ?? 'this tool'}: ${count(total, 'error')} (listed after those of the input).`,
  );
  const room = Math.max(0, MAX_LINES - answer.lines.length);
  answer.lines = [...answer.lines, ...lines.slice(0, room).map((l) => ({ ...l, path: `payload ${l.path}` }))];
  if (answer.total !== undefined) answer.total += total;
  answer.valid = false;
  return answer;
}

/** What is said of any hook payload, whichever way its input is checked. */
interface HookWords {
  /** The tool's own name. */
  name: string;
  /** `a PreToolUse hook payload with tool_name Bash`. */
  what: string;
  /** The payload's own member names (Copilot CLI's toolName and toolArgs, OpenCode's input.tool and output.args). */
  nameField: string;
  inputField: string;
  /** `the 3 hook payloads recorded for Bash (…)`, when the site recorded some. */
  recorded: string | undefined;
  /** Exactly one payload was recorded (the verbs agree with it). */
  one: boolean;
  /** The headline when the payload names a tool this one is not. */
  mismatch: string | undefined;
}

function hookAnswer(
  payload: Extract<Payload, { kind: 'hook' }>,
  settings: CheckSettings,
  validators: Validators,
  size: number,
  name: string,
  notes: string[],
): Answer {
  const words = hookWords(payload, settings, name);
  // The hooks receive an input of their own: compare with what was recorded, not with the schema.
  if (settings.hook.form) return formAnswer(payload, settings, settings.hook.form, words, notes);
  return hookSchemaAnswer(payload, settings, validators, size, words, notes);
}

/** What a hook payload is, the payloads recorded, and whether it names a tool this one is not. */
function hookWords(payload: Extract<Payload, { kind: 'hook' }>, settings: CheckSettings, name: string): HookWords {
  const { hook } = settings;
  const { toolName: nameField, input: inputField } = payload.fields ?? DEFAULT_HOOK_FIELDS;
  const what =
    (payload.event === undefined ? 'a hook payload' : `a ${payload.event} hook payload`) +
    (payload.toolName === undefined ? '' : ` with ${nameField} ${payload.toolName}`);
  // The names the hooks use that the model does not (Codex's exec_command is `Bash` in hooks).
  const ownNames = hook.names.filter((n) => !nameMatches(settings.names, n));
  const recorded =
    hook.count > 0
      ? `the ${count(hook.count, 'hook payload')} recorded for ${name}${hook.release ? ` (${hook.release})` : ''}`
      : undefined;
  const one = hook.count === 1;
  const nameOk = payload.toolName === undefined || nameMatches([...settings.names, ...hook.names], payload.toolName);
  const mismatch = nameOk
    ? undefined
    : `Not a hook payload of ${name}: its ${nameField} is ${payload.toolName!}, ${
        ownNames.length > 0
          ? `and ${recorded ?? 'the recorded hook payloads'} ${one ? 'names' : 'name'} it ${either(hook.names)}`
          : `not ${either(settings.names)}`
      }.`;
  return { name, what, nameField, inputField, recorded, one, mismatch };
}

/** A payload whose input is compared, field by field, with the hook form the site recorded. */
function formAnswer(
  payload: Extract<Payload, { kind: 'hook' }>,
  settings: CheckSettings,
  form: HookForm,
  { name, what, nameField, inputField, recorded, one, mismatch }: HookWords,
  notes: string[],
): Answer {
  const names = settings.hook.names;
  const { lines, total } = formDifferences(payload.value, form, settings.examples ?? settings.root);
  notes.push(
    `This is ${what}. ${name}'s hooks do not receive the model's input: ` +
      `${recorded ?? 'the recorded hook payloads'} ${one ? 'carries' : 'carry'} ${nameField} ${either(names)} and a ` +
      `${inputField} of ${one ? 'its' : 'their'} own, ${formText(form)}. Its ${inputField} was compared with those, ` +
      `field by field, not checked against ${settings.schemaLabel}.`,
  );
  const matches = total === 0;
  if (mismatch) {
    notes.push(`Compared with the recorded hook form anyway: ${matches ? 'it matches' : count(total, 'difference')}.`);
    return { valid: false, headline: mismatch, notes, lines, total };
  }
  const headline = matches
    ? `Matches the hook form recorded for ${name} (${nameField} ${either(names)}).`
    : `Does not match the hook form recorded for ${name}: ${count(total, 'difference')}.`;
  return { valid: matches, headline, notes, lines, total };
}

/** A payload whose input is the model's (or may be): checked against the tool's schema. */
function hookSchemaAnswer(
  payload: Extract<Payload, { kind: 'hook' }>,
  settings: CheckSettings,
  validators: Validators,
  size: number,
  { name, what, inputField, recorded, mismatch }: HookWords,
  notes: string[],
): Answer {
  const result = schemaCheck(payload.value, settings, validators, size);
  notes.push(`This is ${what}: only its ${inputField} was checked, the other fields were not.`);
  notes.push(
    recorded
      ? `The ${inputField} of ${recorded} is the model's input, so it was checked against ${settings.schemaLabel}.`
      : `The site has no recorded hook payload of ${name}: its ${inputField} was checked against ` +
          `${settings.schemaLabel}, as if the hook received the model's input unchanged.`,
  );
  if (result.note) notes.push(result.note);
  if (mismatch) {
    notes.push(
      `Its ${inputField} was checked against ${settings.schemaLabel} anyway: ` +
        `${result.valid ? 'valid' : errorsText(result.total)}.`,
    );
    return { valid: false, headline: mismatch, notes, lines: result.lines, total: result.total };
  }
  const headline = result.valid
    ? `Valid against ${settings.schemaLabel}.`
    : `Not valid against ${settings.schemaLabel}: ${errorsText(result.total)}.`;
  return { valid: result.valid, headline, notes, lines: result.lines, total: result.total };
}
