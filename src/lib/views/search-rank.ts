/**
 * Search results in the order of the typed spelling: `Bash` gives the tool
 * spelled `Bash` first and `bash` those spelled `bash`, each followed by the
 * other agents' tools of the same name, then the pages with a field of exactly
 * that name. A hooks page answers to its events' names as a tool page to its
 * tool's (`PreToolUse`).
 *
 * The tie rule: of the pages that answer to the typed name in the same
 * spelling, those whose tool (or event) has that name now come before those
 * that answer to it as a past name (a name the tool had before a rename, the
 * name of a removed tool); within each, they come in the order of their agents
 * in the agent registry (REGISTRY in src/lib/agents/index.ts, the order the
 * site lists its agents in); pages of one agent, or of none, keep Pagefind's
 * order. Pagefind's scores are not
 * used to break the tie: they move whenever a page's text changes. Where a
 * spelling is known to have been taken over, the registry lists the agent it
 * comes from first: Factory Droid spells TaskStop and WebSearch as Claude Code
 * does, Qwen Code run_shell_command as Gemini CLI, Kilo Code todowrite as
 * OpenCode. For names most agents have (`bash`, `read`) it is only a stable
 * order. A page's agent is its `agent` filter value; the wrapper module hands
 * this module the registry's values in order (search.ts agentOrder,
 * rankedPagefindSource).
 *
 * Pagefind lowercases every word it indexes and every query, so its ranking
 * cannot tell the two apart (astro.config.mjs ranks a page's names first).
 * This module reorders its results in the browser: the search dialog imports
 * Pagefind through an import map (Head.astro) that points at a small wrapper
 * module (src/pages/search/pagefind.js.ts) whose `search` calls Pagefind's
 * and then `exactSpellingFirst`. It runs in the browser as written here, so
 * it imports nothing.
 */

/**
 * A Pagefind result: its data (metadata and sub-results included) loads on demand, from a fragment the dialog loads
 * anyway to show it.
 */
export interface RankedResult {
  data(): Promise<{
    meta?: Record<string, string | undefined>;
    filters?: Record<string, unknown>;
    sub_results?: readonly { title?: unknown; url?: unknown }[];
  }>;
}

/** A page's agent: the first value of its `agent` filter (search.ts agentFilter), or undefined when it has none. */
export function agentOfFilters(filters: Record<string, unknown> | undefined): string | undefined {
  const values = filters?.['agent'];
  return Array.isArray(values) && typeof values[0] === 'string' ? values[0] : undefined;
}

/**
 * The tie rule (see the top of this module): `items` in the order of their agents in
 * `agentOrder`, those of an agent not in it (or of none) after them; a stable sort, so
 * items of one agent keep their order.
 */
export function inAgentOrder<T>(
  items: readonly T[],
  agentOf: (item: T) => string | undefined,
  agentOrder: readonly string[],
): T[] {
  const place = (item: T) => {
    const agent = agentOf(item);
    const at = agent === undefined ? -1 : agentOrder.indexOf(agent);
    return at === -1 ? agentOrder.length : at;
  };
  return items
    .map((item, i) => ({ item, i, at: place(item) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map(({ item }) => item);
}

/** The entries of a page's `spelled` metadata, a JSON array (search.ts); none when absent or unreadable. */
function spelledEntries(meta: Record<string, string | undefined> | undefined): unknown[] {
  const text = meta?.['spelled'];
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** The names a page answers to as spelled: the strings of its `spelled` metadata (search.ts). */
export function spelledNames(meta: Record<string, string | undefined> | undefined): string[] {
  return spelledEntries(meta).filter((v): v is string => typeof v === 'string');
}

/**
 * The names a page answers to only as past ones (a name its tool had before a rename, the name
 * of a removed tool): the `{ "was": name }` entries of its `spelled` metadata (search.ts).
 */
export function pastNames(meta: Record<string, string | undefined> | undefined): string[] {
  return spelledEntries(meta).flatMap((v) => {
    const was = typeof v === 'object' && v !== null ? (v as { was?: unknown }).was : undefined;
    return typeof was === 'string' ? [was] : [];
  });
}

/**
 * How a page answers to the typed name (trimmed): not at all (undefined); `spelledSo`, one of its
 * names is spelled exactly so, else one is in another case; `past`, it answers so only by past names.
 */
export function answerTo(
  meta: Record<string, string | undefined> | undefined,
  typed: string,
): { spelledSo: boolean; past: boolean } | undefined {
  const lower = typed.toLowerCase();
  const now = spelledNames(meta);
  const names = [...now, ...pastNames(meta)];
  if (!names.some((n) => n.toLowerCase() === lower)) return undefined;
  const spelledSo = names.includes(typed);
  return { spelledSo, past: spelledSo ? !now.includes(typed) : !now.some((n) => n.toLowerCase() === lower) };
}

/**
 * A field row's anchor: `#input.…`, `#output:…`, `#model-input.…`, or one of another configuration's tables
 * (`#config-<id>.input.…`).
 */
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
  const last =
    sub.title
      .replace(/(?:\[\])+$/, '')
      .split('.')
      .pop() ?? '';
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
    return {
      ...sub,
      locations: [...locations, ...Array.from({ length: most + 1 - locations.length }, () => locations[0] ?? 0)],
    };
  });
  return { ...data, sub_results };
}

/** How many results' data to load at once (the dialog shows five at first). */
const BATCH = 5;
/** How many results are read for pages that answer to the term by name or have a field of that name. */
const WINDOW = 10;

/**
 * The results reordered by what the typed term names:
 * 1. pages with a name spelled exactly as `term`, by the tie rule: the name now before the name
 *    in the past, then by `agentOrder` (agent filter values in registry order);
 * 2. pages with that name in another case, by the tie rule;
 * 3. pages with a field of that name (in any case), in the order search gave: search completes
 *    words, so `new_str` also finds every page with a `new_string`, often first;
 * 4. the others, in the order search gave.
 * Only the first WINDOW results are read, and past them the leading run of pages that answer
 * to the term by name (a name many agents share); whatever follows keeps its place. A term that
 * no result read answers to leaves the order as it is.
 */
export async function exactSpellingFirst<R extends RankedResult>(
  term: string,
  results: readonly R[],
  agentOrder: readonly string[] = [],
): Promise<R[]> {
  const typed = term.trim();
  const lower = typed.toLowerCase();
  if (typed === '') return [...results];
  const exact: { result: R; agent: string | undefined; past: boolean }[] = [];
  const other: { result: R; agent: string | undefined; past: boolean }[] = [];
  const byField: R[] = [];
  const rest: R[] = [];
  let read = 0;
  let leadingRun = true;
  while (read < results.length && (read < WINDOW || leadingRun)) {
    const batch = results.slice(read, read + BATCH);
    const data = await Promise.all(batch.map((r) => r.data()));
    for (const [i, result] of batch.entries()) {
      const answer = answerTo(data[i]!.meta, typed);
      if (answer)
        (answer.spelledSo ? exact : other).push({ result, agent: agentOfFilters(data[i]!.filters), past: answer.past });
      else {
        leadingRun = false;
        (subResultFieldNames(data[i]!.sub_results).some((n) => n.toLowerCase() === lower) ? byField : rest).push(
          result,
        );
      }
    }
    read += batch.length;
  }
  const tied = (group: typeof exact) =>
    [false, true].flatMap((past) =>
      inAgentOrder(
        group.filter((g) => g.past === past),
        (g) => g.agent,
        agentOrder,
      ).map((g) => g.result),
    );
  return [...tied(exact), ...tied(other), ...byField, ...rest, ...results.slice(read)];
}

/**
 * Pagefind's `search`, its results reordered by `exactSpellingFirst` (ties by `agentOrder`),
 * each result's data with `fieldRowsFirst`; anything else it returns passes through.
 */
export async function rankedSearch<O, S extends { results?: RankedResult[] } | null | undefined>(
  search: (term: string, options?: O) => Promise<S>,
  term: string,
  options?: O,
  agentOrder: readonly string[] = [],
): Promise<S> {
  const found = await search(term, options);
  if (!found || !Array.isArray(found.results) || typeof term !== 'string') return found;
  const ordered = await exactSpellingFirst(term, found.results, agentOrder);
  return {
    ...found,
    results: ordered.map((result) => ({ ...result, data: async () => fieldRowsFirst(term, await result.data()) })),
  };
}
