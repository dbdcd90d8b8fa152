/**
 * What the export endpoints under src/pages share: the paths each one
 * publishes and the file texts, computed once per tool for the whole build
 * (its latest and its versioned path serve the same bytes). Only endpoints
 * import this (it reads the site through Astro's content collections).
 */
import type { APIContext } from 'astro';
import type { ToolModel } from '../model/model.ts';
import { markRendering } from '../site/rendering.ts';
import { getSite } from './site-data.ts';
import { exportFileNames, versionSegment, type ExportFileName } from '../site/export-files.ts';
import { archivedText, toolExportFiles } from '../site/tool-exports.ts';
import type { ArchivedExport } from '../model/model.ts';
import type { AgentId } from '../core/content-types.ts';
import { changelogAgents } from '../views/history-pages.ts';

export type ExportProps = { tool: ToolModel; file: ExportFileName } | { archived: ArchivedExport };

/** Static paths of one export file name at the latest path: every tool that has that file. */
export async function latestPaths(file: ExportFileName) {
  const site = await getSite();
  return site.tools.flatMap((tool) => {
    return exportFileNames(tool).includes(file)
      ? [{ params: { agent: tool.agent, tool: tool.slug }, props: { tool, file } satisfies ExportProps }]
      : [];
  });
}

/**
 * Static paths of every export file at the path of its source's release:
 * `/<agent>/<tool>/<version>/<file>`; and of every archived file, at the path it was published at.
 */
export async function versionedPaths() {
  const site = await getSite();
  const current = site.tools.flatMap((tool) =>
    exportFileNames(tool).map((file) => ({
      params: { agent: tool.agent, tool: tool.slug, version: versionSegment(tool, file), file },
      props: { tool, file } satisfies ExportProps,
    })),
  );
  const archived = site.archived.map((archived) => ({
    params: { agent: archived.agent, tool: archived.tool, version: archived.version, file: archived.file },
    props: { archived } satisfies ExportProps,
  }));
  return [...current, ...archived];
}

const cache = new Map<string, Promise<Map<ExportFileName, string>>>();

const CONTENT_TYPES: Record<ExportFileName, string> = {
  'input.schema.json': 'application/schema+json',
  'result.schema.json': 'application/schema+json',
  'model-input.schema.json': 'application/schema+json',
  'input.d.ts': 'text/plain; charset=utf-8',
};

/** The response for one export file. */
export async function exportResponse(context: APIContext): Promise<Response> {
  const props = context.props as ExportProps;
  if ('archived' in props) {
    const { archived } = props;
    markRendering(context.url.pathname, [`content/archive/${archived.agent}.json`]);
    return new Response(archivedText(archived, context.site), {
      headers: { 'Content-Type': CONTENT_TYPES[archived.file] },
    });
  }
  const { tool, file } = props;
  markRendering(context.url.pathname, [tool.files.generated, ...(tool.files.editorial ? [tool.files.editorial] : [])]);
  const key = `${tool.agent}/${tool.slug}`;
  let files = cache.get(key);
  if (!files) {
    files = toolExportFiles(tool, { site: context.site });
    cache.set(key, files);
  }
  const text = (await files).get(file);
  if (text === undefined) throw new Error(`${key} has no ${file}`);
  return new Response(text, { headers: { 'Content-Type': CONTENT_TYPES[file] } });
}

/**
 * Static paths of a file each agent with a release history publishes (`/<agent>/changelog.xml`,
 * `/<agent>/history.json`).
 */
export async function historyAgentPaths(): Promise<{ params: { agent: AgentId }; props: { agent: AgentId } }[]> {
  const site = await getSite();
  return changelogAgents(site).map((agent) => ({ params: { agent: agent.id }, props: { agent: agent.id } }));
}
