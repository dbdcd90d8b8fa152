/**
 * `/changes.json`: every release with changes of every agent that has a publication time, newest first, as
 * `/changes/` shows the last WINDOW_DAYS of them (changes-page.ts): per release its changes grouped by the comparison
 * that found them and by tool, each change's line in plain words (the feeds' wording: linePieces), why it breaks
 * callers, and the texts of a changed description or definition, stored once each under their content id
 * (text-id.ts, the ids of the history files). Shape: schemas/changes.schema.json, published as /changes.schema.json.
 * Pure.
 */
import { AGENT_IDS } from '../agents/index.ts';
import type { AgentId, HistoryEvent } from '../core/content-types.ts';
import { textId } from '../core/text-id.ts';
import type { SiteModel } from '../model/model.ts';
import { BREAKING_RULES } from '../history/breaking.ts';
import { changeLine, lineWords, type ChangeTexts } from '../history/history.ts';
import { siteUrl, type SiteOrigin } from '../site/export-files.ts';
import { allEntries, type ChangesEntry } from '../views/changes-page.ts';
import type { ChangeView } from '../views/history-pages.ts';

export const CHANGES_EXPORT_PATH = '/changes.json';
export const CHANGES_SCHEMA_PATH = '/changes.schema.json';

export interface ChangesExportChange {
  kind: HistoryEvent['kind'];
  /** The change's line as plain text, as the changelog and its feed word it: `field added input.timeout`. */
  words: string;
  /** The field's path as the line shows it. */
  field?: string;
  /** The field's row on its tool page, while the page still has it. */
  fieldPage?: string;
  /** Why it breaks callers (one of `rules`); absent when it does not. */
  breaking?: string;
  /** Ids into `texts` of a changed description or definition; a side without text (a description added) is absent. */
  before?: string;
  after?: string;
  /** How the texts are compared: prose by words, a definition by lines. */
  by?: 'words' | 'lines';
}

export interface ChangesExportTool {
  /** The tool's name as the history recorded it (an older name before a rename). */
  name: string;
  /** Its page, when the site has one for the name. */
  page?: string;
  changes: ChangesExportChange[];
}

export interface ChangesExportGroup {
  /** The releases compared to find these changes. */
  evidence: string;
  /** Set when the history cannot tell the changes came exactly in this release: the last release known without them. */
  between?: { previous: string; why?: string };
  tools: ChangesExportTool[];
}

export interface ChangesExportRelease {
  agent: AgentId;
  product: string;
  release: string;
  /** RFC 3339 UTC publication time. */
  published: string;
  /** The release's section of its agent's changelog. */
  url: string;
  /** Its id on `/changes/`: `<agent>-<release>`. */
  id: string;
  changes: number;
  breaking: number;
  groups: ChangesExportGroup[];
}

export interface ChangesExport {
  $schema: string;
  /** When a change breaks callers, one line per case. */
  rules: typeof BREAKING_RULES;
  releases: ChangesExportRelease[];
  /** Every text a change names, once, by its id. */
  texts: Record<string, string>;
}

/**
 * The schema published at CHANGES_SCHEMA_PATH: schemas/changes.schema.json with its `$id` at this site's address and
 * `$defs.agentId` narrowed to the registry's ids, as the catalog's.
 */
export function publishedChangesSchema(schema: { $defs: { agentId: object } }, origin: SiteOrigin): object {
  return {
    ...schema,
    $id: siteUrl(CHANGES_SCHEMA_PATH, origin),
    $defs: { ...schema.$defs, agentId: { ...schema.$defs.agentId, enum: [...AGENT_IDS] } },
  };
}

/** The texts of one change, kept in `texts` by their content id. */
function changeTextIds(
  event: HistoryEvent,
  texts: ChangeTexts | undefined,
  keep: (text: string) => string,
): Pick<ChangesExportChange, 'before' | 'after' | 'by'> {
  if (!texts) return {};
  // A field's description that was added or removed has no text on that side (changeTexts gives '').
  const before = event.fromText !== undefined || event.from !== undefined;
  const after = event.toText !== undefined || event.to !== undefined;
  return {
    ...(before ? { before: keep(texts.before) } : {}),
    ...(after ? { after: keep(texts.after) } : {}),
    by: texts.by,
  };
}

function exportChange(view: ChangeView, keep: (text: string) => string): ChangesExportChange {
  const { event, folded, texts } = view.change;
  const line = changeLine(event, folded);
  return {
    kind: event.kind,
    words: lineWords(line),
    ...(line.path !== undefined ? { field: line.path } : {}),
    ...(view.fieldHref !== undefined ? { fieldPage: view.fieldHref } : {}),
    ...(view.breaking !== undefined ? { breaking: view.breaking } : {}),
    ...changeTextIds(event, texts, keep),
  };
}

function exportRelease(entry: ChangesEntry, keep: (text: string) => string): ChangesExportRelease {
  const { agent, product, release, published, url, id, changes, breaking } = entry;
  return {
    agent,
    product,
    release,
    published,
    url,
    id,
    changes,
    breaking,
    groups: entry.groups.map((group) => ({
      evidence: group.evidence,
      ...(group.between
        ? {
            between: {
              previous: group.between.previous,
              ...(group.between.why !== undefined ? { why: group.between.why } : {}),
            },
          }
        : {}),
      tools: group.tools.map((tool) => ({
        name: tool.name,
        ...(tool.url !== undefined ? { page: tool.url } : {}),
        changes: tool.changes.map((view) => exportChange(view, keep)),
      })),
    })),
  };
}

export function changesExport(site: SiteModel, origin: SiteOrigin): ChangesExport {
  const texts = new Map<string, string>();
  const keep = (text: string): string => {
    const id = textId(text);
    // The ids are the history files' own; two histories could in principle give one id two texts.
    if (texts.has(id) && texts.get(id) !== text) throw new Error(`changes.json: two texts share the id ${id}`);
    texts.set(id, text);
    return id;
  };
  const releases = allEntries(site).map((entry) => exportRelease(entry, keep));
  return {
    $schema: siteUrl(CHANGES_SCHEMA_PATH, origin),
    rules: BREAKING_RULES,
    releases,
    texts: Object.fromEntries([...texts].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
