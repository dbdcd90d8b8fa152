/** The committed history file of one agent from captures (content/history/<agent>.capture.json). */
import { sortEvents, type HistoryEvent } from '../history/events.ts';
import { internTexts, type ComputedEvent } from '../history/text-store.ts';

export interface HistoryRelease {
  version: string;
  published?: string;
  read: boolean;
  /** Configurations that could not be captured in this release, with the reason. */
  failed?: Record<string, string>;
}

export interface CaptureHistoryFile {
  $schema: string;
  agent: string;
  source: 'capture';
  package: string;
  method: string;
  configurations: string[];
  releases: HistoryRelease[];
  unpublished: string[];
  events: HistoryEvent[];
  /** The texts events name (`fromText`/`toText`), once each (text-store.ts). */
  texts: Record<string, string>;
}

function ordinal(n: number): string {
  if (n === 1) return 'single';
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

export function methodSentence(releases: readonly string[], step: number, configurations: readonly string[]): string {
  const first = releases[0];
  const last = releases[releases.length - 1];
  return `Every ${ordinal(step)} published release from ${first} to ${last} and both ends were installed and run against a recording stub of the model API in the capture-matrix configurations ${configurations.join(', ')}, and wherever two releases read differed in the tools advertised or in a tool's model-facing input, the releases between them were bisected until each change lay between two adjacent published releases.`;
}

export function historyFile(input: {
  agent: string;
  package: string;
  step: number;
  configurations: string[];
  releases: HistoryRelease[];
  unpublished: string[];
  events: ComputedEvent[];
}): CaptureHistoryFile {
  const { events, texts } = internTexts(sortEvents(input.events, { configurations: input.configurations }));
  return {
    $schema: '../../schemas/history.schema.json',
    agent: input.agent,
    source: 'capture',
    package: input.package,
    method: methodSentence(
      input.releases.map((r) => r.version),
      input.step,
      input.configurations,
    ),
    configurations: input.configurations,
    releases: input.releases.map((r) => ({
      version: r.version,
      ...(r.published ? { published: r.published } : {}),
      read: r.read,
      ...(r.failed ? { failed: r.failed } : {}),
    })),
    unpublished: input.unpublished,
    events,
    texts,
  };
}

/** Events counted by kind, in a stable order. */
export function countByKind(events: readonly HistoryEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}
