/**
 * `/changes.schema.json`: the JSON Schema of /changes.json (schemas/changes.schema.json, with the registry's agent
 * ids).
 */
import type { APIRoute } from 'astro';
import changesSchema from '../../schemas/changes.schema.json' with { type: 'json' };
import { publishedChangesSchema } from '../lib/exports/changes-export.ts';

export const GET: APIRoute = ({ site }) =>
  new Response(`${JSON.stringify(publishedChangesSchema(changesSchema, { site }), null, 2)}\n`, {
    headers: { 'Content-Type': 'application/schema+json' },
  });
