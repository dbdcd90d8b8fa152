/**
 * `npm run verify`'s history event facts: the releases the sampled events compare are captured fresh
 * (./release-captures.ts), and each event's claim is checked against its two captures (./claims.ts).
 */
import { readFileSync } from 'node:fs';
import type { AgentId } from '../../../src/lib/agents/index.ts';
import type { HistoryEvent, HistoryFile } from '../../../src/lib/core/content-types.ts';
import type { CaptureFile } from '../../../src/lib/wire/index.ts';
import type { Matrix } from '../capture/matrix.ts';
import { firstLines } from './bounded.ts';
import { checkEvent, eventLabel, readTools } from './claims.ts';
import { captureReleases, type Capture, type ReleasePlan, type VerifyRun } from './release-captures.ts';
import type { Blame, Fact } from './report.ts';

/** One sampled event, with the history that states it. */
export interface SampledEvent {
  agent: AgentId;
  event: HistoryEvent;
  history: HistoryFile;
}

export async function verifyEvents(sample: readonly SampledEvent[], matrix: Matrix, run: VerifyRun): Promise<Fact[]> {
  const captures = await captureReleases(capturePlan(sample), matrix, run);
  return sample.map((s) => eventFact(s, captures));
}

/** Every release the events compare (the event's and its `previous`), with the configurations captured at it. */
function capturePlan(sample: readonly SampledEvent[]): Map<string, ReleasePlan> {
  const plan = new Map<string, ReleasePlan>();
  const pkgOf = (h: HistoryFile, v: string) => h.releases.find((r) => r.version === v)?.package ?? h.package;
  for (const { agent, event, history } of sample) {
    if (!event.configuration) continue;
    for (const version of [event.previous, event.release]) {
      const key = `${agent}@${version}`;
      const entry = plan.get(key) ?? { agent, version, pkg: pkgOf(history, version), configs: new Set<string>() };
      entry.configs.add(event.configuration);
      plan.set(key, entry);
    }
  }
  return plan;
}

/** One event's fact: checked against its two captures, or why it could not be. */
function eventFact({ agent, event, history }: SampledEvent, captures: ReadonlyMap<string, Capture>): Fact {
  const label = eventLabel(agent, event);
  if (!event.configuration) {
    const detail = 'the event names no configuration to capture';
    return {
      kind: 'history event',
      label,
      status: 'could not run',
      detail,
      evidence: [`content/history/${agent}.capture.json`],
    };
  }
  const before = captures.get(`${agent}@${event.previous}/${event.configuration}`)!;
  const after = captures.get(`${agent}@${event.release}/${event.configuration}`)!;
  const evidence = [before.file, after.file].filter((f): f is string => f !== undefined);
  const failed = (
    [
      [event.previous, before],
      [event.release, after],
    ] as [string, Capture][]
  ).filter(([, c]) => c.error !== undefined);
  if (failed.length > 0) return failedFact(label, failed, evidence);
  try {
    const read = (f: string) => readTools(JSON.parse(readFileSync(f, 'utf8')) as CaptureFile);
    // The texts the history stores for the change are part of its claim.
    const stored =
      event.fromText !== undefined && event.toText !== undefined
        ? { before: history.texts?.[event.fromText] ?? '', after: history.texts?.[event.toText] ?? '' }
        : undefined;
    const v = checkEvent(event, read(before.file!), read(after.file!), stored);
    return {
      kind: 'history event',
      label,
      status: v.status === 'unchecked' ? 'could not run' : v.status,
      detail: v.status === 'unchecked' ? `not checkable: ${v.detail}` : v.detail,
      evidence,
    };
  } catch (error) {
    const detail = `the fresh captures could not be read: ${(error as Error).message}`;
    return { kind: 'history event', label, status: 'could not run', detail, evidence };
  }
}

/** An event whose release or previous release could not be captured, with the failures' first words. */
function failedFact(label: string, failed: readonly [string, Capture][], evidence: string[]): Fact {
  // Ours when either release failed for our reasons: the fact is then unsettled.
  const blame: Blame | undefined = failed.some(([, c]) => c.blame === 'ours')
    ? 'ours'
    : failed.every(([, c]) => c.blame === 'release')
      ? 'release'
      : undefined;
  return {
    kind: 'history event',
    label,
    status: 'could not run',
    detail: failed.map(([v, c]) => `${v}: ${firstLines(c.error!)}`).join('; '),
    evidence,
    ...(blame ? { blame } : {}),
  };
}
