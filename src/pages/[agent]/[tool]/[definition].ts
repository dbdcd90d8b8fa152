/**
 * Each full definition of a tool page as a file of its own
 * (`/claude-code/askuserquestion/input.d.ts.txt`): the page links to it, and
 * long definitions are loaded from it only when the reader expands them.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite } from '../../../lib/routes/site-data.ts';
import { markRendering } from '../../../lib/site/rendering.ts';
import { definitionFiles } from '../../../lib/views/tool-page.ts';

export const getStaticPaths = (async () =>
  (await getSite()).tools.flatMap((tool) =>
    definitionFiles(tool).map((file) => ({
      params: { agent: tool.agent, tool: tool.slug, definition: file.fileName },
      props: {
        text: file.text,
        contentFiles: [tool.files.generated, ...(tool.files.editorial ? [tool.files.editorial] : [])],
      },
    })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, url }) => {
  const { text, contentFiles } = props as { text: string; contentFiles: string[] };
  markRendering(url.pathname, contentFiles);
  return new Response(text);
};
