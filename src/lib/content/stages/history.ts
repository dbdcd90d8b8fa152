/**
 * Stage: computed release histories (content/history/<agent>.<source>.json).
 * The schema checks each file's shape; this stage checks what spans the file:
 * its name matches its agent and source, its releases are in release order
 * (of the agent release each goes with; numbers are unique),
 * and every event is credited to a release it lists, after the one it was
 * compared with.
 */
import { anchorRest, rootedAnchor, throughPositionalVariant } from '../../shapes/anchors.ts';
import { everyName } from '../../model/tool-names.ts';
import type { Stage } from '../context.ts';
import type { AgentId, HistoryEvent, HistoryFile } from '../../core/content-types.ts';
import { compareVersions } from '../../core/version-order.ts';
import { textId } from '../../core/text-id.ts';
import { firstCompared, firstSeen, historyNames, spanOf, tableRoot } from '../../history/history.ts';
import { pageAnchors, type RemovedTool, type ToolModel } from '../../model/model.ts';
import { toolSlug, urlNameProblem } from '../url-names.ts';
import { checkName } from '../names.ts';

/** Events that say whether a configuration advertises a tool from that release on. */
const PRESENCE_KINDS = new Set(['tool-added', 'tool-removed', 'available', 'unavailable']);

export function loadHistories(stage: Stage, agentIds: ReadonlySet<string>): HistoryFile[] {
  const histories: HistoryFile[] = [];
  for (const path of stage.files.history) {
    const data = stage.reader.read<HistoryFile>(path, 'history');
    if (data && historyHolds(stage, path, data, agentIds)) histories.push(data);
  }
  return histories;
}

/**
 * Whether a history can be used: each check runs only once the ones before it pass, since they rely on them (events
 * are placed by the release list; a file in the wrong place or of an unknown agent is not read further).
 */
function historyHolds(stage: Stage, path: string, data: HistoryFile, agentIds: ReadonlySet<string>): boolean {
  const { problems } = stage;
  const file = stage.reader.relContent(path);
  const expectedName = `${data.agent}.${data.source}.json`;
  if (!path.endsWith(`/${expectedName}`)) {
    problems.error(
      file,
      '/agent',
      'history-file-name',
      `a history of ${data.agent} from source ${data.source} belongs in content/history/${expectedName}`,
    );
    return false;
  }
  if (!agentIds.has(data.agent)) {
    problems.error(file, '/agent', 'known-agent', `no agent record for ${data.agent}`);
    return false;
  }
  if (!releasesOrdered(stage, file, data)) return false;
  // Tool names in events enter the site here (removed tools get pages titled with them).
  const namesOk = data.events
    .map((event, i) => checkName(problems, { file, pointer: `/events/${i}/tool` }, 'tool name', event.tool))
    .every(Boolean);
  if (!namesOk) return false;
  data.events.forEach((event, i) => {
    checkEventReleases(stage, file, data, event, i);
    checkChangeTexts(stage, file, data, event, i);
  });
  checkTexts(stage, file, data);
  return true;
}

/** Whether each release is listed once, oldest first (rule `history-releases-ordered`); every mistake is reported. */
function releasesOrdered(stage: Stage, file: string, data: HistoryFile): boolean {
  // Releases are ordered by the agent release each goes with (`cliVersion`, else the number itself): an SDK
  // history may read older releases from another package (`package`), whose numbers do not sort with the file's.
  const label = (r: HistoryFile['releases'][number]) => r.cliVersion ?? r.version;
  let ordered = true;
  const seen = new Set<string>();
  data.releases.forEach((release, i) => {
    const before = data.releases[i - 1];
    if (seen.has(release.version)) {
      stage.problems.error(
        file,
        `/releases/${i}/version`,
        'history-releases-ordered',
        `release number ${release.version} is listed twice: events name releases by number`,
      );
      ordered = false;
    } else if (before && compareVersions(label(before), label(release)) >= 0) {
      stage.problems.error(
        file,
        `/releases/${i}/version`,
        'history-releases-ordered',
        `release ${label(release)} comes after ${label(before)}: releases are listed once each, oldest first`,
      );
      ordered = false;
    }
    seen.add(release.version);
  });
  return ordered;
}

/** An event is credited to a release the file lists, after the one it was compared with (`history-event-release`). */
function checkEventReleases(stage: Stage, file: string, data: HistoryFile, event: HistoryEvent, i: number): void {
  const place = (version: string) => releasePlace(data, version);
  const listed = (version: string) => place(version) !== -1;
  for (const key of ['release', 'previous'] as const) {
    if (!listed(event[key]))
      stage.problems.error(
        file,
        `/events/${i}/${key}`,
        'history-event-release',
        `${key} ${event[key]} is not one of the releases compared`,
      );
  }
  if (listed(event.release) && listed(event.previous) && place(event.previous) >= place(event.release)) {
    stage.problems.error(
      file,
      `/events/${i}/previous`,
      'history-event-release',
      `a change first seen in ${event.release} must be compared with an earlier release, not ${event.previous}`,
    );
  }
}

/** A history keeps only the texts its changes name, each under its own id (`history-text-used`, `history-text-id`). */
function checkTexts(stage: Stage, file: string, data: HistoryFile): void {
  const named = new Set(
    data.events.flatMap((e) => [e.fromText, e.toText]).filter((id): id is string => id !== undefined),
  );
  for (const [id, text] of Object.entries(data.texts ?? {})) {
    if (!named.has(id))
      stage.problems.error(
        file,
        `/texts/${id}`,
        'history-text-used',
        'no event names this text: a history keeps only the texts of its changes',
      );
    else if (text !== undefined && textId(text) !== id)
      stage.problems.error(
        file,
        `/texts/${id}`,
        'history-text-id',
        `this text's id is ${textId(text)} (the first 16 hex digits of its SHA-256), not ${id}`,
      );
  }
}

/**
 * A change of a tool's own description or of a definition carries both texts, stored once in
 * the file's `texts` (rule `history-change-texts`): a changelog shows what changed, not only
 * that it did.
 */
function checkChangeTexts(stage: Stage, file: string, data: HistoryFile, event: HistoryEvent, i: number): void {
  const toolLevel =
    event.kind === 'definition-changed' || (event.kind === 'description-changed' && event.field === undefined);
  for (const key of ['fromText', 'toText'] as const) {
    const id = event[key];
    if (id === undefined) {
      if (toolLevel)
        stage.problems.error(
          file,
          `/events/${i}`,
          'history-change-texts',
          `a ${event.kind} of ${event.tool} needs \`${key}\`: the id in \`texts\` of the text ` +
            `${key === 'fromText' ? 'before' : 'after'} the change`,
        );
    } else if (!toolLevel) {
      stage.problems.error(
        file,
        `/events/${i}/${key}`,
        'history-change-texts',
        `only a tool's own description change or a definition change names a text; a ` +
          `${event.kind}${event.field ? ` of a field` : ''} keeps its values in \`from\`/\`to\``,
      );
    } else if (data.texts?.[id] === undefined) {
      stage.problems.error(
        file,
        `/events/${i}/${key}`,
        'history-change-texts',
        `no text ${id} in this file's \`texts\``,
      );
    }
  }
}

/** A release's place in its history's list of releases (events are not stored in release order). */
function releasePlace(file: HistoryFile, release: string): number {
  return file.releases.findIndex((r) => r.version === release);
}

/**
 * A name a history saw a current tool renamed from is one of its names: its URL redirects to
 * the tool's page (added to redirectSlugs), and must be valid and free like a tool's.
 */
function claimFormerNames(
  stage: Stage,
  histories: readonly HistoryFile[],
  tools: readonly ToolModel[],
  taken: Map<string, string>,
  current: Set<string>,
): void {
  const { problems } = stage;
  for (const file of histories) {
    const path = stage.reader.relContent(`history/${file.agent}.${file.source}.json`);
    for (const tool of tools) {
      if (tool.agent !== file.agent) continue;
      for (const name of historyNames(tool, [file])) {
        if (current.has(`${tool.agent} ${name}`)) continue;
        current.add(`${tool.agent} ${name}`);
        const slug = toolSlug(name);
        const pointer = `/events/${file.events.findIndex((e) => e.kind === 'renamed' && e.from === name)}/from`;
        if (
          taken.get(`${tool.agent}/${slug}`) === tool.fullName ||
          taken.get(`${tool.agent}/${slug}`) === `an alias of ${tool.fullName}`
        )
          continue;
        const problem = urlNameProblem(slug, stage.reserved.agent);
        if (problem) {
          problems.error(
            path,
            pointer,
            'url-name-valid',
            `former name ${JSON.stringify(name)} of ${tool.fullName} ${problem}`,
          );
          continue;
        }
        const owner = taken.get(`${tool.agent}/${slug}`);
        if (owner) {
          problems.error(
            path,
            pointer,
            'unique-tool-url',
            `former name ${name} of ${tool.fullName} would take the URL /${tool.agent}/${slug}/ of ${owner}`,
          );
          continue;
        }
        taken.set(`${tool.agent}/${slug}`, `an alias of ${tool.fullName}`);
        tool.redirectSlugs = [...(tool.redirectSlugs ?? []), slug];
      }
    }
  }
}

/** The removed tools one history saw, each with a page: valid and free URL names only. */
function removedOfHistory(
  stage: Stage,
  file: HistoryFile,
  taken: Map<string, string>,
  current: ReadonlySet<string>,
): RemovedTool[] {
  const out: RemovedTool[] = [];
  const path = stage.reader.relContent(`history/${file.agent}.${file.source}.json`);
  for (const [name, i] of [...lastRemovals(file, current)].sort((a, b) => a[1] - b[1])) {
    const event = file.events[i]!;
    const later = file.events.some(
      (e) =>
        e.tool === name && e.kind === 'tool-added' && releasePlace(file, e.release) > releasePlace(file, event.release),
    );
    if (later) continue;
    const slug = toolSlug(event.tool);
    if (claimRemovedUrl(stage, { path, agent: file.agent, event, i, slug }, taken))
      out.push(removedTool(file, event, slug, path));
  }
  return out;
}

/**
 * The event of each removed tool (not a current one) that a page takes its removal from: the removal after the last
 * release that still had it. A configuration that could not run for a while reports its own removal late, compared
 * with its last run (Codex's shell: gone from gpt-5-5 in 0.96.0, from multi-agent-v2 "in 0.133.0" against 0.50.0):
 * the latest `previous` is when the tool was last seen anywhere.
 */
function lastRemovals(file: HistoryFile, current: ReadonlySet<string>): Map<string, number> {
  const lastRemoval = new Map<string, number>();
  file.events.forEach((event, i) => {
    if (event.kind !== 'tool-removed' || current.has(`${file.agent} ${event.tool}`)) return;
    const known = lastRemoval.get(event.tool);
    const k = known === undefined ? undefined : file.events[known]!;
    const seen = releasePlace(file, event.previous);
    if (
      !k ||
      seen > releasePlace(file, k.previous) ||
      (seen === releasePlace(file, k.previous) && releasePlace(file, event.release) < releasePlace(file, k.release))
    )
      lastRemoval.set(event.tool, i);
  });
  return lastRemoval;
}

/**
 * Whether a removed tool's page takes its URL name: not when the name is invalid or another page has it (both
 * reported), nor when the same removed tool already has it from an earlier history.
 */
function claimRemovedUrl(
  stage: Stage,
  removal: { path: string; agent: string; event: HistoryEvent; i: number; slug: string },
  taken: Map<string, string>,
): boolean {
  const { path, agent, event, i, slug } = removal;
  const pointer = `/events/${i}/tool`;
  const problem = urlNameProblem(slug, stage.reserved.agent);
  if (problem) {
    stage.problems.error(path, pointer, 'url-name-valid', `removed tool ${JSON.stringify(event.tool)} ${problem}`);
    return false;
  }
  const owner = taken.get(`${agent}/${slug}`);
  // Removed in both histories of the agent (SDK types and captures): one page, from the
  // first history read; its version history lists the changes of both.
  if (owner === `the removed tool ${event.tool}`) return false;
  if (owner) {
    stage.problems.error(
      path,
      pointer,
      'unique-tool-url',
      `removed tool ${event.tool} would take the URL /${agent}/${slug}/ of ${owner}`,
    );
    return false;
  }
  taken.set(`${agent}/${slug}`, `the removed tool ${event.tool}`);
  return true;
}

/** A removed tool's record, from its removal event (and its addition, when the history saw one). */
function removedTool(file: HistoryFile, event: HistoryEvent, slug: string, path: string): RemovedTool {
  const label = new Map(file.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
  const added = file.events.find((e) => e.tool === event.tool && e.kind === 'tool-added');
  const tool: RemovedTool = {
    agent: file.agent as AgentId,
    name: event.tool,
    slug,
    source: file.source,
    lastSeen: label.get(event.previous) ?? event.previous,
    removedIn: label.get(event.release) ?? event.release,
    removedExactly: spanOf(file, event).exact,
    firstCompared: firstSeen(file, new Set([event.tool]), []) ?? firstCompared(file),
    file: path,
  };
  if (added) {
    tool.addedIn = label.get(added.release) ?? added.release;
    const span = spanOf(file, added);
    if (!span.exact) tool.addedAfter = span.previous;
  }
  return tool;
}

/**
 * Tools a history saw removed (and not added again) that no current tool
 * answers to by name or alias: each gets a page, so its URL name must be valid
 * and free like any tool's.
 *
 * A name a history saw a current tool renamed from (`renamed` events, followed
 * through every rename) is one of its names too: its URL redirects to the
 * tool's page (added to `redirectSlugs`), like a former name the tool's own
 * file records.
 */
export function removedTools(
  stage: Stage,
  histories: readonly HistoryFile[],
  tools: readonly ToolModel[],
): RemovedTool[] {
  const taken = new Map<string, string>(); // `agent/slug` → what has that URL
  const current = new Set<string>();
  for (const tool of tools) {
    taken.set(`${tool.agent}/${tool.slug}`, tool.fullName);
    for (const slug of tool.redirectSlugs ?? []) taken.set(`${tool.agent}/${slug}`, `an alias of ${tool.fullName}`);
    for (const name of everyName(tool)) current.add(`${tool.agent} ${name}`);
  }
  claimFormerNames(stage, histories, tools, taken, current);
  return histories.flatMap((file) => removedOfHistory(stage, file, taken, current));
}

/**
 * The last event of each field of a history, in release order (events are not stored sorted by
 * release), keyed by tool, side and field; an event naming no tool of the agent that the
 * history never saw removed is reported, once per name.
 */
function lastEventOfEachField(
  stage: Stage,
  file: HistoryFile,
  byName: ReadonlyMap<string, ToolModel>,
  place: ReadonlyMap<string, number>,
): Map<string, { index: number; kind: string; release: string }> {
  const { problems } = stage;
  const path = stage.reader.relContent(`history/${file.agent}.${file.source}.json`);
  const removed = new Set(file.events.filter((e) => e.kind === 'tool-removed').map((e) => e.tool));
  const unknownReported = new Set<string>();
  // The last event of each field, in release order (events are not stored sorted by release).
  const lastOfField = new Map<string, { index: number; kind: string; release: string }>();
  file.events.forEach((event, i) => {
    const tool = byName.get(event.tool);
    if (!tool) {
      if (!removed.has(event.tool) && !unknownReported.has(event.tool)) {
        unknownReported.add(event.tool);
        problems.error(
          path,
          `/events/${i}/tool`,
          'history-tool-known',
          `${file.agent} has no tool ${event.tool}, and this history never saw it removed`,
        );
      }
      return;
    }
    if (event.field === undefined) return;
    // Keyed by the tool, not the name: events before a rename use the old name.
    const key = `${tool.fullName}\u0000${event.side ?? ''}\u0000${event.field}`;
    const last = lastOfField.get(key);
    if (!last || (place.get(event.release) ?? -1) >= (place.get(last.release) ?? -1))
      lastOfField.set(key, { index: i, kind: event.kind, release: event.release });
  });
  return lastOfField;
}

/** Renames and types that became unions move fields: a field's anchor after every later move of it. */
function fieldMover(
  file: HistoryFile,
  byName: ReadonlyMap<string, ToolModel>,
  place: ReadonlyMap<string, number>,
): (tool: ToolModel, side: string | undefined, field: string, release: string) => string {
  const moves = file.events.filter(
    (e) => (e.kind === 'renamed' || e.kind === 'now-variant') && e.field !== undefined && e.formerField !== undefined,
  );
  return (tool, side, field, release) => {
    let current = field;
    for (const m of moves
      .filter((m) => byName.get(m.tool) === tool && m.side === side)
      .sort((a, b) => place.get(a.release)! - place.get(b.release)!)) {
      if (place.get(m.release)! <= place.get(release)!) continue;
      const rest = anchorRest(current, m.formerField!);
      if (rest !== undefined && (rest === '' ? m.kind === 'renamed' : m.kind === 'renamed' || rest.startsWith('.')))
        current = m.field! + rest;
    }
    return current;
  };
}

/** The kind of the last event, in release order, under each key `keyOf` gives (undefined: not counted). */
function lastKindsBy(
  file: HistoryFile,
  byName: ReadonlyMap<string, ToolModel>,
  place: ReadonlyMap<string, number>,
  keyOf: (event: HistoryEvent, tool: ToolModel) => string | undefined,
): Map<string, string> {
  const last = new Map<string, { kind: string; place: number }>();
  for (const event of file.events) {
    const tool = byName.get(event.tool);
    const key = tool && keyOf(event, tool);
    if (key === undefined) continue;
    const at = place.get(event.release) ?? -1;
    const known = last.get(key);
    if (!known || at >= known.place) last.set(key, { kind: event.kind, place: at });
  }
  return new Map([...last].map(([key, { kind }]) => [key, kind]));
}

/** One history's references: see checkHistoryReferences. */
function checkHistoryFile(stage: Stage, file: HistoryFile, tools: readonly ToolModel[]): void {
  if (agentSourcesUnreadable(stage, file.agent)) return;
  const path = stage.reader.relContent(`history/${file.agent}.${file.source}.json`);
  const byName = new Map<string, ToolModel>();
  for (const tool of tools) {
    if (tool.agent !== file.agent) continue;
    for (const name of historyNames(tool, [file])) byName.set(name, tool);
  }
  const place = new Map(file.releases.map((r, i) => [r.version, i]));
  const lastOfField = lastEventOfEachField(stage, file, byName, place);
  const movedOn = fieldMover(file, byName, place);
  const rowsGone = rowsGoneTest(file, byName, place);
  const anchorsOf = new Map<ToolModel, Set<string>>();
  const byPosition: string[] = [];
  for (const { index, kind } of lastOfField.values()) {
    if (kind === 'field-removed') continue;
    const event = file.events[index]!;
    const tool = byName.get(event.tool)!;
    if (rowsGone(tool, event.configuration)) continue;
    // A definition that could not be read has no rows; its own error says so.
    if ([tool.input, tool.output, tool.modelInput?.view].some((view) => view?.broken)) continue;
    const anchors = anchorsOf.get(tool) ?? anchorsOf.set(tool, pageAnchors(tool)).get(tool)!;
    const anchor = rootedAnchor(
      tableRoot(tool, file.source, event.side),
      movedOn(tool, event.side, event.field!, event.release),
    );
    if (anchors.has(anchor)) continue;
    // A union variant known only by its position (`output:3`) moves when a variant
    // is added before it: a known limit of the computed histories, said once per file.
    if (throughPositionalVariant(event.field!)) byPosition.push(anchor);
    else
      stage.problems.error(
        path,
        `/events/${index}/field`,
        'history-field-known',
        `${event.tool} has no field row ${anchor}, and this history never saw it removed`,
      );
  }
  if (byPosition.length > 0) {
    stage.problems.warn(
      path,
      `${byPosition.length} field events name a union variant by position and no longer match a row (e.g. ` +
        `${byPosition[0]}): variants need stable labels`,
    );
  }
}

/**
 * Whether a tool file, capture or note of the agent could not be read: it may hold the tool an event names, and its
 * own error says so.
 */
function agentSourcesUnreadable(stage: Stage, agent: string): boolean {
  const { tools: toolFiles, captures, editorial } = stage.files;
  const sources = [...(toolFiles.get(agent) ?? []), ...(captures.get(agent) ?? []), ...(editorial.get(agent) ?? [])];
  return sources.some((f) => stage.problems.isUnreadable(stage.reader.relContent(f)));
}

/** Whether a tool's page has no captured rows left for a field event of this history (then shown unlinked). */
function rowsGoneTest(
  file: HistoryFile,
  byName: ReadonlyMap<string, ToolModel>,
  place: ReadonlyMap<string, number>,
): (tool: ToolModel, configuration: string | undefined) => boolean {
  const lastKinds = (keyOf: (event: HistoryEvent, tool: ToolModel) => string | undefined) =>
    lastKindsBy(file, byName, place, keyOf);
  // A tool whose last appearance in this history is its removal (Codex's update_plan, now
  // documented from its crate but advertised by no compared configuration) has no captured
  // rows left for its older field events to name.
  const lastPresence = lastKinds((e, tool) =>
    e.kind === 'tool-added' || e.kind === 'tool-removed' ? tool.fullName : undefined,
  );
  // Likewise a field last seen in a configuration that no longer advertises the tool (Codex's
  // wait_agent renamed ids → targets under gpt-5.5, then left gpt-5.5 while other
  // configurations kept another shape of it): the page's rows come from those others.
  const inConfiguration = (tool: ToolModel, configuration: string) => `${tool.fullName}\u0000${configuration}`;
  const lastInConfiguration = lastKinds((e, tool) =>
    e.configuration !== undefined && PRESENCE_KINDS.has(e.kind) ? inConfiguration(tool, e.configuration) : undefined,
  );
  return (tool, configuration) => {
    if (lastPresence.get(tool.fullName) === 'tool-removed') return true;
    const kind =
      configuration === undefined ? undefined : lastInConfiguration.get(inConfiguration(tool, configuration));
    return kind === 'unavailable' || kind === 'tool-removed';
  };
}

/**
 * Every event speaks about something the site shows: a tool of the agent (by
 * name or accepted or former name) or one the same history saw removed; and a
 * field whose last event is not its removal is a row of that tool's page.
 * Runs once the tools are known; a history that breaks this is reported once
 * per tool and once per field, at the first event that names it.
 */
export function checkHistoryReferences(
  stage: Stage,
  histories: readonly HistoryFile[],
  tools: readonly ToolModel[],
): void {
  for (const file of histories) checkHistoryFile(stage, file, tools);
}
