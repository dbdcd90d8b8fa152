/**
 * Release history as pages show it: the computed events of content/history/
 * (one file per agent and source) turned into a tool's version notes, the
 * "since" of each field row, and an agent's changelog by release.
 *
 * Which table a source speaks about: SDK events about `input`/`output` are
 * about the tables of the same roots; capture events are about what the model
 * is told — the `model-input` table of a tool that also has SDK types, or the
 * `input` table of a tool known from captures only.
 */
import { anchorRest, isBelow, rootedAnchor } from '../shapes/anchors.ts';
import { compareVersions } from '../core/version-order.ts';
import { callableNames } from '../model/tool-names.ts';
import { fieldTables, pageAnchors, type ToolModel } from '../model/model.ts';
import type { HistoryEvent, HistoryFile } from '../core/content-types.ts';
import { eventSpan, spanWhen, unknownText } from './event-span.ts';
import type {
  Change,
  ChangeTexts,
  EventSpan,
  FormerName,
  HistorySource,
  NoteGroup,
  Since,
} from '../model/history-facts.ts';

export type { Change, ChangeTexts, EventSpan, FormerName, HistorySource, NoteGroup, Since };

export type ChangeKind = HistoryEvent['kind'];

export const CHANGE_LABELS: Record<ChangeKind, string> = {
  'tool-added': 'tool added',
  'tool-removed': 'tool removed',
  'field-added': 'field added',
  'field-removed': 'field removed',
  renamed: 'renamed',
  'now-variant': 'became a union; the earlier type is its variant',
  'type-changed': 'type changed',
  'now-required': 'now required',
  'now-optional': 'now optional',
  'value-added': 'value added',
  'value-removed': 'value removed',
  'description-changed': 'description changed',
  'definition-changed': 'definition changed',
  available: 'now advertised',
  unavailable: 'no longer advertised',
};

/**
 * What the line of one change shows, in this order: its kind; the field's path
 * (when it is about a field), else the configuration it was seen in; the values
 * (what the field was and is), except for a changed description, which is named,
 * not quoted (both texts are in the history file, and pages of tools with long
 * descriptions would be several times their size); how many added fields below
 * it are folded into it. Shared by the pages (ChangeText), the changelog feed and
 * the refresh summary.
 */
export interface ChangeLine {
  kind: string;
  path?: string;
  configuration?: string;
  /** `from` → `to`; only one of them when the other side has none. */
  from?: string;
  to?: string;
  folded: number;
}

export function changeLine(event: HistoryEvent, folded = 0): ChangeLine {
  const line: ChangeLine = { kind: CHANGE_LABELS[event.kind], folded };
  // A rename names both names (`from` → `to`), the new one being the field's own path.
  if (event.path !== undefined && event.kind !== 'renamed') line.path = event.path;
  else if (event.configuration) line.configuration = event.configuration;
  if (event.kind !== 'description-changed') {
    if (event.from !== undefined) line.from = event.from;
    if (event.to !== undefined) line.to = event.to;
  }
  return line;
}

/**
 * A piece of a change's line: plain words, or text a reader sees set apart: a value or name as code (`field`: the
 * field's path, which a page may link to its row), a configuration's name.
 */
export interface LinePiece {
  text: string;
  as?: 'code' | 'field' | 'configuration';
}

/**
 * A change's line as it reads, piece by piece: the one wording of the feeds' HTML and the exports' plain words
 * (`lineWords`), so the two never say different things.
 */
export function linePieces(line: ChangeLine): LinePiece[] {
  const pieces: LinePiece[] = [{ text: line.kind }];
  if (line.path !== undefined) pieces.push({ text: ' ' }, { text: line.path, as: 'field' });
  if (line.configuration !== undefined)
    pieces.push({ text: ' in ' }, { text: line.configuration, as: 'configuration' });
  if (line.from !== undefined && line.to !== undefined)
    pieces.push({ text: ': ' }, { text: line.from, as: 'code' }, { text: ' → ' }, { text: line.to, as: 'code' });
  else if (line.to !== undefined) pieces.push({ text: ': ' }, { text: line.to, as: 'code' });
  else if (line.from !== undefined) pieces.push({ text: ' (was ' }, { text: line.from, as: 'code' }, { text: ')' });
  if (line.folded > 0) pieces.push({ text: ` (and ${line.folded} field${line.folded === 1 ? '' : 's'} below it)` });
  return pieces;
}

/** A change's line as plain text: `field added input.timeout`, `type changed input.x: string → number`. */
export function lineWords(line: ChangeLine): string {
  return linePieces(line)
    .map((p) => p.text)
    .join('');
}

/**
 * The texts of a changed description or definition: a tool's own from the file's text store
 * (`fromText`/`toText`), a field's description from the event itself (`from`/`to`; a side
 * without one had no description). Other changes have none.
 */
export function changeTexts(file: Pick<HistoryFile, 'texts'>, event: HistoryEvent): ChangeTexts | undefined {
  if (event.fromText !== undefined && event.toText !== undefined) {
    const before = file.texts?.[event.fromText];
    const after = file.texts?.[event.toText];
    if (before === undefined || after === undefined) return undefined;
    return { before, after, by: event.kind === 'definition-changed' ? 'lines' : 'words' };
  }
  if (
    event.kind === 'description-changed' &&
    event.field !== undefined &&
    (event.from !== undefined || event.to !== undefined)
  ) {
    return { before: event.from ?? '', after: event.to ?? '', by: 'words' };
  }
  return undefined;
}

/** Where an event of a history file is, for errors: `content/history/codex.capture.json#/events/12`. */
function eventPointer(file: HistoryFile, event: HistoryEvent): string {
  return `content/history/${file.agent}.${file.source}.json#/events/${file.events.indexOf(event)}`;
}

/** The span of an event of `file` (event-span.ts). */
export function spanOf(file: HistoryFile, event: HistoryEvent): EventSpan {
  return eventSpan(file, event, () => eventPointer(file, event));
}

/**
 * The releases a group of changes lies in, in words: `1.1.53`, or `between 1.1.16 and 1.1.53`
 * with why it is not known exactly (`not read: …; failed in print: …`).
 */
export function spanHeading(span: EventSpan): { when: string; why: string | undefined } {
  return { when: span.exact ? span.release : spanWhen(span), why: unknownText(span) };
}

/** A key telling groups of changes apart by their span: exact ones by nothing more than their release. */
export function spanKey(span: EventSpan): string {
  return span.exact ? '' : `${span.previous} ${unknownText(span) ?? ''}`;
}

function releaseIndex(file: HistoryFile): Map<string, string> {
  return new Map(file.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
}

/** The package a release of a history was read from: its own `package`, else the file's. */
export function releasePackage(file: HistoryFile, version: string): string {
  return file.releases.find((r) => r.version === version)?.package ?? file.package;
}

/**
 * The two releases compared, with the package they were read from
 * (`@anthropic-ai/claude-agent-sdk sdk-tools.d.ts: 0.3.150 → 0.3.152`); across
 * two packages each release names its own
 * (`sdk-tools.d.ts: @anthropic-ai/claude-code 2.1.5 → @anthropic-ai/claude-agent-sdk 0.2.6`).
 */
function evidenceOf(file: HistoryFile, event: HistoryEvent): string {
  if (file.source === 'sdk') {
    const before = releasePackage(file, event.previous);
    const after = releasePackage(file, event.release);
    if (before !== after)
      return `${file.file ?? ''}: ${before} ${event.previous} → ${after} ${event.release}`.replace(/^: /, '');
    return `${`${after} ${file.file ?? ''}`.trim()}: ${event.previous} → ${event.release}`;
  }
  return `${file.package}, configuration ${event.configuration ?? 'any'}: ${event.previous} → ${event.release}`;
}

/** The comparison a change was found in, without the configuration: changes of one comparison are listed together. */
export function comparison(change: Pick<Change, 'evidence'>): string {
  return change.evidence.replace(/, configuration [^:]*:/, ':');
}

/** The root of the page table a source's field events refer to, for this tool. */
export function tableRoot(tool: ToolModel, source: HistorySource, side: HistoryEvent['side']): string {
  if (source === 'capture') return tool.source === 'sdk' ? 'model-input' : 'input';
  return side ?? 'input';
}

/**
 * Whether a history speaks about this tool: SDK history about tools with SDK types, capture history about tools its
 * configurations advertise.
 */
export function historyCovers(tool: ToolModel, file: HistoryFile): boolean {
  if (file.agent !== tool.agent || file.releases.length === 0) return false;
  return file.source === 'sdk' ? tool.source === 'sdk' : capturedIn(tool, file);
}

/**
 * Every name a tool's history events may use: its full name, its accepted or former names, and
 * each name a history saw it renamed from (`renamed` events), followed back through every rename.
 */
export function historyNames(
  tool: Pick<ToolModel, 'agent' | 'fullName' | 'generated'>,
  histories: readonly HistoryFile[],
): Set<string> {
  const names = new Set(callableNames(tool));
  const renames = histories
    .filter((h) => h.agent === tool.agent)
    .flatMap((h) => h.events.filter((e) => e.kind === 'renamed' && e.field === undefined && e.from !== undefined));
  for (let grew = true; grew; ) {
    grew = false;
    for (const e of renames) {
      if (names.has(e.tool) && !names.has(e.from!)) {
        names.add(e.from!);
        grew = true;
      }
    }
  }
  return names;
}

/**
 * The names a history saw the tool renamed from that it does not answer to otherwise (a
 * `renamed` event, followed back through every rename), each with the release, as readers
 * know it, that renamed it and the history that says so.
 */
export function formerNames(
  tool: Pick<ToolModel, 'agent' | 'fullName' | 'generated'>,
  histories: readonly HistoryFile[],
): FormerName[] {
  const own = new Set(callableNames(tool));
  const names = historyNames(tool, histories);
  const out: FormerName[] = [];
  for (const file of histories) {
    if (file.agent !== tool.agent) continue;
    const label = releaseIndex(file);
    for (const e of file.events) {
      if (
        e.kind !== 'renamed' ||
        e.field !== undefined ||
        e.from === undefined ||
        own.has(e.from) ||
        !names.has(e.tool)
      )
        continue;
      if (out.some((o) => o.name === e.from)) continue;
      out.push({
        name: e.from,
        renamedTo: e.tool,
        release: label.get(e.release) ?? e.release,
        span: spanOf(file, e),
        source: file.source,
      });
    }
  }
  return out;
}

/** The tool's changes over every history of its agent, newest first. */
export function toolChanges(tool: ToolModel, histories: readonly HistoryFile[]): Change[] {
  // A tool's events may use any name it is called by, or was called by before a rename.
  const names = historyNames(tool, histories);
  const changes: Change[] = [];
  for (const file of histories) {
    if (file.agent !== tool.agent) continue;
    const label = releaseIndex(file);
    for (const event of file.events) {
      if (!names.has(event.tool)) continue;
      const texts = changeTexts(file, event);
      const change: Change = {
        event,
        source: file.source,
        release: label.get(event.release) ?? event.release,
        span: spanOf(file, event),
        evidence: evidenceOf(file, event),
        ...(texts ? { texts } : {}),
      };
      if (event.field !== undefined)
        change.anchor = rootedAnchor(tableRoot(tool, file.source, event.side), event.field);
      if (event.formerField !== undefined)
        change.formerAnchor = rootedAnchor(tableRoot(tool, file.source, event.side), event.formerField);
      changes.push(change);
    }
  }
  return changes.sort(
    (a, b) =>
      compareVersions(b.release, a.release) ||
      a.source.localeCompare(b.source) ||
      comparison(a).localeCompare(comparison(b)) ||
      spanKey(a.span).localeCompare(spanKey(b.span)) ||
      (a.anchor ?? '').localeCompare(b.anchor ?? '') ||
      a.event.kind.localeCompare(b.event.kind),
  );
}

/**
 * Whether a capture history speaks about this tool: some configuration it
 * compared advertises the tool at the pin, as the history sees it. A tool seen
 * only in configurations the history did not compare has no "since" from it.
 */
export function capturedIn(tool: ToolModel, file: HistoryFile): boolean {
  return trackedAdvertisers(tool, file).length > 0;
}

/**
 * The configurations a capture history follows that advertise the tool at the pin, as the
 * history sees them: a configuration that names only the tool's namespace (deferred to
 * tool_search) counts only when another configuration the history follows shows the tool
 * itself, since the history resolves a namespace from the configurations it compares alone
 * (scripts/lib/history/capture-snapshot.ts). Codex's `multi_agent_v1.*` are shown only by the
 * unknown-model configuration, which the history does not follow: none.
 */
export function trackedAdvertisers(
  tool: Pick<ToolModel, 'captured'>,
  file: Pick<HistoryFile, 'configurations'>,
): string[] {
  const byConfig = tool.captured?.byConfig;
  if (!byConfig) return [];
  const followed = (file.configurations ?? []).filter((c) => byConfig.has(c));
  const via = tool.captured?.viaNamespace ?? new Set<string>();
  const shown = followed.some((c) => !via.has(c) && byConfig.get(c)!.delivery !== 'deferred');
  return followed.filter((c) => !via.has(c) || shown);
}

/**
 * The first release in which a configuration the history follows ran and advertised the tool
 * (by any of `names`), for a tool whose addition the history did not see: what "already there in X"
 * may name. Per configuration, whether it advertised the tool when it
 * first ran is told by its earliest `available`/`unavailable` event of the tool (`unavailable`
 * first: it did; `available` first: it did not), else by whether it advertises it at the end
 * (`atEnd`, trackedAdvertisers). Undefined when none did: the history has nothing to say.
 * An SDK history (no configurations) saw every type from its first release compared.
 */
export function firstSeen(file: HistoryFile, names: ReadonlySet<string>, atEnd: readonly string[]): string | undefined {
  const label = (r: HistoryFile['releases'][number]) => r.cliVersion ?? r.version;
  if (!file.configurations?.length) return firstCompared(file);
  const order = new Map(file.releases.map((r, i) => [r.version, i]));
  let best: number | undefined;
  for (const config of file.configurations) {
    const first = file.releases.findIndex((r) => r.read !== false && r.failed?.[config] === undefined);
    if (first < 0) continue;
    const earliest = file.events
      .filter(
        (e) => e.configuration === config && names.has(e.tool) && (e.kind === 'available' || e.kind === 'unavailable'),
      )
      .sort((a, b) => order.get(a.release)! - order.get(b.release)!)[0];
    const there = earliest ? earliest.kind === 'unavailable' : atEnd.includes(config);
    if (there && (best === undefined || first < best)) best = first;
  }
  return best === undefined ? undefined : label(file.releases[best]!);
}

/**
 * A "since" in words: `since 2.1.210`, `added between 1.1.16 and 1.1.53`, `already there in 2.0.14`
 * (present in the first release the history could read it in: nothing is claimed of the releases before).
 */
export function sinceText(since: Since): string {
  if (since.kind === 'before') return `already there in ${since.release}`;
  return since.previous === undefined
    ? `since ${since.release}`
    : `added between ${since.previous} and ${since.release}`;
}

/**
 * The id a version note carries, when something links to it: a field's
 * addition (`since-input.x`, the target of its row's badge), a tool's addition
 * (`since-tool-sdk`), and a field's removal, which takes the field's old
 * anchor so that links written before the removal still land on its story.
 */
export function noteId(change: Change, presentAnchors: ReadonlySet<string>): string | undefined {
  const { kind } = change.event;
  if (kind === 'field-added' && change.anchor) return `since-${change.anchor}`;
  if (kind === 'tool-added') return `since-tool-${change.source}`;
  if (kind === 'field-removed' && change.anchor && !presentAnchors.has(change.anchor)) return change.anchor;
  // A renamed field's old anchor lands on the story of its rename.
  if (kind === 'renamed' && change.formerAnchor && !presentAnchors.has(change.formerAnchor)) return change.formerAnchor;
  return undefined;
}

/**
 * The change that added the field now at `anchor` (a stable anchor), in `changes` of one
 * source, newest first: its latest `field-added`, followed back through every rename of it
 * or of a field above it (`renamed`) and every type above it that became a union
 * (`now-variant`), which name it by its anchor before. Undefined when it came with the tool
 * or predates the history.
 */
export function additionOf<C extends Change>(anchor: string, changes: readonly C[]): C | undefined {
  let current = anchor;
  for (let i = 0; i < changes.length; ) {
    const release = changes[i]!.release;
    let end = i;
    while (end < changes.length && changes[end]!.release === release) end++;
    const group = changes.slice(i, end);
    const added = group.find((c) => c.event.kind === 'field-added' && c.anchor === current);
    if (added) return added;
    for (const c of group) {
      if ((c.event.kind !== 'renamed' && c.event.kind !== 'now-variant') || !c.anchor || c.formerAnchor === undefined)
        continue;
      const rest = anchorRest(current, c.anchor);
      if (rest !== undefined) {
        current = c.formerAnchor + rest;
        break;
      }
    }
    i = end;
  }
  return undefined;
}

/**
 * For every row of the tool's page that a history covers: the release that
 * added the field (its latest addition), else the release that added the
 * tool, else "before" the first release compared. SDK history covers the
 * SDK's input and result tables; capture history the table of what the model
 * is told.
 */
export function fieldSince(tool: ToolModel, histories: readonly HistoryFile[]): Map<string, Since> {
  const changes = toolChanges(tool, histories); // newest first: `find` gives the latest
  const out = new Map<string, Since>();
  for (const file of histories) {
    if (!historyCovers(tool, file)) continue;
    const ofSource = changes.filter((c) => c.source === file.source);
    const toolAdded = ofSource.find((c) => c.event.kind === 'tool-added');
    const roots = file.source === 'sdk' ? ['input', 'output'] : [tableRoot(tool, 'capture', 'input')];
    // "Since before" only where a configuration the history follows advertised the tool.
    const first = firstSeen(
      file,
      historyNames(tool, histories),
      file.source === 'capture' ? trackedAdvertisers(tool, file) : [],
    );
    const isFirst = first === firstCompared(file);
    const between = (c: Change): { previous?: string } => (c.span.exact ? {} : { previous: c.span.previous });
    for (const table of fieldTables(tool)) {
      for (const row of table.rows) {
        if (!roots.includes(row.root)) continue;
        // Histories name a field by its stable anchor, and by older anchors before a rename.
        const added = additionOf(row.stableId, ofSource);
        const sinceTool = toolAdded && added && added.release === toolAdded.release;
        if (added && !sinceTool)
          out.set(row.id, {
            kind: 'field',
            release: added.release,
            ...between(added),
            note: `since-${foldTarget(added, ofSource).anchor}`,
          });
        else if (toolAdded)
          out.set(row.id, {
            kind: 'tool',
            release: toolAdded.release,
            ...between(toolAdded),
            note: `since-tool-${file.source}`,
          });
        else if (first !== undefined) out.set(row.id, { kind: 'before', release: first, first: isFirst });
      }
    }
  }
  return out;
}

/** One release of an agent's changelog: every change credited to it, from every source. */
export interface ChangelogRelease {
  release: string;
  changes: (Change & { tool: string; folded: number })[];
}

/** All changes of an agent by release, newest first; within a release by tool, then field. */
export function changelog(agent: string, histories: readonly HistoryFile[]): ChangelogRelease[] {
  const byRelease = new Map<string, (Change & { tool: string })[]>();
  for (const file of histories) {
    if (file.agent !== agent) continue;
    const label = releaseIndex(file);
    for (const event of file.events) {
      const release = label.get(event.release) ?? event.release;
      const list = byRelease.get(release) ?? [];
      const texts = changeTexts(file, event);
      list.push({
        event,
        source: file.source,
        release,
        span: spanOf(file, event),
        evidence: evidenceOf(file, event),
        tool: event.tool,
        ...(texts ? { texts } : {}),
      });
      byRelease.set(release, list);
    }
  }
  return [...byRelease.entries()]
    .sort(([a], [b]) => compareVersions(b, a))
    .map(([release, changes]) => ({
      release,
      changes: foldChanges(changes).sort(
        (a, b) =>
          a.tool.localeCompare(b.tool) ||
          (a.event.field ?? '').localeCompare(b.event.field ?? '') ||
          a.event.kind.localeCompare(b.event.kind),
      ),
    }));
}

/** The range of releases a history covers, as readers know them. */
/**
 * The first release a history compared: the first one read in which some configuration ran.
 * A release where every compared configuration failed (Gemini CLI 0.1.1 crashes at start)
 * shows no tool, so nothing can be said to have been "already there" in it.
 */
export function firstCompared(file: HistoryFile): string {
  const label = (r: HistoryFile['releases'][number]) => r.cliVersion ?? r.version;
  const ran = (r: HistoryFile['releases'][number]) =>
    r.read !== false && !(file.configurations?.length && file.configurations.every((c) => r.failed?.[c] !== undefined));
  return label(file.releases.find(ran) ?? file.releases[0]!);
}

export function coveredRange(file: HistoryFile): { first: string; last: string; count: number } {
  const label = (r: HistoryFile['releases'][number]) => r.cliVersion ?? r.version;
  return {
    first: label(file.releases[0]!),
    last: label(file.releases[file.releases.length - 1]!),
    count: file.releases.length,
  };
}

/** One package a history read releases from, with the releases read from it (numbers of that package). */
export interface PackageLine {
  package: string;
  count: number;
  /** First and last release number of the package. */
  first: string;
  last: string;
  /** The same as the agent's releases, as readers know them. */
  firstLabel: string;
  lastLabel: string;
}

/** The packages a history read, in its order (one line unless older releases came from another package). */
export function packageLines(file: HistoryFile): PackageLine[] {
  const lines: PackageLine[] = [];
  for (const r of file.releases) {
    const pkg = r.package ?? file.package;
    const label = r.cliVersion ?? r.version;
    const line = lines[lines.length - 1];
    if (line && line.package === pkg) {
      line.count++;
      line.last = r.version;
      line.lastLabel = label;
    } else
      lines.push({ package: pkg, count: 1, first: r.version, last: r.version, firstLabel: label, lastLabel: label });
  }
  return lines;
}

/**
 * The topmost field added by the same tool in the same release and source that
 * holds this added field (the change itself when there is none): a new object
 * with twenty fields is one note, "field added `:3` (and 20 fields below it)".
 */
export function foldTarget<C extends Change>(change: C, changes: readonly C[]): C {
  if (change.event.kind !== 'field-added' || !change.anchor) return change;
  let top = change;
  for (const c of changes) {
    if (
      c.event.kind !== 'field-added' ||
      !c.anchor ||
      c.event.tool !== change.event.tool ||
      c.release !== change.release ||
      c.source !== change.source
    )
      continue;
    if (isBelow(change.anchor, c.anchor) && c.anchor.length < top.anchor!.length) top = c;
  }
  return top;
}

/** Changes with the additions of nested fields folded into their topmost added parent (`folded`: how many). */
export function foldChanges<C extends Change>(changes: readonly C[]): (C & { folded: number })[] {
  const folded = new Map<C, number>();
  const kept: C[] = [];
  for (const change of changes) {
    const target = foldTarget(change, changes);
    if (target === change) kept.push(change);
    else folded.set(target, (folded.get(target) ?? 0) + 1);
  }
  return kept.map((c) => ({ ...c, folded: folded.get(c) ?? 0 }));
}

/**
 * A tool's changes as its "Version history" lists them: newest release first,
 * one group per release and source, nested additions folded, each note with
 * the id something may link to (unique on the page).
 */
export function versionNotes(tool: ToolModel, histories: readonly HistoryFile[]): NoteGroup[] {
  const present = pageAnchors(tool);
  const used = new Set<string>();
  const groups: NoteGroup[] = [];
  for (const change of foldChanges(toolChanges(tool, histories))) {
    let group = groups[groups.length - 1];
    if (
      !group ||
      group.release !== change.release ||
      group.source !== change.source ||
      group.evidence !== comparison(change) ||
      spanKey(group.span) !== spanKey(change.span)
    ) {
      group = {
        release: change.release,
        source: change.source,
        span: change.span,
        evidence: comparison(change),
        items: [],
      };
      groups.push(group);
    }
    const id = noteId(change, present);
    // Newest first: a field added, removed and added again links to its latest addition.
    if (id && !used.has(id)) {
      used.add(id);
      group.items.push({ ...change, id });
    } else group.items.push(change);
  }
  return groups;
}

/** Which releases each history of an agent covers, for the sentence above a tool's notes. */
export function coverage(
  agent: string,
  histories: readonly HistoryFile[],
): { source: HistorySource; package: string; first: string; last: string; count: number; lines: PackageLine[] }[] {
  return histories
    .filter((h) => h.agent === agent)
    .map((h) => ({ source: h.source, package: h.package, ...coveredRange(h), lines: packageLines(h) }));
}

/**
 * Every field anchor a link may point at on the tool's page: its rows, and the notes of removed fields among its
 * version notes (by default the ones the loader computed, tool.facts).
 */
export function linkableAnchors(tool: ToolModel, notes: readonly NoteGroup[] = tool.facts.history.notes): Set<string> {
  const anchors = pageAnchors(tool);
  for (const group of notes)
    for (const note of group.items)
      if (note.id && (note.event.kind === 'field-removed' || note.event.kind === 'renamed')) anchors.add(note.id);
  return anchors;
}

/** A documented version note's claim, compared with the computed history. */
export interface ClaimCheck {
  tool: string;
  note: string;
  claim: string;
  /** `agrees`; `contradicts` (computed elsewhere or not at all); `outside` (the release is not covered). */
  verdict: 'agrees' | 'contradicts' | 'outside';
  detail: string;
}

/**
 * The agent release a documented note names: `2.1.210`, or `Agent SDK 0.3.235` through the SDK history's manifest
 * versions.
 */
function noteRelease(version: string, histories: readonly HistoryFile[], agent: string): string | undefined {
  const sdk = /^Agent SDK (\d+\.\d+\.\d+)$/.exec(version);
  if (!sdk) return /^\d+\.\d+\.\d+$/.test(version) ? version : undefined;
  const file = histories.find((h) => h.agent === agent && h.source === 'sdk');
  return file?.releases.find((r) => r.version === sdk[1])?.cliVersion;
}

/** Checks every structured claim of a tool's documented version notes against its computed changes. */
export function checkDocumentedNotes(tool: ToolModel, histories: readonly HistoryFile[]): ClaimCheck[] {
  const changes = toolChanges(tool, histories);
  const covered = histories
    .filter((h) => h.agent === tool.agent)
    .map((h) => ({ first: firstCompared(h), last: coveredRange(h).last }));
  const out: ClaimCheck[] = [];
  for (const note of tool.editorial?.versionNotes ?? []) {
    for (const claim of note.claims ?? []) {
      const label = `${claim.kind}${claim.field ? ` ${claim.field}` : ''}${claim.value ? ` = ${claim.value}` : ''}`;
      const release = noteRelease(note.version, histories, tool.agent);
      const base = { tool: tool.fullName, note: note.version, claim: label };
      if (
        !release ||
        !covered.some((c) => compareVersions(release, c.first) > 0 && compareVersions(release, c.last) <= 0)
      ) {
        out.push({
          ...base,
          verdict: 'outside',
          detail: release ? `${release} is not after the first release compared` : `${note.version} names no release`,
        });
        continue;
      }
      const matching = changes.filter(
        (c) =>
          c.event.kind === claim.kind &&
          (claim.field === undefined || c.anchor === claim.field) &&
          (claim.value === undefined || c.event.to === claim.value),
      );
      if (matching.some((c) => c.release === release))
        out.push({ ...base, verdict: 'agrees', detail: `computed in ${release}` });
      else
        out.push({
          ...base,
          verdict: 'contradicts',
          detail: matching.length
            ? `computed in ${matching.map((c) => c.release).join(', ')}`
            : 'no such change computed',
        });
    }
  }
  return out;
}
