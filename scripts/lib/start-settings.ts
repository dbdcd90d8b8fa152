/**
 * What `npm start` (scripts/start.ts) serves and at which address. It starts the preview
 * server first, on PORT (default 4321; 0: a port the system picks), and then builds for the
 * address the server really has, so that every absolute URL the build writes (llms.txt,
 * each schema's `$id`, catalog.json's `$schema`, feeds) resolves on the server it is served
 * by. SITE_URL, when set, wins: a build for the address it will be deployed at, previewed here.
 * Pure: the environment comes in as an argument.
 */
import { siteUrlFrom } from '../../src/lib/site/site-settings.ts';

/** The port `npm start` serves on when PORT is not set: Astro's own default. */
export const DEFAULT_PREVIEW_PORT = 4321;
/** The host `npm start` serves on: this machine only, as `astro preview` does. */
export const PREVIEW_HOST = 'localhost';

/**
 * The port to serve on, from PORT: a whole number from 0 to 65535 (0: the system picks). Throws, naming PORT, for
 * anything else.
 */
export function previewPort(env: Readonly<Record<string, string | undefined>>): number {
  const value = env['PORT']?.trim();
  if (value === undefined || value === '') return DEFAULT_PREVIEW_PORT;
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65535)
    throw new Error(
      `PORT=${JSON.stringify(env['PORT'])} must be a port number from 0 to 65535 (0: one the system picks)`,
    );
  return port;
}

/**
 * The address to build for, once the server listens on `port`: SITE_URL when it is set
 * (checked as `npm run build` checks it), else the server's own local address.
 */
export function startSiteUrl(env: Readonly<Record<string, string | undefined>>, port: number): string {
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new Error(`the preview server has no port to build for (${port})`);
  const set = env['SITE_URL'];
  return set !== undefined && set.trim() !== '' ? siteUrlFrom(set) : siteUrlFrom(`http://${PREVIEW_HOST}:${port}`);
}

/** The line `npm start` prints once the build is served (the end-to-end test waits for it). */
export function servingLine(outDir: string, siteUrl: string, port: number): string {
  const local = `http://${PREVIEW_HOST}:${port}/`;
  return siteUrl === new URL(local).origin
    ? `start: serving ${outDir} at ${local}`
    : `start: serving ${outDir} at ${local} (built for ${siteUrl}/: its absolute links go there)`;
}

/** The address in a line servingLine wrote, or undefined for any other line. */
export function servedAddress(line: string): string | undefined {
  return /^start: serving .* at (http:\/\/\S+\/)(?: \(|$)/.exec(line)?.[1];
}
