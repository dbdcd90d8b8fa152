/**
 * `agent-tools check <agent> <event> [file|-] [--answer] [--tool T]`: a hook's payload against the
 * hook schema of the tool it names (`/<agent>/<tool>/hooks.schema.json`: the event's envelope and the
 * tool's input and response as recorded; `--tool` names the tool), else against the schema the site
 * publishes for the event (`/<agent>/hooks/<event>.schema.json`, what the recorded payloads hold);
 * with `--answer`, a hook's answer against the event's output schema
 * (`<event>.output.schema.json`, as the agent's published code declares it). Each error is said as
 * the site's checker says it (src/lib/check/payload-check-ui.ts), with its JSON Pointer and the
 * schema rule that failed. Schemas referred to by `$ref` are read from the same snapshot.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { errorSegments, pointerSegments } from '../lib/check/error-rows.ts';
import { listErrors, outputAnswer, pathText, type HookOutputCheck } from '../lib/check/payload-check-ui.ts';
import { pointerToken } from '../lib/core/json.ts';
import type { CatalogAgent } from '../lib/exports/catalog.ts';
import { closest, findAgent, findTool, NotFound } from './lookup.ts';
import { pageUrl, type Snapshot } from './snapshot.ts';

// CommonJS under ESM: the function sits on `default` (or is the module itself once bundled).
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => void;

/** A text that is not JSON: the CLI exits 4 with this message. */
export class UnreadableInput extends Error {}

export interface CheckError {
  /** RFC 6901 pointer to the member the error is about (a missing or unexpected member included). */
  pointer: string;
  /** The schema keyword that failed (`required`, `type`, `enum`, `additionalProperties`…). */
  rule: string;
  /** Where in the schema. */
  schemaPath: string;
  /** The path as a reader writes it (`hookSpecificOutput.permissionDecision`). */
  path: string;
  /** The error in plain words, as the site's checker says it. */
  text: string;
}

export interface CheckAnswer {
  agent: string;
  product: string;
  release: string;
  event: string;
  /** `payload` or `answer`. */
  checked: 'payload' | 'answer';
  valid: boolean;
  headline: string;
  notes: string[];
  errors: CheckError[];
  /** The schema checked against, and the page that explains it. */
  schema: string;
  page: string;
}

export interface CheckOptions {
  answer?: boolean;
  tool?: string;
}

/** The event as the agent spells it: exactly, else the one event of that name in another case. */
function eventOf(agent: CatalogAgent, wanted: string, answer: boolean): { event: string; schema: string } {
  const list = answer ? (agent.hooks.outputs?.schemas ?? []) : agent.hooks.schemas;
  const exact = list.find((s) => s.event === wanted);
  if (exact) return exact;
  const folded = list.filter((s) => s.event.toLowerCase() === wanted.toLowerCase());
  if (folded.length === 1) return folded[0]!;
  const what = answer ? 'answer schema (output schema)' : 'payload schema';
  const none =
    list.length === 0
      ? answer
        ? (agent.hooks.outputs?.unavailable ?? 'no declaration of hook answers was found')
        : 'no hook payload is recorded'
      : `it has ${list.map((s) => s.event).join(', ')}`;
  throw new NotFound(
    `${agent.product} ${agent.version} has no ${what} of an event ${JSON.stringify(wanted)}: ${none}.`,
    closest(
      wanted,
      list.map((s) => s.event),
    ),
  );
}

/** The value of a JSON text, a byte-order mark skipped. */
export function parseJsonText(text: string): { value: unknown; byteOrderMark: boolean } {
  const byteOrderMark = text.charCodeAt(0) === 0xfeff;
  const body = byteOrderMark ? text.slice(1) : text;
  if (!/\S/.test(body)) throw new UnreadableInput('Nothing to check: the input is empty.');
  try {
    return { value: JSON.parse(body), byteOrderMark };
  } catch (error) {
    throw new UnreadableInput(`Not JSON: ${(error as Error).message}`);
  }
}

/** Compiled validators per snapshot and schema: an MCP server checks many payloads against the same few schemas. */
const compiled = new WeakMap<Snapshot, Map<string, ReturnType<Ajv2020['compile']>>>();

function validatorOf(snapshot: Snapshot, sitePath: string): ReturnType<Ajv2020['compile']> {
  let own = compiled.get(snapshot);
  if (!own) compiled.set(snapshot, (own = new Map()));
  return own.get(sitePath) ?? own.set(sitePath, compileFromSnapshot(snapshot, sitePath)).get(sitePath)!;
}

/** An Ajv that reads the schemas a schema refers to from the snapshot, by their `$id`s under the site's address. */
function compileFromSnapshot(snapshot: Snapshot, sitePath: string): ReturnType<Ajv2020['compile']> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const site = new URL(snapshot.info.site);
  const added = new Set<string>();
  const add = (path: string): Record<string, unknown> => {
    const schema = snapshot.json<Record<string, unknown>>(path);
    if (!schema) throw new NotFound(`The snapshot holds no ${path}, which the check needs.`);
    const id = String(schema.$id ?? new URL(path, site).href);
    if (added.has(id)) return schema;
    added.add(id);
    for (const ref of refsOf(schema)) {
      const target = new URL(ref, id);
      target.hash = '';
      if (target.origin !== site.origin || added.has(target.href)) continue;
      if (target.href !== id.replace(/#.*$/, '')) add(target.pathname);
    }
    if (path !== sitePath) ajv.addSchema(schema);
    return schema;
  };
  return ajv.compile(add(sitePath));
}

/** Every `$ref` in a schema. */
function refsOf(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) refsOf(item, out);
  else if (schema !== null && typeof schema === 'object')
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsOf(value, out);
    }
  return out;
}

const pointerOf = (error: ErrorObject) =>
  errorSegments(error)
    .map((s) => `/${pointerToken(s)}`)
    .join('');

/** Ajv's errors as the CLI reports them, each once (unions repeat them), in Ajv's order. */
function errorRows(errors: readonly ErrorObject[], lines: { path: string; text: string }[]): CheckError[] {
  const rows: CheckError[] = [];
  const seen = new Set<string>();
  errors.forEach((error, i) => {
    const line = lines[i]!;
    const key = `${pointerOf(error)}\u0000${error.keyword}\u0000${line.text}`;
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ pointer: pointerOf(error), rule: error.keyword, schemaPath: error.schemaPath, ...line });
  });
  return rows;
}

/** What a check validates against: the agent, the event as it spells it, and the schema's site path. */
export interface CheckTarget {
  agent: CatalogAgent;
  event: string;
  schemaPath: string;
  answer: boolean;
  /** The tool whose hook schema is used, as the user named it. */
  tool?: string;
}

/** Finds what to check against, before any input is read: a wrong name is said first. */
export function checkTarget(
  snapshot: Snapshot,
  agentName: string,
  eventName: string,
  options: CheckOptions = {},
): CheckTarget {
  const catalog = snapshot.catalog();
  const agent = findAgent(catalog, agentName);
  const answer = options.answer === true;
  const { event, schema } = eventOf(agent, eventName, answer);
  if (options.tool === undefined || answer) return { agent, event, schemaPath: schema, answer };
  const tool = findTool(catalog, agent, options.tool);
  if (!tool.links.hookSchema)
    throw new NotFound(`No hook payload of ${agent.product}'s ${tool.fullName} is recorded: it has no hook schema.`);
  return { agent, event, schemaPath: tool.links.hookSchema, answer, tool: tool.fullName };
}

export function check(
  snapshot: Snapshot,
  agentName: string,
  eventName: string,
  text: string,
  options: CheckOptions = {},
): CheckAnswer {
  return checkAgainst(snapshot, checkTarget(snapshot, agentName, eventName, options), text);
}

/**
 * The names a payload gives its tool: string members called `tool`, `tool_name` or `toolName`, at most one level down.
 */
function namesInPayload(value: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
    for (const [key, member] of Object.entries(v)) {
      if (typeof member === 'string' && /^tool_?name$|^tool$/i.test(key)) names.add(member);
      else if (depth < 1) visit(member, depth + 1);
    }
  };
  visit(value, 0);
  return names;
}

/**
 * The tools of the agent a payload names, whose recorded hook schema covers the event: checking against their
 * schema also checks the tool input as recorded, as the tool page's checker does.
 */
function namedTools(snapshot: Snapshot, agent: CatalogAgent, event: string, value: unknown) {
  const names = namesInPayload(value);
  if (names.size === 0) return [];
  return snapshot.catalog().tools.filter((t) => {
    if (t.agent !== agent.id || t.links.hookSchema === undefined || !t.hookNames.some((n) => names.has(n)))
      return false;
    const defs = snapshot.json<{ $defs?: Record<string, unknown> }>(t.links.hookSchema)?.$defs;
    return defs?.[`event-${event}`] !== undefined;
  });
}

/** The schema a payload is checked against, and its verdict: a tool it names that accepts it, else the first such. */
function payloadVerdict(snapshot: Snapshot, target: CheckTarget, value: unknown) {
  const verdict = (schemaPath: string, tool?: string) => {
    const validate = validatorOf(snapshot, schemaPath);
    const valid = validate(value) as boolean;
    return { schemaPath, tool, valid, errors: [...(validate.errors ?? [])] };
  };
  if (target.answer || target.tool !== undefined) return verdict(target.schemaPath, target.tool);
  const tools = namedTools(snapshot, target.agent, target.event, value);
  const verdicts = tools.map((t) => verdict(t.links.hookSchema!, t.fullName));
  return verdicts.find((v) => v.valid) ?? verdicts[0] ?? verdict(target.schemaPath);
}

export function checkAgainst(snapshot: Snapshot, target: CheckTarget, text: string): CheckAnswer {
  const { agent, event, answer } = target;
  const { value, byteOrderMark } = parseJsonText(text);
  const notes = byteOrderMark ? ['A byte-order mark (U+FEFF) before the JSON was skipped.'] : [];
  const { schemaPath, tool, valid, errors } = payloadVerdict(snapshot, target, value);
  if (tool !== undefined && target.tool === undefined)
    notes.push(
      `The payload names ${tool}: it was checked against ${tool}'s hook schema, which holds the ${event} ` +
        'envelope and the tool input as recorded.',
    );
  const base = {
    agent: agent.id,
    product: agent.product,
    release: agent.version,
    event,
    schema: pageUrl(snapshot.info, schemaPath),
    page: pageUrl(snapshot.info, agent.hooks.page),
  };
  if (answer) {
    const outputs: HookOutputCheck = {
      source: agent.hooks.outputs?.from ?? `${agent.product} ${agent.version}`,
      members: [],
      events: [{ event, schema: schemaPath, validator: '' }],
    };
    const said = outputAnswer([{ event, valid, errors }], outputs, event);
    // The words of each error as outputAnswer gives them: the path where it is, and Ajv's message.
    const words = errors.map((e) => {
      const segments = pointerSegments(e.instancePath);
      return {
        path: segments.length === 0 ? '(the whole answer)' : pathText(segments),
        text: e.message ?? 'is not valid',
      };
    });
    return {
      ...base,
      checked: 'answer' as const,
      valid,
      headline: said.headline,
      notes: [...notes, ...said.notes],
      errors: errorRows(errors, words),
    } satisfies CheckAnswer;
  }
  // One line per error, in the site's words; errorRows drops the ones a union repeats.
  const rows = errorRows(
    errors,
    errors.map((e) => listErrors([e], value, [], event).lines[0]!),
  );
  const count = listErrors(errors, value, [], event).total;
  const against = tool === undefined ? `the ${event} payload schema` : `the hook schema of ${tool}`;
  return {
    ...base,
    checked: 'payload' as const,
    valid,
    headline: valid
      ? `Valid against ${against} of ${agent.product} ${agent.version}.`
      : `Not valid against ${against} of ${agent.product} ${agent.version}: ${count} error${count === 1 ? '' : 's'}.`,
    notes,
    errors: rows,
  } satisfies CheckAnswer;
}
