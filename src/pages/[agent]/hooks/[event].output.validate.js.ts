/**
 * The precompiled validator of what one event's hooks may return ([event].output.schema.json
 * beside it): a tool page's "Check a payload" form checks a pasted hook answer with it. Only
 * the events a tool page checks (the agent's before, after and after-failure events) have one.
 * See src/lib/check/payload-validator.ts and src/lib/behaviour/hook-outputs.ts.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { hookShapeOf } from '../../../lib/agents/hook-shape.ts';
import { publishedOutputSchema } from '../../../lib/behaviour/hook-outputs.ts';
import { eventSlug } from '../../../lib/behaviour/hooks.ts';
import type { HookOutputs } from '../../../lib/model/model.ts';
import { validatorBanner, validatorModule } from '../../../lib/check/payload-validator.ts';
import { getSite } from '../../../lib/routes/site-data.ts';

type Declared = Extract<HookOutputs, { events: unknown }>;

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.hookOutputs.flatMap((outputs) => {
    const shape = hookShapeOf(outputs.agent);
    if (!('events' in outputs) || outputs.source.form === 'plugin-output' || !shape) return [];
    const checked = [shape.before, shape.after, shape.afterFailure];
    return outputs.events
      .filter((e) => checked.includes(e.event))
      .map((e) => ({
        params: { agent: outputs.agent, event: eventSlug(e.event) },
        props: { outputs, event: e.event },
      }));
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, site }) => {
  const { outputs, event } = props as { outputs: Declared; event: string };
  const schema = publishedOutputSchema(outputs, event, { site });
  return new Response(validatorModule(schema, { banner: validatorBanner(schema) }), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
};
