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
    `${e.tool} ${former || '(input)'}: ${unionB ? 'a union' : hb.schema ? 'not a union' : 'absent'} → ${unionA ? 'a union' : ha.schema ? 'not a union' : 'absent'}, variant ${e.path ?? field} ${fa.schema ? 'present' : 'absent'} after (${where})`,
  );
}

function fieldVerdict(e: HistoryEvent, before: ToolReading, after: ToolReading): Verdict {
  const b = schemaSide(before, e.tool);
  const a = schemaSide(after, e.tool);
  if ('problem' in b) return b.absent ? verdict(false, b.problem) : unchecked(b.problem);
  if ('problem' in a) return a.absent ? verdict(false, a.problem) : unchecked(a.problem);
  const field = e.field ?? '';
  const at = `${e.tool} ${e.path ?? field}`;
  const fb = b.read(field);
  const fa = a.read(field);
  const typeB = fb.schema ? schemaTypeText(fb.schema, b.root) : undefined;
  const typeA = fa.schema ? schemaTypeText(fa.schema, a.root) : undefined;
  const where = `${before.version} → ${after.version}`;
  switch (e.kind) {
    case 'field-added': {
      const ok = !fb.schema && !!fa.schema && (e.to === undefined || typeA === e.to);
      return verdict(
        ok,
        `${at}: ${fb.schema ? `present (${typeB})` : 'absent'} → ${fa.schema ? `present (${typeA})` : 'absent'} (${where}); the event says added as ${e.to ?? '?'}`,
      );
    }
    case 'field-removed': {
      const ok = !!fb.schema && !fa.schema && (e.from === undefined || typeB === e.from);
      return verdict(
        ok,
        `${at}: ${fb.schema ? `present (${typeB})` : 'absent'} → ${fa.schema ? `present (${typeA})` : 'absent'} (${where}); the event says removed, was ${e.from ?? '?'}`,
      );
    }
    case 'type-changed': {
      const ok = !!fb.schema && !!fa.schema && typeB === e.from && typeA === e.to;
      return verdict(
        ok,
        `${at}: type ${typeB ?? '(absent)'} → ${typeA ?? '(absent)'} (${where}); the event says ${e.from} → ${e.to}`,
      );
    }
    case 'now-required':
    case 'now-optional': {
      const want = e.kind === 'now-required';
      const ok = fb.required === !want && fa.required === want;
      const r = (x: FieldReading): string =>
        !x.schema ? 'absent' : x.required === null ? 'neither' : x.required ? 'required' : 'optional';
      return verdict(
        ok,
        `${at}: ${r(fb)} → ${r(fa)} (${where}); the event says ${e.kind === 'now-required' ? 'optional → required' : 'required → optional'}`,
      );
    }
    case 'value-added':
    case 'value-removed':
      return valueVerdict(e, { b, fb }, { a, fa }, at, where);
    case 'description-changed': {
      const dB = fb.schema?.['description'] as string | undefined;
      const dA = fa.schema?.['description'] as string | undefined;
      const ok = !!fb.schema && !!fa.schema && dB === e.from && dA === e.to && dB !== dA;
      const parts = [ok ? 'as the event says' : `the event says ${quote(e.from)} → ${quote(e.to)}`];
      return verdict(ok, `${at}: description ${quote(dB)} → ${quote(dA)} (${where}); ${parts.join('')}`);
    }
    case 'renamed': {
      const former = e.formerField ?? '';
      const ob = b.read(former);
      const oa = a.read(former);
      const ok = !!ob.schema && !oa.schema && !fb.schema && !!fa.schema;
      return verdict(
        ok,
        `${e.tool}: ${e.from} ${ob.schema ? 'present' : 'absent'} → ${oa.schema ? 'present' : 'absent'}, ${e.to} ${fb.schema ? 'present' : 'absent'} → ${fa.schema ? 'present' : 'absent'} (${where})`,
      );
    }
    case 'now-variant':
      return variantVerdict(e, b, a, field, where);
    default:
      return unchecked(`the verifier has no check for a ${e.kind} event of a field`);
  }
}

/** Checks `event` against the configuration's capture at `previous` (before) and at `release` (after). */
export function checkEvent(
  event: HistoryEvent,
  before: ToolReading,
  after: ToolReading,
  stored?: { before: string; after: string },
): Verdict {
  const where = `${before.version} → ${after.version}`;
  try {
    if (isFieldEvent(event)) return fieldVerdict(event, before, after);
    const pb = presence(before, event.tool);
    const pa = presence(after, event.tool);
    const line = (tool: string, x: Presence, y: Presence): string => `${tool}: ${says(x)} → ${says(y)} (${where})`;
    switch (event.kind) {
      case 'tool-added':
      case 'available':
        return verdict(pb === 'absent' && pa !== 'absent', line(event.tool, pb, pa));
      case 'tool-removed':
      case 'unavailable':
        return verdict(pb !== 'absent' && pa === 'absent', line(event.tool, pb, pa));
      case 'renamed': {
        const from = event.from ?? '';
        const fb = presence(before, from);
        const fa = presence(after, from);
        const ok = fb !== 'absent' && fa === 'absent' && pb === 'absent' && pa !== 'absent';
        return verdict(ok, `${line(from, fb, fa)}; ${line(event.tool, pb, pa)}`);
      }
      case 'description-changed': {
        const tb = before.tools.get(event.tool);
        const ta = after.tools.get(event.tool);
        if (!tb || !ta) return verdict(false, line(event.tool, pb, pa));
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
          `${event.tool}: description ${tb.description === ta.description ? 'the same' : 'differs'} (${where}; ${tb.description?.length ?? 0} → ${ta.description?.length ?? 0} characters, ${quote(tb.description, 60)} → ${quote(ta.description, 60)})${stored === undefined ? '' : asStored ? '; the stored texts are these' : '; the stored texts are not these'}`,
        );
      }
      case 'definition-changed': {
        const tb = before.tools.get(event.tool);
        const ta = after.tools.get(event.tool);
        if (!tb || !ta) return verdict(false, line(event.tool, pb, pa));
        const same = definitionText(tb) === definitionText(ta);
        const asStored =
          stored === undefined || (storedDefinitionIs(stored.before, tb) && storedDefinitionIs(stored.after, ta));
        return verdict(
          !same && asStored,
          `${event.tool}: input definition ${same ? 'the same' : 'differs'} (${where}, ${tb.input.kind} → ${ta.input.kind})${stored === undefined ? '' : asStored ? '; the stored texts are these definitions' : '; the stored texts are not these definitions'}`,
        );
      }
      default:
        return unchecked(`the verifier has no check for a ${event.kind} event of a tool`);
    }
  } catch (error) {
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
