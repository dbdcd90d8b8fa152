/**
 * `agent-tools search <text>`: tools, hook events, jobs and fields whose name holds the text,
 * each with its agent and page. The exact spelling comes first, then the same letters in another
 * case, then names that start with the text, then names that hold it; within a rank tools before
 * hook events, jobs and fields, agents in the site's order. Pure over a Snapshot.
 */
import { pageUrl, type Snapshot } from './snapshot.ts';

export type HitKind = 'tool' | 'hook event' | 'job' | 'field';

export interface SearchHit {
  kind: HitKind;
  /** The name that matched. */
  name: string;
  /** 0 exact, 1 exact in another case, 2 starts with the text, 3 holds it. */
  rank: 0 | 1 | 2 | 3;
  /** Which of a tool's names matched: its own, an alias (a former name, an SDK type), or the name hooks give it. */
  via: Via;
  agent?: string;
  product?: string;
  /** The tool a field belongs to. */
  tool?: string;
  /** What it is, in a few words: a tool's summary, a field's table and type, a job's title. */
  detail: string;
  url: string;
}

export interface SearchAnswer {
  query: string;
  /** How many names matched in all; `hits` holds the first `limit`. */
  total: number;
  hits: SearchHit[];
}

function rankOf(name: string, query: string): SearchHit['rank'] | undefined {
  if (name === query) return 0;
  const n = name.toLowerCase();
  const q = query.toLowerCase();
  if (n === q) return 1;
  if (n.startsWith(q)) return 2;
  if (n.includes(q)) return 3;
  return undefined;
}

const KIND_ORDER: HitKind[] = ['tool', 'hook event', 'job', 'field'];
type Via = 'name' | 'alias' | 'hook name';
const VIA_ORDER: Via[] = ['name', 'alias', 'hook name'];
const TABLE_NAMES: Record<string, string> = { input: 'Input', result: 'Result', 'model-input': 'Model-facing input' };

export function search(snapshot: Snapshot, query: string, limit = 50): SearchAnswer {
  const catalog = snapshot.catalog();
  const order: string[] = catalog.agents.map((a) => a.id);
  const product = new Map(catalog.agents.map((a) => [a.id, a.product]));
  const url = (path: string) => pageUrl(snapshot.info, path);
  const hits: SearchHit[] = [];
  /** Adds a hit for the best-matching name, if any matches: lowest rank, then own names before others. */
  const add = (names: readonly (readonly [string, Via])[], hit: Omit<SearchHit, 'rank' | 'name' | 'via'>) => {
    let best: { name: string; rank: SearchHit['rank']; via: Via } | undefined;
    for (const [name, via] of names) {
      const rank = rankOf(name, query);
      if (rank === undefined) continue;
      if (
        best === undefined ||
        rank < best.rank ||
        (rank === best.rank && VIA_ORDER.indexOf(via) < VIA_ORDER.indexOf(best.via))
      )
        best = { name, rank, via };
    }
    if (best) hits.push({ ...hit, ...best });
  };
  for (const tool of catalog.tools) {
    const common = { agent: tool.agent, product: product.get(tool.agent)! };
    // A URL name is not a spelling of the tool: only its names, aliases and the names hooks give it are matched.
    const names = [
      ...[tool.fullName, tool.name].map((n) => [n, 'name'] as const),
      ...tool.aliases.map((a) => [a.name, 'alias'] as const),
      ...tool.hookNames.map((n) => [n, 'hook name'] as const),
    ];
    add(names, { kind: 'tool', ...common, tool: tool.fullName, detail: tool.summary, url: url(tool.links.page) });
    const tables = snapshot.fields(tool.agent, tool.slug);
    for (const [table, rows] of Object.entries(tables)) {
      const seen = new Set<string>();
      for (const row of rows ?? []) {
        if (seen.has(row.path)) continue;
        seen.add(row.path);
        add([[row.name, 'name']], {
          kind: 'field',
          ...common,
          tool: tool.fullName,
          detail: `${TABLE_NAMES[table] ?? table} field ${row.path}: ${row.type}`,
          url: `${url(tool.links.page)}#${row.id}`,
        });
      }
    }
  }
  for (const agent of catalog.agents) {
    const events = new Map<string, string>();
    for (const s of agent.hooks.schemas) events.set(s.event, 'payloads recorded');
    for (const s of agent.hooks.outputs?.schemas ?? [])
      events.set(s.event, events.has(s.event) ? 'payloads recorded, answers declared' : 'answers declared');
    for (const [event, what] of events)
      add([[event, 'name']], {
        kind: 'hook event',
        agent: agent.id,
        product: agent.product,
        detail: `${agent.product} hook event (${what})`,
        url: url(agent.hooks.page),
      });
  }
  for (const job of catalog.jobs ?? [])
    add(
      [
        [job.id, 'name'],
        [job.title, 'name'],
      ],
      { kind: 'job', detail: job.title, url: url(job.page) },
    );
  hits.sort(
    (a, b) =>
      a.rank - b.rank ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      VIA_ORDER.indexOf(a.via) - VIA_ORDER.indexOf(b.via) ||
      order.indexOf(a.agent ?? '') - order.indexOf(b.agent ?? '') ||
      (a.tool ?? '').localeCompare(b.tool ?? '') ||
      a.detail.localeCompare(b.detail),
  );
  return { query, total: hits.length, hits: hits.slice(0, limit) };
}
