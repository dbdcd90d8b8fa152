/**
 * `/catalog.json`: every tool of every agent, for programs (shape:
 * schemas/catalog.schema.json, published beside it as /catalog.schema.json).
 */
import type { APIRoute } from 'astro';
import { buildCatalog } from '../lib/exports/catalog.ts';
import { getSite } from '../lib/routes/site-data.ts';

export const GET: APIRoute = async ({ site }) => new Response(`${JSON.stringify(buildCatalog(await getSite(), { site }), null, 2)}\n`, { headers: { 'Content-Type': 'application/json' } });
