/**
 * What `npm run refresh` has to do, decided from the pins and the newest
 * published releases alone, so that a run with nothing new does nothing (no
 * download, no write). Pure: the script asks the registry and reads the files.
 */
import { compareVersions } from '../../src/lib/history.ts';

export interface RefreshState {
  /** Pinned SDK release (scripts/pins.json) and the newest published one. */
  sdk: { pinned: string; latest: string };
  /** Per agent: the release the capture matrix pins and the newest published one. */
  clis: Record<string, { pinned: string; latest: string }>;
  /**
   * Newest release each history file covers, keyed `<agent>.<source>`
   * (undefined when the file does not exist yet): an SDK history must reach
   * the SDK pin, a capture history its agent's CLI pin.
   */
  histories: Record<string, string | undefined>;
}

export type RefreshStep =
  | { kind: 'ingest-sdk'; from: string; to: string }
  | { kind: 'capture'; agent: string; from: string; to: string }
  | { kind: 'history'; file: string; from: string | undefined; to: string };

/** The steps, in the order they must run: content at the new pins first, then the histories that reach them. */
export function planRefresh(state: RefreshState): RefreshStep[] {
  const steps: RefreshStep[] = [];
  const sdkTarget = newer(state.sdk.latest, state.sdk.pinned);
  if (sdkTarget !== state.sdk.pinned) steps.push({ kind: 'ingest-sdk', from: state.sdk.pinned, to: sdkTarget });
  const cliTargets = new Map<string, string>();
  for (const [agent, { pinned, latest }] of Object.entries(state.clis).sort(([a], [b]) => a.localeCompare(b))) {
    const target = newer(latest, pinned);
    cliTargets.set(agent, target);
    if (target !== pinned) steps.push({ kind: 'capture', agent, from: pinned, to: target });
  }
  for (const [file, covered] of Object.entries(state.histories).sort(([a], [b]) => a.localeCompare(b))) {
    const [agent, source] = file.split('.') as [string, string];
    const target = source === 'sdk' ? sdkTarget : cliTargets.get(agent);
    if (target === undefined) continue;
    if (covered === undefined || compareVersions(covered, target) < 0) steps.push({ kind: 'history', file, from: covered, to: target });
  }
  return steps;
}

/** A published release never moves a pin backwards (a registry serving an older `latest` is not an update). */
function newer(latest: string, pinned: string): string {
  return compareVersions(latest, pinned) > 0 ? latest : pinned;
}
