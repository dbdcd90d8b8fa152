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
import { AGENT_IDS, AGENT_PRODUCTS } from '../agents/index.ts';

/**
 * The address used when SITE_URL is not set: a reserved name that resolves nowhere, so an undeployed build cannot pass
 * for a deployed one.
 */
export const DEFAULT_SITE_URL = 'https://agent-tools.invalid';

/**
 * The site's origin from a SITE_URL value: an absolute http(s) URL with no
 * path, query or fragment (the site is served at the root). Throws, naming the
 * variable and the value, for anything else. Pure.
 */
export function siteUrlFrom(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return DEFAULT_SITE_URL;
  // Messages show the value with any user name and password masked: they must never be echoed.
  const shown = `SITE_URL=${JSON.stringify(maskCredentials(value))}`;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`${shown} is not an absolute URL (e.g. https://tools.example.org)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${shown} must be an http or https URL`);
  if (url.username !== '' || url.password !== '') {
    throw new Error(
      `${shown} holds a user name or password: the address is written into every page and export, so it must be an ` +
        `origin only (scheme, host and port)`,
    );
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new Error(
      `${shown} must be an origin only (scheme, host and port): the site is served at the root of its address`,
    );
  }
  // The URL parser lets through host characters (", ', <, >, `, {, …) that would have to be escaped
  // in every HTML, XML, JSON, JavaScript and Markdown text the address is written into.
  if (
    !/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/.test(url.hostname)
  ) {
    throw new Error(
      `${shown} has the host ${JSON.stringify(url.hostname)}: a host is letters, digits and '-' in dot-separated ` +
        `labels (or an IP address)`,
    );
  }
  return url.origin;
}

/** `value` with the user name and password of a URL-like text replaced by `***`. */
export function maskCredentials(value: string): string {
  return value.replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:\/*)([^/?#]*@)/, (_m, scheme: string) => `${scheme}***@`);
}

export const SITE_URL = siteUrlFrom(process.env['SITE_URL']);
export const SITE_TITLE = 'Agent tool reference';
export const SITE_DESCRIPTION =
  `Every built-in tool of ` +
  `${new Intl.ListFormat('en', { type: 'conjunction' }).format(AGENT_IDS.map((id) => AGENT_PRODUCTS[id]))}: ` +
  `what turns it on, what it takes, what it returns.`;
