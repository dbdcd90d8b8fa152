/**
 * Placeholders, both ways:
 * - into a run: `$NAME` tokens in a configuration's args, env values and config.toml
 *   lines are replaced by this run's values (stub URL, paths);
 * - out of a capture: volatile substrings (the fixed HOME and working directory, the
 *   stub's URL, UUIDs, dates) are replaced by stable placeholders, so that re-running at
 *   the same pins is byte-identical.
 */

export class PlaceholderError extends Error {}

/** Replaces `$NAME` (NAME: capitals, digits, `_`) by `vars[NAME]`; an unknown name throws. */
export function expandPlaceholders(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\$([A-Z][A-Z0-9_]*)/g, (token, name: string) => {
    const value = vars[name];
    if (value === undefined)
      throw new PlaceholderError(
        `unknown placeholder ${token} (known: ${Object.keys(vars)
          .map((k) => `$${k}`)
          .join(', ')})`,
      );
    return value;
  });
}

export interface MaskRule {
  /** An exact substring, or a global regular expression. */
  find: string | RegExp;
  replace: string;
  /** Apply only to strings that match this (tested on the string as it was before any rule). */
  when?: RegExp;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The ways a CLI may write the (UTC) date of `day` into text, most specific first. */
export function dateForms(day: Date): { text: string; placeholder: string }[] {
  const y = String(day.getUTCFullYear());
  const m = String(day.getUTCMonth() + 1).padStart(2, '0');
  const d = String(day.getUTCDate()).padStart(2, '0');
  const month = MONTHS[day.getUTCMonth()]!;
  return [
    { text: `${y}-${m}-${d}`, placeholder: '$DATE' },
    { text: `${y}/${m}/${d}`, placeholder: '$DATE' },
    { text: `${month} ${day.getUTCDate()}, ${y}`, placeholder: '$DATE' },
    { text: `${month} ${y}`, placeholder: '$MONTH_YEAR' },
  ];
}

/**
 * The rules for a run: the exact values first (longest first, so that `$WORKDIR` inside
 * `$HOME` is recognised), then the run's dates (only the days the run touched, never
 * dates in general: tool descriptions quote fixed dates), then UUIDs.
 */
export function maskRules(exact: Readonly<Record<string, string>>, days: readonly Date[] = []): MaskRule[] {
  const rules: MaskRule[] = Object.entries(exact)
    .filter(([, value]) => value !== '')
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([name, value]) => ({ find: value, replace: `$${name}` }));
  const seen = new Set<string>();
  for (const day of days) {
    for (const form of dateForms(day)) {
      if (seen.has(form.text)) continue;
      seen.add(form.text);
      // Not inside a longer number (e.g. `2026-11-290`).
      rules.push({ find: new RegExp(`(?<![0-9])${escapeRegExp(form.text)}(?![0-9])`, 'g'), replace: form.placeholder });
    }
  }
  // A text that says which year it is (OpenCode's websearch: "The current year is 2026 …
  // search for AI news 2026, NOT AI news 2025") names that year and the one before it.
  for (const y of new Set(days.map((d) => d.getUTCFullYear()))) {
    const when = new RegExp(`current year is ${y}(?![0-9])`, 'i');
    rules.push({ when, find: new RegExp(`(?<![0-9])${y}(?![0-9])`, 'g'), replace: '$YEAR' });
    rules.push({ when, find: new RegExp(`(?<![0-9])${y - 1}(?![0-9])`, 'g'), replace: '$LAST_YEAR' });
  }
  // RFC 4122-shaped identifiers (session, thread, item ids).
  rules.push({
    find: /(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])/gi,
    replace: '$UUID',
  });
  return rules;
}

export function maskText(text: string, rules: readonly MaskRule[]): string {
  let out = text;
  for (const rule of rules) {
    if (rule.when && !rule.when.test(text)) continue;
    out =
      typeof rule.find === 'string' ? out.split(rule.find).join(rule.replace) : out.replace(rule.find, rule.replace);
  }
  return out;
}

/** Applies `rules` to every string (values and keys) of a JSON value; keeps key order. */
export function maskJson<T>(value: T, rules: readonly MaskRule[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return maskText(v, rules);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[maskText(k, rules)] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
