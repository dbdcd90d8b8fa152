/**
 * The headings of a page, decided once: a page builds one list of sections,
 * renders each heading from it and gives the same list to Starlight's "On this
 * page", so the two cannot disagree.
 */

/** One heading of a page: its anchor, its text and its level. */
export interface PageSection<Id extends string = string> {
  id: Id;
  title: string;
  depth: 2 | 3;
  /** What "On this page" says when it says more than the heading (a count). */
  tocTitle?: string;
}

/** Starlight's `headings` (the "On this page" list), from the page's sections in order. */
export function pageHeadings(sections: readonly PageSection[]): { depth: number; slug: string; text: string }[] {
  return sections.map((s) => ({ depth: s.depth, slug: s.id, text: s.tocTitle ?? s.title }));
}
