/**
 * From the requests a CLI sent to the stub to the committed capture: which request is
 * the main turn, which keys of its body are about tools, and how many tools it declares.
 * Pure functions.
 */
import type { RecordedRequest } from './stub-server.ts';

export type WireFormat = 'anthropic-messages' | 'openai-responses';

export const WIRE_PATHS: Record<WireFormat, string> = {
  'anthropic-messages': '/v1/messages',
  'openai-responses': '/v1/responses',
};

/** Keys of the request body kept in a capture, per wire format (in the order sent, not this order). */
export const TOOL_KEYS: Record<WireFormat, readonly string[]> = {
  'anthropic-messages': ['model', 'tools', 'tool_choice', 'messages'],
  'openai-responses': ['model', 'tools', 'tool_choice', 'parallel_tool_calls', 'input'],
};

export class CaptureError extends Error {}

type Json = Record<string, unknown>;

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Why `body` is not a request of `wire`, or undefined when it is one. */
export function wireProblem(wire: WireFormat, body: unknown): string | undefined {
  if (!isObject(body)) return 'the body is not a JSON object';
  if (typeof body['model'] !== 'string') return 'it has no string `model`';
  if (body['tools'] !== undefined && !Array.isArray(body['tools'])) return '`tools` is not an array';
  if (wire === 'anthropic-messages') {
    if (!Array.isArray(body['messages'])) return 'it has no `messages` array';
  } else if (!Array.isArray(body['input'])) return 'it has no `input` array';
  return undefined;
}

/** The parsed `x-codex-turn-metadata` header, when there is one and it is JSON. */
export function turnMetadata(request: RecordedRequest): Json | undefined {
  const raw = request.headers['x-codex-turn-metadata'];
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text of the last text block of the last `user` message: `messages` of an Anthropic
 * Messages body (text blocks), or `input` of an OpenAI Responses body (`input_text` parts).
 */
export function lastUserText(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const list = Array.isArray(body['messages']) ? body['messages'] : Array.isArray(body['input']) ? body['input'] : undefined;
  if (!list) return undefined;
  const user = [...list].reverse().find((m) => isObject(m) && m['role'] === 'user' && (m['type'] === undefined || m['type'] === 'message')) as Json | undefined;
  if (!user) return undefined;
  const content = user['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const text = [...content].reverse().find((b) => isObject(b) && (b['type'] === 'text' || b['type'] === 'input_text') && typeof b['text'] === 'string') as Json | undefined;
  return text?.['text'] as string | undefined;
}

/**
 * The main request of a run:
 * - Anthropic Messages: among the streaming `POST /v1/messages`, those whose last user
 *   text is the prompt itself (side requests such as title generation wrap it in other
 *   text), then the first of them that declares a non-empty `tools`; failing that, the
 *   first streaming one with non-empty `tools`, then the first streaming one.
 * - OpenAI Responses: the only `POST /v1/responses`; when there are several (features
 *   such as memories run their own turns, concurrently), the first whose
 *   `x-codex-turn-metadata` header says `request_kind: "turn"` and `thread_source: "user"`,
 *   then the first whose last user text is the prompt, then the first tagged as a turn,
 *   then the first that carries the header at all.
 * Throws a CaptureError naming what was seen when no request qualifies, or when the
 * chosen body is not the wire format.
 */
export function chooseMainRequest(wire: WireFormat, requests: readonly RecordedRequest[], prompt?: string): RecordedRequest {
  const path = WIRE_PATHS[wire];
  const seen = requests.length === 0 ? 'none' : requests.map((r) => `${r.method} ${r.url}`).join(', ');
  const posts = requests.filter((r) => r.method === 'POST' && pathOf(r.url) === path);
  if (posts.length === 0) throw new CaptureError(`no POST ${path} request reached the stub (requests seen: ${seen})`);
  let chosen: RecordedRequest | undefined;
  if (wire === 'anthropic-messages') {
    const streaming = posts.filter((r) => isObject(r.json) && r.json['stream'] === true);
    const withTools = (r: RecordedRequest): boolean => {
      const tools = (r.json as Json)['tools'];
      return Array.isArray(tools) && tools.length > 0;
    };
    const prompted = prompt === undefined ? [] : streaming.filter((r) => lastUserText(r.json)?.trim() === prompt.trim());
    chosen = prompted.find(withTools) ?? prompted[0] ?? streaming.find(withTools) ?? streaming[0] ?? posts[0];
  } else if (posts.length === 1) {
    chosen = posts[0];
  } else {
    const isTurn = (r: RecordedRequest): boolean => turnMetadata(r)?.['request_kind'] === 'turn';
    chosen = posts.find((r) => isTurn(r) && turnMetadata(r)?.['thread_source'] === 'user')
      ?? (prompt === undefined ? undefined : posts.find((r) => lastUserText(r.json)?.trim() === prompt.trim()))
      ?? posts.find(isTurn)
      ?? posts.find((r) => turnMetadata(r) !== undefined)
      ?? posts[0];
  }
  const request = chosen!;
  const problem = wireProblem(wire, request.json);
  if (problem) {
    throw new CaptureError(`the ${request.method} ${request.url} body is not ${wire === 'anthropic-messages' ? 'an Anthropic Messages' : 'an OpenAI Responses'} request: ${problem} (body starts: ${JSON.stringify(request.text.slice(0, 120))})`);
  }
  return request;
}

/**
 * The tool-related keys of a request body, verbatim and in the order sent. For OpenAI
 * Responses, `input` keeps only its items whose `type` is not `message` (such as the
 * `additional_tools` item), and is left out when none remain.
 */
export function toolRelatedBody(wire: WireFormat, body: Json): Json {
  const keep = new Set(TOOL_KEYS[wire]);
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    if (!keep.has(key)) continue;
    if (wire === 'anthropic-messages' && key === 'messages') {
      const announcements = deferredAnnouncements(value as unknown[]);
      if (announcements.length > 0) out[key] = announcements;
      continue;
    }
    if (wire === 'openai-responses' && key === 'input') {
      const items = (value as unknown[]).flatMap((item): unknown[] => {
        if (!(isObject(item) && item['type'] === 'message')) return [item];
        const announcement = deferredNamespaceAnnouncement(item);
        return announcement ? [announcement] : [];
      });
      if (items.length > 0) out[key] = items;
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** The paragraph in which Claude Code names the tools it defers to ToolSearch. */
const DEFERRED_PARAGRAPH = /The following deferred tools are now available via ToolSearch[\s\S]*?(?=\n\n|$)/;

/**
 * From `messages`, only the paragraphs that name deferred tools (the rest of those
 * messages describes the machine and the session, and is left out), each kept
 * verbatim as a text block of its message's role.
 */
export function deferredAnnouncements(messages: readonly unknown[]): Json[] {
  const out: Json[] = [];
  for (const m of messages) {
    if (!isObject(m)) continue;
    const content = m['content'];
    const texts = typeof content === 'string' ? [content] : Array.isArray(content) ? content.filter((b) => isObject(b) && typeof b['text'] === 'string').map((b) => (b as Json)['text'] as string) : [];
    for (const text of texts) {
      const match = DEFERRED_PARAGRAPH.exec(text);
      if (match) out.push({ role: m['role'], content: [{ type: 'text', text: match[0] }] });
    }
  }
  return out;
}

/** The part of a Codex developer message that names namespaces deferred to tool_search. */
const DEFERRED_NAMESPACES = /^<tools>\nDeferred tool namespaces:\n/;

/**
 * From one Responses message item, only the text part that names deferred tool
 * namespaces, kept verbatim in a message of the same role (ids and everything else
 * left out); undefined when the message has none.
 */
export function deferredNamespaceAnnouncement(item: Json): Json | undefined {
  const content = Array.isArray(item['content']) ? item['content'] : [];
  const parts = content.filter((p) => isObject(p) && typeof p['text'] === 'string' && DEFERRED_NAMESPACES.test(p['text'] as string));
  return parts.length > 0 ? { type: 'message', role: item['role'], content: parts } : undefined;
}

export interface ToolCount {
  /** Callable tools, wherever declared (top level, namespaces, `additional_tools`). */
  tools: number;
  /** Namespaces (OpenAI Responses `type: "namespace"`). */
  namespaces: number;
  /** Tools declared with `defer_loading: true` (counted in `tools` too). */
  deferred: number;
  /**
   * Tools declared only inside the description of code mode's `exec` tool
   * (`declare const tools: { name(`), as in code-mode-only. (With code mode beside direct
   * tools, each direct tool's own description carries its declaration instead; those are
   * not counted here.)
   */
  nested: number;
  /** Tool names, with `namespace.` prefixes, in order. */
  names: string[];
}

/** Counts the tools a kept body declares. */
export function countTools(body: Json): ToolCount {
  const count: ToolCount = { tools: 0, namespaces: 0, deferred: 0, nested: 0, names: [] };
  const visit = (list: unknown, prefix: string): void => {
    if (!Array.isArray(list)) return;
    for (const tool of list) {
      if (!isObject(tool)) continue;
      const name = typeof tool['name'] === 'string' ? tool['name'] : typeof tool['type'] === 'string' ? tool['type'] : '?';
      if (tool['type'] === 'namespace') {
        count.namespaces++;
        visit(tool['tools'], `${prefix}${name}.`);
        continue;
      }
      count.tools++;
      count.names.push(prefix + name);
      if (tool['defer_loading'] === true) count.deferred++;
      if (name === 'exec' && typeof tool['description'] === 'string') count.nested += nestedToolNames(tool['description']).length;
    }
  };
  visit(body['tools'], '');
  if (Array.isArray(body['input'])) for (const item of body['input']) if (isObject(item)) visit(item['tools'], '');
  return count;
}

/** Names declared in `declare const tools: { name(...` blocks of a code-mode description. */
export function nestedToolNames(description: string): string[] {
  return [...description.matchAll(/declare const tools: \{ ([A-Za-z_$][\w$]*)\(/g)].map((m) => m[1]!);
}
