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
