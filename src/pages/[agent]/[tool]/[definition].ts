/**
 * Each full definition of a tool page as a file of its own
 * (`/claude-code/askuserquestion/input.d.ts.txt`): the page links to it, and
 * long definitions are loaded from it only when the reader expands them.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite } from '../../../lib/site-data.ts';
import { definitionFiles } from '../../../lib/tool-page.ts';

export const getStaticPaths = (async () =>
  (await getSite()).tools.flatMap((tool) =>
    definitionFiles(tool).map((file) => ({ params: { agent: tool.agent, tool: tool.slug, definition: file.fileName }, props: { text: file.text } })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response((props as { text: string }).text);
