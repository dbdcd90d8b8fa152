import type { JsonRecord } from '../../../src/lib/core/json.ts';
/**
 * What the model was sent after a hook answered: the first request that carries the call's
 * result, the result's text, and every other text of the message that carries it and of
 * the messages after it (where a hook's added context shows). Format-free: the message
 * holding the result is found by identity, as the top-level array element it sits in
 * (Anthropic `messages`, Gemini `contents`, Responses `input`, Chat Completions `messages`),
 * or by equal JSON when the wire module handed back a copy.
 * Pure.
 */

/** Identity, or the same JSON (a wire module may hand back a copy of the result). */
function same(a: unknown, b: unknown): boolean {
  return (
    a === b ||
    (a !== null &&
      typeof a === 'object' &&
      b !== null &&
      typeof b === 'object' &&
      JSON.stringify(a) === JSON.stringify(b))
  );
}

function contains(value: unknown, target: unknown): boolean {
  if (same(value, target)) return true;
  if (Array.isArray(value)) return value.some((v) => contains(v, target));
  if (value !== null && typeof value === 'object') return Object.values(value).some((v) => contains(v, target));
  return false;
}

/**
 * Members holding a tool call's input (Anthropic `input`, Gemini `args`, OpenAI `arguments`): the model's own call, not
 * text it was sent.
 */
const CALL_INPUTS: ReadonlySet<string> = new Set(['input', 'args', 'arguments']);

/**
 * The texts (`text` members and string `content`) under `value`, skipping `skip` and tool call inputs, in document
 * order.
 */
export function textsUnder(value: unknown, skip?: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (skip !== undefined && same(v, skip)) return;
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'text' || k === 'content' || k === 'output') {
        // An empty text (a tool call's assistant message, `content: ""`) says nothing.
        if (typeof x === 'string') {
          if (x.trim() !== '') out.push(x);
        } else walk(x);
      } else if (!CALL_INPUTS.has(k)) walk(x);
    }
  };
  walk(value);
  return out;
}

/**
 * The messages from the one holding `result` to the end of its conversation array in
 * `body`; empty when `result` is not in `body`.
 */
export function messagesFromResult(body: unknown, result: unknown): unknown[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  for (const value of Object.values(body as JsonRecord)) {
    if (!Array.isArray(value)) continue;
    const at = value.findIndex((m) => contains(m, result));
    if (at >= 0) return value.slice(at);
  }
  return [];
}

/** The conversation array of `body` that holds `result` (`messages`, `contents`, `input`), if any. */
function conversationOf(body: unknown, result: unknown): { key: string; items: unknown[] } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const [key, value] of Object.entries(body as JsonRecord))
    if (Array.isArray(value) && value.some((m) => contains(m, result))) return { key, items: value };
  return undefined;
}

/**
 * The other texts the model got with `result` in `body`. With `previous` (the request the
 * call answered): every text of the conversation that the previous request did not have,
 * wherever the CLI put it (Codex sends a hook's context as a developer message before the
 * call's output), counted as texts, not messages (Claude Code moves its environment
 * reminder into a message of its own once a turn goes on: the same text, not a new one).
 * Without: the rest of the result's message and the messages after it.
 */
export function otherTexts(body: unknown, result: unknown, previous?: unknown): string[] {
  const conversation = conversationOf(body, result);
  const before =
    conversation && previous !== null && typeof previous === 'object' && !Array.isArray(previous)
      ? (previous as JsonRecord)[conversation.key]
      : undefined;
  if (!conversation || !Array.isArray(before))
    return messagesFromResult(body, result).flatMap((m) => textsUnder(m, result));
  const seen = new Map<string, number>();
  for (const t of textsUnder(before)) seen.set(t, (seen.get(t) ?? 0) + 1);
  return textsUnder(conversation.items, result).filter((t) => {
    const left = seen.get(t) ?? 0;
    if (left === 0) return true;
    seen.set(t, left - 1);
    return false;
  });
}
