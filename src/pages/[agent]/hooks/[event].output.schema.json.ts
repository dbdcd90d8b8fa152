/**
 * The JSON Schema (2020-12) of what one event's hooks of an agent may return, built from the
 * agent's published code (content/hook-outputs/, src/lib/behaviour/hook-outputs.ts).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedOutputSchema } from '../../../lib/behaviour/hook-outputs.ts';
import { eventSlug } from '../../../lib/behaviour/hooks.ts';
import { schemaText } from '../../../lib/site/tool-exports.ts';
import { getSite } from '../../../lib/routes/site-data.ts';
import type { HookOutputs } from '../../../lib/model/model.ts';

type Declared = Extract<HookOutputs, { events: unknown }>;

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.hookOutputs.flatMap((outputs) =>
    'events' in outputs
      ? outputs.events.map((e) => ({
          params: { agent: outputs.agent, event: eventSlug(e.event) },
          props: { outputs, event: e.event },
        }))
      : [],
  );
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, site }) => {
  const { outputs, event } = props as { outputs: Declared; event: string };
  return new Response(schemaText(publishedOutputSchema(outputs, event, { site })), {
    headers: { 'Content-Type': 'application/schema+json' },
  });
};
