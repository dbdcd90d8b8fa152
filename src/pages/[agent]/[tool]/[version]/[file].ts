/**
 * Every export file of a tool at the path of the release it describes
 * (`/claude-code/bash/2.1.332/input.schema.json`): the canonical URL, which
 * each schema names as its `$id`. See src/lib/exports/.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { exportResponse, versionedPaths } from '../../../../lib/routes/endpoints.ts';

export const getStaticPaths = (() => versionedPaths()) satisfies GetStaticPaths;

export const GET: APIRoute = (context) => exportResponse(context);
