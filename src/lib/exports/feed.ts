/**
 * Atom 1.0 (RFC 4287) documents as text. Every text and attribute value is
 * escaped here, whatever its origin: titles and contents carry names read from
 * captures, which are untrusted. Characters XML 1.0 does not allow (most C0
 * controls, lone surrogates, U+FFFE, U+FFFF) are replaced by U+FFFD, so that the
 * document stays well-formed and the reader sees that something was there.
 * Pure: no I/O, no Astro.
 */

/** One `<entry>`. `updated` is an RFC 3339 date-time. */
export interface AtomEntry {
  id: string;
  title: string;
  updated: string;
  /** The `rel="alternate"` link: where the entry is shown as a page. */
  link: string;
  /** `html`: the value is HTML (escaped once more here); `text`: plain text. */
  content: { type: 'html' | 'text'; value: string };
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  /** RFC 3339 date-time: when the feed last changed (its newest entry). */
  updated: string;
  /** The feed's own address (`rel="self"`). */
  self: string;
  /** The page the feed follows (`rel="alternate"`, text/html). */
  alternate: string;
  /** Required by Atom at feed level when entries name none. */
  author: string;
  entries: AtomEntry[];
}

/** Every code point outside XML 1.0's `Char` production. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const XML_SPECIALS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text → XML character data or attribute value (for either quote), with characters XML forbids replaced. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"']/g, (c) => XML_SPECIALS[c]!);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function dateTime(value: string, where: string): string {
  if (!RFC3339.test(value) || Number.isNaN(Date.parse(value)))
    throw new Error(`atom: ${where} is not an RFC 3339 date-time: ${JSON.stringify(value)}`);
  return value;
}

function element(name: string, text: string, attrs: Record<string, string> = {}): string {
  const attributes = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  return `<${name}${attributes}>${escapeXml(text)}</${name}>`;
}

function link(rel: string, href: string, type?: string): string {
  return `<link rel="${escapeXml(rel)}"${type ? ` type="${escapeXml(type)}"` : ''} href="${escapeXml(href)}"/>`;
}

/** The feed as an XML document, entries in the order given. */
export function atomXml(feed: AtomFeed): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  ${element('id', feed.id)}`,
    `  ${element('title', feed.title, { type: 'text' })}`,
    ...(feed.subtitle === undefined ? [] : [`  ${element('subtitle', feed.subtitle, { type: 'text' })}`]),
    `  ${element('updated', dateTime(feed.updated, 'feed updated'))}`,
    `  ${link('self', feed.self, 'application/atom+xml')}`,
    `  ${link('alternate', feed.alternate, 'text/html')}`,
    `  <author>${element('name', feed.author)}</author>`,
  ];
  for (const entry of feed.entries) {
    lines.push(
      '  <entry>',
      `    ${element('id', entry.id)}`,
      `    ${element('title', entry.title, { type: 'text' })}`,
      `    ${element('updated', dateTime(entry.updated, `updated of entry ${entry.id}`))}`,
      `    ${link('alternate', entry.link, 'text/html')}`,
      `    ${element('content', entry.content.value, { type: entry.content.type })}`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}
