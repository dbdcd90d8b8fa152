/**
 * The JSON Schema (2020-12) the model is sent, for tools whose input is a published TypeScript type, at its latest
 * path. Same bytes as the versioned path.
 * See src/lib/exports/.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { exportResponse, latestPaths } from '../../../lib/routes/endpoints.ts';

export const getStaticPaths = (() => latestPaths('model-input.schema.json')) satisfies GetStaticPaths;

export const GET: APIRoute = (context) => exportResponse(context);
