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
import { validatorBanner } from '../../../lib/check/payload-validator.ts';
import { prepareValidatorModules, validatorModuleOf } from '../../../lib/check/validator-pool.ts';
import { getSite, siteAddress } from '../../../lib/routes/site-data.ts';

type Declared = Extract<HookOutputs, { events: unknown }>;

interface Props {
  outputs: Declared;
  event: string;
}

/** The schema of the module and its options. */
function moduleRequest({ outputs, event }: Props, site: URL | undefined) {
  const schema = publishedOutputSchema(outputs, event, { site });
  return { schema, options: { banner: validatorBanner(schema) } };
}

export const getStaticPaths = (async () => {
  const site = await getSite();
  const paths = site.hookOutputs.flatMap((outputs) => {
    const shape = hookShapeOf(outputs.agent);
    if (!('events' in outputs) || outputs.source.form === 'plugin-output' || !shape) return [];
    const checked = [shape.before, shape.after, shape.afterFailure];
    return outputs.events
      .filter((e) => checked.includes(e.event))
      .map((e) => ({
        params: { agent: outputs.agent, event: eventSlug(e.event) },
        props: { outputs, event: e.event } satisfies Props,
      }));
  });
  // A build writes these modules in worker threads while it renders the pages before them (validator-pool.ts).
  if (import.meta.env.PROD) prepareValidatorModules(paths.map((p) => moduleRequest(p.props, siteAddress())));
  return paths;
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props, site }) => {
  const { schema, options } = moduleRequest(props as Props, site);
  return new Response(await validatorModuleOf(schema, options), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
};
