/**
 * What the home page lists: each agent with its version, checked date and tool count, the agents it does not document
 * and why, the latest changes and the jobs; and its sections' headings.
 */
import { releaseVersions } from '../model/releases.ts';
import type { SiteModel } from '../model/model.ts';
import { agentBundles } from '../model/bundles.ts';
import { AGENT_LABELS, agentUrl, jobUrl, sitePath } from '../site/site.ts';
import { CHANGES_URL, recentEntries } from './changes-page.ts';

/** How many of the latest releases with changes the home page lists. */
export const HOME_LATEST = 6;

/** The home page's sections, in page order: each an h2 with this id and text, listed in "On this page". */
export const HOME_SECTIONS = {
  covered: { slug: 'covered', text: 'What is covered' },
  notCovered: { slug: 'not-covered', text: 'Not covered, and why' },
  latest: { slug: 'latest-changes', text: 'Latest changes' },
  hooks: { slug: 'writing-hooks', text: 'Writing hooks' },
  jobs: { slug: 'start-from-a-job', text: 'Start from a job' },
} as const;

/** A heading as Starlight's table of contents takes it (StarlightPage's `headings`). */
export interface TocHeading {
  depth: 2;
  slug: string;
  text: string;
}

export interface HomePage {
  agents: { url: string; label: string; version: string; checked: string; tools: number }[];
  jobs: { url: string; title: string }[];
  /** Agents people use that the site does not document, each with why (content/not-documented.json). */
  notCovered: { product: string; package: string | undefined; why: string; checked: string }[];
  /** The newest releases with changes, across agents (changes-page.ts), each linking to its entry on `/changes/`. */
  latest: { url: string; label: string; published: string; changes: number; breaking: number }[];
  changesUrl: string;
  /** The sections the page has, for "On this page": Latest changes and Not covered only when they list something. */
  headings: TocHeading[];
}

export function homePage(site: SiteModel): HomePage {
  const latest = recentEntries(site)
    .slice(0, HOME_LATEST)
    .map((e) => ({
      url: `${sitePath(CHANGES_URL)}#${e.id}`,
      label: `${e.product} ${e.release}`,
      published: e.published.slice(0, 10),
      changes: e.changes,
      breaking: e.breaking,
    }));
  const listed: Partial<Record<keyof typeof HOME_SECTIONS, number>> = {
    latest: latest.length,
    notCovered: site.notDocumented.length,
  };
  const sections = Object.entries(HOME_SECTIONS).filter(([key]) => listed[key as keyof typeof HOME_SECTIONS] !== 0);
  return {
    agents: [...agentBundles(site).values()].map(({ record: a, releases, tools }) => ({
      url: agentUrl(a.id),
      label: AGENT_LABELS[a.id],
      version: releaseVersions(releases ?? { examples: [] }) || a.version,
      checked: a.checked,
      tools: tools.length,
    })),
    jobs: site.jobs.map((j) => ({ url: jobUrl(j.id), title: j.title })),
    notCovered: site.notDocumented.map((a) => ({
      product: a.product,
      package: a.package,
      why: a.why,
      checked: a.checked,
    })),
    latest,
    changesUrl: sitePath(CHANGES_URL),
    headings: sections.map(([, h]) => ({ depth: 2, slug: h.slug, text: h.text })),
  };
}
