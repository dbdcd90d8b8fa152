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
import { validatorBanner } from '../../../lib/check/payload-validator.ts';
import { prepareValidatorModules, validatorModuleOf } from '../../../lib/check/validator-pool.ts';
import { markRendering } from '../../../lib/site/rendering.ts';
import { getSite, siteAddress } from '../../../lib/routes/site-data.ts';

interface Props {
  tool: ToolModel;
  section: CheckedSection;
}

/** The schema of the module and its options. */
function moduleRequest({ tool, section }: Props, site: URL | undefined) {
  const schema = toolSchema(tool, section, { site });
  if (!schema) throw new Error(`${tool.agent}/${tool.slug} has no ${section} schema to validate against`);
  return { schema, options: { banner: validatorBanner(schema) } };
}

export const getStaticPaths = (async () => {
  const site = await getSite();
  const paths = site.tools.flatMap((tool) => {
    const target = payloadCheckTarget(tool);
    if (!target) return [];
    return [
      {
        params: { agent: tool.agent, tool: tool.slug, schema: target.section },
        props: { tool, section: target.section } satisfies Props,
      },
    ];
  });
  // A build writes these modules in worker threads while it renders the pages before them (validator-pool.ts).
  if (import.meta.env.PROD) prepareValidatorModules(paths.map((p) => moduleRequest(p.props, siteAddress())));
  return paths;
}) satisfies GetStaticPaths;

export const GET: APIRoute = async (context) => {
  const props = context.props as Props;
  const { tool } = props;
  markRendering(context.url.pathname, [tool.files.generated, ...(tool.files.editorial ? [tool.files.editorial] : [])]);
  const { schema, options } = moduleRequest(props, context.site);
  const code = await validatorModuleOf(schema, options);
  return new Response(code, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
};
