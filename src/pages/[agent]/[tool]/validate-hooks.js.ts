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
import { validatorBanner, validatorModule } from '../../../lib/check/payload-validator.ts';
import { getSite } from '../../../lib/routes/site-data.ts';

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.agents.flatMap((agent) => {
    const recorded = agentHooks(site, agent.id);
    return [...new Set(recorded.hooks.map((h) => h.tool))].map((tool) => ({
      params: { agent: agent.id, tool: tool.slug },
      props: { recorded, tool },
    }));
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, site }) => {
  const { recorded, tool } = props as { recorded: ReturnType<typeof agentHooks>; tool: ToolModel };
  const schema = toolHookSchema(recorded, tool, { site }, { inline: true });
  if (!schema) throw new Error(`${tool.agent}/${tool.slug} has no recorded hook payload`);
  return new Response(validatorModule(schema, { banner: validatorBanner(schema) }), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
};
