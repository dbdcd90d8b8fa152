/**
 * JSON Schemas (2020-12) of what an agent's hooks receive on standard input,
 * computed from the recorded payloads (hooks.ts):
 * - per agent and event, the envelope (`/<agent>/hooks/<event>.schema.json`):
 *   each member seen, with the JSON types of its values; required = present in
 *   every recorded payload of that event; other members are allowed (a release
 *   may add some). The input and response members are typed at their top level
 *   only: what they hold depends on the tool.
 * - per tool (`/<agent>/<tool>/hooks.schema.json`): the envelope of each event
 *   recorded for it (by `$ref`), its tool name as the hooks gave it, its input
 *   and response as recorded (`$defs/input-recorded`, `$defs/response-recorded`)
 *   and as declared (`$defs/input-declared`, `$defs/response-declared`: `$ref`s
 *   to the tool's own input and result schemas, where it has them).
 * Masked values (`$DURATION`) are no evidence of a type: a member whose every
 * value was masked is left untyped. A JSON-text input (Copilot's `toolArgs`) is a
 * string whose `contentSchema` is the decoded input's. Pure.
 */
import { AGENT_LABELS, sitePath } from '../site/site.ts';
import {
  relativeReference,
  siteUrl,
  type SiteOrigin,
  exportFileNames,
  versionedExportPath,
} from '../site/export-files.ts';
import { JSON_SCHEMA_2020, type JsonSchema } from '../shapes/json-schema.ts';
import { eventSlug, jsonTypeOf, type AgentHooks, type JsonType } from './hooks.ts';
import { hookInput, hookToolName } from '../agents/hook-shape.ts';
import { isPlaceholder } from '../check/payload-check.ts';
import type { ToolModel } from '../model/model.ts';
import type { AgentId } from '../core/content-types.ts';
import { keptCopy } from '../core/json.ts';

/** The schema of some recorded values: their JSON types, and for objects and arrays what they hold. */
export function inferSchema(values: readonly unknown[]): JsonSchema {
  const real = values.filter((v) => !isPlaceholder(v));
  if (real.length === 0)
    return values.length > 0 ? { description: 'Masked in every recording: its type is not established.' } : {};
  const types: JsonType[] = [];
  for (const v of real) {
    const t = jsonTypeOf(v);
    if (!types.includes(t)) types.push(t);
  }
  const schema: JsonSchema = { type: types.length === 1 ? types[0]! : types };
  const objects = real.filter((v): v is Record<string, unknown> => jsonTypeOf(v) === 'object');
  if (objects.length > 0) {
    const keys: string[] = [];
    for (const o of objects) for (const k of Object.keys(o)) if (!keys.includes(k)) keys.push(k);
    schema['properties'] = Object.fromEntries(
      keys.map((k) => [k, inferSchema(objects.filter((o) => Object.hasOwn(o, k)).map((o) => o[k]))]),
    );
    const required = keys.filter((k) => objects.every((o) => Object.hasOwn(o, k)));
    if (required.length > 0) schema['required'] = required;
  }
  const arrays = real.filter((v): v is unknown[] => Array.isArray(v));
  const items = arrays.flat();
  if (items.length > 0) schema['items'] = inferSchema(items);
  return schema;
}

/** Site path (without base) of an agent's event schema. */
export function eventSchemaPath(agent: AgentId, event: string): string {
  return `/${agent}/hooks/${eventSlug(event)}.schema.json`;
}

/** Site path (without base) of a tool's hook schema. */
export function toolHookSchemaPath(tool: Pick<ToolModel, 'agent' | 'slug'>): string {
  return `/${tool.agent}/${tool.slug}/hooks.schema.json`;
}

const releases = (recorded: AgentHooks) => `${AGENT_LABELS[recorded.agent]} ${recorded.versions.join(', ')}`;

/**
 * Envelope schemas already inferred, as JSON text, by recording, event and site address: every tool's hook schema and
 * hook validator inlines the envelopes of its events, each inferred from all of the agent's payloads of that event.
 */
const envelopes = new WeakMap<AgentHooks, Map<string, string>>();

/** The envelope schema of one event of the agent, from its recorded payloads (a copy of its own for each caller). */
export function eventSchema(recorded: AgentHooks, event: string, origin: SiteOrigin): JsonSchema {
  const kept = envelopes.get(recorded) ?? envelopes.set(recorded, new Map()).get(recorded)!;
  return keptCopy(kept, `${event}\n${String(origin.site ?? '')}`, () => inferredEventSchema(recorded, event, origin));
}

function inferredEventSchema(recorded: AgentHooks, event: string, origin: SiteOrigin): JsonSchema {
  const payloads = recorded.hooks.filter((h) => h.event === event).map((h) => h.payload);
  const shape = recorded.shape;
  const body = inferSchema(payloads);
  const properties = (body['properties'] ?? {}) as Record<string, JsonSchema>;
  if (shape) {
    // What the tool's input and response hold differs by tool: only their top-level type here.
    for (const member of [shape.inputField, shape.responseField]) {
      const schema = properties[member];
      if (!schema) continue;
      properties[member] = {
        ...(schema['type'] === undefined ? {} : { type: schema['type'] }),
        description:
          `Differs by tool: each tool's hooks.schema.json ` +
          `(${sitePath(`/${recorded.agent}/<tool>/hooks.schema.json`)}) has it as recorded.`,
      };
    }
    if (shape.eventField !== undefined && properties[shape.eventField]) properties[shape.eventField] = { const: event };
  }
  return {
    $schema: JSON_SCHEMA_2020,
    $id: siteUrl(eventSchemaPath(recorded.agent, event), origin),
    title: `${event} hook standard input (${releases(recorded)})`,
    description:
      `What ${AGENT_LABELS[recorded.agent]}'s ${event} hooks received in ${payloads.length} recorded ` +
      `${payloads.length === 1 ? 'payload' : 'payloads'}: each member seen, with the JSON types of its ` +
      `values; required members were in every one. Other members are allowed.`,
    type: 'object',
    properties,
    ...(body['required'] ? { required: body['required'] } : {}),
  };
}

/** The events of the agent that have a recorded payload, with their schema's path. */
export function eventSchemaFiles(recorded: AgentHooks): { event: string; path: string }[] {
  return recorded.events.map((event) => ({ event, path: eventSchemaPath(recorded.agent, event) }));
}

type Shape = NonNullable<AgentHooks['shape']>;
type Hook = AgentHooks['hooks'][number];

/**
 * The $defs of what a tool's hooks received, inferred from its payloads: its input (decoded when
 * the agent sends it as a JSON text) and its response, each with a reference to the tool's
 * declared schema when `declaredFile` gives one (not in an inline schema).
 */
function recordedDefs(
  shape: Shape,
  inputs: readonly unknown[],
  responses: readonly unknown[],
  declaredFile: ((file: 'input.schema.json' | 'result.schema.json') => { $ref: string } | undefined) | undefined,
): Record<string, JsonSchema> {
  const defs: Record<string, JsonSchema> = {};
  if (inputs.length > 0) {
    const decoded = inferSchema(inputs);
    defs['input-recorded'] =
      shape.inputEncoding === 'json-string'
        ? {
            type: 'string',
            contentMediaType: 'application/json',
            contentSchema: decoded,
            description: `A JSON text: ${shape.inputField} as recorded, decoded.`,
          }
        : { ...decoded, description: `${shape.inputField} as recorded.` };
    const declared = declaredFile?.('input.schema.json');
    if (declared)
      defs['input-declared'] = {
        ...declared,
        description: `The tool's declared input. Whether its hooks receive it unchanged is what input-recorded shows.`,
      };
  }
  if (responses.length > 0) {
    defs['response-recorded'] = { ...inferSchema(responses), description: `${shape.responseField} as recorded.` };
    const declared = declaredFile?.('result.schema.json');
    if (declared) defs['response-declared'] = { ...declared, description: `The tool's declared result.` };
  }
  return defs;
}

/** The hook schema of one tool, from its recorded payloads; undefined when it has none. */
export function toolHookSchema(
  recorded: AgentHooks,
  tool: ToolModel,
  origin: SiteOrigin,
  options: { inline?: boolean } = {},
): JsonSchema | undefined {
  const shape = recorded.shape;
  const own = recorded.hooks.filter((h) => h.tool === tool);
  if (!shape || own.length === 0) return undefined;
  const events = recorded.events.filter((e) => own.some((h) => h.event === e));
  const names = [
    ...new Set(own.map((h) => hookToolName(h.payload, shape)).filter((n): n is string => n !== undefined)),
  ];
  const { inputs, responses } = recordedValues(own, shape);
  const defs = recordedDefs(shape, inputs, responses, options.inline ? undefined : declaredFiles(tool));
  for (const event of events) {
    // References to our other schemas are relative, resolved against this schema's $id.
    const envelope = options.inline
      ? inlineEnvelope(recorded, event, origin, defs)
      : relativeReference(toolHookSchemaPath(tool), eventSchemaPath(recorded.agent, event));
    defs[`event-${eventSlug(event)}`] = eventDefinition(shape, event, names, envelope, defs);
  }
  return {
    $schema: JSON_SCHEMA_2020,
    $id: siteUrl(toolHookSchemaPath(tool), origin),
    title: `${tool.fullName} hook standard input (${releases(recorded)})`,
    description:
      `What the hooks of ${tool.fullName} received in ${own.length} recorded ` +
      `${own.length === 1 ? 'payload' : 'payloads'} (${events.join(', ')}), by event: the event's ` +
      `envelope, the tool name the hooks gave it, and its input and response as recorded.`,
    type: 'object',
    ...byEvent(shape, events),
    $defs: defs,
  };
}

/** The inputs (decoded) and the responses of a tool's recorded payloads, where they have them. */
function recordedValues(own: readonly Hook[], shape: Shape): { inputs: unknown[]; responses: unknown[] } {
  return {
    inputs: own.filter((h) => Object.hasOwn(h.payload, shape.inputField)).map((h) => hookInput(h.payload, shape)),
    responses: own
      .filter((h) => Object.hasOwn(h.payload, shape.responseField))
      .map((h) => h.payload[shape.responseField]),
  };
}

/** A reference to the tool's own declared input or result schema, where it publishes one. */
function declaredFiles(tool: ToolModel) {
  return (file: 'input.schema.json' | 'result.schema.json') =>
    exportFileNames(tool).includes(file)
      ? { $ref: relativeReference(toolHookSchemaPath(tool), versionedExportPath(tool, file)) }
      : undefined;
}

/**
 * Inline (one self-contained schema, for a precompiled validator): the event's envelope goes into
 * `defs`, and the reference stays in the file.
 */
function inlineEnvelope(recorded: AgentHooks, event: string, origin: SiteOrigin, defs: Record<string, JsonSchema>) {
  const { $schema: _s, $id: _i, ...body } = eventSchema(recorded, event, origin);
  defs[`envelope-${eventSlug(event)}`] = body;
  return `#/$defs/envelope-${eventSlug(event)}`;
}

/**
 * One event's definition: its envelope, with the tool name the hooks gave the tool and its input
 * and response as recorded (the response not before the tool ran).
 */
function eventDefinition(
  shape: Shape,
  event: string,
  names: readonly string[],
  envelope: string,
  defs: Record<string, JsonSchema>,
): JsonSchema {
  const member = (name: string, ref: string): JsonSchema => (defs[ref] ? { [name]: { $ref: `#/$defs/${ref}` } } : {});
  return {
    allOf: [
      { $ref: envelope },
      {
        properties: {
          ...(names.length > 0 ? { [shape.toolNameField]: { enum: names } } : {}),
          ...member(shape.inputField, 'input-recorded'),
          ...(event === shape.before ? {} : member(shape.responseField, 'response-recorded')),
        },
      },
    ],
  };
}

/**
 * Payloads that name their event are checked against that event's definition; those that name
 * none (the recording tagged them: hookEvents) against any of the events'.
 */
function byEvent(shape: Shape, events: readonly string[]): JsonSchema {
  const field = shape.eventField;
  if (field === undefined) return { anyOf: events.map((event) => ({ $ref: `#/$defs/event-${eventSlug(event)}` })) };
  return {
    ...(events.length > 1 ? { properties: { [field]: { enum: events } } } : {}),
    allOf: events.map((event) => ({
      if: { properties: { [field]: { const: event } }, required: [field] },
      then: { $ref: `#/$defs/event-${eventSlug(event)}` },
    })),
  };
}
