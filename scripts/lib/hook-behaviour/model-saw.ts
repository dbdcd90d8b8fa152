/**
 * What the model was sent after a hook answered: the first request that carries the call's
 * result, the result's text, and every other text of the message that carries it and of
 * the messages after it (where a hook's added context shows). Format-free: the message
 * holding the result is found by identity, as the top-level array element it sits in
 * (Anthropic `messages`, Gemini `contents`, Responses `input`, Chat Completions `messages`),
 * or by equal JSON when the wire module handed back a copy.
 * Pure.
 */
type Json = Record<string, unknown>;

/** Identity, or the same JSON (a wire module may hand back a copy of the result). */
function same(a: unknown, b: unknown): boolean {
  return a === b || (a !== null && typeof a === 'object' && b !== null && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}

function contains(value: unknown, target: unknown): boolean {
  if (same(value, target)) return true;
  if (Array.isArray(value)) return value.some((v) => contains(v, target));
  if (value !== null && typeof value === 'object') return Object.values(value).some((v) => contains(v, target));
  return false;
}

/** The texts (`text` members and string `content`) under `value`, skipping `skip`, in document order. */
export function textsUnder(value: unknown, skip?: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (skip !== undefined && same(v, skip)) return;
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'text' || k === 'content' || k === 'output') && typeof x === 'string') out.push(x);
      else walk(x);
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
  for (const value of Object.values(body as Json)) {
    if (!Array.isArray(value)) continue;
    const at = value.findIndex((m) => contains(m, result));
    if (at >= 0) return value.slice(at);
  }
  return [];
}

/** The other texts the model got with `result` in `body`: the rest of its message and the messages after it. */
export function otherTexts(body: unknown, result: unknown): string[] {
  return messagesFromResult(body, result).flatMap((m) => textsUnder(m, result));
}
