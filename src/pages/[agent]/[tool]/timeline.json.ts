/**
 * A tool's timeline over the releases its agent's histories read (src/lib/exports/tool-timeline.ts):
 * what its page's release comparison loads when opened; only tools with a recorded change have one.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { toolTimeline } from '../../../lib/exports/tool-timeline.ts';
import { getSite } from '../../../lib/routes/site-data.ts';

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.tools.flatMap((tool) => {
    const timeline = toolTimeline(tool, site.histories);
    return timeline ? [{ params: { agent: tool.agent, tool: tool.slug }, props: { timeline } }] : [];
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(JSON.stringify((props as { timeline: unknown }).timeline), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
