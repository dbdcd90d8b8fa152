/**
 * The precompiled validator a tool page's "Check a payload" form imports when
 * opened: `validate-model-input.js` where the page has a model-facing schema
 * (what a model sends), else `validate-input.js`; one per tool, for the schema
 * published beside it at the pinned version. See src/lib/check/payload-validator.ts.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import type { ToolModel } from '../../../lib/model/model.ts';
import { toolSchema } from '../../../lib/site/tool-exports.ts';
import { payloadCheckTarget, type CheckedSection } from '../../../lib/check/payload-check-ui.ts';
import { validatorBanner, validatorModule } from '../../../lib/check/payload-validator.ts';
import { markRendering } from '../../../lib/site/rendering.ts';
import { getSite } from '../../../lib/routes/site-data.ts';

interface Props {
  tool: ToolModel;
  section: CheckedSection;
}

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.tools.flatMap((tool) => {
    const target = payloadCheckTarget(tool);
    if (!target) return [];
    return [
      {
        params: { agent: tool.agent, tool: tool.slug, schema: target.section },
        props: { tool, section: target.section } satisfies Props,
      },
    ];
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = (context) => {
  const { tool, section } = context.props as Props;
  markRendering(context.url.pathname, [tool.files.generated, ...(tool.files.editorial ? [tool.files.editorial] : [])]);
  const schema = toolSchema(tool, section, { site: context.site });
  if (!schema) throw new Error(`${tool.agent}/${tool.slug} has no ${section} schema to validate against`);
  const code = validatorModule(schema, { banner: validatorBanner(schema) });
  return new Response(code, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
};
