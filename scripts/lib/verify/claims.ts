/**
 * Checking one capture-history event (content/history/<agent>.capture.json) against two
 * fresh captures of its configuration — one at `previous`, one at `release` — with code of
 * its own: the tools are read from the capture bodies by the wire format modules
 * (src/lib/wire, as sent), fields by ./schema-read.ts; nothing of the history's diff
 * (scripts/lib/capture-history) decides. Pure.
 *
 * The claim checked is the event's own, in the configuration it names:
 * - `tool-added`, `available`: absent before, present after; `tool-removed`, `unavailable`: the reverse;
 * - `renamed` (a tool): the old name present before and gone after, the new one the reverse;
 * - `description-changed` of a tool: both have a description, they differ, and they are the
 *   texts the history stores for it (`fromText`/`toText`);
 * - `definition-changed`: the input definition differs (key order aside), and the texts the
 *   history stores are those definitions (a grammar or declaration as written; a JSON Schema as
 *   JSON equal to the schema sent, key order aside);
 * - field events: the field absent/present, its type text, required or optional, its
 *   literal values and its description equal to what the event states.
 * A tool the capture names only by its namespace (deferred to tool search) counts as
 * present; a claim about its fields cannot be checked there.
 */
import type { CaptureFile, CapturedTool } from '../../../src/lib/wire/index.ts';
import { capturedNamespaces, capturedTools } from '../../../src/lib/agents/index.ts';
import type { HistoryEvent } from '../../../src/lib/core/content-types.ts';
import {
  isUnion,
  locateField,
  schemaLiterals,
  schemaTypeText,
  UnsupportedAnchor,
  type FieldReading,
} from './schema-read.ts';
import type { JsonRecord } from '../../../src/lib/core/json.ts';

export type VerdictStatus = 'confirmed' | 'contradicted' | 'unchecked';

export interface Verdict {
  status: VerdictStatus;
  /** What the two captures show, in one sentence. */
  detail: string;
}

/** What one capture says about the tools: by full name, and the namespaces named without their tools. */
export interface ToolReading {
  version: string;
  tools: Map<string, CapturedTool>;
  deferredNamespaces: Set<string>;
}

export function readTools(capture: CaptureFile): ToolReading {
  const tools = new Map<string, CapturedTool>();
  for (const t of capturedTools(capture)) if (!tools.has(t.fullName)) tools.set(t.fullName, t);
  return {
    version: capture.cli.version,
    tools,
    deferredNamespaces: new Set(capturedNamespaces(capture).map((n) => n.name)),
  };
}

type Presence = 'present' | 'named-by-namespace' | 'absent';

function presence(r: ToolReading, tool: string): Presence {
  if (r.tools.has(tool)) return 'present';
  const dot = tool.lastIndexOf('.');
  if (dot > 0 && r.deferredNamespaces.has(tool.slice(0, dot))) return 'named-by-namespace';
  return 'absent';
}

const says = (p: Presence): string =>
  p === 'absent' ? 'absent' : p === 'present' ? 'present' : 'named by its namespace only';

function verdict(ok: boolean, detail: string): Verdict {
  return { status: ok ? 'confirmed' : 'contradicted', detail };
}

function unchecked(detail: string): Verdict {
  return { status: 'unchecked', detail };
}

/** JSON text with object keys sorted. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** The input definition as the model is told it (without where it was read from). */
function definitionText(t: CapturedTool): string {
  const { origin: _origin, ...rest } = t.input as { origin?: unknown };
  return sortedJson(rest);
}

/**
 * Whether a stored definition text is this tool's definition: a grammar or declaration as written, a JSON Schema as
 * JSON equal to it (key order aside).
 */
function storedDefinitionIs(text: string, t: CapturedTool): boolean {
  const input = t.input as { kind: string; definition?: string; source?: string; schema?: unknown };
  if (input.kind === 'grammar') return text === input.definition;
  if (input.kind === 'typescript') return text === input.source;
  try {
    return (
      sortedJson(JSON.parse(text)) ===
      sortedJson(input.kind === 'json-schema' ? input.schema : definitionWithoutOrigin(t))
    );
  } catch {
    return false;
  }
}

function definitionWithoutOrigin(t: CapturedTool): unknown {
  const { origin: _origin, ...rest } = t.input as { origin?: unknown };
  return rest;
}

function quote(text: string | undefined, max = 80): string {
  if (text === undefined) return '(none)';
  const q = JSON.stringify(text);
  return q.length > max ? `${q.slice(0, max - 1)}…"` : q;
}

const FIELD_KINDS = new Set<HistoryEvent['kind']>([
  'field-added',
  'field-removed',
  'type-changed',
  'now-required',
  'now-optional',
  'value-added',
  'value-removed',
  'now-variant',
]);

/** Is the event about a field of the tool's input (rather than the tool)? */
export function isFieldEvent(e: HistoryEvent): boolean {
  return e.field !== undefined || FIELD_KINDS.has(e.kind);
}

interface FieldSide {
  root: JsonRecord;
  read: (anchor: string) => FieldReading;
}

interface SideProblem {
  problem: string;
  /** The tool is not there at all (a field event says it is). */
  absent: boolean;
}

function schemaSide(r: ToolReading, tool: string): FieldSide | SideProblem {
  const t = r.tools.get(tool);
  if (!t) {
    return presence(r, tool) === 'named-by-namespace'
      ? { problem: `${tool} is named only by its namespace in ${r.version}; its fields are not sent`, absent: false }
      : { problem: `${tool} is absent in ${r.version}`, absent: true };
  }
  if (t.input.kind !== 'json-schema')
    return {
      problem: `${tool}'s input in ${r.version} is a ${t.input.kind} definition; the verifier reads JSON Schema only`,
      absent: false,
    };
  const root = (t.input as { schema: JsonRecord }).schema;
  return { root, read: (anchor) => locateField(root, anchor) };
}

/** A value-added or value-removed event: the value is allowed on one side only. */
function valueVerdict(
  e: HistoryEvent,
  before: { b: FieldSide; fb: FieldReading },
  after: { a: FieldSide; fa: FieldReading },
  at: string,
  where: string,
): Verdict {
  const { b, fb } = before;
  const { a, fa } = after;
  const value = e.kind === 'value-added' ? e.to : e.from;
  const litB = fb.schema ? (schemaLiterals(fb.schema, b.root) ?? []) : [];
  const litA = fa.schema ? (schemaLiterals(fa.schema, a.root) ?? []) : [];
  const inB = value !== undefined && litB.includes(value);
  const inA = value !== undefined && litA.includes(value);
  const ok = !!fb.schema && !!fa.schema && (e.kind === 'value-added' ? !inB && inA : inB && !inA);
  return verdict(
    ok,
    `${at}: value ${value} ${inB ? 'allowed' : 'not allowed'} → ${inA ? 'allowed' : 'not allowed'} (${where})`,
  );
}

/** A now-variant event: the former field was not a union before and is one after, with the variant present. */
function variantVerdict(e: HistoryEvent, b: FieldSide, a: FieldSide, field: string, where: string): Verdict {
  const fa = a.read(field);
  const former = e.formerField ?? '';
  const hb = b.read(former);
  const ha = a.read(former);
  const unionB = !!hb.schema && isUnion(hb.schema, b.root);
  const unionA = !!ha.schema && isUnion(ha.schema, a.root);
  const ok = !!hb.schema && !unionB && unionA && !!fa.schema;
  return verdict(
    ok,
    `${e.tool} ${former || '(input)'}: ${unionB ? 'a union' : hb.schema ? 'not a union' : 'absent'} → ` +
      `${unionA ? 'a union' : ha.schema ? 'not a union' : 'absent'}, variant ${e.path ?? field} ` +
      `${fa.schema ? 'present' : 'absent'} after (${where})`,
  );
}

/** Both sides of a field event, read once: the schemas, the field on each side and its type text. */
interface FieldPair {
  b: FieldSide;
  a: FieldSide;
  fb: FieldReading;
  fa: FieldReading;
  typeB: string | undefined;
  typeA: string | undefined;
  /** `tool path`, as each detail starts. */
  at: string;
  /** `before → after` versions, as each detail ends. */
  where: string;
}

const presentText = (f: FieldReading, type: string | undefined): string => (f.schema ? `present (${type})` : 'absent');

/** A field-added or field-removed event: absent on one side, present on the other, with the type the event states. */
function addedOrRemovedVerdict(e: HistoryEvent, p: FieldPair): Verdict {
  const { fb, fa, typeB, typeA } = p;
  const change = `${p.at}: ${presentText(fb, typeB)} → ${presentText(fa, typeA)} (${p.where})`;
  if (e.kind === 'field-added') {
    const ok = !fb.schema && !!fa.schema && (e.to === undefined || typeA === e.to);
    return verdict(ok, `${change}; the event says added as ${e.to ?? '?'}`);
  }
  const ok = !!fb.schema && !fa.schema && (e.from === undefined || typeB === e.from);
  return verdict(ok, `${change}; the event says removed, was ${e.from ?? '?'}`);
}

function typeVerdict(e: HistoryEvent, p: FieldPair): Verdict {
  const { fb, fa, typeB, typeA } = p;
  const ok = !!fb.schema && !!fa.schema && typeB === e.from && typeA === e.to;
  return verdict(
    ok,
    `${p.at}: type ${typeB ?? '(absent)'} → ${typeA ?? '(absent)'} (${p.where}); the event says ${e.from}` +
      ` → ${e.to}`,
  );
}

/** A now-required or now-optional event: required flips the way the event says. */
function requiredVerdict(e: HistoryEvent, p: FieldPair): Verdict {
  const want = e.kind === 'now-required';
  const ok = p.fb.required === !want && p.fa.required === want;
  const r = (x: FieldReading): string =>
    !x.schema ? 'absent' : x.required === null ? 'neither' : x.required ? 'required' : 'optional';
  return verdict(
    ok,
    `${p.at}: ${r(p.fb)} → ${r(p.fa)} (${p.where}); the event says ` +
      `${want ? 'optional → required' : 'required → optional'}`,
  );
}

function fieldDescriptionVerdict(e: HistoryEvent, p: FieldPair): Verdict {
  const dB = p.fb.schema?.['description'] as string | undefined;
  const dA = p.fa.schema?.['description'] as string | undefined;
  const ok = !!p.fb.schema && !!p.fa.schema && dB === e.from && dA === e.to && dB !== dA;
  const claim = ok ? 'as the event says' : `the event says ${quote(e.from)} → ${quote(e.to)}`;
  return verdict(ok, `${p.at}: description ${quote(dB)} → ${quote(dA)} (${p.where}); ${claim}`);
}

/** A renamed field: the former name present before and gone after, the new one the reverse. */
function renamedFieldVerdict(e: HistoryEvent, p: FieldPair): Verdict {
  const former = e.formerField ?? '';
  const ob = p.b.read(former);
  const oa = p.a.read(former);
  const ok = !!ob.schema && !oa.schema && !p.fb.schema && !!p.fa.schema;
  const is = (f: FieldReading): string => (f.schema ? 'present' : 'absent');
  return verdict(ok, `${e.tool}: ${e.from} ${is(ob)} → ${is(oa)}, ${e.to} ${is(p.fb)} → ${is(p.fa)} (${p.where})`);
}

/** Reads the event's field on both sides; a side whose tool is missing or not JSON Schema is the verdict instead. */
function fieldPair(e: HistoryEvent, before: ToolReading, after: ToolReading): FieldPair | Verdict {
  const b = schemaSide(before, e.tool);
  const a = schemaSide(after, e.tool);
  if ('problem' in b) return b.absent ? verdict(false, b.problem) : unchecked(b.problem);
  if ('problem' in a) return a.absent ? verdict(false, a.problem) : unchecked(a.problem);
  const field = e.field ?? '';
  const fb = b.read(field);
  const fa = a.read(field);
  return {
    b,
    a,
    fb,
    fa,
    typeB: fb.schema ? schemaTypeText(fb.schema, b.root) : undefined,
    typeA: fa.schema ? schemaTypeText(fa.schema, a.root) : undefined,
    at: `${e.tool} ${e.path ?? field}`,
    where: `${before.version} → ${after.version}`,
  };
}

function fieldVerdict(e: HistoryEvent, before: ToolReading, after: ToolReading): Verdict {
  const p = fieldPair(e, before, after);
  if ('status' in p) return p;
  switch (e.kind) {
    case 'field-added':
    case 'field-removed':
      return addedOrRemovedVerdict(e, p);
    case 'type-changed':
      return typeVerdict(e, p);
    case 'now-required':
    case 'now-optional':
      return requiredVerdict(e, p);
    case 'value-added':
    case 'value-removed':
      return valueVerdict(e, { b: p.b, fb: p.fb }, { a: p.a, fa: p.fa }, p.at, p.where);
    case 'description-changed':
      return fieldDescriptionVerdict(e, p);
    case 'renamed':
      return renamedFieldVerdict(e, p);
    case 'now-variant':
      return variantVerdict(e, p.b, p.a, e.field ?? '', p.where);
    default:
      return unchecked(`the verifier has no check for a ${e.kind} event of a field`);
  }
}

/** The texts the history stores for a description or definition change: part of the event's claim. */
type StoredTexts = { before: string; after: string };

/** `tool: present → absent (before → after)`, as the tool events say what the captures show. */
function presenceLine(tool: string, x: Presence, y: Presence, where: string): string {
  return `${tool}: ${says(x)} → ${says(y)} (${where})`;
}

/** A tool's description changed: both have one, they differ, as the event states and the history stores. */
function toolDescriptionVerdict(
  event: HistoryEvent,
  tb: CapturedTool,
  ta: CapturedTool,
  where: string,
  stored: StoredTexts | undefined,
): Verdict {
  const stated = event.from !== undefined || event.to !== undefined;
  const asStored = stored === undefined || (tb.description === stored.before && ta.description === stored.after);
  const ok =
    tb.description !== undefined &&
    ta.description !== undefined &&
    tb.description !== ta.description &&
    (!stated || (tb.description === event.from && ta.description === event.to)) &&
    asStored;
  return verdict(
    ok,
    `${event.tool}: description ${tb.description === ta.description ? 'the same' : 'differs'} (${where}; ` +
      `${tb.description?.length ?? 0} → ${ta.description?.length ?? 0} characters, ` +
      `${quote(tb.description, 60)} → ` +
      `${quote(ta.description, 60)})` +
      (stored === undefined ? '' : asStored ? '; the stored texts are these' : '; the stored texts are not these'),
  );
}

/** A tool's input definition changed, and the texts the history stores are the two definitions. */
function definitionVerdict(
  event: HistoryEvent,
  tb: CapturedTool,
  ta: CapturedTool,
  where: string,
  stored: StoredTexts | undefined,
): Verdict {
  const same = definitionText(tb) === definitionText(ta);
  const asStored =
    stored === undefined || (storedDefinitionIs(stored.before, tb) && storedDefinitionIs(stored.after, ta));
  return verdict(
    !same && asStored,
    `${event.tool}: input definition ${same ? 'the same' : 'differs'} (${where}, ${tb.input.kind} → ` +
      `${ta.input.kind})` +
      (stored === undefined
        ? ''
        : asStored
          ? '; the stored texts are these definitions'
          : '; the stored texts are not these definitions'),
  );
}

/** An event about a tool as a whole: its presence, its name, its description or its input definition. */
function toolVerdict(event: HistoryEvent, before: ToolReading, after: ToolReading, stored?: StoredTexts): Verdict {
  const where = `${before.version} → ${after.version}`;
  const pb = presence(before, event.tool);
  const pa = presence(after, event.tool);
  const line = presenceLine(event.tool, pb, pa, where);
  switch (event.kind) {
    case 'tool-added':
    case 'available':
      return verdict(pb === 'absent' && pa !== 'absent', line);
    case 'tool-removed':
    case 'unavailable':
      return verdict(pb !== 'absent' && pa === 'absent', line);
    case 'renamed': {
      const from = event.from ?? '';
      const fb = presence(before, from);
      const fa = presence(after, from);
      const ok = fb !== 'absent' && fa === 'absent' && pb === 'absent' && pa !== 'absent';
      return verdict(ok, `${presenceLine(from, fb, fa, where)}; ${line}`);
    }
    case 'description-changed':
    case 'definition-changed': {
      const tb = before.tools.get(event.tool);
      const ta = after.tools.get(event.tool);
      if (!tb || !ta) return verdict(false, line);
      return event.kind === 'description-changed'
        ? toolDescriptionVerdict(event, tb, ta, where, stored)
        : definitionVerdict(event, tb, ta, where, stored);
    }
    default:
      return unchecked(`the verifier has no check for a ${event.kind} event of a tool`);
  }
}

/** Checks `event` against the configuration's capture at `previous` (before) and at `release` (after). */
export function checkEvent(
  event: HistoryEvent,
  before: ToolReading,
  after: ToolReading,
  stored?: StoredTexts,
): Verdict {
  try {
    return isFieldEvent(event) ? fieldVerdict(event, before, after) : toolVerdict(event, before, after, stored);
  } catch (error) {
    // A field anchor the verifier's own schema reading does not follow: said, not a contradiction.
    if (error instanceof UnsupportedAnchor) return unchecked(error.message);
    throw error;
  }
}

/** The event as one line: `codex 0.25.0 (previous 0.23.0) gpt-5-5: shell field-removed timeout (number)`. */
export function eventLabel(agent: string, e: HistoryEvent): string {
  const what =
    e.kind === 'renamed' ? `renamed ${e.from} → ${e.to}` : e.path !== undefined ? `${e.kind} ${e.path}` : e.kind;
  const values =
    e.kind === 'renamed' || e.kind === 'description-changed'
      ? ''
      : e.from !== undefined || e.to !== undefined
        ? ` (${[e.from, e.to].filter((x) => x !== undefined).join(' → ')})`
        : '';
  return `${agent} ${e.release} (previous ${e.previous}) ${e.configuration ?? '?'}: ${e.tool} ${what}${values}`;
}
