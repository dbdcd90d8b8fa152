/**
 * The JSON Schema (2020-12) of the tool's input, at its latest path. Same bytes as the versioned path, whose URL is the
 * schema's $id.
 * See src/lib/exports/.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { exportResponse, latestPaths } from '../../../lib/routes/endpoints.ts';

export const getStaticPaths = (() => latestPaths('input.schema.json')) satisfies GetStaticPaths;

export const GET: APIRoute = (context) => exportResponse(context);
