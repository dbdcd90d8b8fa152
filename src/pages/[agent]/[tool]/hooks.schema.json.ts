/**
 * The JSON Schema (2020-12) of what a tool's hooks receive on standard input, by
 * event, computed from its recorded payloads (src/lib/behaviour/hook-schemas.ts); only
 * tools with a recorded hook payload have one.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { toolHookSchema } from '../../../lib/behaviour/hook-schemas.ts';
import { agentHooks } from '../../../lib/behaviour/hooks.ts';
import { schemaText } from '../../../lib/site/tool-exports.ts';
import type { ToolModel } from '../../../lib/model/model.ts';
import { getSite } from '../../../lib/routes/site-data.ts';

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.agents.flatMap((agent) => {
    const recorded = agentHooks(site, agent.id);
    const tools = [...new Set(recorded.hooks.map((h) => h.tool))];
    return tools.map((tool) => ({ params: { agent: agent.id, tool: tool.slug }, props: { recorded, tool } }));
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, site }) => {
  const { recorded, tool } = props as { recorded: ReturnType<typeof agentHooks>; tool: ToolModel };
  const schema = toolHookSchema(recorded, tool, { site });
  if (!schema) throw new Error(`${tool.agent}/${tool.slug} has no recorded hook payload`);
  return new Response(schemaText(schema), { headers: { 'Content-Type': 'application/schema+json' } });
};
