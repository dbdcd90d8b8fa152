/**
 * Every page under `/<agent>/<name>/` that is not the agent's own: a tool's
 * page, a redirect to it from each alias or former name people type
 * (`/<agent>/killshell/`), and the page of each tool a history saw removed.
 */
import type { AgentId } from '../core/content-types.ts';
import type { RemovedTool, SiteModel, ToolModel } from '../model/model.ts';
import { toolUrl } from '../site/site.ts';

export type ToolRouteProps =
  /** `sources`: the content files the page is rendered from, named when rendering fails. */
  | { page: 'tool'; tool: ToolModel; sources: string[] }
  | { page: 'alias'; to: string }
  | { page: 'removed'; removed: RemovedTool; sources: string[] };

export interface ToolRoute {
  params: { agent: AgentId; tool: string };
  props: ToolRouteProps;
}

export function toolRoutes(site: SiteModel): ToolRoute[] {
  return [
    ...site.tools.flatMap((tool): ToolRoute[] => [
      {
        params: { agent: tool.agent, tool: tool.slug },
        props: {
          page: 'tool',
          tool,
          sources: [tool.files.generated, ...(tool.files.editorial ? [tool.files.editorial] : [])],
        },
      },
      ...(tool.redirectSlugs ?? []).map(
        (slug): ToolRoute => ({
          params: { agent: tool.agent, tool: slug },
          props: { page: 'alias', to: toolUrl(tool) },
        }),
      ),
    ]),
    ...site.removedTools.map(
      (removed): ToolRoute => ({
        params: { agent: removed.agent, tool: removed.slug },
        props: { page: 'removed', removed, sources: [removed.file] },
      }),
    ),
  ];
}
