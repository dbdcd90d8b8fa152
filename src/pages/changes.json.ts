/**
 * `/changes.json`: every release with changes of every agent, for programs (src/lib/exports/changes-export.ts; shape
 * schemas/changes.schema.json, published beside it as /changes.schema.json). Minified, as /catalog.json.
 */
import type { APIRoute } from 'astro';
import { changesExport } from '../lib/exports/changes-export.ts';
import { getSite } from '../lib/routes/site-data.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(`${JSON.stringify(changesExport(await getSite(), { site }))}\n`, {
    headers: { 'Content-Type': 'application/json' },
  });
