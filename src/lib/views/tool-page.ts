/**
 * What a tool page shows and in which order, decided once: the headings the
 * page renders and the "On this page" list both come from `toolSections`, so
 * the two cannot disagree. Also the condensed availability evidence (one line
 * per outcome instead of one row per configuration).
 */
import {
  primaryConfiguration,
  distinctInputs,
  DELIVERY_LABELS,
  type MatrixAgent,
  type MatrixConfiguration,
} from '../model/captures.ts';
import type { Delivery } from '../wire/index.ts';
import type { ToolModel } from '../model/model.ts';
import type { PageSection } from '../core/page-sections.ts';

export type ToolSectionId =
  | 'input'
  | 'check-payload'
  | 'hooks'
  | 'result'
  | 'examples'
  | 'model-description'
  | 'model-input'
  | 'sdk-differences'
  | 'definition-by-configuration'
  | 'availability'
  | 'subagents'
  | 'permissions'
  | 'aliases'
  | 'lifecycle'
  | 'version-notes'
  | 'jobs'
  | 'provenance';

export type ToolSection = PageSection<ToolSectionId>;

/** What decides whether an optional section appears. */
export interface ToolPageContext {
  /** Jobs this tool does (from its editorial file). */
  jobCount: number;
  /** It starts its agent's subagents, whose tool sets are recorded (subagents.ts). */
  startsSubagents?: boolean;
  /** Its agent has hooks: the page says what they receive and may answer for it, right after Input. */
  hooks?: boolean;
}

/**
 * The sections of a tool page in reading order: what it takes and returns
 * first (that is what people come for), then what the model is told, what
 * turns it on, its names, failures, history and where every fact comes from.
 */
export function toolSections(tool: ToolModel, context: ToolPageContext): ToolSection[] {
  const sections: ToolSection[] = [
    { id: 'input', title: 'Input', depth: 2 },
    // What a hook author asks first (what a hook receives, what it may answer) comes right after the input,
    // with the payload checker under it: it checks a hook's payload as well as the model's input.
    ...(context.hooks ? [{ id: 'hooks', title: 'In hooks', depth: 2 } as const] : []),
    ...(tool.facts.payloadCheck ? [{ id: 'check-payload', title: 'Check a payload', depth: 3 } as const] : []),
    { id: 'result', title: 'Result', depth: 2 },
  ];
  // Real calls come right after the shapes they illustrate.
  if ((tool.examples?.length ?? 0) > 0 || tool.notRun) sections.push({ id: 'examples', title: 'Examples', depth: 2 });
  const entry = tool.captured;
  if (entry) sections.push({ id: 'model-description', title: 'What the model is told', depth: 2 });
  if (tool.modelInput) {
    sections.push({ id: 'model-input', title: 'Model-facing input', depth: 2 });
    // Differences get their own heading; "the same fields" or "not compared" is one sentence under the table.
    if ((tool.modelInput.differences?.length ?? 0) > 0)
      sections.push({ id: 'sdk-differences', title: 'Published type versus model-facing schema', depth: 3 });
  }
  if (entry && distinctInputs(entry).length > 1) {
    sections.push({ id: 'definition-by-configuration', title: 'Definitions that differ by configuration', depth: 3 });
  }
  sections.push(
    { id: 'availability', title: 'What turns it on', depth: 2 },
    ...(context.startsSubagents ? [{ id: 'subagents', title: 'Subagent tool sets', depth: 2 } as const] : []),
    { id: 'permissions', title: 'Allow or block it', depth: 2 },
    { id: 'aliases', title: 'Names and aliases', depth: 2 },
    { id: 'lifecycle', title: 'Failures and lifecycle', depth: 2 },
    { id: 'version-notes', title: 'Version history', depth: 2 },
  );
  if (context.jobCount > 0) sections.push({ id: 'jobs', title: 'Jobs it does', depth: 2 });
  sections.push({ id: 'provenance', title: 'Provenance', depth: 2 });
  return sections;
}

/** Looks up one section of a page's list; undefined when the page does not have it. */
export function sectionOf(sections: readonly ToolSection[], id: ToolSectionId): ToolSection | undefined {
  return sections.find((s) => s.id === id);
}

/** One outcome of the capture matrix for a tool, with every configuration that had it. */
export interface AvailabilityGroup {
  /** How the tool was advertised, or `absent` when it was not. */
  outcome: Delivery | 'absent';
  label: string;
  configurations: MatrixConfiguration[];
}

export interface AvailabilitySummary {
  advertisedIn: number;
  total: number;
  groups: AvailabilityGroup[];
}

/**
 * Configurations grouped by outcome, in the order the outcomes first occur in
 * the matrix, with `absent` last: "function (JSON Schema): 19 configurations;
 * not advertised: 2" reads faster than 21 rows.
 */
export function availabilitySummary(tool: ToolModel, matrix: MatrixAgent): AvailabilitySummary {
  const groups = new Map<Delivery | 'absent', MatrixConfiguration[]>();
  let advertisedIn = 0;
  for (const configuration of matrix.configurations) {
    const seen = tool.captured?.byConfig.get(configuration.id);
    if (seen) advertisedIn++;
    const outcome = seen?.delivery ?? 'absent';
    groups.set(outcome, [...(groups.get(outcome) ?? []), configuration]);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => Number(a === 'absent') - Number(b === 'absent'));
  return {
    advertisedIn,
    total: matrix.configurations.length,
    groups: ordered.map(([outcome, configurations]) => ({
      outcome,
      label: outcome === 'absent' ? 'not advertised' : DELIVERY_LABELS[outcome],
      configurations,
    })),
  };
}

/** The configuration whose captured description and settings the page shows, when the tool was captured. */
export function describedConfiguration(tool: ToolModel): string | undefined {
  return tool.captured ? primaryConfiguration(tool.captured) : undefined;
}

/**
 * Definitions longer than this (in characters) are not highlighted inside the
 * page: highlighting multiplies their size about fifteen-fold (85 KB of
 * AskUserQuestion types became 518 KB of HTML). They are published as their
 * own file, linked from the page and loaded when the reader expands them.
 * The field tables above them carry the same fields, so the collapsed copy only
 * costs parsing: at 4096 the Bash page held 61 KB (a quarter of its HTML) of
 * highlighted definitions nobody had opened.
 */
export const INLINE_DEFINITION_LIMIT = 1024;

export interface DefinitionFile {
  section: Extract<ToolSectionId, 'input' | 'result' | 'model-input'>;
  /** File name inside the tool's folder: `input.d.ts.txt` (hosts often serve `.ts` as video), `model-input.json`. */
  fileName: string;
  text: string;
  inline: boolean;
}

/** Every full definition of a tool page, as the file it is also published as. */
export function definitionFiles(tool: ToolModel): DefinitionFile[] {
  const views = [
    ['input', tool.input],
    ['result', tool.output],
    ['model-input', tool.modelInput?.view],
  ] as const;
  const files: DefinitionFile[] = [];
  for (const [section, view] of views) {
    if (!view?.code || view.definition.kind === 'grammar') continue;
    const extension = view.code.lang === 'ts' ? 'd.ts.txt' : view.code.lang;
    files.push({
      section,
      fileName: `${section}.${extension}`,
      text: view.code.text,
      inline: view.code.text.length <= INLINE_DEFINITION_LIMIT,
    });
  }
  return files;
}

/**
 * Rows of a field table shown before its fold. Bash's Result has 40 rows (its
 * pull-request members among them), three screens at 1280 px; past this many the
 * table goes on behind one line. The cut falls before a top-level field, so that
 * a field and its members stay together.
 */
export const OPEN_FIELD_ROWS = 14;
/** A table folds only when at least this many rows would go behind the fold. */
const FOLD_AT_LEAST = 5;

/**
 * How many of `rows` to show open: all of them, or up to the last top-level field that starts within OPEN_FIELD_ROWS.
 */
export function openRowCount(rows: readonly { depth: number }[], limit: number = OPEN_FIELD_ROWS): number {
  if (rows.length - limit < FOLD_AT_LEAST) return rows.length;
  let cut = 0;
  for (let i = 1; i <= limit; i++) if (rows[i]?.depth === 0) cut = i;
  return cut > 0 && rows.length - cut >= FOLD_AT_LEAST ? cut : rows.length;
}
