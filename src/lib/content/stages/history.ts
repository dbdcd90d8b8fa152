/**
 * Stage: computed release histories (content/history/<agent>.<source>.json).
 * The schema checks each file's shape; this stage checks what spans the file:
 * its name matches its agent and source, its releases are in release order,
 * and every event is credited to a release it lists, after the one it was
 * compared with.
 */
import type { Stage } from '../context.ts';
import type { AgentId, HistoryFile } from '../../content-types.ts';
import { compareVersions, coveredRange } from '../../history.ts';
import type { RemovedTool, ToolModel } from '../../model.ts';
import { toolSlug, urlNameProblem } from '../url-names.ts';

export function loadHistories(stage: Stage, agentIds: ReadonlySet<string>): HistoryFile[] {
  const { reader, problems, files } = stage;
  const histories: HistoryFile[] = [];
  for (const path of files.history) {
    const file = reader.relContent(path);
    const data = reader.read<HistoryFile>(path, 'history');
    if (!data) continue;
    const expectedName = `${data.agent}.${data.source}.json`;
    if (!path.endsWith(`/${expectedName}`)) {
      problems.error(file, '/agent', 'history-file-name', `a history of ${data.agent} from source ${data.source} belongs in content/history/${expectedName}`);
      continue;
    }
    if (!agentIds.has(data.agent)) {
      problems.error(file, '/agent', 'known-agent', `no agent record for ${data.agent}`);
      continue;
    }
    let ordered = true;
    data.releases.forEach((release, i) => {
      const before = data.releases[i - 1];
      if (before && compareVersions(before.version, release.version) >= 0) {
        problems.error(file, `/releases/${i}/version`, 'history-releases-ordered', `release ${release.version} comes after ${before.version}: releases are listed once each, oldest first`);
        ordered = false;
      }
    });
    if (!ordered) continue;
    const listed = new Set(data.releases.map((r) => r.version));
    data.events.forEach((event, i) => {
      for (const key of ['release', 'previous'] as const) {
        if (!listed.has(event[key])) problems.error(file, `/events/${i}/${key}`, 'history-event-release', `${key} ${event[key]} is not one of the releases compared`);
      }
      if (listed.has(event.release) && listed.has(event.previous) && compareVersions(event.previous, event.release) >= 0) {
        problems.error(file, `/events/${i}/previous`, 'history-event-release', `a change first seen in ${event.release} must be compared with an earlier release, not ${event.previous}`);
      }
    });
    histories.push(data);
  }
  return histories;
}

/**
 * Tools a history saw removed (and not added again) that no current tool
 * answers to by name or alias: each gets a page, so its URL name must be valid
 * and free like any tool's.
 */
export function removedTools(stage: Stage, histories: readonly HistoryFile[], tools: readonly ToolModel[]): RemovedTool[] {
  const { problems } = stage;
  const taken = new Map<string, string>(); // `agent/slug` → what has that URL
  const current = new Set<string>();
  for (const tool of tools) {
    taken.set(`${tool.agent}/${tool.slug}`, tool.fullName);
    for (const slug of tool.redirectSlugs ?? []) taken.set(`${tool.agent}/${slug}`, `an alias of ${tool.fullName}`);
    for (const name of [tool.fullName, ...tool.generated.aliases.map((a) => a.name)]) current.add(`${tool.agent} ${name}`);
  }
  const out: RemovedTool[] = [];
  for (const file of histories) {
    const path = stage.reader.relContent(`history/${file.agent}.${file.source}.json`);
    const label = new Map(file.releases.map((r) => [r.version, r.cliVersion ?? r.version]));
    file.events.forEach((event, i) => {
      if (event.kind !== 'tool-removed' || current.has(`${file.agent} ${event.tool}`)) return;
      const later = file.events.slice(i + 1).some((e) => e.tool === event.tool && e.kind === 'tool-added');
      if (later) return;
      const slug = toolSlug(event.tool);
      const pointer = `/events/${i}/tool`;
      const problem = urlNameProblem(slug, stage.reserved.agent);
      if (problem) return problems.error(path, pointer, 'url-name-valid', `removed tool ${JSON.stringify(event.tool)} ${problem}`);
      const owner = taken.get(`${file.agent}/${slug}`);
      if (owner) return problems.error(path, pointer, 'unique-tool-url', `removed tool ${event.tool} would take the URL /${file.agent}/${slug}/ of ${owner}`);
      taken.set(`${file.agent}/${slug}`, `the removed tool ${event.tool}`);
      const added = file.events.find((e) => e.tool === event.tool && e.kind === 'tool-added');
      const tool: RemovedTool = {
        agent: file.agent as AgentId,
        name: event.tool,
        slug,
        source: file.source,
        lastSeen: label.get(event.previous) ?? event.previous,
        removedIn: label.get(event.release) ?? event.release,
        firstCompared: coveredRange(file).first,
        file: path,
      };
      if (added) tool.addedIn = label.get(added.release) ?? added.release;
      out.push(tool);
    });
  }
  return out;
}
