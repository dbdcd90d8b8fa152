/**
 * What the job pages show, decided from the site model: the index of jobs
 * (each with the tools of every agent that do it) and one job's comparison
 * page (its tools side by side, the fields that mean the same, each tool's own
 * fields). The pages and JobIndex.astro only render these; each page's headings
 * and "On this page" come from one list of sections.
 */
import { buildComparison } from '../model/comparison.ts';
import { compatTable, type CompatTable } from './compat-table.ts';
import type { FieldRow } from '../shapes/field-rows.ts';
import type { SiteModel, ToolModel } from '../model/model.ts';
import { agentBundles } from '../model/bundles.ts';
import type { PageSection } from '../core/page-sections.ts';
import { AGENT_LABELS, jobUrl, toolUrl } from '../site/site.ts';

export interface ToolLink {
  url: string;
  name: string;
}

/** One job of the index: its heading, what it is, and per agent (in registry order) the tools that do it. */
export interface JobIndexEntry {
  section: PageSection;
  description: string;
  url: string;
  /** Every agent, with no tool when none is recorded for the job. */
  agents: { label: string; tools: ToolLink[] }[];
}

/** Every job in content order, as headings of the given level. */
export function jobIndex(site: SiteModel, depth: 2 | 3 = 2): JobIndexEntry[] {
  return site.jobs.map((job) => ({
    section: { id: job.id, title: job.title, depth },
    description: job.description,
    url: jobUrl(job.id),
    agents: [...agentBundles(site).values()].map(({ record, tools }) => ({
      label: AGENT_LABELS[record.id],
      tools: tools.filter((t) => t.editorial?.jobs.includes(job.id)).map(link),
    })),
  }));
}

export type JobSectionId = 'tools' | 'compat' | 'same-fields' | 'own-fields';

/** A tool of a job page: its agent, its link, and what it is. */
export interface JobTool extends ToolLink {
  agent: string;
  summary: string | undefined;
}

/** A field of a tool on a job page, linked to its row on the tool's page. */
export interface JobField {
  href: string;
  path: string;
  type: string;
  required: boolean | null;
  /** `input.<path>` or `result.<path>`: how the list of a tool's own fields names it. */
  sidePath: string;
}

export interface JobPage {
  title: string;
  /** The page's meta description. */
  description: string;
  /** The job's own description, shown first. */
  jobDescription: string;
  sections: PageSection<JobSectionId>[];
  /** How many agents have a tool for the job, of how many. */
  agentsWithTools: number;
  agentCount: number;
  /** Labels of the agents with no tool recorded for the job, in registry order. */
  agentsWithout: string[];
  tools: { section: PageSection<JobSectionId>; list: JobTool[] };
  /** Agents × the job's tools and the fields that mean the same, with releases and gates (compat-table.ts). */
  compat: { section: PageSection<JobSectionId>; table: CompatTable };
  /** Fields that mean the same, one block per concept; absent when the job has no field comparison. */
  sameFields?: {
    section: PageSection<JobSectionId>;
    concepts: {
      id: string;
      titleId: string;
      label: string;
      note: string | undefined;
      /** The tools that have the concept, each with its fields. */
      tools: { tool: JobTool; fields: JobField[] }[];
      /** The tools that lack it. */
      missing: JobTool[];
    }[];
  };
  ownFields: {
    section: PageSection<JobSectionId>;
    /** No concept matches fields yet: every top-level field is listed. */
    unmatched: boolean;
    tools: { tool: JobTool; fields: JobField[] }[];
  };
}

export function jobPage(site: SiteModel, jobId: string): JobPage {
  const job = site.jobs.find((j) => j.id === jobId);
  if (!job) throw new Error(`jobPage: no job ${jobId} in the site model`);
  const comparison = buildComparison(
    job,
    site.tools,
    site.agents.map((a) => a.id),
    site.comparisons.find((c) => c.job === job.id),
  );
  const tools = comparison.tools.map(jobTool);
  const agentsWith = new Set(comparison.tools.map((t) => t.agent));
  const matched = comparison.rows.length > 0;

  const toolsSection: PageSection<JobSectionId> = { id: 'tools', title: 'The tools', depth: 2 };
  const compatSection: PageSection<JobSectionId> = { id: 'compat', title: 'Compatibility', depth: 2 };
  const sameSection: PageSection<JobSectionId> | undefined = matched
    ? { id: 'same-fields', title: 'Fields that mean the same', depth: 2 }
    : undefined;
  const ownSection: PageSection<JobSectionId> = {
    id: 'own-fields',
    title: matched ? 'Fields only one tool has' : 'Fields of each tool',
    depth: 2,
  };

  const page: JobPage = {
    title: job.title,
    description: `${job.description} The tools of every agent that do it, side by side.`,
    jobDescription: job.description,
    sections: [toolsSection, compatSection, ...(sameSection ? [sameSection] : []), ownSection],
    agentsWithTools: agentsWith.size,
    agentCount: site.agents.length,
    agentsWithout: site.agents.filter((a) => !agentsWith.has(a.id)).map((a) => AGENT_LABELS[a.id]),
    tools: { section: toolsSection, list: tools },
    compat: { section: compatSection, table: compatTable(site, comparison, conceptId) },
    ownFields: {
      section: ownSection,
      unmatched: !matched,
      tools: comparison.tools.map((t, i) => ({
        tool: tools[i]!,
        fields: comparison.onlyHere[i]!.map((f) => jobField(t, f)),
      })),
    },
  };
  if (sameSection) {
    page.sameFields = {
      section: sameSection,
      concepts: comparison.rows.map((row) => ({
        id: conceptId(row.concept.id),
        titleId: `concept-${row.concept.id}-title`,
        label: row.concept.label,
        note: row.concept.note,
        tools: row.cells.flatMap((cell, i) =>
          cell.length > 0 ? [{ tool: tools[i]!, fields: cell.map((f) => jobField(comparison.tools[i]!, f)) }] : [],
        ),
        missing: tools.filter((_, i) => row.cells[i]!.length === 0),
      })),
    };
  }
  return page;
}

/** The id of a meaning's block on a job page. */
function conceptId(id: string): string {
  return `concept-${id}`;
}

function link(tool: ToolModel): ToolLink {
  return { url: toolUrl(tool), name: tool.fullName };
}

function jobTool(tool: ToolModel): JobTool {
  return { ...link(tool), agent: AGENT_LABELS[tool.agent], summary: tool.editorial?.summary };
}

function jobField(tool: ToolModel, row: FieldRow): JobField {
  return {
    href: `${toolUrl(tool)}#${row.id}`,
    path: row.path,
    type: row.type,
    required: row.required,
    sidePath: `${row.id.startsWith('output') ? 'result' : 'input'}.${row.path}`,
  };
}
