/**
 * The precompiled validator of a tool's hook schema (hooks.schema.json beside
 * it, with the envelopes inlined): the "Check a payload" form checks a pasted
 * hook payload's every member with it. Only tools with a recorded hook payload
 * have one. See src/lib/check/payload-validator.ts and src/lib/behaviour/hook-schemas.ts.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { toolHookSchema } from '../../../lib/behaviour/hook-schemas.ts';
import { agentHooks } from '../../../lib/behaviour/hooks.ts';
import type { ToolModel } from '../../../lib/model/model.ts';
import { validatorBanner } from '../../../lib/check/payload-validator.ts';
import { prepareValidatorModules, validatorModuleOf } from '../../../lib/check/validator-pool.ts';
import { getSite, siteAddress } from '../../../lib/routes/site-data.ts';

interface Props {
  recorded: ReturnType<typeof agentHooks>;
  tool: ToolModel;
}

/** The schema of the module and its options. */
function moduleRequest({ recorded, tool }: Props, site: URL | undefined) {
  const schema = toolHookSchema(recorded, tool, { site }, { inline: true });
  if (!schema) throw new Error(`${tool.agent}/${tool.slug} has no recorded hook payload`);
  return { schema, options: { banner: validatorBanner(schema) } };
}

export const getStaticPaths = (async () => {
  const site = await getSite();
  const paths = site.agents.flatMap((agent) => {
    const recorded = agentHooks(site, agent.id);
    return [...new Set(recorded.hooks.map((h) => h.tool))].map((tool) => ({
      params: { agent: agent.id, tool: tool.slug },
      props: { recorded, tool } satisfies Props,
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
