/**
 * An agent's changelog as an Atom feed (`/<agent>/changelog.xml`): one entry per
 * release of its changelog, newest first, each linking to the release's
 * section of the page that shows it (`releaseUrl`: a part page when the
 * changelog is cut) and listing its changes as HTML. An entry's id stays the
 * address the release had on the one-page changelog, which still resolves:
 * readers that saw an entry do not see it again as new. Built from the same
 * view as the page (history-pages.ts), so both list the same releases and
 * changes. Pure: the model and the site's address come in as arguments.
 */
import type { AgentId } from '../core/content-types.ts';
import { changelogPage, type ChangelogChange, type ChangelogPage } from '../views/history-pages.ts';
import { changelogFeedUrl, changelogUrl, releaseUrl } from '../history/changelog-addresses.ts';
import { changeLine, linePieces } from '../history/history.ts';
import { escapeHtmlText as html } from '../core/html-text.ts';
import type { SiteModel } from '../model/model.ts';
import { SITE_TITLE } from '../site/site-settings.ts';
import type { AtomEntry, AtomFeed } from './feed.ts';
import { releaseTimes } from '../history/release-times.ts';
import { compareVersions } from '../core/version-order.ts';
import type { TextDiff } from '../history/text-diff.ts';

export { releaseTimes };

/** One change as an HTML line: what the changelog page shows (ChangeText), with absolute links. */
function changeHtml(
  change: ChangelogChange,
  fieldHref: string | undefined,
  absolute: (path: string) => string,
): string {
  return linePieces(changeLine(change.event, change.folded))
    .map(({ text, as }) => {
      if (as === undefined) return html(text);
      if (as === 'configuration') return `<em>${html(text)}</em>`;
      const code = `<code>${html(text)}</code>`;
      return as === 'field' && fieldHref ? `<a href="${html(absolute(fieldHref))}">${code}</a>` : code;
    })
    .join('');
}

/**
 * A changed text word for word, as the pages show it (TextDiff.astro): removals in <del>, additions in <ins>, cut runs
 * named.
 */
export function diffHtml(diff: TextDiff): string {
  const body = diff.parts
    .map((p) =>
      p.op === 'skip'
        ? `<em>[… ${p.chars.toLocaleString('en-US')} unchanged characters …]</em>`
        : p.op === 'same'
          ? html(p.text)
          : `<${p.op}>${html(p.text)}</${p.op}>`,
    )
    .join('');
  return (
    `<p>${diff.before.toLocaleString('en-US')} → ${diff.after.toLocaleString('en-US')} characters; ` +
    `${diff.removed.toLocaleString('en-US')} removed, ${diff.added.toLocaleString('en-US')} ` +
    `added:</p><pre>${body}</pre>`
  );
}

/** The changes of one release as HTML: what the changelog page shows, with absolute links. */
export function releaseHtml(release: ChangelogPage['releases'][number], absolute: (path: string) => string): string {
  return release.groups
    .map((group) => {
      const tools = group.tools.map((tool) => {
        const name = tool.url
          ? `<a href="${html(absolute(tool.url))}"><code>${html(tool.name)}</code></a>`
          : `<code>${html(tool.name)}</code>`;
        return (
          `<li>${name}<ul>` +
          tool.changes
            .map(
              ({ change, fieldHref, diff, breaking }) =>
                `<li>${breaking ? `<strong>Breaking</strong> (${html(breaking)}): ` : ''}` +
                `${changeHtml(change, fieldHref, absolute)}${diff ? diffHtml(diff) : ''}</li>`,
            )
            .join('') +
          `</ul></li>`
        );
      });
      const between = group.between
        ? `<strong>Between ${html(group.between.previous)} and ${html(release.section.title)}</strong>, not ` +
          `exactly in ${html(release.section.title)} (not known in between: ${html(group.between.why ?? '')}): `
        : '';
      return `<p>${between}${html(group.evidence)}</p><ul>${tools.join('')}</ul>`;
    })
    .join('');
}

/**
 * The feed of an agent's changelog. `site` is the site's address (astro.config
 * `site`): Atom ids and links are absolute. A release's `updated` is its
 * publication time when a history records one, else the day the agent's
 * sources were checked; the feed's is its newest entry's.
 */
export function changelogFeed(site: SiteModel, agent: AgentId, origin: URL | string): AtomFeed {
  const record = site.agents.find((a) => a.id === agent);
  if (!record) throw new Error(`changelogFeed: no agent ${agent} in the site model`);
  const page = changelogPage(site, agent);
  const absolute = (path: string) => new URL(path, origin).href;
  const pageUrl = absolute(changelogUrl(agent));
  const times = releaseTimes(site, agent);
  const checked = `${record.checked}T00:00:00Z`;
  const entries: (AtomEntry & { release: string })[] = page.releases.map((release) => {
    const count = release.groups.reduce((n, g) => n + g.tools.reduce((m, t) => m + t.changes.length, 0), 0);
    return {
      release: release.section.id,
      id: `${pageUrl}#${release.section.id}`,
      title: `${record.product} ${release.section.title}: ${count} change${count === 1 ? '' : 's'}`,
      updated: times.get(release.section.id) ?? checked,
      link: absolute(releaseUrl(agent, release.section.id, site.histories)),
      content: { type: 'html', value: releaseHtml(release, absolute) },
    };
  });
  // A hook behaviour change is an entry of the release it first showed in.
  for (const c of page.behaviour?.changes ?? []) {
    entries.push({
      release: c.between[1],
      id: `${pageUrl}#behaviour-${c.case}-${c.between[1]}`,
      title: `${record.product} ${c.between[1]}: hook behaviour changed (${c.label})`,
      updated: times.get(c.between[1]) ?? checked,
      link: absolute(c.url),
      content: {
        type: 'html',
        value:
          `<p>Between ${html(c.between[0])} and ${html(c.between[1])}: ${html(c.label)}.</p><p>Before: ` +
          `${html(c.before)}. After: ${html(c.after)}.</p>`,
      },
    });
  }
  // Newest release first; within a release, its changes, then its hook behaviour changes in the history's order.
  entries.sort((a, b) => compareVersions(b.release, a.release));
  const newest = entries.map((e) => e.updated).sort((a, b) => Date.parse(b) - Date.parse(a))[0];
  const self = absolute(changelogFeedUrl(agent));
  return {
    id: self,
    title: page.title,
    subtitle: page.description,
    updated: newest ?? checked,
    self,
    alternate: pageUrl,
    author: SITE_TITLE,
    entries: entries.map(({ release: _release, ...entry }) => entry),
  };
}
