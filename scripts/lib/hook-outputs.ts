/**
 * What a hook may return, per event, as JSON Schema 2020-12, from the agent's own published
 * code (scripts/hook-outputs.ts fetches it; this module only reads text and bytes):
 * - `typescript`: declaration files of a published package. Every declared type whose name
 *   matches the source's pattern is an event's output (`PreToolUseHookSpecificOutput` →
 *   PreToolUse); with a `base`, the event's schema is the base type with its `member`
 *   narrowed to that type (Claude Code's SyncHookJSONOutput and its hookSpecificOutput).
 *   Each type and what it refers to is converted by ts-json-schema-generator
 *   (src/lib/shapes/json-schema.ts), keeping the declarations' documentation.
 * - `plugin-output`: the object a plugin function is handed to change (OpenCode's
 *   `tool.execute.before(input, output)`), the type of a parameter of a member of an interface.
 * - `embedded-json-schema`: JSON Schemas compiled into the CLI's program, found by their
 *   `$schema` line and read by brace matching; each is named by its `title`
 *   (`pre-tool-use.command.output` → PreToolUse).
 */
import ts from 'typescript';
import { schemaFromTypeScript, toDraft2020, type JsonSchema } from '../../src/lib/shapes/json-schema.ts';
import {
  declarationClosure,
  declarationText,
  parseDeclarations,
  type ParsedDeclarations,
} from '../../src/lib/shapes/ts-shape.ts';
import type { HookOutputSource } from '../../src/lib/agents/types.ts';

export class HookOutputError extends Error {}

export interface EventOutput {
  event: string;
  /** The declaration(s) it comes from, as the source names them. */
  declaredAs: string;
  schema: JsonSchema;
}

/**
 * The library types the hook declarations use; the conversion runs without TypeScript's
 * library (no file is read), so it is declared here when the text refers to it.
 */
const PRELUDE: Readonly<Record<string, string>> = {
  Record: 'type Record<K extends keyof any, T> = { [P in K]: T };',
  Array: 'interface Array<T> { [n: number]: T; length: number }',
  Partial: 'type Partial<T> = { [P in keyof T]?: T[P] };',
};

function convert(parsed: ParsedDeclarations, name: string): JsonSchema {
  const names = declarationClosure(parsed, name);
  const text = declarationText(parsed, names);
  const prelude = Object.entries(PRELUDE)
    .filter(([lib]) => new RegExp(`\\b${lib}<`).test(text) && !parsed.declarations.has(lib))
    .map(([, declaration]) => declaration);
  return schemaFromTypeScript([...prelude, text].join('\n'), name);
}

function eventName(captured: string, naming: 'as-is' | 'lower-first' | 'kebab-to-pascal'): string {
  if (naming === 'lower-first') return captured.charAt(0).toLowerCase() + captured.slice(1);
  if (naming === 'kebab-to-pascal')
    return captured
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('');
  return captured;
}

/**
 * Outputs of the `typescript` form from the concatenated declaration text; `events`, when given, are the only event
 * names taken (the agent's named events).
 */
export function typescriptOutputs(
  text: string,
  source: Extract<HookOutputSource, { form: 'typescript' }>,
  events: ReadonlySet<string> | undefined,
): EventOutput[] {
  const parsed = parseDeclarations(text, source.files.join('+'));
  const pattern = new RegExp(`^${source.pattern.replace('{event}', '(\\w+?)')}$`);
  const out: EventOutput[] = [];
  const base = source.base === undefined ? undefined : convert(parsed, source.base.type);
  for (const name of parsed.order) {
    const m = pattern.exec(name);
    if (!m) continue;
    const event = eventName(m[1]!, source.naming);
    if (events !== undefined && !events.has(event)) continue;
    const own = convert(parsed, name);
    if (base === undefined || source.base === undefined) {
      out.push({ event, declaredAs: name, schema: own });
      continue;
    }
    const properties = (base['properties'] ?? {}) as Record<string, JsonSchema>;
    if (!(source.base.member in properties))
      throw new HookOutputError(`${source.base.type} has no member ${source.base.member}`);
    const { description } = properties[source.base.member] ?? {};
    out.push({
      event,
      declaredAs: `${source.base.type}, its ${source.base.member} a ${name}`,
      schema: {
        ...base,
        properties: {
          ...properties,
          [source.base.member]: { ...(typeof description === 'string' ? { description } : {}), ...own },
        },
      },
    });
  }
  if (out.length === 0)
    throw new HookOutputError(`no declaration of ${source.files.join(', ')} is named like ${source.pattern}`);
  return out.sort((a, b) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
}

/**
 * Outputs of the `plugin-output` form: for each event, the type of parameter `parameter` of the interface member named
 * after it.
 */
export function pluginOutputs(
  text: string,
  source: Extract<HookOutputSource, { form: 'plugin-output' }>,
): EventOutput[] {
  const file = ts.createSourceFile(source.file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const iface = file.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === source.interface,
  );
  if (!iface) throw new HookOutputError(`${source.file} declares no interface ${source.interface}`);
  const out: EventOutput[] = [];
  for (const event of source.events) {
    const member = iface.members.find(
      (m): m is ts.PropertySignature =>
        ts.isPropertySignature(m) &&
        m.name !== undefined &&
        (ts.isStringLiteral(m.name) || ts.isIdentifier(m.name)) &&
        m.name.text === event,
    );
    const fn = member?.type;
    if (!fn || !ts.isFunctionTypeNode(fn))
      throw new HookOutputError(`${source.interface} of ${source.file} has no function member "${event}"`);
    const parameter = fn.parameters[source.parameter];
    if (!parameter?.type)
      throw new HookOutputError(`"${event}" of ${source.interface} has no parameter ${source.parameter + 1}`);
    const alias = `HookOutputOf_${out.length}`;
    const parsed = parseDeclarations(`${text}\ntype ${alias} = ${parameter.type.getText(file)};\n`, source.file);
    out.push({
      event,
      declaredAs: `${source.interface}["${event}"], its parameter ${parameter.name.getText(file)}`,
      schema: convert(parsed, alias),
    });
  }
  return out;
}

/**
 * Every complete JSON object in `bytes` that starts with a `$schema` line (pretty-printed, as compiled into a program),
 * in order.
 */
export function embeddedSchemas(bytes: Buffer): JsonSchema[] {
  const marker = Buffer.from('{\n  "$schema": ');
  const out: JsonSchema[] = [];
  for (let at = bytes.indexOf(marker); at >= 0; at = bytes.indexOf(marker, at + 1)) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let i = at; i < bytes.length && i < at + 1_000_000; i++) {
      const c = bytes[i]!;
      if (inString) {
        if (c === 0x5c)
          i++; // a backslash escapes the next byte
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b) depth++;
      else if (c === 0x7d && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    if (end < 0) continue;
    try {
      const value = JSON.parse(bytes.subarray(at, end).toString('utf8')) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.push(value as JsonSchema);
    } catch {
      // Not JSON after all (a format string, say): not a schema.
    }
  }
  return out;
}

/** Outputs of the `embedded-json-schema` form: schemas whose title matches the pattern. */
export function embeddedOutputs(
  bytes: Buffer,
  source: Extract<HookOutputSource, { form: 'embedded-json-schema' }>,
): EventOutput[] {
  const pattern = new RegExp(`^${source.pattern.replace('{event}', '([a-z-]+?)').replaceAll('.', '\\.')}$`);
  const out = new Map<string, EventOutput>();
  for (const schema of embeddedSchemas(bytes)) {
    const title = typeof schema['title'] === 'string' ? schema['title'] : '';
    const m = pattern.exec(title);
    if (!m) continue;
    const event = eventName(m[1]!, source.naming);
    const converted = toDraft2020(schema);
    const known = out.get(event);
    if (known && JSON.stringify(known.schema) !== JSON.stringify(converted))
      throw new HookOutputError(`the program holds two different schemas titled ${title}`);
    out.set(event, { event, declaredAs: title, schema: converted });
  }
  if (out.size === 0) throw new HookOutputError(`the program holds no JSON Schema titled like ${source.pattern}`);
  return [...out.values()].sort((a, b) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
}
