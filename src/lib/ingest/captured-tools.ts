/**
 * A capture (what one CLI configuration sent its model) → the tools it
 * advertises, in one shape for both wire formats:
 * - Anthropic Messages: `tools[]` of {name, description, input_schema}; tools
 *   that are only named (loaded later through ToolSearch) are listed in a
 *   system message.
 * - OpenAI Responses: top-level `tools[]` (function, custom with a grammar,
 *   hosted tools such as web_search, namespaces), or an `additional_tools`
 *   input item holding namespaces; code mode's `exec` declares nested tools in
 *   TypeScript inside its description.
 */
import type { Definition, DefinitionOrigin } from '../content-types.ts';
import { parseCodeModeDescription } from './code-mode.ts';

export interface CaptureFile {
  agent: 'claude-code' | 'codex';
  cli: { package: string; version: string };
  configuration: string;
  request: { method: string; path: string };
  body: Record<string, unknown>;
}

/** How the model is told about a tool in one configuration. */
export type Delivery =
  | 'function' // JSON Schema function tool
  | 'custom' // freeform tool with a grammar
  | 'hosted' // run by the model provider (web_search, image_generation …)
  | 'client-builtin' // a typed built-in the client runs (Codex tool_search)
  | 'code-mode' // nested tool declared in TypeScript inside code mode's exec
  | 'deferred'; // named only; its schema is loaded later through tool search

export interface CapturedTool {
  name: string;
  namespace?: string;
  /** `namespace.name`, or `name`. */
  fullName: string;
  delivery: Delivery;
  description?: string;
  input: Definition;
  output: Definition;
  /** Settings of a hosted tool, or other fields sent beside the definition. */
  settings?: Record<string, unknown>;
}

export class CaptureFormatError extends Error {}

/** Codex's default namespace: its tools are called without a prefix. */
const DEFAULT_NAMESPACE = 'functions';

const DEFERRED_INTRO = /The following deferred tools are now available via ToolSearch[^\n]*:\n((?:[^\n]+\n?)+)/;

function originOf(capture: CaptureFile): DefinitionOrigin {
  return { package: capture.cli.package, version: capture.cli.version, file: `content/captures/${capture.agent}/${capture.configuration}.json` };
}

const noResult = (agent: CaptureFile['agent']): Definition => ({
  kind: 'unavailable',
  reason:
    agent === 'codex'
      ? 'The model is not told the shape of this result: the request declares inputs only, and Codex returns the tool output to the model as text.'
      : 'The model-facing tool list declares inputs only; the result reaches the model as a tool_result block. See the SDK result type where one exists.',
});

function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CaptureFormatError(`${where} is not an object`);
  return value as Record<string, unknown>;
}

function fullNameOf(name: string, namespace: string | undefined): string {
  return namespace ? `${namespace}.${name}` : name;
}

/** A tool being assembled: optional parts may still be `undefined`. */
type Draft = Omit<CapturedTool, 'fullName' | 'namespace' | 'description' | 'settings'> & {
  namespace?: string | undefined;
  description?: string | undefined;
  settings?: Record<string, unknown> | undefined;
};

function make(draft: Draft): CapturedTool {
  const { namespace, description, settings, ...rest } = draft;
  const tool: CapturedTool = { ...rest, fullName: fullNameOf(draft.name, namespace) };
  if (namespace !== undefined) tool.namespace = namespace;
  if (description !== undefined) tool.description = description;
  if (settings !== undefined && Object.keys(settings).length > 0) tool.settings = settings;
  return tool;
}

function extractAnthropic(capture: CaptureFile): CapturedTool[] {
  const origin = originOf(capture);
  const tools = Array.isArray(capture.body.tools) ? capture.body.tools : [];
  const out: CapturedTool[] = [];
  tools.forEach((raw, i) => {
    const t = asRecord(raw, `body.tools[${i}]`);
    if (typeof t.name !== 'string') throw new CaptureFormatError(`body.tools[${i}] has no name`);
    if (t.defer_loading === true && t.name === 'DeferredToolPlaceholder') return; // a switch, not a tool
    const { name, description, input_schema, type, ...rest } = t;
    if (typeof type === 'string' && type !== 'custom') {
      out.push(make({ name: t.name, delivery: 'hosted', input: { kind: 'unavailable', reason: `A server tool of type ${type}: the model provider defines and runs it.` }, output: noResult(capture.agent), settings: { type, ...rest } }));
      return;
    }
    out.push(
      make({
        name: t.name,
        delivery: 'function',
        description: typeof description === 'string' ? description : undefined,
        input: { kind: 'json-schema', schema: asRecord(input_schema ?? { type: 'object' }, `body.tools[${i}].input_schema`), origin },
        output: noResult(capture.agent),
        settings: rest,
      }),
    );
  });
  // Named-only tools are announced in a system message of the conversation.
  const messages = Array.isArray(capture.body.messages) ? capture.body.messages : [];
  const texts: string[] = [];
  for (const m of messages) {
    const content = (m as { content?: unknown }).content;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) for (const block of content) if (typeof (block as { text?: unknown }).text === 'string') texts.push((block as { text: string }).text);
  }
  for (const text of texts) {
    const m = DEFERRED_INTRO.exec(text);
    if (!m) continue;
    for (const line of m[1]!.split('\n')) {
      const name = line.trim();
      if (!/^[A-Za-z_][\w.-]*$/.test(name) || out.some((t) => t.fullName === name)) continue;
      out.push(make({ name, delivery: 'deferred', input: { kind: 'unavailable', reason: 'Deferred in this configuration: the model is told only the name, and loads the schema through ToolSearch when it needs the tool.' }, output: noResult(capture.agent) }));
    }
  }
  return out;
}

function extractResponsesTool(raw: unknown, where: string, namespace: string | undefined, capture: CaptureFile, out: CapturedTool[]): void {
  const origin = originOf(capture);
  const t = asRecord(raw, where);
  const type = t.type;
  if (type === 'namespace') {
    if (typeof t.name !== 'string' || !Array.isArray(t.tools)) throw new CaptureFormatError(`${where}: a namespace needs a name and tools`);
    const ns = t.name === DEFAULT_NAMESPACE ? undefined : t.name;
    t.tools.forEach((inner, i) => extractResponsesTool(inner, `${where}.tools[${i}]`, ns, capture, out));
    return;
  }
  if (type === 'function') {
    const { name, description, parameters, type: _type, ...rest } = t;
    if (typeof name !== 'string') throw new CaptureFormatError(`${where}: a function tool has no name`);
    out.push(
      make({
        name,
        namespace,
        delivery: 'function',
        description: typeof description === 'string' ? description : undefined,
        input: { kind: 'json-schema', schema: asRecord(parameters ?? { type: 'object' }, `${where}.parameters`), origin },
        output: noResult(capture.agent),
        settings: rest,
      }),
    );
    return;
  }
  if (type === 'custom') {
    const { name, description, format, type: _type, ...rest } = t;
    if (typeof name !== 'string') throw new CaptureFormatError(`${where}: a custom tool has no name`);
    const f = format === undefined ? undefined : asRecord(format, `${where}.format`);
    const input: Definition =
      f && f.type === 'grammar' && typeof f.definition === 'string' && typeof f.syntax === 'string'
        ? { kind: 'grammar', syntax: f.syntax, definition: f.definition, origin }
        : { kind: 'unavailable', reason: 'A freeform tool without a grammar: the model sends plain text.' };
    out.push(make({ name, namespace, delivery: 'custom', description: typeof description === 'string' ? description : undefined, input, output: noResult(capture.agent), settings: rest }));
    if (name === 'exec' && typeof description === 'string' && description.includes('declare const tools')) {
      for (const nested of parseCodeModeDescription(description)) {
        const [nsPart, rest2] = nested.identifier.includes('__') ? nested.identifier.split(/__(.*)/s) : [undefined, nested.identifier];
        out.push(
          make({
            name: rest2!,
            namespace: nsPart ?? namespace,
            delivery: 'code-mode',
            description: nested.description,
            input: { kind: 'typescript', typeName: nested.input.typeName, source: nested.input.source, origin },
            output: { kind: 'typescript', typeName: nested.result.typeName, source: nested.result.source, origin },
          }),
        );
      }
    }
    return;
  }
  if (typeof type !== 'string') throw new CaptureFormatError(`${where}: a tool without a type`);
  // Typed built-ins: hosted by the provider (web_search, image_generation, …) or run by the client (tool_search).
  const { description, parameters, name, ...settings } = t;
  const clientRun = t.execution === 'client';
  out.push(
    make({
      name: typeof name === 'string' ? name : type,
      namespace,
      delivery: clientRun ? 'client-builtin' : 'hosted',
      description: typeof description === 'string' ? description : undefined,
      input:
        parameters !== undefined
          ? { kind: 'json-schema', schema: asRecord(parameters, `${where}.parameters`), origin }
          : { kind: 'unavailable', reason: `A hosted tool: the request carries its settings, not a parameter schema; the model provider runs it.` },
      output: noResult(capture.agent),
      settings,
    }),
  );
}

function extractResponses(capture: CaptureFile): CapturedTool[] {
  const out: CapturedTool[] = [];
  const tools = capture.body.tools;
  if (tools !== undefined && !Array.isArray(tools)) throw new CaptureFormatError('body.tools is not an array');
  (tools ?? []).forEach((t, i) => extractResponsesTool(t, `body.tools[${i}]`, undefined, capture, out));
  const input = Array.isArray(capture.body.input) ? capture.body.input : [];
  input.forEach((item, i) => {
    const it = asRecord(item, `body.input[${i}]`);
    if (it.type !== 'additional_tools') return;
    if (!Array.isArray(it.tools)) throw new CaptureFormatError(`body.input[${i}].tools is not an array`);
    it.tools.forEach((t, j) => extractResponsesTool(t, `body.input[${i}].tools[${j}]`, undefined, capture, out));
  });
  return out;
}

/** Every tool a capture advertises, in the order the model sees them. */
export function extractCapturedTools(capture: CaptureFile): CapturedTool[] {
  if (capture.request.path.startsWith('/v1/messages')) return extractAnthropic(capture);
  if (capture.request.path.startsWith('/v1/responses')) return extractResponses(capture);
  throw new CaptureFormatError(`unknown wire format: ${capture.request.method} ${capture.request.path}`);
}

const DEFERRED_NAMESPACES = /^<tools>\nDeferred tool namespaces:\n([\s\S]*?)(?:\n<\/tools>|$)/;

/**
 * Namespaces a Codex capture names without their tools (deferred to
 * tool_search): listed in a developer message as `- name` or `- name: description`.
 */
export function deferredNamespaces(capture: CaptureFile): string[] {
  if (!capture.request.path.startsWith('/v1/responses')) return [];
  const input = Array.isArray(capture.body.input) ? capture.body.input : [];
  const names: string[] = [];
  for (const item of input) {
    const it = item as { type?: unknown; content?: unknown };
    if (it.type !== 'message' || !Array.isArray(it.content)) continue;
    for (const part of it.content) {
      const text = (part as { text?: unknown }).text;
      const m = typeof text === 'string' ? DEFERRED_NAMESPACES.exec(text) : null;
      if (!m) continue;
      for (const line of m[1]!.split('\n')) {
        const name = /^- ([A-Za-z0-9_.-]+)(?::|$)/.exec(line.trim())?.[1];
        if (name && !names.includes(name)) names.push(name);
      }
    }
  }
  return names;
}

/** The stand-in for a tool of a deferred namespace in a configuration that only names the namespace. */
export function deferredNamespaceTool(known: CapturedTool): CapturedTool {
  return {
    name: known.name,
    ...(known.namespace ? { namespace: known.namespace } : {}),
    fullName: known.fullName,
    delivery: 'deferred',
    input: {
      kind: 'unavailable',
      reason: `Deferred in this configuration: the model is told only the namespace ${known.namespace}, and loads its tools through tool_search.`,
    },
    output: known.output.kind === 'unavailable' ? known.output : { kind: 'unavailable', reason: 'Deferred in this configuration.' },
  };
}
