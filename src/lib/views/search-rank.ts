/**
 * Search results in the order of the typed spelling: `Bash` gives the tool
 * spelled `Bash` first and `bash` those spelled `bash`, each followed by the
 * other agents' tools of the same name in Pagefind's order, then the pages
 * with a field of exactly that name.
 *
 * Pagefind lowercases every word it indexes and every query, so its ranking
 * cannot tell the two apart (astro.config.mjs ranks a page's names first).
 * This module reorders its results in the browser: the search dialog imports
 * Pagefind through an import map (Head.astro) that points at a small wrapper
 * module (src/pages/search/pagefind.js.ts) whose `search` calls Pagefind's
 * and then `exactSpellingFirst`. It runs in the browser as written here, so
 * it imports nothing.
 */

/** A Pagefind result: its data (metadata and sub-results included) loads on demand, from a fragment the dialog loads anyway to show it. */
export interface RankedResult {
  data(): Promise<{ meta?: Record<string, string | undefined>; sub_results?: readonly { title?: unknown; url?: unknown }[] }>;
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

/** A field row's anchor: `#input.…`, `#output:…`, `#model-input.…`, or one of another configuration's tables (`#config-<id>.input.…`). */
const FIELD_ROW = /#(?:config-[^.#]+\.)?(?:input|output|model-input)[.:][^#]*$/;

/**
 * The field names among a page's sub-results: a field row's sub-result is titled with the
 * field's path (`edits[].old_string`, `(variant 1 (object)).owned`), whose last member is its name.
 */
export function subResultFieldNames(subResults: readonly { title?: unknown; url?: unknown }[] | undefined): string[] {
  return (subResults ?? []).map(fieldNameOf).filter((name): name is string => name !== undefined);
}

/** The name of the field whose row a sub-result is, or undefined for any other sub-result. */
function fieldNameOf(sub: { title?: unknown; url?: unknown }): string | undefined {
  if (typeof sub.title !== 'string' || typeof sub.url !== 'string') return undefined;
  let url: string;
  try {
    url = decodeURIComponent(sub.url);
  } catch {
    return undefined;
  }
  if (!FIELD_ROW.test(url)) return undefined;
  const last = sub.title.replace(/(?:\[\])+$/, '').split('.').pop() ?? '';
  return last === '' ? undefined : last;
}

/** A sub-result as the dialog reads it: it shows the three with the most matched words (`locations`). */
interface SubResult {
  title?: unknown;
  url?: unknown;
  locations?: unknown;
}

/**
 * A result's data with the rows of fields named `term` (any case) shown first among its
 * sub-results. The dialog lists the three sub-results with the most matched words, so a
 * description that repeats `old_str` would push the `old_str` row out: such a row is given one
 * more matched word than any other sub-result has (only the count is read for that order).
 * A new object: the data Pagefind handed out is left as it was.
 */
export function fieldRowsFirst<D extends { sub_results?: readonly SubResult[] }>(term: string, data: D): D {
  const lower = term.trim().toLowerCase();
  const subs = data.sub_results;
  if (lower === '' || !Array.isArray(subs)) return data;
  const count = (sub: SubResult) => (Array.isArray(sub.locations) ? sub.locations.length : 0);
  const isRow = (sub: SubResult) => fieldNameOf(sub)?.toLowerCase() === lower;
  if (!subs.some(isRow)) return data;
  const most = Math.max(0, ...subs.map(count));
  const sub_results = subs.map((sub) => {
    if (!isRow(sub)) return sub;
    const locations = Array.isArray(sub.locations) ? (sub.locations as unknown[]) : [];
    return { ...sub, locations: [...locations, ...Array.from({ length: most + 1 - locations.length }, () => locations[0] ?? 0)] };
  });
  return { ...data, sub_results };
}

/** How many results' data to load at once (the dialog shows five at first). */
const BATCH = 5;
/** How many results are read for pages that answer to the term by name or have a field of that name. */
const WINDOW = 10;

/**
 * The results reordered by what the typed term names, each group in the order search gave:
 * 1. pages with a name spelled exactly as `term`;
 * 2. pages with that name in another case;
 * 3. pages with a field of that name (in any case): search completes words, so `new_str` also
 *    finds every page with a `new_string`, often first;
 * 4. the others.
 * Only the first WINDOW results are read, and past them the leading run of pages that answer
 * to the term by name (a name many agents share); whatever follows keeps its place. A term that
 * no result read answers to leaves the order as it is.
 */
export async function exactSpellingFirst<R extends RankedResult>(term: string, results: readonly R[]): Promise<R[]> {
  const typed = term.trim();
  const lower = typed.toLowerCase();
  if (typed === '') return [...results];
  const exact: R[] = [];
  const other: R[] = [];
  const byField: R[] = [];
  const rest: R[] = [];
  let read = 0;
  let leadingRun = true;
  while (read < results.length && (read < WINDOW || leadingRun)) {
    const batch = results.slice(read, read + BATCH);
    const data = await Promise.all(batch.map((r) => r.data()));
    for (const [i, result] of batch.entries()) {
      const names = spelledNames(data[i]!.meta);
      if (names.some((n) => n.toLowerCase() === lower)) (names.includes(typed) ? exact : other).push(result);
      else {
        leadingRun = false;
        (subResultFieldNames(data[i]!.sub_results).some((n) => n.toLowerCase() === lower) ? byField : rest).push(result);
      }
    }
    read += batch.length;
  }
  return [...exact, ...other, ...byField, ...rest, ...results.slice(read)];
}

/**
 * Pagefind's `search`, its results reordered by `exactSpellingFirst`, each result's data with
 * `fieldRowsFirst`; anything else it returns passes through.
 */
export async function rankedSearch<O, S extends { results?: RankedResult[] } | null | undefined>(
  search: (term: string, options?: O) => Promise<S>,
  term: string,
  options?: O,
): Promise<S> {
  const found = await search(term, options);
  if (!found || !Array.isArray(found.results) || typeof term !== 'string') return found;
  const ordered = await exactSpellingFirst(term, found.results);
  return { ...found, results: ordered.map((result) => ({ ...result, data: async () => fieldRowsFirst(term, await result.data()) })) };
}
