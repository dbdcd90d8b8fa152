/**
 * A re-recorded file against the committed one, as `npm run verify` compares payloads:
 * equal only when the texts are equal (key order included); otherwise the first place
 * where they part, as a JSON pointer with both values. Pure.
 */

import { pointerToken } from '../../../src/lib/core/json.ts';

export type Comparison = { equal: true } | { equal: false; pointer: string; detail: string };

function pointerStep(key: string | number): string {
  return '/' + pointerToken(key);
}

function short(value: unknown, max = 120): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first difference between two JSON values (key order counts), or undefined. */
export function firstDifference(a: unknown, b: unknown, at = ''): { pointer: string; detail: string } | undefined {
  const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) return { pointer: at || '/', detail: `committed ${short(a)}, re-recorded ${short(b)}` };
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length)
        return {
          pointer: `${at}${pointerStep(i)}`,
          detail: `committed has ${a.length} items, re-recorded ${b.length}`,
        };
      const d = firstDifference(a[i], b[i], `${at}${pointerStep(i)}`);
      if (d) return d;
    }
    return undefined;
  }
  if (kind(a) === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    const missing = kx.filter((k) => !(k in y));
    const extra = ky.filter((k) => !(k in x));
    if (missing.length > 0 || extra.length > 0) {
      return {
        pointer: at || '/',
        detail: [
          missing.length ? `only committed has ${missing.join(', ')}` : '',
          extra.length ? `only re-recorded has ${extra.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      };
    }
    for (const k of kx) {
      const d = firstDifference(x[k], y[k], `${at}${pointerStep(k)}`);
      if (d) return d;
    }
    if (kx.join('\u0000') !== ky.join('\u0000'))
      return {
        pointer: at || '/',
        detail: `key order differs: committed ${kx.join(', ')}; re-recorded ${ky.join(', ')}`,
      };
    return undefined;
  }
  return a === b ? undefined : { pointer: at || '/', detail: `committed ${short(a)}, re-recorded ${short(b)}` };
}

/** Compares two JSON texts: equal texts, or the first difference (or a difference in layout only). */
export function compareJsonTexts(committed: string, fresh: string): Comparison {
  if (committed === fresh) return { equal: true };
  const d = firstDifference(JSON.parse(committed) as unknown, JSON.parse(fresh) as unknown);
  return d
    ? { equal: false, ...d }
    : { equal: false, pointer: '/', detail: 'the same JSON values and key order, laid out differently' };
}
