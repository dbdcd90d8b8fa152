/**
 * The JSON Schema (2020-12) of what one event's hooks of an agent receive on
 * standard input, computed from the recorded payloads (src/lib/behaviour/hook-schemas.ts).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { eventSchema } from '../../../lib/behaviour/hook-schemas.ts';
import { agentHooks, eventSlug } from '../../../lib/behaviour/hooks.ts';
import { schemaText } from '../../../lib/site/tool-exports.ts';
import { getSite } from '../../../lib/routes/site-data.ts';

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.agents.flatMap((agent) => {
    const recorded = agentHooks(site, agent.id);
    return recorded.events.map((event) => ({
      params: { agent: agent.id, event: eventSlug(event) },
      props: { recorded, event },
    }));
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, site }) => {
  const { recorded, event } = props as { recorded: ReturnType<typeof agentHooks>; event: string };
  return new Response(schemaText(eventSchema(recorded, event, { site })), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
};
