/**
 * The data a package carries: the site's own exports, copied from the build that made the
 * package (scripts/package.ts), under `data/site/` at the paths the site serves them
 * (`data/site/<agent>/<tool>/input.schema.json` is `/<agent>/<tool>/input.schema.json`), plus
 * `snapshot.json` (what the build was) and `fields.json` (each tool page's field rows). Files are
 * read when a verb first needs them, so that a lookup does not parse every schema.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogAgent, CatalogTool } from '../lib/exports/catalog.ts';
import type { ToolTimeline } from '../lib/exports/tool-timeline.ts';
import type { ChangesExport } from '../lib/exports/changes-export.ts';

/** One row of a tool page's field table, as `fields.json` keeps it. */
export interface FieldLine {
  /** The row's anchor on the tool page (`input.command`). */
  id: string;
  /** The path as the page shows it (`structuredPatch[].lines`). */
  path: string;
  /** Its last part (`lines`). */
  name: string;
  depth: number;
  type: string;
  required: boolean | null;
  description?: string;
}

/** The tables of a tool page: Input, Result, and the model-facing input when the page has one. */
export type FieldTables = Partial<Record<'input' | 'result' | 'model-input', FieldLine[]>>;

/** What `snapshot.json` says of the build the data comes from. */
export interface SnapshotInfo {
  /** The package's own version. */
  version: string;
  /** The site's address: a site path plus this is the page's URL. */
  site: string;
  /** The site's base path (`/`), which site paths start with. */
  base: string;
  /** The release of each agent the data describes, and the day its content was checked. */
  agents: { id: string; product: string; version: string; checked: string }[];
}

/** Whatever a verb reads: the real snapshot, or a fixture in a test. */
export interface Snapshot {
  info: SnapshotInfo;
  catalog(): Catalog;
  changes(): ChangesExport | undefined;
  fields(agent: string, slug: string): FieldTables;
  /** A JSON file at a site path (`/<agent>/hooks/<event>.schema.json`), or undefined when the build has none. */
  json<T = unknown>(sitePath: string): T | undefined;
  /** The same file's text, byte for byte as the site serves it. */
  text(sitePath: string): string | undefined;
  /** The release folders a tool's page publishes exports under (`2.1.332`), oldest first as the site orders them. */
  releaseFolders(agent: string, slug: string): string[];
}

/** The URL of a site path. */
export function pageUrl(info: SnapshotInfo, sitePath: string): string {
  return new URL(sitePath, info.site).href;
}

export function agentOf(catalog: Catalog, id: string): CatalogAgent | undefined {
  return catalog.agents.find((a) => a.id === id);
}

export function timelineOf(snapshot: Snapshot, tool: CatalogTool): ToolTimeline | undefined {
  return tool.links.timeline === undefined ? undefined : snapshot.json<ToolTimeline>(tool.links.timeline);
}

const VERSION_FOLDER = /^[0-9][0-9A-Za-z.+-]*$/;

/** The snapshot in a package's folder (`<package>/data`). */
export function folderSnapshot(dataDir: string): Snapshot {
  const cache = new Map<string, unknown>();
  const read = <T>(file: string): T | undefined => {
    if (cache.has(file)) return cache.get(file) as T;
    const value = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
    cache.set(file, value);
    return value;
  };
  const info = read<SnapshotInfo>(join(dataDir, 'snapshot.json'));
  if (!info) throw new Error(`${dataDir} holds no snapshot.json: this package was not written by npm run package`);
  const local = (sitePath: string): string => {
    if (!sitePath.startsWith(info.base)) throw new Error(`${sitePath} is not under the site's base ${info.base}`);
    const rest = sitePath.slice(info.base.length);
    // Site paths come from the package's own catalog; a `..` would leave the data folder.
    if (rest.split('/').includes('..')) throw new Error(`${sitePath} leaves the data folder`);
    return join(dataDir, 'site', rest);
  };
  return {
    info,
    catalog: () => read<Catalog>(join(dataDir, 'site', 'catalog.json'))!,
    changes: () => read<ChangesExport>(join(dataDir, 'site', 'changes.json')),
    fields: (agent, slug) =>
      read<Record<string, FieldTables>>(join(dataDir, 'fields.json'))?.[`${agent}/${slug}`] ?? {},
    json: <T>(sitePath: string) => read<T>(local(sitePath)),
    text: (sitePath) => {
      const file = local(sitePath);
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    },
    releaseFolders: (agent, slug) => {
      const dir = local(`${info.base}${agent}/${slug}/`);
      if (!existsSync(dir)) return [];
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && VERSION_FOLDER.test(e.name))
        .map((e) => e.name);
    },
  };
}
