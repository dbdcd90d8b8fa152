/**
 * The site's own settings, shared by astro.config.mjs and the benchmark's
 * baseline site (scripts/lib/bench/sites.ts) so that both describe the same site.
 * The description names the agents of the registry, in its order.
 */
import { AGENT_IDS, AGENT_PRODUCTS } from './agents/index.ts';

export const SITE_URL = 'https://agent-tools.invalid';
export const SITE_TITLE = 'Agent tool reference';
export const SITE_DESCRIPTION = `Every built-in tool of ${new Intl.ListFormat('en', { type: 'conjunction' }).format(AGENT_IDS.map((id) => AGENT_PRODUCTS[id]))}: what turns it on, what it takes, what it returns.`;
