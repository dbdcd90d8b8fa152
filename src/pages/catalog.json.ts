/**
 * `/catalog.json`: every tool of every agent, for programs (shape:
 * schemas/catalog.schema.json, published beside it as /catalog.schema.json). Minified: it is read
 * by programs, and indentation made up almost a third of its size.
 */
import type { APIRoute } from 'astro';
import { buildCatalog } from '../lib/exports/catalog.ts';
import { getSite } from '../lib/routes/site-data.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(`${JSON.stringify(buildCatalog(await getSite(), { site }))}\n`, {
    headers: { 'Content-Type': 'application/json' },
  });
