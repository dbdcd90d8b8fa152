/** `/<agent>/changelog.xml`: the Atom feed of an agent's changelog page (src/lib/exports/changelog-feed.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import type { AgentId } from '../../lib/core/content-types.ts';
import { changelogFeed } from '../../lib/exports/changelog-feed.ts';
import { atomXml } from '../../lib/exports/feed.ts';
import { historyAgentPaths } from '../../lib/routes/endpoints.ts';
import { getSite } from '../../lib/routes/site-data.ts';

export const getStaticPaths = historyAgentPaths satisfies GetStaticPaths;

export const GET: APIRoute = async (context) => {
  const { agent } = context.props as { agent: AgentId };
  if (!context.site)
    throw new Error('changelog.xml: astro.config sets no `site`; an Atom feed needs absolute ids and links');
  return new Response(atomXml(changelogFeed(await getSite(), agent, context.site)), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
};
