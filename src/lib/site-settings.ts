/**
 * The site's own settings, shared by astro.config.mjs and the benchmark's
 * baseline site (scripts/lib/bench/sites.ts) so that both describe the same site.
 * The description names the agents of the registry, in its order.
 *
 * The site's address comes from the SITE_URL environment variable when the
 * build runs (`SITE_URL=https://tools.example.org npm run build`), else
 * DEFAULT_SITE_URL. Every absolute URL the site writes (llms.txt, catalog.json,
 * each schema's `$id` and `$schema`, feeds, archived exports) starts with it.
 */
import { AGENT_IDS, AGENT_PRODUCTS } from './agents/index.ts';

/** The address used when SITE_URL is not set: a reserved name that resolves nowhere, so an undeployed build cannot pass for a deployed one. */
export const DEFAULT_SITE_URL = 'https://agent-tools.invalid';

/**
 * The site's origin from a SITE_URL value: an absolute http(s) URL with no
 * path, query or fragment (the site is served at the root). Throws, naming the
 * variable and the value, for anything else. Pure.
 */
export function siteUrlFrom(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return DEFAULT_SITE_URL;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`SITE_URL=${JSON.stringify(value)} is not an absolute URL (e.g. https://tools.example.org)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`SITE_URL=${JSON.stringify(value)} must be an http or https URL`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`SITE_URL=${JSON.stringify(value)} must be an origin only (scheme, host and port): the site is served at the root of its address`);
  }
  return url.origin;
}

export const SITE_URL = siteUrlFrom(process.env['SITE_URL']);
export const SITE_TITLE = 'Agent tool reference';
export const SITE_DESCRIPTION = `Every built-in tool of ${new Intl.ListFormat('en', { type: 'conjunction' }).format(AGENT_IDS.map((id) => AGENT_PRODUCTS[id]))}: what turns it on, what it takes, what it returns.`;
