/**
 * The compatibility table of a job page, in the manner of caniuse and MDN's
 * compat data: one column per agent (registry order), a first row with each
 * agent's tools for the job (when each came, by its histories, and the gates
 * that turn it on), then one row per meaning of the job's field comparison
 * (content/comparisons/<job>.json) with each agent's field and when it came.
 * Everything is derived from committed content: the editorial jobs and gates,
 * the comparison file, the computed histories.
 */
import type { AgentId } from '../core/content-types.ts';
import type { JobComparison } from '../model/comparison.ts';
import type { SiteModel, ToolModel } from '../model/model.ts';
import { AGENT_LABELS, toolUrl } from '../site/site.ts';
import {
  fieldSinceTexts,
  historyLineText,
  SOURCE_LABELS,
  turnedOnBy,
  untrackedText,
  type FieldSinceText,
  type GateParts,
} from './support.ts';

export interface CompatLink {
  name: string;
  href: string;
}

/** One tool of an agent in the first row. */
export interface CompatTool {
  tool: CompatLink;
  /** When it came, per history (`already there in 2.0.14 (SDK types)`), or why no release is given. */
  since: FieldSinceText[];
  /**
   * The gates that turn it on, in words and settings: the first `GATES_SHOWN`, how many more
   * there are, and the tool page's section that lists them all; undefined when
   * not established.
   */
  gates: { shown: GateParts[]; more: number; href: string } | undefined;
}

/** Gates a cell shows before "and N more": a cell stays a few lines high. */
export const GATES_SHOWN = 2;

/** One field of an agent in a meaning's row. */
export interface CompatField {
  /** Its tool, named when the agent has several tools for the job. */
  tool: CompatLink | undefined;
  field: CompatLink;
  since: FieldSinceText;
}

export interface CompatTable {
  caption: string;
  agents: { id: AgentId; label: string }[];
  /** Per agent, its tools for the job (none: the agent has no tool recorded for it). */
  tools: CompatTool[][];
  /** One per meaning: its label, the id of its block further down the page, and per agent its fields. */
  rows: { label: string; href: string; cells: CompatField[][] }[];
}

function toolSince(tool: ToolModel): FieldSinceText[] {
  const h = tool.facts.history.place;
  if (h.kind === 'none') return [{ text: 'no history yet' }];
  if (h.kind === 'uncovered')
    return [
      {
        text:
          h.followed.length > 0
            ? `no history: ${h.followed.map(untrackedText).join('; ')}`
            : 'not covered by the history',
      },
    ];
  const several = h.lines.length > 1;
  return h.lines.map((l) => {
    const out: FieldSinceText = { text: `${historyLineText(l)}${several ? ` (${SOURCE_LABELS[l.source]})` : ''}` };
    if (l.href) out.href = l.href;
    return out;
  });
}

/**
 * The table of one job. `conceptId` gives the id of a meaning's block on the
 * page (the job page's `concept-<id>`), which its row header links to.
 */
export function compatTable(
  site: Pick<SiteModel, 'agents'>,
  comparison: JobComparison,
  conceptId: (id: string) => string,
): CompatTable {
  const agents = site.agents.map((a) => ({ id: a.id, label: AGENT_LABELS[a.id] }));
  const columnsOf = (agent: AgentId) => comparison.tools.flatMap((t, i) => (t.agent === agent ? [i] : []));
  const link = (t: ToolModel): CompatLink => ({ name: t.fullName, href: toolUrl(t) });
  const sinceOf = new Map(comparison.tools.map((t) => [t, fieldSinceTexts(t)]));
  return {
    caption:
      `${comparison.job.title}: each agent's tools and fields, with the release they came in and ` +
      `what turns them on`,
    agents,
    tools: agents.map((a) =>
      columnsOf(a.id).map((i) => {
        const t = comparison.tools[i]!;
        const gates = turnedOnBy(t);
        return {
          tool: link(t),
          since: toolSince(t),
          gates: gates && {
            shown: gates.slice(0, GATES_SHOWN),
            more: Math.max(0, gates.length - GATES_SHOWN),
            href: `${toolUrl(t)}#availability`,
          },
        };
      }),
    ),
    rows: comparison.rows.map((row) => ({
      label: row.concept.label,
      href: `#${conceptId(row.concept.id)}`,
      cells: agents.map((a) => {
        const columns = columnsOf(a.id);
        return columns.flatMap((i) => {
          const t = comparison.tools[i]!;
          return row.cells[i]!.map((f) => ({
            tool: columns.length > 1 ? link(t) : undefined,
            field: { name: f.path, href: `${toolUrl(t)}#${f.id}` },
            since: sinceOf.get(t)!(f.id),
          }));
        });
      }),
    })),
  };
}
