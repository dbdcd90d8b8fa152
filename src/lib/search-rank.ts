/**
 * Search results in the order of the typed spelling: `Bash` gives the tool
 * spelled `Bash` first and `bash` those spelled `bash`, each followed by the
 * other agents' tools of the same name in Pagefind's order.
 *
 * Pagefind lowercases every word it indexes and every query, so its ranking
 * cannot tell the two apart (astro.config.mjs ranks a page's names first).
 * This module reorders its results in the browser: the search dialog imports
 * Pagefind through an import map (Head.astro) that points at a small wrapper
 * module (src/pages/search/pagefind.js.ts) whose `search` calls Pagefind's
 * and then `exactSpellingFirst`. It runs in the browser as written here, so
 * it imports nothing.
 */

/** A Pagefind result: its data (metadata included) loads on demand, from a fragment the dialog loads anyway to show it. */
export interface RankedResult {
  data(): Promise<{ meta?: Record<string, string | undefined> }>;
}

/** The names a page answers to as spelled: its `spelled` metadata, a JSON array of strings (search.ts); none when absent or unreadable. */
export function spelledNames(meta: Record<string, string | undefined> | undefined): string[] {
  const text = meta?.['spelled'];
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** How many results' data to load at once while reading the leading run (the dialog shows five at first). */
const BATCH = 5;

/**
 * The results with those spelled exactly as `term` first. Only the leading
 * run of results that answer to the term in any case is reordered (a stable
 * partition); whatever follows keeps Pagefind's order, and a term that no
 * leading result answers to leaves the results as they are.
 */
export async function exactSpellingFirst<R extends RankedResult>(term: string, results: readonly R[]): Promise<R[]> {
  const typed = term.trim();
  const lower = typed.toLowerCase();
  if (typed === '') return [...results];
  const exact: R[] = [];
  const other: R[] = [];
  let run = 0;
  reading: for (let start = 0; start < results.length; start += BATCH) {
    const batch = results.slice(start, start + BATCH);
    const names = await Promise.all(batch.map(async (r) => spelledNames((await r.data()).meta)));
    for (const [i, result] of batch.entries()) {
      const own = names[i]!;
      if (!own.some((n) => n.toLowerCase() === lower)) break reading;
      (own.includes(typed) ? exact : other).push(result);
      run++;
    }
  }
  return [...exact, ...other, ...results.slice(run)];
}

/** Pagefind's `search`, its results reordered by `exactSpellingFirst`; anything else it returns passes through. */
export async function rankedSearch<O, S extends { results?: RankedResult[] } | null | undefined>(
  search: (term: string, options?: O) => Promise<S>,
  term: string,
  options?: O,
): Promise<S> {
  const found = await search(term, options);
  if (!found || !Array.isArray(found.results) || typeof term !== 'string') return found;
  return { ...found, results: await exactSpellingFirst(term, found.results) };
}
