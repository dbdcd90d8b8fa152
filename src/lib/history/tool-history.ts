/**
 * A tool's place in its agent's release histories, in the manner of caniuse and MDN's compat data: when it came or
 * went by each history that speaks about it, or why none does. Computed when content is loaded (the tool's facts) and
 * for a job page's compatibility table. Pure.
 */
import type { HistoryFile } from '../core/content-types.ts';
import type { HistoryLine, ToolHistory } from '../model/history-facts.ts';
import type { ToolModel } from '../model/model.ts';
import { releaseUrl } from './changelog-addresses.ts';
import { firstSeen, historyCovers, historyNames, toolChanges, trackedAdvertisers } from './history.ts';

/**
 * The configurations each capture history of the tool's agent follows when none of them advertises the tool (Codex's
 * multi_agent_v1.*).
 */
export function untrackedBy(tool: ToolModel, histories: readonly HistoryFile[]): string[][] {
  return histories
    .filter(
      (h) =>
        h.agent === tool.agent &&
        h.source === 'capture' &&
        h.releases.length > 0 &&
        (h.configurations?.length ?? 0) > 0 &&
        trackedAdvertisers(tool, h).length === 0,
    )
    .map((h) => [...h.configurations!]);
}

/**
 * A tool's place in its agent's histories: one line per history that speaks about it; `none` when the agent has no
 * history at all; `uncovered` when none compares what this tool's page shows, with the configurations each capture
 * history follows (none of which advertises it).
 */
export function toolHistory(tool: ToolModel, histories: readonly HistoryFile[]): ToolHistory {
  const own = histories.filter((h) => h.agent === tool.agent && h.releases.length > 0);
  if (own.length === 0) return { kind: 'none' };
  const changes = toolChanges(tool, histories); // newest first
  const lines: HistoryLine[] = [];
  for (const file of own) {
    const last = changes.find(
      (c) => c.source === file.source && (c.event.kind === 'tool-added' || c.event.kind === 'tool-removed'),
    );
    if (last) {
      const line: HistoryLine = {
        source: file.source,
        state: last.event.kind === 'tool-added' ? 'added' : 'removed',
        release: last.release,
        href: releaseUrl(tool.agent, last.release, histories),
      };
      if (!last.span.exact) line.previous = last.span.previous;
      lines.push(line);
    } else if (historyCovers(tool, file)) {
      // "Since before" only with evidence: a configuration the history follows advertised it there.
      const seen = firstSeen(
        file,
        historyNames(tool, histories),
        file.source === 'capture' ? trackedAdvertisers(tool, file) : [],
      );
      if (seen !== undefined) lines.push({ source: file.source, state: 'before', release: seen });
    }
  }
  return lines.length > 0 ? { kind: 'lines', lines } : { kind: 'uncovered', followed: untrackedBy(tool, histories) };
}
