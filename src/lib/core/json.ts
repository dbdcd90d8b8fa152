/** Plain JSON helpers every layer shares: telling objects apart, and RFC 6901 JSON pointers. Pure. */

export type JsonRecord = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One JSON pointer reference token, escaped (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `base` followed by the escaped reference tokens. */
export function jsonPointer(base: string, ...tokens: (string | number)[]): string {
  return base + tokens.map((t) => '/' + pointerToken(t)).join('');
}

/** One reference token as a pointer writes it, unescaped (RFC 6901: `~1` → `/`, then `~0` → `~`). */
export function decodePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The node a local reference (`#/$defs/a~1b`: a JSON pointer in a URI fragment) points at
 * inside `root`; undefined when the reference is not local or does not resolve.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    let token: string;
    try {
      token = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    node = (node as JsonRecord)[decodePointerToken(token)];
  }
  return node;
}

/**
 * A JSON value computed once per key and kept as its text: each call gets a copy of its own, the same whether computed
 * now or before, so nothing a caller changes reaches another.
 */
export function keptCopy<T>(kept: Map<string, string>, key: string, compute: () => T): T {
  let text = kept.get(key);
  if (text === undefined) {
    text = JSON.stringify(compute());
    kept.set(key, text);
  }
  return JSON.parse(text) as T;
}
