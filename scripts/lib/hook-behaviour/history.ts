/**
 * Hook behaviour over releases, pure: what of a case's record is its behaviour (not the
 * payload's members, which the payload history covers), whether two releases behave
 * alike, and the spans and changes of each case over the releases read. The types are
 * schemas/hook-behaviour-history.schema.json's.
 */
import { canonicalJson } from '../history/events.ts';
import type { BehaviourChange, CaseOutcome, OutcomeSpan } from '../../../src/lib/core/content-types.ts';

export type { CaseOutcome };

/**
 * The exit status of `hook-behaviour.ts --release` when the release itself cannot run (npm's
 * or the CLI's words are the last line of its standard error). Any other failure is ours: a
 * crash of the script, a limit, the network. Only the first is recorded as the release's.
 */
export const RELEASE_CANNOT_RUN = 3;

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
    // How it ended, not its words (`said`): those may differ from release to release without the behaviour changing.
    cliExit: {
      code: record.cliExit.code,
      ...(record.cliExit.killedAfterSeconds === undefined
        ? {}
        : { killedAfterSeconds: record.cliExit.killedAfterSeconds }),
    },
  };
}

/**
 * A failure's reason without what differs from run to run of one release (the run folder's paths are masked by the
 * runner already).
 */
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
export function behaviourHistory(
  read: readonly ReleaseOutcomes[],
  listed: readonly string[],
): { spans: Record<string, OutcomeSpan[]>; changes: BehaviourChange[] } {
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
        changes.push({
          case: id,
          between: [last.to, r.version],
          unread: lo >= 0 && hi > lo ? listed.slice(lo + 1, hi) : [],
          before: last.outcome,
          after: outcome,
        });
      }
      list.push({ from: r.version, to: r.version, read: [r.version], outcome });
    }
    spans[id] = list;
  }
  return { spans, changes };
}

/**
 * Pairs of releases between which many cases change at once: at least `minimum` cases (default
 * three) and at least half of the `caseCount`. Such a change is confirmed by a fresh run of both
 * releases before it stands.
 */
export function massChanges(changes: readonly BehaviourChange[], caseCount: number, minimum = 3): [string, string][] {
  const count = new Map<string, number>();
  for (const c of changes) count.set(c.between.join(' '), (count.get(c.between.join(' ')) ?? 0) + 1);
  return [...count]
    .filter(([, n]) => n >= minimum && n * 2 >= caseCount)
    .map(([key]) => key.split(' ') as [string, string]);
}
