/** `/<agent>/history.json`: an agent's release histories for programs (src/lib/exports/history-export.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import type { AgentId } from '../../lib/core/content-types.ts';
import { historyExport } from '../../lib/exports/history-export.ts';
import { changelogAgents } from '../../lib/views/history-pages.ts';
import { getSite } from '../../lib/routes/site-data.ts';

export const getStaticPaths = (async () => {
  const site = await getSite();
  return changelogAgents(site).map((agent) => ({ params: { agent: agent.id }, props: { agent: agent.id } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async (context) => {
  const { agent } = context.props as { agent: AgentId };
  return new Response(JSON.stringify(historyExport(await getSite(), agent)), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
};
