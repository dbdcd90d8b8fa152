/**
 * `/catalog.schema.json`: the JSON Schema of /catalog.json (schemas/catalog.schema.json, with the registry's agent
 * ids).
 */
import type { APIRoute } from 'astro';
import catalogSchema from '../../schemas/catalog.schema.json' with { type: 'json' };
import { publishedCatalogSchema } from '../lib/exports/catalog.ts';

export const GET: APIRoute = ({ site }) =>
  new Response(`${JSON.stringify(publishedCatalogSchema(catalogSchema, { site }), null, 2)}\n`, {
    headers: { 'Content-Type': 'application/schema+json' },
  });
