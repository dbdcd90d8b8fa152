/**
 * What a tool's release histories say of it, as plain data: the types of the history facts the loader keeps on each
 * tool (tool-facts.ts) and of the changes, spans and "since" entries the history/ modules compute them from.
 */
import type { HistoryEvent, HistoryFile } from '../core/content-types.ts';

export type HistorySource = HistoryFile['source'];

/** A release between the two compared that cannot tell, and why. */
export interface UnknownRelease {
  /** The release as readers know it (`cliVersion` when it has one). */
  release: string;
  /** `not-read`: never installed; `failed`: read, but a configuration the event concerns failed there. */
  why: 'not-read' | 'failed';
  /** `failed`: the configurations concerned that failed, in the history's order. */
  configurations?: string[];
}

/** Where an event lies, releases as readers know them. */
export interface EventSpan {
  /** True when the change is known to have come in `release` itself. */
  exact: boolean;
  /** The last release known without the change (the event's `previous`). */
  previous: string;
  /** The first release known with it (the event's `release`). */
  release: string;
  /** The releases strictly between that could not tell; empty when `exact`. */
  unknown: UnknownRelease[];
}

/** The two texts of a change, and how a reader compares them: by words (prose) or by lines (a definition). */
export interface ChangeTexts {
  before: string;
  after: string;
  by: 'words' | 'lines';
}

/** One change as a page shows it. */
export interface Change {
  event: HistoryEvent;
  source: HistorySource;
  /** The release readers know: the agent's own version (an SDK release names the CLI it bundles). */
  release: string;
  /** Whether the change came exactly in `release`, or somewhere after `span.previous` (event-span.ts). */
  span: EventSpan;
  /** How the change was found: the two package releases compared. */
  evidence: string;
  /** The id of the field's row on the tool page, when the change is about a field (its stable anchor). */
  anchor?: string;
  /** A renamed field's anchor before the rename; for `now-variant`, the place that became a union. */
  formerAnchor?: string;
  /** What a changed description or definition said before and after (changeTexts). */
  texts?: ChangeTexts;
}

/** A tool's notes for one release from one source: compared once, listed together. */
export interface NoteGroup {
  release: string;
  source: HistorySource;
  /** Where its changes lie: exactly in `release`, or between an earlier release and it. */
  span: EventSpan;
  evidence: string;
  items: (Change & { id?: string; folded: number })[];
}

/** What a field row's "since" badge says and where it links. */
export interface Since {
  /**
   * `field`: added in `release` after the tool existed (the row gets a badge);
   * `tool`: there since the tool appeared in `release`; `before`: older than
   * `release`, the first release compared.
   */
  kind: 'field' | 'tool' | 'before';
  release: string;
  /**
   * `field`/`tool`: the last release known without it, when the history cannot tell the
   * release exactly (releases between were not read or failed): added between `previous` and `release`.
   */
  previous?: string;
  /**
   * `before`: whether `release` is the first release the history compared (else the first in which a configuration it
   * follows ran and advertised the tool).
   */
  first?: boolean;
  /** Id of the version note it links to, when there is one. */
  note?: string;
}

/** A name a history saw the tool renamed from, that it does not answer to otherwise. */
export interface FormerName {
  name: string;
  renamedTo: string;
  /** The release, as readers know it, that renamed it. */
  release: string;
  span: EventSpan;
  /** The history that says so. */
  source: HistorySource;
}

/** What one release history says of a tool as a whole. */
export interface HistoryLine {
  source: HistorySource;
  /**
   * `added`/`removed` in `release` (between `previous` and `release` when the history cannot
   * tell exactly), or there `before` `release`: the first release in which a configuration the
   * history follows ran and advertised it (history.ts firstSeen).
   */
  state: 'added' | 'removed' | 'before';
  release: string;
  previous?: string;
  /** The release's entry on the agent's changelog (absent for `before`: the changelog starts after it). */
  href?: string;
}

/**
 * A tool's place in its agent's histories: one line per history that speaks
 * about it; `none` when the agent has no history at all; `uncovered` when it
 * has some but none compares what this tool's page shows (a tool advertised
 * only in configurations no history compares, a documented-only tool), with
 * the configurations each capture history follows (`followed`), none of which
 * advertises it.
 */
export type ToolHistory =
  | { kind: 'lines'; lines: HistoryLine[] }
  | { kind: 'none' }
  | { kind: 'uncovered'; followed: string[][] };

/** What the histories of its agent say of one tool, computed when content is loaded. */
export interface ToolHistoryFacts {
  /** Names a history saw it renamed from (history.ts formerNames). */
  formerNames: FormerName[];
  /** The release each field row was added in, by row id, where a history covers its table (history.ts fieldSince). */
  fieldSince: Map<string, Since>;
  /** Its place in each history: what the support strip says (tool-history.ts). */
  place: ToolHistory;
  /** Its version notes, newest release first, each group with its release's entry on the agent's changelog. */
  notes: (NoteGroup & { releaseUrl: string })[];
  /** The configurations each capture history follows when none of them advertises the tool (tool-history.ts). */
  untracked: string[][];
}
