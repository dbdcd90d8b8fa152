/**
 * `agent-tools show <agent> <tool> [--release R]`: what a tool page says first — summary, where it
 * is turned on, its Input and Result fields — with the page's URL and its schemas. The fields of
 * the current release are the page's own rows (`fields.json`); those of an earlier release come
 * from the schemas the site published for it, through the same rows code. Pure over a Snapshot.
 */
import type { CatalogAgent, CatalogTool } from '../lib/exports/catalog.ts';
import { expandAvailability } from '../lib/exports/availability.ts';
import { fieldRows } from '../lib/shapes/field-rows.ts';
import { shapeFromJsonSchema } from '../lib/shapes/json-schema-shape.ts';
import type { Root } from '../lib/shapes/anchors.ts';
import { compareVersions } from '../lib/core/version-order.ts';
import { findAgent, findTool, NotFound, toolNames } from './lookup.ts';
import { pageUrl, type FieldLine, type FieldTables, type Snapshot } from './snapshot.ts';

type Section = keyof FieldTables;

/** The site's schema file of each table, and the root of its rows (the anchors' prefix). */
const TABLES: { section: Section; key: 'input' | 'result' | 'modelInput'; root: Root }[] = [
  { section: 'input', key: 'input', root: 'input' },
  { section: 'result', key: 'result', root: 'output' },
  { section: 'model-input', key: 'modelInput', root: 'model-input' },
];

export interface ShowAnswer {
  agent: string;
  product: string;
  tool: string;
  /** The release the fields describe. */
  release: string;
  summary: string;
  group: CatalogTool['group'];
  source: CatalogTool['source'];
  jobs: string[];
  /** Every name it answers to: its own, aliases, the names its hook payloads give it. */
  names: string[];
  hookNames: string[];
  /** Per configuration of the agent, how it is offered (`function`, `code-mode`…) or `absent`. */
  availability: { configuration: string; label: string; offered: string }[];
  fields: FieldTables;
  page: string;
  schemas: Partial<Record<Section, string>>;
  hookSchema?: string;
  /** The releases whose schemas the site publishes for this tool (`--release` takes these). */
  releases: string[];
}

/** The releases a tool's exports are published under, oldest first. */
export function publishedReleases(snapshot: Snapshot, tool: CatalogTool): string[] {
  return snapshot.releaseFolders(tool.agent, tool.slug).sort(compareVersions);
}

function availabilityOf(agent: CatalogAgent, tool: CatalogTool): ShowAnswer['availability'] {
  const deliveries = expandAvailability(
    tool.availability,
    agent.configurations.map((c) => c.id),
  );
  return agent.configurations.map((c) => ({
    configuration: c.id,
    label: c.label,
    offered: deliveries[c.id] ?? 'absent',
  }));
}

export const fieldLine = (row: ReturnType<typeof fieldRows>[number]): FieldLine => ({
  id: row.id,
  path: row.path,
  name: row.name,
  depth: row.depth,
  type: row.type,
  required: row.required,
  ...(row.description === undefined ? {} : { description: row.description }),
});

/** The tables of a release that is not the page's: rows of the schemas published under it. */
function releaseFields(snapshot: Snapshot, tool: CatalogTool, release: string): FieldTables {
  const out: FieldTables = {};
  for (const { section, key, root } of TABLES) {
    if (tool.links.schemas[key] === undefined) continue;
    const schema = snapshot.json<Record<string, unknown>>(`${tool.links.page}${release}/${section}.schema.json`);
    if (schema) out[section] = fieldRows(shapeFromJsonSchema(schema), { root }).map(fieldLine);
  }
  return out;
}

export function show(snapshot: Snapshot, agentName: string, toolName: string, release?: string): ShowAnswer {
  const catalog = snapshot.catalog();
  const agent = findAgent(catalog, agentName);
  const tool = findTool(catalog, agent, toolName);
  const releases = publishedReleases(snapshot, tool);
  const current = release === undefined || release === tool.version;
  if (!current && !releases.includes(release))
    throw new NotFound(
      `The site publishes no schemas of ${agent.product}'s ${tool.fullName} at ${release}: ` +
        `it has ${releases.join(', ') || 'none'}. ` +
        `\`agent-tools diff ${agent.id} ${tool.fullName} <from> <to>\` shows what changed between the releases read.`,
    );
  const at = current ? tool.version : release;
  const url = (path: string) => pageUrl(snapshot.info, path);
  const schemas: ShowAnswer['schemas'] = {};
  for (const { section, key } of TABLES) {
    const link = tool.links.schemas[key];
    if (link) schemas[section] = url(current ? link.latest : `${tool.links.page}${at}/${section}.schema.json`);
  }
  return {
    agent: agent.id,
    product: agent.product,
    tool: tool.fullName,
    release: at,
    summary: tool.summary,
    group: tool.group,
    source: tool.source,
    jobs: tool.jobs,
    names: toolNames(tool),
    hookNames: tool.hookNames ?? [],
    availability: availabilityOf(agent, tool),
    fields: current ? snapshot.fields(tool.agent, tool.slug) : releaseFields(snapshot, tool, at),
    page: url(tool.links.page),
    schemas,
    ...(tool.links.hookSchema ? { hookSchema: url(tool.links.hookSchema) } : {}),
    releases,
  };
}
