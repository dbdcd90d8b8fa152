/**
 * What a committed capture's request advertises, read from the raw JSON with a
 * plain walk of the wire format's `tools` array, written for the tests and
 * independent of the build's extraction (src/lib/wire/): the tests compare the
 * site with this, not with the site's own reading.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS, isAgentId } from '../../src/lib/agents/index.ts';
import { ROOT } from './browser.ts';

/** How the agent module says our stub's made-up definitions begin (undefined: it has none). */
export const standInPrefix = (agent: string): string | undefined =>
  isAgentId(agent) ? AGENTS[agent].standInDefinitions?.descriptionPrefix : undefined;

export interface MatrixFile {
  agents: Record<string, { version: string; checked: string; configurations: { id: string; label: string }[] }>;
}

/** The project's content folder; tests of fixture content pass theirs. */
export const CONTENT = join(ROOT, 'content');

export const readMatrix = (content = CONTENT): MatrixFile =>
  JSON.parse(readFileSync(join(content, 'capture-matrix.json'), 'utf8')) as MatrixFile;

export const readCapture = (agent: string, config: string, content = CONTENT): any =>
  JSON.parse(readFileSync(join(content, 'captures', agent, `${config}.json`), 'utf8'));

/** A tool entry of a request's `tools` array. */
export interface Entry {
  /** The name the model calls, with its namespace (`collaboration.post`). */
  fullName: string;
  /** The name without its namespace. */
  name: string;
  /** How the entry offers the tool. */
  how: 'function' | 'freeform' | 'deferred with schema' | 'hosted' | 'built-in';
  /**
   * What the entry gives as the tool's input: a JSON Schema (a function entry
   * without one takes no parameters, which is a schema too: an empty object), a
   * grammar, or nothing (a freeform tool without a grammar, a hosted tool);
   * `stand-in`: a schema our own stub made up (its description opens with the
   * agent module's stand-in prefix), which is not the tool's.
   */
  input: 'json-schema' | 'grammar' | 'none' | 'stand-in';
}

/**
 * Every tool the request body's `tools` array declares, whatever the wire
 * format: Anthropic Messages (`{name, input_schema}`, `defer_loading`), OpenAI
 * Chat Completions (`{type: "function", function: {name, parameters}}`,
 * `{type: "custom", custom: {name}}`), OpenAI Responses (`{type: "function" |
 * "custom", name}`, `{type: "namespace", name, tools}`, typed built-ins such as
 * `{type: "web_search"}`, run by the client when `execution` is "client"), and
 * Gemini (`{functionDeclarations: [{name, parameters}]}`). Responses may also
 * carry tools in an input item (`{type: "additional_tools", tools}`), and
 * Codex's namespace `functions` is its default one: its tools are called
 * without a prefix. A vendor's own chat-stream request lists its tools under
 * `tool_definitions` (`{name, description, input_schema_json}`, the schema as
 * JSON text). An entry whose description says never to call it is a
 * switch, not a tool (Claude Code's DeferredToolPlaceholder).
 */
export function advertised(body: any, standInPrefix?: string): Entry[] {
  const out: Entry[] = [];
  const madeUp = (t: any) =>
    standInPrefix !== undefined && String(t.function?.description ?? t.description ?? '').startsWith(standInPrefix);
  const add = (name: string, namespace: string | undefined, how: Entry['how'], input: Entry['input']) =>
    out.push({ fullName: namespace && namespace !== 'functions' ? `${namespace}.${name}` : name, name, how, input });
  const grammar = (format: any): Entry['input'] =>
    format?.type === 'grammar' && typeof format.definition === 'string' ? 'grammar' : 'none';
  const entry = (t: any, namespace?: string): void => {
    if (t.type === 'namespace') for (const child of t.tools) entry(child, t.name);
    else if (Array.isArray(t.functionDeclarations))
      for (const d of t.functionDeclarations) add(d.name, namespace, 'function', 'json-schema');
    else if (t.function)
      add(
        t.function.name,
        namespace,
        t.defer_loading ? 'deferred with schema' : 'function',
        madeUp(t) ? 'stand-in' : 'json-schema',
      );
    else if (t.custom) add(t.custom.name, namespace, 'freeform', grammar(t.custom.format));
    else if (t.type === 'custom') add(t.name, namespace, 'freeform', grammar(t.format));
    else if (typeof t.description === 'string' && /never call this tool/i.test(t.description)) return;
    else if (t.type === undefined || t.type === 'function')
      add(
        t.name,
        namespace,
        t.defer_loading ? 'deferred with schema' : 'function',
        madeUp(t) ? 'stand-in' : 'json-schema',
      );
    else
      add(
        t.name ?? t.type,
        namespace,
        t.execution === 'client' ? 'built-in' : 'hosted',
        t.parameters ? 'json-schema' : 'none',
      );
  };
  for (const t of body.tools ?? []) entry(t);
  for (const item of Array.isArray(body.input) ? body.input : []) for (const t of item.tools ?? []) entry(t);
  for (const t of body.tool_definitions ?? [])
    add(t.name, undefined, 'function', typeof t.input_schema_json === 'string' ? 'json-schema' : 'none');
  return out;
}
