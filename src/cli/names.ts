/**
 * `agent-tools names <tool-or-job>`: one job done in every agent — which tool does it, the name
 * its hook payloads give it (what a hook matcher names), and the permission rules recorded
 * against it, each with what the rule did in its case. A tool name stands for the jobs of the
 * tools of that name (`Bash` → run a shell command, watch a background task). Pure over a
 * Snapshot.
 */
import type { CatalogAgent, CatalogTool } from '../lib/exports/catalog.ts';
import { closest, NotFound, toolNames } from './lookup.ts';
import { pageUrl, type Snapshot } from './snapshot.ts';

export interface NamedRule {
  /** Where the rule is written (`permissions.allow`, `--allow-tool`). */
  form: string;
  /** The rule as written (`Bash(touch:*)`). */
  text: string;
  says: string;
  /** What happened to the recorded call: `ran`, `did-not-run`, … */
  outcome: string;
  case: string;
  url: string;
}

export interface NamedTool {
  name: string;
  url: string;
  /** The tool name its recorded hook payloads carry; empty when none is recorded. */
  hookNames: string[];
  rules: NamedRule[];
}

export interface JobNames {
  job: string;
  title: string;
  url: string;
  agents: { agent: string; product: string; release: string; tools: NamedTool[] }[];
  /** Agents of the snapshot with no tool for the job. */
  without: string[];
}

export interface NamesAnswer {
  query: string;
  /** The tools the query named, when it named tools rather than a job. */
  matchedTools: { agent: string; tool: string }[];
  jobs: JobNames[];
}

const fold = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

function namedTool(snapshot: Snapshot, agent: CatalogAgent, tool: CatalogTool): NamedTool {
  const rules = new Map<string, NamedRule>();
  for (const entry of agent.permissions) {
    const text = (entry.rule as { text?: string }).text;
    if (entry.tool !== tool.name || text === undefined) continue;
    const key = `${entry.rule.form}\u0000${text}\u0000${entry.outcome}`;
    if (!rules.has(key))
      rules.set(key, {
        form: entry.rule.form,
        text,
        says: entry.rule.says,
        outcome: entry.outcome,
        case: entry.case,
        url: pageUrl(snapshot.info, entry.page),
      });
  }
  return {
    name: tool.fullName,
    url: pageUrl(snapshot.info, tool.links.page),
    hookNames: tool.hookNames ?? [],
    rules: [...rules.values()],
  };
}

export function names(snapshot: Snapshot, query: string): NamesAnswer {
  const catalog = snapshot.catalog();
  const jobs = catalog.jobs ?? [];
  const q = fold(query);
  const job = jobs.find((j) => fold(j.id) === q || fold(j.title) === q);
  const matched = job ? [] : catalog.tools.filter((t) => toolNames(t).some((n) => fold(n) === q));
  const wanted = job ? [job.id] : [...new Set(matched.flatMap((t) => t.jobs))];
  if (wanted.length === 0) {
    const known = [...jobs.map((j) => j.id), ...new Set(catalog.tools.map((t) => t.fullName))];
    throw new NotFound(
      matched.length > 0
        ? `${matched.map((t) => `${t.agent} ${t.fullName}`).join(', ')} belongs to no job.`
        : `No job and no tool named ${JSON.stringify(query)} in this snapshot.`,
      closest(query, known),
    );
  }
  return {
    query,
    matchedTools: matched.map((t) => ({ agent: t.agent, tool: t.fullName })),
    jobs: wanted.map((id) => {
      const record = jobs.find((j) => j.id === id);
      const agents: JobNames['agents'] = [];
      const without: string[] = [];
      for (const agent of catalog.agents) {
        const tools = catalog.tools.filter((t) => t.agent === agent.id && t.jobs.includes(id));
        if (tools.length === 0) without.push(agent.id);
        else
          agents.push({
            agent: agent.id,
            product: agent.product,
            release: agent.version,
            tools: tools.map((t) => namedTool(snapshot, agent, t)),
          });
      }
      return {
        job: id,
        title: record?.title ?? id,
        url: pageUrl(snapshot.info, record?.page ?? `${snapshot.info.base}jobs/${id}/`),
        agents,
        without,
      };
    }),
  };
}
