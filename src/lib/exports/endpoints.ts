/**
 * What the export endpoints under src/pages share: the paths each one
 * publishes and the file texts, computed once per tool for the whole build
 * (its latest and its versioned path serve the same bytes). Only endpoints
 * import this (it reads the site through Astro's content collections).
 */
import type { APIContext } from 'astro';
import type { AgentRecord } from '../content-types.ts';
import type { ToolModel } from '../model.ts';
import { markRendering } from '../rendering.ts';
import { getSite } from '../site-data.ts';
import { exportFileNames, type ExportFileName } from './files.ts';
import { toolExportFiles } from './tool-exports.ts';

export interface ExportProps {
  tool: ToolModel;
  agent: AgentRecord;
  file: ExportFileName;
}

/** Static paths of one export file name at the latest path: every tool that has that file. */
export async function latestPaths(file: ExportFileName) {
  const site = await getSite();
  return site.tools.flatMap((tool) => {
    const agent = site.agents.find((a) => a.id === tool.agent)!;
    return exportFileNames(tool).includes(file) ? [{ params: { agent: tool.agent, tool: tool.slug }, props: { tool, agent, file } satisfies ExportProps }] : [];
  });
}

/** Static paths of every export file at its release's path: `/<agent>/<tool>/<version>/<file>`. */
export async function versionedPaths() {
  const site = await getSite();
  return site.tools.flatMap((tool) => {
    const agent = site.agents.find((a) => a.id === tool.agent)!;
    return exportFileNames(tool).map((file) => ({ params: { agent: tool.agent, tool: tool.slug, version: agent.version, file }, props: { tool, agent, file } satisfies ExportProps }));
  });
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
  const { tool, agent, file } = context.props as ExportProps;
  markRendering(context.url.pathname, [tool.files.generated, ...(tool.files.editorial ? [tool.files.editorial] : [])]);
  const key = `${tool.agent}/${tool.slug}`;
  let files = cache.get(key);
  if (!files) {
    files = toolExportFiles(tool, agent, { site: context.site });
    cache.set(key, files);
  }
  const text = (await files).get(file);
  if (text === undefined) throw new Error(`${key} has no ${file}`);
  return new Response(text, { headers: { 'Content-Type': CONTENT_TYPES[file] } });
}
