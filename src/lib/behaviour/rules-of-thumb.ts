/**
 * The rules of thumb that open an agent's hooks page: what its recorded cases come to, one
 * rule per kind of answer a hook author gives (refuse, ask, rewrite, fail, speak after the
 * call, allow), each with the cases behind it and a warning where a case surprises. Derived
 * from the cases' outcomes (outcome-words.ts), so a rule changes when a recording does. Pure.
 */
import type { BehaviourRow } from './hook-behaviour.ts';
import { outcomeTerms } from './outcome-words.ts';

export interface RuleCase {
  case: string;
  anchor: string;
  /** `PreToolUse denies, with a reason, on Bash`. */
  label: string;
}

/** One clause of a rule: what happened, and the cases it happened in. */
export interface RuleClause {
  says: string;
  cases: RuleCase[];
}

export interface RuleOfThumb {
  /** `Refusing a call`. */
  topic: string;
  clauses: RuleClause[];
  /** The surprises of its cases, each once. */
  warnings: string[];
}

interface Family {
  topic: string;
  kinds: readonly string[];
}

/** The families in page order; a kind belongs to one. */
const FAMILIES: readonly Family[] = [
  { topic: 'Refusing a call', kinds: ['pre-deny', 'pre-exit-2'] },
  { topic: 'Asking for a person', kinds: ['pre-ask'] },
  { topic: 'Rewriting the input', kinds: ['pre-rewrite'] },
  { topic: 'A hook that fails', kinds: ['pre-crash', 'pre-timeout', 'pre-malformed'] },
  {
    topic: 'Speaking after the call',
    kinds: ['post-block', 'post-context', 'post-replace', 'post-exit-2', 'failure-context'],
  },
  { topic: 'Allowing a call', kinds: ['pre-allow'] },
];

/** Cases grouped by what they came to, each clause in the order its first case comes. */
export function clausesOf(cases: readonly { says: string; case: RuleCase }[]): RuleClause[] {
  const clauses: RuleClause[] = [];
  for (const { says, case: entry } of cases) {
    const same = clauses.find((c) => c.says === says);
    if (same) same.cases.push(entry);
    else clauses.push({ says, cases: [entry] });
  }
  return clauses;
}

/** The surprises of some outcomes, each once, in order. */
export function warningsOf(surprises: readonly (string | undefined)[]): string[] {
  return [...new Set(surprises.filter((s) => s !== undefined))];
}

/** The rules of an agent's hooks page, from its behaviour rows; families without a case are left out. */
export function rulesOfThumb(rows: readonly BehaviourRow[]): RuleOfThumb[] {
  return FAMILIES.flatMap((family) => {
    const members = rows.filter((r) => family.kinds.includes(r.kind));
    if (members.length === 0) return [];
    const clauses = clausesOf(
      members.map((row) => ({
        says: outcomeTerms(row.kind, row.outcome.plain, row.outcome.hookWordsReached).clause,
        case: { case: row.case, anchor: row.anchor, label: `${row.event} ${row.kindLabel}, on ${row.tool}` },
      })),
    );
    return [{ topic: family.topic, clauses, warnings: warningsOf(members.map((r) => r.outcome.plain.surprise)) }];
  });
}
