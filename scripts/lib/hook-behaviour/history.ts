/**
 * Hook behaviour over releases, pure: what of a case's record is its behaviour (not the
 * payload's members, which the payload history covers), whether two releases behave
 * alike, and the spans and changes of each case over the releases read. The types are
 * schemas/hook-behaviour-history.schema.json's.
 */
import { canonicalJson } from '../history/events.ts';
import type { BehaviourChange, CaseOutcome, OutcomeSpan } from '../../../src/lib/core/content-types.ts';

export type { CaseOutcome };

/** The behaviour part of a hook-behaviour record (content/hook-behaviour/<agent>/<case>.json). */
export function caseOutcome(record: {
  answered: string[];
  sideEffect?: { happened: boolean };
  modelSaw: { result: string | null; isError: boolean; otherTexts: string[] };
  cliExit: { code: number | null; killedAfterSeconds?: number };
}): CaseOutcome {
  return {
    answered: record.answered,
    ...(record.sideEffect === undefined ? {} : { ran: record.sideEffect.happened }),
    modelSaw: record.modelSaw,
    cliExit: record.cliExit,
  };
}

/** A failure's reason without what differs from run to run of one release (the run folder's paths are masked by the runner already). */
export function failedOutcome(reason: string): CaseOutcome {
  return { failed: reason.split('\n')[0]!.trim() };
}

export function sameOutcome(a: CaseOutcome | undefined, b: CaseOutcome | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

/** Per release read (oldest first): case id → its outcome (a case the release lacks is absent). */
export interface ReleaseOutcomes {
  version: string;
  cases: ReadonlyMap<string, CaseOutcome>;
}

export function releasesBehaveAlike(a: ReleaseOutcomes, b: ReleaseOutcomes): boolean {
  const ids = new Set([...a.cases.keys(), ...b.cases.keys()]);
  return [...ids].every((id) => sameOutcome(a.cases.get(id), b.cases.get(id)));
}

/**
 * Spans of identical outcome per case, and the changes between consecutive spans, over
 * `read` (oldest first); `listed` is every release in the range, for the unread ones
 * between two readings.
 */
export function behaviourHistory(read: readonly ReleaseOutcomes[], listed: readonly string[]): { spans: Record<string, OutcomeSpan[]>; changes: BehaviourChange[] } {
  const ids = [...new Set(read.flatMap((r) => [...r.cases.keys()]))].sort();
  const spans: Record<string, OutcomeSpan[]> = {};
  const changes: BehaviourChange[] = [];
  for (const id of ids) {
    const list: OutcomeSpan[] = [];
    for (const r of read) {
      const outcome = r.cases.get(id);
      if (outcome === undefined) continue;
      const last = list.at(-1);
      if (last && sameOutcome(last.outcome, outcome)) {
        last.to = r.version;
        last.read.push(r.version);
        continue;
      }
      if (last) {
        const lo = listed.indexOf(last.to);
        const hi = listed.indexOf(r.version);
        changes.push({ case: id, between: [last.to, r.version], unread: lo >= 0 && hi > lo ? listed.slice(lo + 1, hi) : [], before: last.outcome, after: outcome });
      }
      list.push({ from: r.version, to: r.version, read: [r.version], outcome });
    }
    spans[id] = list;
  }
  return { spans, changes };
}
