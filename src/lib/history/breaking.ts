/**
 * Which changes break callers: code that builds a tool's input (a hook that rewrites it, an
 * SDK integration, an adapter), matches its name (a hook matcher, a permission rule), or
 * reads its result. The rule, one line per case (`BREAKING_RULES`), is what the "What
 * changed" page and its feed state; a change the rule does not name is not breaking. Pure.
 */
import type { HistoryEvent } from '../core/content-types.ts';

/** Why a change breaks callers, in a caller's words; undefined when it does not. */
export type BreakingReason = string;

/** The written rule, shown on the page that flags changes. */
export const BREAKING_RULES: readonly { kind: string; when: string }[] = [
  { kind: 'tool removed', when: 'always: calls, hook matchers and permission rules naming it find nothing' },
  { kind: 'tool renamed', when: 'always: hook matchers and permission rules that name the old name stop matching' },
  {
    kind: 'field removed',
    when: 'always: input that sets it is refused or ignored; code that reads it from a result finds nothing',
  },
  { kind: 'field renamed', when: 'always: the old name is no longer read or no longer sent' },
  {
    kind: 'field now required',
    when: 'in an input: input built without it (a rewritten call, an older integration) is refused',
  },
  { kind: 'field now optional', when: 'in a result: code that reads it may find nothing' },
  {
    kind: 'type changed',
    when:
      'in an input, when the new type does not take every value the old one took (narrowed); in a result, when ' +
      'it can hold a value the old one could not (widened or replaced)',
  },
  { kind: 'value removed', when: 'in an input: a value callers send is refused' },
  { kind: 'became a union', when: 'in a result: code that reads the earlier shape may meet another variant' },
];

/** The members of a union type text (`string | null` → `string`, `null`), split only at its top level. */
export function unionMembers(type: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{<'.includes(ch)) depth++;
    else if (')]}>'.includes(ch)) depth--;
    else if (ch === '|' && depth === 0) {
      out.push(type.slice(start, i));
      start = i + 1;
    }
  }
  out.push(type.slice(start));
  return [...new Set(out.map((m) => m.trim()).filter((m) => m !== ''))];
}

/**
 * Whether every member of `narrow` is a member of `wide` (a type that takes at least what `narrow` takes, by its
 * written members).
 */
function covers(wide: string, narrow: string): boolean {
  const members = new Set(unionMembers(wide));
  return unionMembers(narrow).every((m) => members.has(m));
}

/** Why `event` breaks callers (the rule above), or undefined. */
export function breakingReason(event: HistoryEvent): BreakingReason | undefined {
  const input = event.side !== 'output';
  const onField = event.field !== undefined;
  switch (event.kind) {
    case 'tool-removed':
      return 'the tool was removed';
    case 'renamed':
      return onField ? 'a field was renamed' : 'the tool was renamed';
    case 'field-removed':
      return 'a field was removed';
    case 'now-required':
      return input ? 'an input field is now required' : undefined;
    case 'now-optional':
      return input ? undefined : 'a result field is now optional';
    case 'type-changed': {
      if (event.from === undefined || event.to === undefined) return 'a type changed';
      if (input) return covers(event.to, event.from) ? undefined : 'an input type was narrowed';
      return covers(event.from, event.to) ? undefined : 'a result type was widened or replaced';
    }
    case 'value-removed':
      return input ? 'an input value was removed' : undefined;
    case 'now-variant':
      return input ? undefined : 'a result type became a union';
    default:
      return undefined;
  }
}
