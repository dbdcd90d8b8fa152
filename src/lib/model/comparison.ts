/**
 * Tools of different agents that do the same job, side by side: which tools do
 * a job (editorial `jobs`), a tool's counterparts in the other agents, and the
 * field comparison of a job (content/comparisons/<job>.json) as rows of fields
 * that mean the same plus, per tool, the top-level fields no row names.
 */
import type { AgentId, ComparisonConcept, ComparisonFile, Job } from '../core/content-types.ts';
import type { FieldRow } from '../shapes/field-rows.ts';
import { fieldTables, type ToolModel } from './model.ts';
import { toolNamed } from './tool-names.ts';

/** The tools that do `job`, in agent order (`agentOrder`), then by name. */
export function toolsForJob(jobId: string, tools: readonly ToolModel[], agentOrder: readonly AgentId[]): ToolModel[] {
  const rank = (t: ToolModel): number => agentOrder.indexOf(t.agent);
  return tools
    .filter((t) => t.editorial?.jobs.includes(jobId))
    .sort((a, b) => rank(a) - rank(b) || a.fullName.localeCompare(b.fullName));
}

export interface Counterparts {
  job: Job;
  /** Tools of the other agents that do the job, in agent order. */
  tools: ToolModel[];
}

/** For each job of `tool`, in the order its editorial file lists them: the other agents' tools that do it. */
export function counterparts(
  tool: ToolModel,
  jobs: readonly Job[],
  tools: readonly ToolModel[],
  agentOrder: readonly AgentId[],
): Counterparts[] {
  return (tool.editorial?.jobs ?? []).flatMap((id) => {
    const job = jobs.find((j) => j.id === id);
    if (!job) return [];
    return [{ job, tools: toolsForJob(id, tools, agentOrder).filter((t) => t.agent !== tool.agent) }];
  });
}

/** A tool's field with the given anchor, from any of the tables its page shows. */
export function fieldById(tool: ToolModel, id: string): FieldRow | undefined {
  for (const table of fieldTables(tool)) {
    const row = table.rows.find((r) => r.id === id);
    if (row) return row;
  }
  return undefined;
}

/** `input.command`: which side of the call, and the field path on it without variant labels. */
function fieldKeyOf(row: FieldRow): string {
  return `${row.root === 'output' ? 'output' : 'input'}:${row.fieldKey}`;
}

/** Top-level fields of a tool's input and result (one per name, whatever union variant declares it). */
export function topLevelFields(tool: ToolModel): FieldRow[] {
  const seen = new Set<string>();
  const out: FieldRow[] = [];
  for (const rows of [tool.input.rows, tool.output.rows]) {
    for (const row of rows) {
      if (row.role !== 'property' || /[.[*]/.test(row.fieldKey)) continue;
      const key = fieldKeyOf(row);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(row);
    }
  }
  return out;
}

export interface ComparisonRow {
  concept: ComparisonConcept;
  /**
   * One entry per column (`JobComparison.tools`): the fields of that tool the concept names (often one, none when the
   * tool lacks it).
   */
  cells: FieldRow[][];
}

export interface JobComparison {
  job: Job;
  tools: ToolModel[];
  rows: ComparisonRow[];
  /** Per column: top-level fields of the tool that no row names, in table order. */
  onlyHere: FieldRow[][];
}

/**
 * The comparison page of a job. Assumes a validated file (the comparisons stage
 * checks that every named tool does the job and has the field); a field it
 * cannot find is left out of its cell.
 */
export function buildComparison(
  job: Job,
  tools: readonly ToolModel[],
  agentOrder: readonly AgentId[],
  file: ComparisonFile | undefined,
): JobComparison {
  const columns = toolsForJob(job.id, tools, agentOrder);
  const named = columns.map(() => new Set<string>());
  const rows: ComparisonRow[] = (file?.concepts ?? []).map((concept) => {
    const cells: FieldRow[][] = columns.map(() => []);
    for (const field of concept.fields) {
      const tool = toolNamed(columns, field.agent, field.tool);
      if (!tool) continue;
      const column = columns.indexOf(tool);
      const row = fieldById(tool, field.field);
      if (!row) continue;
      cells[column]!.push(row);
      named[column]!.add(fieldKeyOf(row));
    }
    return { concept, cells };
  });
  const onlyHere = columns.map((tool, i) => topLevelFields(tool).filter((row) => !named[i]!.has(fieldKeyOf(row))));
  return { job, tools: columns, rows, onlyHere };
}
