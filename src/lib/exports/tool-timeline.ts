/**
 * `/<agent>/<tool>/timeline.json`: what the release comparison of a tool page loads when a
 * reader opens it (src/scripts/compare-releases.ts). Per history of the agent (published
 * types, captures): the releases it read, oldest first, and every change of the tool with
 * its line as the changelog words it, why it breaks callers, and the texts it names (each
 * stored once). Comparing releases A and B is taking the changes after A up to B: a release
 * read lies on one side of every change, since each change is bracketed by two releases read.
 * Pure.
 */
import type { AgentId, HistoryEvent, HistoryFile } from '../core/content-types.ts';
import type { ToolModel } from '../model/model.ts';
import { changeLine, historyNames, type ChangeLine } from '../history/history.ts';
import { breakingReason } from '../history/breaking.ts';
import { toolUrl } from '../site/site.ts';

export { TIMELINE_FILE } from '../site/export-files.ts';

export interface TimelineChange {
  release: string;
  previous: string;
  kind: HistoryEvent['kind'];
  side?: HistoryEvent['side'];
  field?: string;
  configuration?: string;
  line: ChangeLine;
  /** The texts before and after (ids into `texts`), for a changed description or definition. */
  fromText?: string;
  toText?: string;
  /** How the texts are compared: prose by words, a definition by lines. */
  by?: 'words' | 'lines';
  breaking?: string;
}

export interface ToolTimeline {
  agent: AgentId;
  tool: string;
  page: string;
  sources: {
    source: HistoryFile['source'];
    package: string;
    /** The releases read, oldest first: `version` as the history names it, `label` as readers know it. */
    releases: { version: string; label: string }[];
    changes: TimelineChange[];
  }[];
  texts: Record<string, string>;
}

/** A tool's timeline, or undefined when no history records a change of it (nothing to compare). */
export function toolTimeline(tool: ToolModel, histories: readonly HistoryFile[]): ToolTimeline | undefined {
  const names = historyNames(tool, histories);
  const texts: Record<string, string> = {};
  const keep = (id: string | undefined, store: HistoryFile['texts']): string | undefined => {
    if (id === undefined || store?.[id] === undefined) return undefined;
    texts[id] = store[id]!;
    return id;
  };
  const sources: ToolTimeline['sources'] = [];
  for (const file of histories) {
    if (file.agent !== tool.agent) continue;
    const events = file.events.filter((e) => names.has(e.tool));
    if (events.length === 0) continue;
    const changes = events.map((e): TimelineChange => {
      const breaking = breakingReason(e);
      const fromText = keep(e.fromText, file.texts);
      const toText = keep(e.toText, file.texts);
      const described =
        fromText !== undefined || (e.kind === 'description-changed' && (e.from !== undefined || e.to !== undefined));
      return {
        release: e.release,
        previous: e.previous,
        kind: e.kind,
        ...(e.side ? { side: e.side } : {}),
        ...(e.field !== undefined ? { field: e.field } : {}),
        ...(e.configuration ? { configuration: e.configuration } : {}),
        line: { ...changeLine(e), ...(e.kind === 'description-changed' ? { from: e.from, to: e.to } : {}) },
        ...(fromText ? { fromText } : {}),
        ...(toText ? { toText } : {}),
        ...(described ? { by: e.kind === 'definition-changed' ? ('lines' as const) : ('words' as const) } : {}),
        ...(breaking ? { breaking } : {}),
      };
    });
    const releases = file.releases
      .filter((r) => r.read !== false)
      .map((r) => ({ version: r.version, label: r.cliVersion ?? r.version }));
    sources.push({ source: file.source, package: file.package, releases, changes });
  }
  if (sources.length === 0) return undefined;
  return {
    agent: tool.agent,
    tool: tool.fullName,
    page: toolUrl(tool),
    sources,
    texts: Object.fromEntries(Object.entries(texts).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
