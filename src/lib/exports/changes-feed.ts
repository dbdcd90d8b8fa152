/**
 * `/changes.xml`: the page of changes across agents (changes-page.ts) as an Atom feed, one
 * entry per agent release, newest first, each titled with its counts of changes and of
 * breaking ones and holding its changes as HTML (the same HTML as the agent's own feed). An
 * entry's id is the release's address in its agent's changelog, as in that feed. Pure.
 */
import type { SiteModel } from '../model/model.ts';
import { SITE_TITLE } from '../site/site-settings.ts';
import { sitePath } from '../site/site.ts';
import { changelogUrl } from '../history/changelog-addresses.ts';
import { CHANGES_FEED_URL, CHANGES_URL, changesPage } from '../views/changes-page.ts';
import { releaseHtml } from './changelog-feed.ts';
import type { AtomEntry, AtomFeed } from './feed.ts';

export function changesFeed(site: SiteModel, origin: URL | string): AtomFeed {
  const page = changesPage(site);
  const absolute = (path: string) => new URL(path, origin).href;
  const entries: AtomEntry[] = page.days.flatMap((day) =>
    day.entries.map((entry) => ({
      // The id the agent's own feed gives this release: a reader of both sees one item.
      id: `${absolute(changelogUrl(entry.agent))}#${entry.release}`,
      title:
        `${entry.product} ${entry.release}: ${entry.changes} ` +
        `change${entry.changes === 1 ? '' : 's'}${entry.breaking > 0 ? `, ${entry.breaking} breaking` : ''}`,
      updated: entry.published,
      link: absolute(entry.url),
      content: {
        type: 'html' as const,
        value: releaseHtml(
          { section: { id: entry.release, title: entry.release, depth: 2 }, groups: entry.groups },
          absolute,
        ),
      },
    })),
  );
  const self = absolute(sitePath(CHANGES_FEED_URL));
  const newest = entries[0]?.updated;
  return {
    id: self,
    title: `${SITE_TITLE}: what changed`,
    subtitle: page.description,
    updated: newest ?? '1970-01-01T00:00:00Z',
    self,
    alternate: absolute(sitePath(CHANGES_URL)),
    author: SITE_TITLE,
    entries,
  };
}
