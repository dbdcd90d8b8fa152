/**
 * What `npm run refresh` has to do, decided from the pins and the newest
 * published releases alone, so that a run with nothing new does nothing (no
 * download, no write). Pure: the script asks the registry and reads the files.
 */
import { compareVersions } from '../../../src/lib/core/version-order.ts';

export interface RefreshState {
  /**
   * Per agent with published types (scripts/pins.json): the pinned release and the
   * newest published one. `withCli`: the types are released with the CLI and must
   * stay at its release (they are compared with its captures), so they move with it,
   * after its capture.
   */
  types: Record<string, { pinned: string; latest: string; withCli?: boolean }>;
  /**
   * Per agent: the release the capture matrix pins and the newest published one.
   * `payloads`: its hook payloads are recorded (content/payloads/), so they are
   * recorded again with a new release. `cannotRun`: a release newer than the pin that its
   * capture history records as unable to run (in its own words): not tried again.
   */
  clis: Record<string, { pinned: string; latest: string; payloads?: boolean; cannotRun?: string }>;
  /**
   * Newest release each history file covers, keyed `<agent>.<source>`
   * (undefined when the file does not exist yet): an `sdk` history must reach
   * its agent's types pin, a `capture` history its agent's CLI pin.
   */
  histories: Record<string, string | undefined>;
  /**
   * Per history file: releases the registry now lists inside the span it covers that it does
   * not list (published or listed after it was written). Such a file is read again, up to the
   * newest release it covers, so that they are read or their failure quoted.
   */
  newlyListed?: Record<string, readonly string[]>;
}

export type RefreshStep =
  | { kind: 'ingest-types'; agent: string; from: string; to: string }
  | { kind: 'capture'; agent: string; from: string; to: string }
  | { kind: 'payloads'; agent: string; from: string; to: string }
  | { kind: 'history'; file: string; from: string | undefined; to: string; newlyListed?: readonly string[] };

const byKey = <T>(record: Record<string, T>): [string, T][] =>
  Object.entries(record).sort(([a], [b]) => a.localeCompare(b));

/** The steps, in the order they must run: content at the new pins first, then the histories that reach them. */
export function planRefresh(state: RefreshState): RefreshStep[] {
  const steps: RefreshStep[] = [];
  const typeTargets = new Map<string, string>();
  const cliTargets = new Map<string, string>();
  for (const [agent, { pinned, latest, withCli }] of byKey(state.types)) {
    if (withCli) continue;
    const target = newer(latest, pinned);
    typeTargets.set(agent, target);
    if (target !== pinned) steps.push({ kind: 'ingest-types', agent, from: pinned, to: target });
  }
  for (const [agent, { pinned, latest, payloads, cannotRun }] of byKey(state.clis)) {
    const target = latest === cannotRun ? pinned : newer(latest, pinned);
    cliTargets.set(agent, target);
    if (target !== pinned) steps.push({ kind: 'capture', agent, from: pinned, to: target });
    if (target !== pinned && payloads) steps.push({ kind: 'payloads', agent, from: pinned, to: target });
    const types = state.types[agent];
    if (types?.withCli) {
      // Types released with the CLI follow the CLI's pin, read after its capture.
      typeTargets.set(agent, target);
      if (target !== types.pinned) steps.push({ kind: 'ingest-types', agent, from: types.pinned, to: target });
    }
  }
  for (const [file, covered] of byKey(state.histories)) {
    const [agent, source] = file.split('.') as [string, string];
    const target = source === 'sdk' ? typeTargets.get(agent) : cliTargets.get(agent);
    if (target === undefined) continue;
    const listed = state.newlyListed?.[file] ?? [];
    if (covered === undefined || compareVersions(covered, target) < 0)
      steps.push({
        kind: 'history',
        file,
        from: covered,
        to: target,
        ...(listed.length > 0 ? { newlyListed: listed } : {}),
      });
    // A history may cover a release past the pin (one that could not run is recorded there): it keeps covering it.
    else if (listed.length > 0) steps.push({ kind: 'history', file, from: covered, to: covered, newlyListed: listed });
  }
  return steps;
}

/** A published release never moves a pin backwards (a registry serving an older `latest` is not an update). */
function newer(latest: string, pinned: string): string {
  return compareVersions(latest, pinned) > 0 ? latest : pinned;
}
