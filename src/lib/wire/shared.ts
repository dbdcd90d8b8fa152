/** Helpers the wire format modules share: JSON pointers, SSE framing, assembling a CapturedTool. */
import {
  CaptureFormatError,
  type Announcement,
  type CapturedTool,
  type ToolCount,
  type DeferredNamespace,
  type ExtractContext,
  type StubReply,
  type WireFormat,
  type WireRequest,
} from './types.ts';

import { isObject, jsonPointer } from '../core/json.ts';
import type { Definition, DefinitionOrigin, JsonSchemaDefinition } from '../core/content-types.ts';
import type { JsonRecord } from '../core/json.ts';

export { isObject, jsonPointer as pointer } from '../core/json.ts';

/** `value` as an object, or a CaptureFormatError at `at` saying `what` is not one. */
export function asRecord(value: unknown, at: string, what: string, tool?: string): JsonRecord {
  if (!isObject(value)) throw new CaptureFormatError(`${what} is not an object`, at, tool);
  return value;
}

/**
 * A tool's input schema as sent at `at`; a tool sent without one (`member` absent) takes no
 * declared fields, and its definition says that the member was absent, so that no page
 * shows the stand-in schema as text the CLI sent.
 */
export function jsonSchemaInput(
  schema: unknown,
  at: string,
  member: string,
  tool: unknown,
  origin: DefinitionOrigin,
): JsonSchemaDefinition {
  if (schema === undefined)
    return { kind: 'json-schema', schema: { type: 'object' }, origin, absentMember: member.replaceAll('`', '') };
  return {
    kind: 'json-schema',
    schema: asRecord(schema, at, member, typeof tool === 'string' ? tool : undefined),
    origin,
  };
}

export function fullNameOf(name: string, namespace: string | undefined): string {
  return namespace ? `${namespace}.${name}` : name;
}

/** A tool being assembled: optional parts may still be `undefined`. */
export type Draft = Omit<CapturedTool, 'fullName' | 'namespace' | 'description' | 'settings'> & {
  namespace?: string | undefined;
  description?: string | undefined;
  settings?: Record<string, unknown> | undefined;
};

export function makeTool(draft: Draft): CapturedTool {
  const { namespace, description, settings, ...rest } = draft;
  const tool: CapturedTool = { ...rest, fullName: fullNameOf(draft.name, namespace) };
  if (namespace !== undefined) tool.namespace = namespace;
  if (description !== undefined) tool.description = description;
  if (settings !== undefined && Object.keys(settings).length > 0) tool.settings = settings;
  return tool;
}

/** The `model` of a request body, or a stand-in. */
export function modelOf(json: unknown): string {
  const m = isObject(json) ? json['model'] : undefined;
  return typeof m === 'string' ? m : 'stub-model';
}

/** The `model` a request body names, or undefined (for formats that name the model in the body). */
export function bodyModel(request: { json: unknown }): string | undefined {
  const m = isObject(request.json) ? request.json['model'] : undefined;
  return typeof m === 'string' ? m : undefined;
}

/** Why `body` is not a JSON request body with a string `model` and an optional `tools` array. */
export function commonProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'the body is not a JSON object';
  if (typeof body['model'] !== 'string') return 'it has no string `model`';
  if (body['tools'] !== undefined && !Array.isArray(body['tools'])) return '`tools` is not an array';
  return undefined;
}

/**
 * The text of the last text part (`text` or `input_text`) of the last `user`
 * message in `list` (message items without a `type`, or of type `message`).
 */
export function lastUserTextIn(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const user = [...list]
    .reverse()
    .find((m) => isObject(m) && m['role'] === 'user' && (m['type'] === undefined || m['type'] === 'message')) as
    | JsonRecord
    | undefined;
  if (!user) return undefined;
  const content = user['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const text = [...content]
    .reverse()
    .find(
      (b) => isObject(b) && (b['type'] === 'text' || b['type'] === 'input_text') && typeof b['text'] === 'string',
    ) as JsonRecord | undefined;
  return text?.['text'] as string | undefined;
}

/** Does the body carry a non-empty `tools` array? */
export function hasToolsArray(body: unknown): boolean {
  return isObject(body) && Array.isArray(body['tools']) && body['tools'].length > 0;
}

/** A result's content: the string itself, or the `text` of its parts joined by newlines. */
export function partsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.flatMap((p) => (isObject(p) && typeof p['text'] === 'string' ? [p['text']] : [])).join('\n');
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The text of the stub's replies. */
export const STUB_REPLY_TEXT = 'ok';

/** One Server-Sent Events frame: `event:` line, one `data:` line of JSON, blank line. */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function sseText(events: readonly [string, unknown][]): string {
  return events.map(([e, d]) => sseFrame(e, d)).join('');
}

/**
 * Splits SSE text back into frames (used by tests, and a check that the framing is
 * what a client parser expects): frames end with a blank line; `data:` lines join.
 */
export function parseSse(text: string): { event: string; data: string }[] {
  const frames: { event: string; data: string }[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    frames.push({ event, data: data.join('\n') });
  }
  return frames;
}

export function jsonReply(body: unknown, status = 200): StubReply {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

export function sseReply(events: readonly [string, unknown][]): StubReply {
  return { status: 200, contentType: 'text/event-stream', body: sseText(events) };
}

/**
 * The keys of `body` in `kept`, verbatim and in the order sent, except that a key with a
 * reducer keeps only what the reducer returns of its list, and is left out when nothing
 * remains (the conversation reduced to the text that names deferred tools).
 */
export function keptBody(
  body: JsonRecord,
  kept: readonly string[],
  reducers: Readonly<Record<string, (list: unknown[]) => unknown[]>> = {},
): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) {
    if (!kept.includes(key)) continue;
    const reduce = reducers[key];
    if (reduce) {
      const list = reduce(value as unknown[]);
      if (list.length > 0) out[key] = list;
    } else out[key] = value;
  }
  return out;
}

/** `commonProblem`, and a `messages` array (Anthropic Messages, OpenAI Chat Completions). */
export function messagesProblem(body: unknown): string | undefined {
  const common = commonProblem(body);
  if (common) return common;
  if (!Array.isArray((body as JsonRecord)['messages'])) return 'it has no `messages` array';
  return undefined;
}

/**
 * The texts of one message of a role/content conversation (Anthropic Messages and
 * Chat Completions write messages alike), with their pointers: string content, or
 * the `text` of each block.
 */
export function messageTexts(message: unknown, at: string): { text: string; at: string }[] {
  if (!isObject(message)) return [];
  const content = message['content'];
  if (typeof content === 'string') return [{ text: content, at: jsonPointer(at, 'content') }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b, i) =>
    isObject(b) && typeof b['text'] === 'string'
      ? [{ text: b['text'], at: jsonPointer(at, 'content', i, 'text') }]
      : [],
  );
}

/**
 * Is an item of a Responses `input` a message: `type: "message"`, or no `type` with a `role` (the
 * API's short form of a message, `{ role, content }`, which Pi sends)?
 */
export function isInputMessage(item: unknown): item is JsonRecord {
  return (
    isObject(item) && (item['type'] === 'message' || (item['type'] === undefined && typeof item['role'] === 'string'))
  );
}

/**
 * Every text of the conversation a body carries, with its pointer: the parts of `messages`
 * (Anthropic Messages, Chat Completions) and of the message items of `input` (Responses).
 * In a capture these are only what the agent's announcements marked (the rest is left out).
 */
export function conversationTexts(body: JsonRecord, at: string): { text: string; at: string }[] {
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  const input = Array.isArray(body['input']) ? body['input'] : [];
  return [
    ...messages.flatMap((m, i) => messageTexts(m, jsonPointer(at, 'messages', i))),
    ...input.flatMap((item, i) => (isInputMessage(item) ? messageTexts(item, jsonPointer(at, 'input', i)) : [])),
  ];
}

/**
 * From a role/content conversation, only the passages `find` picks out of each text
 * (those that announce deferred tools: the rest describes the machine and the
 * session, and is left out), each kept verbatim as a text block of its message's role.
 */
export function keptPassages(messages: readonly unknown[], find: (text: string) => readonly string[]): JsonRecord[] {
  const out: JsonRecord[] = [];
  for (const m of messages) {
    if (!isObject(m)) continue;
    for (const { text } of messageTexts(m, ''))
      for (const passage of find(text)) out.push({ role: m['role'], content: [{ type: 'text', text: passage }] });
  }
  return out;
}

/**
 * The names an agent's announcement (WireQuirks) gives in `texts` (each with the pointer of
 * where it is), in order, each once, with the pointer of the first text naming it; none
 * without an announcement.
 */
export function announcedNames(
  texts: Iterable<{ text: string; at: string }>,
  announcement: Announcement | undefined,
): { name: string; at: string }[] {
  const out: { name: string; at: string }[] = [];
  if (!announcement) return out;
  for (const { text, at } of texts)
    for (const name of announcement.names(text)) if (!out.some((d) => d.name === name)) out.push({ name, at });
  return out;
}

/**
 * From the messages of a body, only the passages the agent's announcement marks (the rest
 * of those messages describes the machine, the date and the session, and is left out),
 * each kept verbatim as a text part of its message's role.
 */
export function keptAnnouncements(messages: readonly unknown[], announcement: Announcement | undefined): JsonRecord[] {
  return keptPassages(messages, (text) => announcement?.passages(text) ?? []);
}

/** Tool names the `messages` of a body announce as deferred, each with the pointer of the text naming it. */
export function announcedInMessages(
  body: JsonRecord,
  at: string,
  announcement: Announcement | undefined,
): { name: string; at: string }[] {
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  return announcedNames(
    messages.flatMap((m, i) => messageTexts(m, jsonPointer(at, 'messages', i))),
    announcement,
  );
}

/**
 * Adds to `count` the tools the messages of `body` announce as deferred that it does not name yet (capture's summary
 * line).
 */
export function countAnnounced(count: ToolCount, body: JsonRecord, announcement: Announcement | undefined): void {
  for (const { name } of announcedInMessages(body, '', announcement)) {
    if (count.names.includes(name)) continue;
    count.tools++;
    count.deferred++;
    count.names.push(name);
  }
}

/**
 * The tools `named` (announced as deferred) that `out` does not hold yet, added to it as deferred tools with the
 * announcement's reason.
 */
export function addDeferredTools(
  out: CapturedTool[],
  named: readonly { name: string; at: string }[],
  announcement: Announcement | undefined,
  output: Definition,
): void {
  if (!announcement) return;
  for (const { name, at } of named) {
    if (out.some((t) => t.fullName === name)) continue;
    out.push(
      makeTool({
        name,
        delivery: 'deferred',
        input: deferredInput(announcement, name),
        output,
        pointer: at,
        namePointer: at,
      }),
    );
  }
}

/** A format without namespaces. */
export function noNamespaces(_body: JsonRecord, _context: ExtractContext): DeferredNamespace[] {
  return [];
}

/** The input definition of a tool an announcement only names: unavailable, for the announcing agent's reason. */
export function deferredInput(announcement: Announcement, name: string): Definition {
  return { kind: 'unavailable', reason: announcement.reason(name) };
}

/** Members of a WireFormat that most formats share: defineWireFormat fills them in when a module leaves them out. */
type DefaultedMembers =
  | 'requestLabel'
  | 'isToolRequestPath'
  | 'isStreaming'
  | 'hasTools'
  | 'requestModel'
  | 'deferredNamespaces';

/** What a wire format module declares itself: everything it does differently from the usual. */
export type WireFormatParts = Omit<WireFormat, DefaultedMembers> & Partial<Pick<WireFormat, DefaultedMembers>>;

/**
 * A wire format from what its module declares, with the usual for what it leaves out: its label as
 * `a`/`an <label> request`, tools on a POST to exactly `requestPath`, streaming when the body says
 * `stream: true`, tools in a non-empty `tools` array, the model named by the body, no namespaces.
 * One place for these, so that a format states only where it differs.
 */
export function defineWireFormat<const P extends WireFormatParts>(parts: P): WireFormat & P {
  return {
    requestLabel: `${/^[AEIOU]/.test(parts.label) ? 'an' : 'a'} ${parts.label} request`,
    isToolRequestPath: (path: string) => path === parts.requestPath,
    isStreaming: (request: WireRequest) => isObject(request.json) && request.json['stream'] === true,
    hasTools: hasToolsArray,
    requestModel: bodyModel,
    deferredNamespaces: noNamespaces,
    ...parts,
  };
}
