/**
 * Each recorded payload a tool page shows, whole and as committed
 * (`/claude-code/bash/examples/foreground.json`): the page shows it with long
 * strings shortened, and links here for the full text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRoute, GetStaticPaths } from 'astro';
import { contentLocation } from '../../../../lib/content/cached.ts';
import { getSite } from '../../../../lib/routes/site-data.ts';
import { markRendering } from '../../../../lib/site/rendering.ts';

export const getStaticPaths = (async () =>
  (await getSite()).tools.flatMap((tool) =>
    (tool.examples ?? []).map((example) => ({
      params: { agent: tool.agent, tool: tool.slug, scenario: example.scenario },
      props: { file: example.file },
    })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, url }) => {
  const { file } = props as { file: string };
  markRendering(url.pathname, [file]);
  return new Response(readFileSync(join(contentLocation().root, file), 'utf8'), {
    headers: { 'content-type': 'application/json' },
  });
};
