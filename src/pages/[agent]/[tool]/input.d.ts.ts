/**
 * TypeScript declaration of a Codex tool's input, generated from the captured JSON Schema (Codex publishes no types),
 * at its latest path.
 * See src/lib/exports/.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { exportResponse, latestPaths } from '../../../lib/routes/endpoints.ts';

export const getStaticPaths = (() => latestPaths('input.d.ts')) satisfies GetStaticPaths;

export const GET: APIRoute = (context) => exportResponse(context);
