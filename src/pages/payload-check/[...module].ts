/**
 * The "Check a payload" form's logic as plain ES modules, loaded only when a
 * reader opens the form: src/scripts/payload-check.ts, the worker it starts
 * (src/scripts/payload-check-worker.ts) and the modules they import, compiled
 * by src/lib/routes/browser-modules.ts, at `/payload-check/scripts/payload-check.js`,
 * `/payload-check/lib/shapes/anchors.js`…
 *
 * Why not through Vite like the page's other scripts: a dynamic import that
 * Vite bundles brings Vite's preload helper (1.7 KB), which Vite then splits
 * out of Starlight's search script into a chunk that every page would load.
 * The form's opener (PayloadCheck.astro) imports this URL as a string, which
 * Vite leaves alone, so no page loads anything more before the form is opened.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { browserModules, underSrc } from '../../lib/routes/browser-modules.ts';

/**
 * Sources the entries may reach, by path under src/ (`lib/shapes/anchors.ts`): the layers the checker's modules live in
 * (src/lib/README.md); a module outside them stops the build.
 */
const SOURCES = underSrc(
  import.meta.glob<string>(
    ['../../scripts/*.ts', '../../lib/core/*.ts', '../../lib/shapes/*.ts', '../../lib/check/*.ts'],
    { query: '?raw', import: 'default', eager: true },
  ),
);
/** The form's script, and its worker (started by URL, not imported). */
const ENTRIES = ['scripts/payload-check.ts', 'scripts/payload-check-worker.ts'];

export const getStaticPaths = (() =>
  [...browserModules(ENTRIES, SOURCES, 'the payload checker')].map(([module, text]) => ({
    params: { module },
    props: { text },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response((props as { text: string }).text, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
