/**
 * What an agent's hooks may return (content/hook-outputs/, from its published code), for the
 * site: the schema published per event (`/<agent>/hooks/<event>.output.schema.json`), its
 * members as rows, and for each member the recorded behaviour cases whose hook answered with
 * it (content/hook-behaviour/), so that a member links to what it did. Pure.
 */
import type { AgentId } from '../core/content-types.ts';
import { JSON_SCHEMA_2020, type JsonSchema } from '../shapes/json-schema.ts';
import { siteUrl, type SiteOrigin } from '../site/export-files.ts';
import { eventSlug } from './hooks.ts';
import { isObject } from '../core/json.ts';
import type { HookBehaviourRecord, HookOutputs } from '../model/model.ts';
import type { HookOutputCheck } from '../check/payload-check-ui.ts';
import { AGENT_LABELS } from '../site/site.ts';

/** Site path (without base) of what an agent's hooks of `event` may return. */
export function outputSchemaPath(agent: AgentId, event: string): string {
  return `/${agent}/hooks/${eventSlug(event)}.output.schema.json`;
}

type Declared = Extract<HookOutputs, { events: unknown }>;

/** The file's source in words: `@anthropic-ai/claude-agent-sdk@0.3.335, sdk.d.ts`. */
export function outputSource(outputs: Declared): string {
  return `${outputs.source.package}@${outputs.source.version}, ${outputs.source.file}`;
}

/** The schema published for one event: the converted declaration, with its address and where it comes from. */
export function publishedOutputSchema(outputs: Declared, event: string, origin: SiteOrigin): JsonSchema {
  const found = outputs.events.find((e) => e.event === event);
  if (!found) throw new Error(`${outputs.agent} declares no output of ${event}`);
  const { description, ...schema } = found.schema;
  const plugin = outputs.source.form === 'plugin-output';
  return {
    $schema: JSON_SCHEMA_2020,
    $id: siteUrl(outputSchemaPath(outputs.agent, event), origin),
    title: `${event} hook ${plugin ? 'output object' : 'output'} (${outputSource(outputs)})`,
    description: [
      plugin
        ? `The object ${AGENT_LABELS[outputs.agent]} hands a ${event} plugin function to change in place: ` +
          `${found.declaredAs}.`
        : `What a ${AGENT_LABELS[outputs.agent]} ${event} hook may return, as its published code declares it: ` +
          `${found.declaredAs}.`,
      typeof description === 'string' ? description : undefined,
      outputs.source.note,
    ]
      .filter((d) => d !== undefined)
      .join(' '),
    ...schema,
  };
}

export interface OutputMember {
  /** `decision`, `hookSpecificOutput.permissionDecision`. */
  path: string;
  /** `string`, `"allow" | "deny"`, `object` … */
  type: string;
  description: string | undefined;
}

/** A subschema in words: its constant, its enumeration, or its JSON types. */
function typeWords(schema: JsonSchema): string {
  if (schema['const'] !== undefined) return JSON.stringify(schema['const']);
  if (Array.isArray(schema['enum'])) return schema['enum'].map((v) => JSON.stringify(v)).join(' | ');
  if (typeof schema['type'] === 'string') return schema['type'];
  if (Array.isArray(schema['type'])) return schema['type'].join(' | ');
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list))
      return (
        [...new Set(list.filter(isObject).map((s) => typeWords(s)))].filter((w) => w !== 'any').join(' | ') || 'any'
      );
  }
  if (typeof schema['$ref'] === 'string') return decodeURIComponent(String(schema['$ref']).replace(/^#\/\$defs\//, ''));
  return 'any';
}

/** The subschema `$ref` points to, when it is local; the schema itself otherwise. */
function resolved(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; i < 8; i++) {
    const allOf = s['allOf'];
    const ref =
      typeof s['$ref'] === 'string'
        ? s['$ref']
        : Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && typeof allOf[0]['$ref'] === 'string'
          ? allOf[0]['$ref']
          : undefined;
    const m = ref === undefined ? null : /^#\/\$defs\/(.+)$/.exec(ref);
    const target = m ? (root['$defs'] as Record<string, unknown> | undefined)?.[m[1]!] : undefined;
    if (!isObject(target)) return s;
    s = { ...target, ...(typeof s['description'] === 'string' ? { description: s['description'] } : {}) };
  }
  return s;
}

/**
 * Members of an output schema: its properties, and one level into each member that is an object (hookSpecificOutput).
 */
export function outputMembers(schema: JsonSchema): OutputMember[] {
  const rows: OutputMember[] = [];
  const properties = (s: JsonSchema): [string, JsonSchema][] =>
    isObject(s['properties'])
      ? Object.entries(s['properties']).filter((e): e is [string, JsonSchema] => isObject(e[1]))
      : [];
  for (const [name, raw] of properties(schema)) {
    const member = resolved(raw, schema);
    const description = typeof member['description'] === 'string' ? member['description'] : undefined;
    const inner = properties(member);
    rows.push({ path: name, type: inner.length > 0 ? 'object' : typeWords(member), description });
    for (const [child, rawChild] of inner) {
      const c = resolved(rawChild, schema);
      rows.push({
        path: `${name}.${child}`,
        type: typeWords(c),
        description: typeof c['description'] === 'string' ? c['description'] : undefined,
      });
    }
  }
  return rows;
}

/**
 * Member paths a hook's answer uses: keys of its JSON (and one level into objects), or `output.x` a plugin's script
 * changes.
 */
export function answerMembers(hookReturn: HookBehaviourRecord['hookReturn']): string[] {
  const paths: string[] = [];
  if (hookReturn.script !== undefined) {
    for (const m of hookReturn.script.matchAll(/\boutput\.([A-Za-z_$][\w$]*)/g))
      if (!paths.includes(m[1]!)) paths.push(m[1]!);
    return paths;
  }
  let value: unknown;
  try {
    value = JSON.parse(hookReturn.stdout) as unknown;
  } catch {
    return [];
  }
  if (!isObject(value)) return [];
  for (const [key, v] of Object.entries(value)) {
    paths.push(key);
    if (isObject(v)) for (const child of Object.keys(v)) paths.push(`${key}.${child}`);
  }
  return paths;
}

/** Site path (without base) of the precompiled validator of an event's output schema. */
export function outputValidatorPath(agent: AgentId, event: string): string {
  return `/${agent}/hooks/${eventSlug(event)}.output.validate.js`;
}

/**
 * What a tool page's checker needs to check a hook's answer: the given events' schemas (those
 * the agent declares), paths relative to the tool's page (`/<agent>/<tool>/`). None for a
 * plugin's output object (nothing is printed) or where nothing is published.
 */
export function outputCheck(outputs: HookOutputs | undefined, events: readonly string[]): HookOutputCheck | undefined {
  if (outputs === undefined || 'unavailable' in outputs || outputs.source.form === 'plugin-output') return undefined;
  const declared = events.flatMap((event) => outputs.events.filter((e) => e.event === event));
  if (declared.length === 0) return undefined;
  const members = [
    ...new Set(declared.flatMap((e) => (isObject(e.schema['properties']) ? Object.keys(e.schema['properties']) : []))),
  ];
  const named = declared.every(
    (e) => isObject(e.schema['properties']) && isObject(e.schema['properties']['hookSpecificOutput']),
  );
  return {
    source: outputSource(outputs),
    members,
    ...(named ? { eventField: 'hookSpecificOutput.hookEventName' } : {}),
    events: declared.map((e) => ({
      event: e.event,
      schema: `..${outputSchemaPath(outputs.agent, e.event).slice(outputs.agent.length + 1)}`,
      validator: `..${outputValidatorPath(outputs.agent, e.event).slice(outputs.agent.length + 1)}`,
    })),
  };
}

export interface OutputEventView {
  event: string;
  /** Anchor of its block on the hooks page. */
  anchor: string;
  declaredAs: string;
  schemaPath: string;
  /** Its members, each with the cases whose hook answered with it. */
  members: (OutputMember & { cases: { case: string; anchor: string }[] })[];
  /** Cases answered on this event, whatever members they used. */
  caseCount: number;
}

export interface HookOutputsView {
  /** Why nothing published declares it (Qwen Code). */
  unavailable: string | undefined;
  /** What the declarations are the types of, where the source says (Copilot CLI's SDK callbacks). */
  note?: string | undefined;
  source: string | undefined;
  plugin: boolean;
  /** Events some case answered, with their member tables. */
  answered: OutputEventView[];
  /** The other declared events: their schema only. */
  others: { event: string; schemaPath: string }[];
}

export function hookOutputsView(
  outputs: HookOutputs | undefined,
  records: readonly HookBehaviourRecord[],
): HookOutputsView | undefined {
  if (outputs === undefined) return undefined;
  if ('unavailable' in outputs)
    return { unavailable: outputs.unavailable, source: undefined, plugin: false, answered: [], others: [] };
  const answered: OutputEventView[] = [];
  const others: HookOutputsView['others'] = [];
  for (const e of outputs.events) {
    const schemaPath = outputSchemaPath(outputs.agent, e.event);
    const cases = records.filter((r) => r.agent === outputs.agent && r.event === e.event);
    if (cases.length === 0) {
      others.push({ event: e.event, schemaPath });
      continue;
    }
    const used = cases.map((r) => ({ case: r.case, anchor: `case-${r.case}`, paths: answerMembers(r.hookReturn) }));
    answered.push({
      event: e.event,
      anchor: `output-${eventSlug(e.event)}`,
      declaredAs: e.declaredAs,
      schemaPath,
      members: outputMembers(e.schema).map((m) => ({
        ...m,
        cases: used.filter((u) => u.paths.includes(m.path)).map(({ case: c, anchor }) => ({ case: c, anchor })),
      })),
      caseCount: cases.length,
    });
  }
  // Events in the order the cases come (the case file's: before the call, then after).
  const first = (event: string) => records.findIndex((r) => r.agent === outputs.agent && r.event === event);
  answered.sort((a, b) => first(a.event) - first(b.event));
  return {
    unavailable: undefined,
    note: outputs.source.note,
    source: outputSource(outputs),
    plugin: outputs.source.form === 'plugin-output',
    answered,
    others,
  };
}
