/** `/llms.txt`: the site for language models, after the llms.txt convention (src/lib/exports/llms.ts). */
import type { APIRoute } from 'astro';
import { llmsTxt } from '../lib/exports/llms.ts';
import { getSite } from '../lib/routes/site-data.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(llmsTxt(await getSite(), { site }), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
