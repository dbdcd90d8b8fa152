/**
 * Stage: computed release histories (content/history/<agent>.<source>.json).
 * The schema checks each file's shape; this stage checks what spans the file:
 * its name matches its agent and source, its releases are in release order,
 * and every event is credited to a release it lists, after the one it was
 * compared with.
 */
import type { Stage } from '../context.ts';
import type { HistoryFile } from '../../content-types.ts';
import { compareVersions } from '../../history.ts';

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
