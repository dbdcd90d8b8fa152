/** `/llms-full.txt`: llms.txt with each tool's summary and field tables (src/lib/exports/llms.ts). */
import type { APIRoute } from 'astro';
import { llmsFullTxt } from '../lib/exports/llms.ts';
import { getSite } from '../lib/routes/site-data.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(llmsFullTxt(await getSite(), { site }), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
