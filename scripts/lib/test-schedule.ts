/**
 * Which jobs of `npm test` may start now (scripts/test.ts runs them): a pure
 * function of what is waiting, running and finished, so that the order is
 * unit-tested without running anything.
 *
 * A job starts when
 * - a lane is free (two on two cores);
 * - every job it needs has passed (a need that is not part of this run counts as
 *   met: `npm test -- end-to-end` reads the dist/ a previous build left);
 * - no running job holds a lock it takes. Two locks are used:
 *   - `project`: the job writes in the project folder itself (an Astro build or
 *     `astro check` or `astro dev` rewrites `.astro/`), so two such jobs never overlap;
 *   - `alone`: the job measures time, so it runs with nothing beside it.
 * Waiting jobs are taken in their list order; a job that cannot start yet does
 * not hold back the ones after it.
 */

export type Lock = 'project' | 'alone';

export interface Job {
  name: string;
  /** The phase the job belongs to, for the summary and for `npm test -- <phase>`. */
  phase: string;
  command: string[];
  /** Jobs that must have passed first. */
  needs: readonly string[];
  locks: readonly Lock[];
  /** A failure makes every job not yet started pointless (a failed check or build). */
  stopsTheRun?: boolean;
  /** Set in the job's environment, over the run's. */
  env?: Readonly<Record<string, string>>;
}

export interface ScheduleState {
  waiting: readonly Job[];
  running: readonly Job[];
  /** Finished jobs by name: true when they passed. */
  finished: ReadonlyMap<string, boolean>;
  lanes: number;
}

/** A waiting job that can never start: a job it needs failed. */
export function blockedByFailure(job: Job, finished: ReadonlyMap<string, boolean>): string | undefined {
  return job.needs.find((need) => finished.get(need) === false);
}

function needsMet(job: Job, state: ScheduleState): boolean {
  const known = new Set([...state.waiting, ...state.running].map((j) => j.name));
  return job.needs.every(
    (need) => state.finished.get(need) === true || (!known.has(need) && !state.finished.has(need)),
  );
}

/** The jobs to start now, in order. */
export function jobsToStart(state: ScheduleState): Job[] {
  const started: Job[] = [];
  const busy = () => [...state.running, ...started];
  for (const job of state.waiting) {
    if (busy().length >= state.lanes) break;
    if (busy().some((j) => j.locks.includes('alone'))) break;
    if (!needsMet(job, state)) continue;
    if (job.locks.includes('alone') && busy().length > 0) continue;
    if (job.locks.includes('project') && busy().some((j) => j.locks.includes('project'))) continue;
    started.push(job);
  }
  return started;
}
