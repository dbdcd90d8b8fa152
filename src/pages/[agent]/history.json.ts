/** `/<agent>/history.json`: an agent's release histories for programs (src/lib/exports/history-export.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import type { AgentId } from '../../lib/core/content-types.ts';
import { historyExport } from '../../lib/exports/history-export.ts';
import { historyAgentPaths } from '../../lib/routes/endpoints.ts';
import { getSite } from '../../lib/routes/site-data.ts';

export const getStaticPaths = historyAgentPaths satisfies GetStaticPaths;

export const GET: APIRoute = async (context) => {
  const { agent } = context.props as { agent: AgentId };
  return new Response(JSON.stringify(historyExport(await getSite(), agent)), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
};
