/**
 * How `npm run refresh` moves each agent on its own. The plan's steps are grouped into units:
 * an agent's published types (their ingest and their history) and an agent's CLI (its capture,
 * payloads, types released with it, its capture history). Each unit is all or nothing by
 * itself, so that one release that cannot run holds back only its own unit. Pure: the script
 * runs the steps and reads the files.
 */
import type { RefreshStep } from './plan.ts';

export interface RefreshUnit {
  agent: string;
  /** `types`: the agent's published types; `cli`: its CLI and what is read from it. */
  source: 'types' | 'cli';
  steps: RefreshStep[];
}

/** How one unit ended. */
export type UnitOutcome =
  | { unit: RefreshUnit; moved: true }
  /** The release could not run, for its own reasons: what it said is recorded in its history; the pin stays. */
  | { unit: RefreshUnit; moved: false; by: 'release'; release: string; said: string; recorded: boolean }
  /**
   * Our failure (a crash of a script, a limit, a download): nothing of the unit is kept, nothing is recorded as the
   * release's.
   */
  | { unit: RefreshUnit; moved: false; by: 'ours'; reason: string };

export const unitName = (u: Pick<RefreshUnit, 'agent' | 'source'>): string =>
  `${u.agent} ${u.source === 'types' ? 'types' : 'CLI'}`;

/**
 * The steps grouped by agent and source, in the order their first step comes in the plan.
 * Types released with the CLI (`withCli`) belong to the CLI's unit: they must stay at its release.
 */
export function refreshUnits(steps: readonly RefreshStep[], withCli: (agent: string) => boolean): RefreshUnit[] {
  const units = new Map<string, RefreshUnit>();
  for (const step of steps) {
    const [agent, source] =
      step.kind === 'history'
        ? (step.file.split('.') as [string, string])
        : [step.agent, step.kind === 'ingest-types' ? 'sdk' : 'capture'];
    const types = source === 'sdk' && !withCli(agent);
    const key = `${agent} ${types ? 'types' : 'cli'}`;
    let unit = units.get(key);
    if (!unit) units.set(key, (unit = { agent, source: types ? 'types' : 'cli', steps: [] }));
    unit.steps.push(step);
  }
  return [...units.values()];
}

/** What a capture history file says of one release: whether it was read, and why configurations failed there. */
export interface HistoryRelease {
  version: string;
  read?: boolean;
  failed?: Record<string, string>;
}

/**
 * Why `version` could not run, in its own words, as its capture history records it: the reason of
 * its first failed configuration. Undefined when the history does not list it as read with a failure
 * (then a failed capture of it was not the release's doing).
 */
export function recordedFailure(releases: readonly HistoryRelease[], version: string): string | undefined {
  const release = releases.find((r) => r.version === version);
  if (!release?.read || !release.failed) return undefined;
  const [configuration, reason] = Object.entries(release.failed)[0]!;
  return `${configuration}: ${reason}`;
}

/**
 * The exit status of a refresh: 0 when every unit moved or could not for its release's own
 * reasons (recorded; nothing for a person to do), 2 when some unit failed for our reasons while
 * others moved or were recorded (the tree holds what moved, valid), 1 when every unit failed for
 * our reasons.
 */
export function refreshExitCode(outcomes: readonly UnitOutcome[]): 0 | 1 | 2 {
  const ours = outcomes.filter((o) => !o.moved && o.by === 'ours').length;
  if (ours === 0) return 0;
  return ours === outcomes.length ? 1 : 2;
}

/** One summary line per unit: what moved, what could not and why. */
export function outcomeLines(outcomes: readonly UnitOutcome[], describe: (step: RefreshStep) => string): string[] {
  return outcomes.flatMap((o) => {
    const name = unitName(o.unit);
    if (o.moved) return o.unit.steps.map((s) => `moved: ${describe(s)}`);
    if (o.by === 'release')
      return [
        `not moved: ${name}: ${o.release} cannot run ` +
          `(${o.said})${o.recorded ? '; recorded in its history' : ''}; the pin stays`,
      ];
    return [`not moved: ${name}: our failure, nothing kept or recorded: ${o.reason}`];
  });
}

/**
 * The summary line of a history file whose number of changes the run moved: how many it gained, or, said as plainly,
 * how many it lost (a release read again that now fails drops the changes it carried). Nothing when the count stayed.
 */
export function eventCountLine(file: string, before: number, after: number): string | undefined {
  const changes = (n: number) => `change${n === 1 ? '' : 's'}`;
  if (after > before) return `${file}: ${after - before} new ${changes(after - before)}`;
  if (after < before)
    return `${file}: ${before - after} ${changes(before - after)} fewer than before the run (${before} → ${after})`;
  return undefined;
}
