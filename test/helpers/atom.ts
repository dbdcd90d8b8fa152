/**
 * An Atom feed as a reader gets it, read by an established parser (feedsmith),
 * not by the code that wrote it: texts decoded once, links by relation.
 */
import assert from 'node:assert/strict';
import { parseFeed } from 'feedsmith';

export interface ReadEntry {
  id: string | undefined;
  title: string | undefined;
  updated: string | undefined;
  link: string | undefined;
  content: string | undefined;
  contentType: string | undefined;
}

export interface ReadFeed {
  id: string | undefined;
  title: string | undefined;
  subtitle: string | undefined;
  updated: string | undefined;
  self: string | undefined;
  alternate: string | undefined;
  authors: (string | undefined)[];
  entries: ReadEntry[];
}

/** Parses `xml`, fails unless it is an Atom feed, and returns what readers use of it. */
export function readAtom(xml: string): ReadFeed {
  const parsed = parseFeed(xml);
  assert.equal(parsed.format, 'atom', 'the document is read as an Atom feed');
  if (parsed.format !== 'atom') throw new Error('unreachable');
  const feed = parsed.feed;
  const rel = (links: { rel?: string; href?: string }[] | undefined, name: string) =>
    links?.find((l) => (l.rel ?? 'alternate') === name)?.href;
  return {
    id: feed.id,
    title: feed.title?.value,
    subtitle: feed.subtitle?.value,
    updated: feed.updated,
    self: rel(feed.links, 'self'),
    alternate: rel(feed.links, 'alternate'),
    authors: (feed.authors ?? []).map((a) => a.name),
    entries: (feed.entries ?? []).map((e) => ({
      id: e.id,
      title: e.title?.value,
      updated: e.updated,
      link: rel(e.links, 'alternate'),
      content: e.content?.value,
      contentType: e.content?.type,
    })),
  };
}
