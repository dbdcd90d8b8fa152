/** `/catalog.schema.json`: the JSON Schema of /catalog.json, as schemas/catalog.schema.json declares it. */
import type { APIRoute } from 'astro';
import catalogSchema from '../../schemas/catalog.schema.json' with { type: 'json' };

export const GET: APIRoute = () => new Response(`${JSON.stringify(catalogSchema, null, 2)}\n`, { headers: { 'Content-Type': 'application/schema+json' } });
