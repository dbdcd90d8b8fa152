/** `/changes.xml`: the Atom feed of `/changes/` (src/lib/exports/changes-feed.ts). */
import type { APIRoute } from 'astro';
import { changesFeed } from '../lib/exports/changes-feed.ts';
import { atomXml } from '../lib/exports/feed.ts';
import { getSite } from '../lib/routes/site-data.ts';

export const GET: APIRoute = async (context) => {
  if (!context.site)
    throw new Error('changes.xml: astro.config sets no `site`; an Atom feed needs absolute ids and links');
  return new Response(atomXml(changesFeed(await getSite(), context.site)), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
};
