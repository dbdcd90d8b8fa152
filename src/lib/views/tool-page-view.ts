/**
 * Everything a tool page shows, decided from the site model in one place: its
 * sections (tool-page.ts), the fact line, the same job in other agents, each
 * definition with its file and "since" legend, the payload checker, the recorded
 * examples, what the model is told, what turns it on, its names, its version
 * history and its provenance. ToolPage.astro and the components it uses only
 * render this.
 */
import { hookWords } from '../behaviour/hook-words.ts';
import { placeholderSegments, placeholdersIn, type TextSegment } from '../model/placeholders.ts';
import { distinctInputs, primaryConfiguration, type MatrixAgent } from '../model/captures.ts';
import { counterparts } from '../model/comparison.ts';
import type { AgentRecord, EditorialTool } from '../core/content-types.ts';
import { exampleParts, inputFieldLinks, shortened } from './examples.ts';
import type { FormerName, Since } from '../model/history-facts.ts';
import { spanWhen } from '../history/event-span.ts';
import { versionHistory, type VersionHistoryView } from './history-pages.ts';
import {
  fieldTables,
  otherInputRows,
  type DefinitionView,
  type SiteModel,
  type ToolExample,
  type ToolModel,
} from '../model/model.ts';
import type { FieldRow } from '../shapes/field-rows.ts';
import { DEFAULT_HOOK_FIELDS, formText, type CheckedSection, type HookRecord } from '../check/payload-check-ui.ts';
import type { SubagentTable } from '../model/subagent-facts.ts';
import { agentToolPermissions, type ToolPermissions } from '../behaviour/permissions.ts';
import { permissionRulesOfThumb } from '../behaviour/permission-words.ts';
import type { RuleOfThumb } from '../behaviour/rules-of-thumb.ts';
import type { AgentBundle } from '../model/bundles.ts';
import { AGENT_LABELS, GROUP_LABELS, jobUrl, sitePath, toolUrl } from '../site/site.ts';
import { releaseDescription, releaseLabel, releaseVersions, type Release } from '../model/releases.ts';
import { searchFields, type SearchFields } from './search.ts';
import { supportStrip, type SupportStrip } from './support.ts';
import { toolHooksView, type ToolHooksView } from './tool-hooks.ts';
import { typedName } from '../model/tool-names.ts';
import {
  availabilitySummary,
  definitionFiles,
  openRowCount,
  sectionOf,
  toolSections,
  type AvailabilitySummary,
  type DefinitionFile,
  type ToolSection,
  type ToolSectionId,
} from './tool-page.ts';

/** Tools of other agents, one group per agent in registry order. */
export interface AgentTools {
  label: string;
  tools: { url: string; name: string }[];
}

/** Input, Result or the model-facing input: its heading, definition, file and "since" legend. */
export interface DefinitionSectionView {
  section: ToolSection;
  view: DefinitionView;
  /** The definition as its own file (every definition but a grammar has one). */
  file: DefinitionFile | undefined;
  /** Its size as the collapsed block says it, when there is a file. */
  size: string | undefined;
  /** The release each row's field was added in, when a release history covers the table. */
  since: ReadonlyMap<string, Since>;
  /**
   * Present when some row of this table has a "since" entry: what rows without a badge date from, and whether this
   * table explains the badge (the page's first with one does).
   */
  sinceLegend?: { base: Since | undefined; explains: boolean };
  /** Placeholders a captured definition's text holds (not verbatim): the legend under it. */
  placeholders: { token: string; meaning: string }[];
  /** How many rows the table shows before its fold (all of them when it is short). */
  openRows: number;
}

export interface PayloadCheckView {
  section: ToolSection;
  /** The tool's callable name. */
  name: string;
  /** Every name a payload may call it by (its own, then accepted aliases and former names). */
  names: string[];
  schemaFile: string;
  validatorFile: string;
  /** The table (and schema) checked against. */
  root: CheckedSection;
  /** Whether that is the model-facing schema rather than the input's. */
  modelFacing: boolean;
  /** Agent and version: `<product> <version>`. */
  release: string;
  /** What the verdict says it checked against. */
  schemaLabel: string;
  /** The checker script, loaded when the reader opens the form. */
  checkerUrl: string;
  /**
   * What the site recorded of the tool's hook payloads: the names hooks give it, and their tool_input's form when it is
   * not the model's input.
   */
  hook: HookRecord;
  /** The id of the section showing the recorded payloads, when the page has one. */
  examples: string | undefined;
  /** What the form does with a hook payload, in a sentence. */
  hookText: string;
}

export interface ExampleView {
  scenario: string;
  /** The line its fold shows: `Input, result and 2 more recorded blocks`, or `2 calls: …`. */
  summary: string;
  expect: ToolExample['expect'];
  description: string;
  configuration: string;
  calls: {
    tool: string;
    own: boolean;
    /** Made inside a subagent an earlier call of the example started. */
    inSubagent: boolean;
    /** In reading order; the first two are highlighted, the hook payloads folded. */
    parts: { title: string; text: string; lang: 'text' | 'json'; highlighted: boolean }[];
    /** The fields of an object input of this page's tool, each with its row when the page has one. */
    fields: { name: string; anchor?: string }[] | undefined;
  }[];
  findings: { anchor: string; href: string | undefined; parts: string[]; message: string }[];
}

export interface ModelFacingView {
  /** What the model is told in the configuration the page shows first. */
  description?: {
    section: ToolSection;
    configuration: string;
    /** `N characters`, or `none`. */
    length: string;
    text: string | undefined;
    /** The text cut at the capture's placeholders, which the page marks as not verbatim. */
    segments: TextSegment[];
    /** Other fields sent with the tool, as JSON. */
    settings: string | undefined;
    /** The placeholders in the description and the other fields, each once: the legend. */
    placeholders: { token: string; meaning: string }[];
    hosted: boolean;
    /** The description is one our stub made up, and why: not upstream text. */
    standIn: string | undefined;
  };
  modelInput?: {
    definition: DefinitionSectionView;
    /** Its own heading when there are differences to list; otherwise one sentence under the table says so. */
    differencesSection: ToolSection | undefined;
    configuration: string;
    /** Undefined when the two were not compared field by field. */
    differences: { path: string; text: string; first: string | undefined; second: string | undefined }[] | undefined;
  };
  byConfiguration?: {
    section: ToolSection;
    /** `input`: the fields of a schema other than the one shown first (ids prefixed, see otherInputRows). */
    groups: {
      configurations: string[];
      kind: string;
      otherDescription: boolean;
      input: { rows: FieldRow[]; label: string } | undefined;
    }[];
  };
}

export interface ToolPageView {
  title: string;
  description: string;
  sections: ToolSection[];
  /** `<product> <version>` of the tool's own definition (its input's source). */
  release: string;
  /** When parts of the page come from other releases than its input: which from which. */
  releaseNote: string | undefined;
  agent: AgentRecord;
  /** Its search result's title, agent filter and names as spelled. */
  search: SearchFields;
  facts: {
    group: string;
    /**
     * Its name, then its accepted aliases and former names: as typed, as search indexes it (lowercased), and the
     * punctuation after it (`,` between aliases, `)` after the last).
     */
    calledAs: { name: string; indexed: string; after: string }[];
    /** The names search indexes, lowercased, space-separated. */
    searchNames: string;
    availability: { advertisedIn: number; total: number } | undefined;
  };
  /** Releases, gates and names in hooks and for the model, in one strip (support.ts). */
  support: SupportStrip;
  /** The tool sets of the subagents it starts, on the page of the tool that starts them. */
  subagents: { section: ToolSection; table: SubagentTable } | undefined;
  /** Allow or block it: the permission cases that called it, and the agent's page. */
  permissions: {
    section: ToolSection /** What its cases came to, per kind of rule, each clause linked to its cases. */;
    rules: RuleOfThumb[];
  } & ToolPermissions;
  /**
   * The main job's tools in other agents, when some agent has one; `folded` when they are more
   * than COUNTERPARTS_OPEN, so that a long list does not push Input down the first screens.
   */
  counterparts: { job: string; url: string; agents: AgentTools[]; folded: boolean } | undefined;
  input: DefinitionSectionView;
  payloadCheck: PayloadCheckView | undefined;
  /** What a hook receives for this tool and what a hook's answers did to it, when its agent has hooks. */
  hooks: ({ section: ToolSection } & ToolHooksView) | undefined;
  result: DefinitionSectionView;
  /** `<product> <version>`s the examples were recorded with. */
  examples:
    | {
        section: ToolSection;
        notRun: string | undefined;
        list: ExampleView[];
        release: string /** How the hook payloads were recorded (hook-words.ts). */;
        recorder: string;
      }
    | undefined;
  modelFacing: ModelFacingView;
  availability: { section: ToolSection; evidence: { matrix: MatrixAgent; summary: AvailabilitySummary } | undefined };
  aliases: { section: ToolSection; list: { name: string; indexed: boolean; kind: string; evidence: string }[] };
  lifecycle: { section: ToolSection };
  history: { section: ToolSection; view: VersionHistoryView };
  jobs: { section: ToolSection; list: { title: string; url: string; agents: AgentTools[] }[] } | undefined;
  /** `origins`: the captures the page's definitions were read from (a reader section names only the release). */
  provenance: {
    section: ToolSection;
    files: { title: string; fileName: string }[];
    origins: { title: string; file: string; package: string; version: string }[];
    /** The generated file's sources, those read the same way from the same release on the same day as one entry. */
    sources: { files: string[]; release: string; method: string; date: string }[];
  };
}

const ALIAS_KINDS = {
  'accepted-alias': 'accepted alias',
  'former-name': 'former name, still accepted',
  'sdk-type': 'SDK type name',
} as const;
const DIFFERENCE_TEXT = {
  'only-in-first': 'only in the published type',
  'only-in-second': 'only in the model-facing schema',
  required: 'required differs',
  type: 'type differs',
} as const;

/** Tools grouped by agent, in the order given. */
/**
 * How many counterpart tools are listed open above Input. Agent, say, has 22 in nine other
 * agents, which at 375 px put Input two screens down; a longer list is folded behind its count.
 */
export const COUNTERPARTS_OPEN = 8;

function byAgent(tools: readonly ToolModel[]): AgentTools[] {
  const groups = new Map<ToolModel['agent'], ToolModel[]>();
  for (const t of tools) groups.set(t.agent, [...(groups.get(t.agent) ?? []), t]);
  return [...groups].map(([agent, list]) => ({
    label: AGENT_LABELS[agent],
    tools: list.map((t) => ({ url: toolUrl(t), name: t.fullName })),
  }));
}

/** A section the page always has. */
function required(sections: readonly ToolSection[], id: ToolSectionId): ToolSection {
  const section = sectionOf(sections, id);
  if (!section) throw new Error(`tool page: no section ${id}`);
  return section;
}

/** The size of a definition file as the collapsed block names it: `1.2 KB, 40 lines`. */
export function fileSize(text: string): string {
  return `${(new TextEncoder().encode(text).length / 1024).toFixed(1)} KB, ${text.split('\n').length} lines`;
}

export function definitionSection(
  section: ToolSection,
  view: DefinitionView,
  file: DefinitionFile | undefined,
  since: ReadonlyMap<string, Since>,
): DefinitionSectionView {
  // When a release history covers this table: its rows' "since" entries, and the first release compared.
  const sinceHere = view.rows.flatMap((r) => since.get(r.id) ?? []);
  const captured =
    view.definition.kind !== 'unavailable' && view.definition.origin.file.startsWith('content/captures/');
  const out: DefinitionSectionView = {
    section,
    view,
    file,
    size: file && fileSize(file.text),
    since,
    placeholders: captured ? placeholdersIn(view.code?.text) : [],
    openRows: openRowCount(view.rows),
  };
  if (sinceHere.length > 0) out.sinceLegend = { base: sinceHere.find((s) => s.kind !== 'field'), explains: true };
  return out;
}

/** The line an example's fold shows: what opening it reveals. */
export function exampleSummary(calls: number, more: number): string {
  const what = `input, result${more > 0 ? ` and ${more} more recorded ${more === 1 ? 'block' : 'blocks'}` : ''}`;
  return calls > 1 ? `${calls} calls: ${what}` : what.charAt(0).toUpperCase() + what.slice(1);
}

/** The recorded examples, their hook payloads titled through the agent's hook shape. */
export function examplesView(tool: ToolModel, hooks: Pick<AgentBundle, 'hookShape' | 'hookMechanism'>): ExampleView[] {
  const anchors = new Set(fieldTables(tool).flatMap((t) => t.rows.map((r) => r.id)));
  return (tool.examples ?? []).map((example) => {
    const calls: ExampleView['calls'] = example.calls.map((call) => ({
      tool: call.tool,
      own: call.own,
      inSubagent: call.inSubagent === true,
      parts: exampleParts(call, hooks.hookShape, hooks.hookMechanism?.recordTitle).map((part, k) => {
        const plain = typeof part.value === 'string';
        return {
          title: part.title,
          text: plain ? (part.value as string) : JSON.stringify(shortened(part.value), null, 2),
          lang: plain ? 'text' : 'json',
          highlighted: k < 2,
        };
      }),
      fields: call.own && typeof call.input === 'object' ? inputFieldLinks(call.input, anchors) : undefined,
    }));
    return {
      scenario: example.scenario,
      summary: exampleSummary(
        calls.length,
        calls.reduce((n, c) => n + c.parts.filter((p) => !p.highlighted).length, 0),
      ),
      expect: example.expect,
      description: example.description,
      configuration: example.configuration,
      calls,
      findings: example.findings.map((f) => ({
        anchor: f.anchor,
        href: anchors.has(f.anchor) || (f.kind === 'rule-contradicted' && tool.captured) ? `#${f.anchor}` : undefined,
        parts: f.parts,
        message: f.message,
      })),
    };
  });
}

/**
 * Configurations that sent the tool alike, as one group: what kind of definition, and its own fields if they differ.
 */
function configurationGroup(
  tool: ToolModel,
  g: ReturnType<typeof distinctInputs>[number],
  primaryDescription: string | undefined,
  configurationLabel: (id: string) => string,
): NonNullable<ModelFacingView['byConfiguration']>['groups'][number] {
  const other = tool.otherInputs?.find((o) => o.configs[0] === g.configs[0]);
  const kind = g.tool.input.kind;
  return {
    configurations: g.configs.map(configurationLabel),
    kind: kind === 'typescript' ? 'TypeScript declaration' : kind === 'grammar' ? 'grammar' : 'JSON Schema',
    otherDescription: g.tool.description !== primaryDescription,
    input: other && {
      rows: otherInputRows(other),
      label: `Input fields in ${g.configs.map(configurationLabel).join(', ')}`,
    },
  };
}

export function modelFacingView(
  tool: ToolModel,
  sections: readonly ToolSection[],
  configurationLabel: (id: string) => string,
  file: DefinitionFile | undefined,
  since: ReadonlyMap<string, Since>,
): ModelFacingView {
  const entry = tool.captured;
  const view: ModelFacingView = {};
  const primaryId = entry && primaryConfiguration(entry);
  const primary = entry && primaryId !== undefined ? entry.byConfig.get(primaryId) : undefined;
  if (primary && primaryId !== undefined) {
    view.description = {
      section: required(sections, 'model-description'),
      configuration: configurationLabel(primaryId),
      length: primary.description ? `${primary.description.length} characters` : 'none',
      text: primary.description,
      segments: placeholderSegments(primary.description ?? ''),
      settings: primary.settings ? JSON.stringify(primary.settings, null, 2) : undefined,
      placeholders: placeholdersIn(
        `${primary.description ?? ''}\n${primary.settings ? JSON.stringify(primary.settings) : ''}`,
      ),
      hosted: primary.delivery === 'hosted',
      standIn: tool.standIn,
    };
  }
  if (tool.modelInput) {
    const { differences } = tool.modelInput;
    view.modelInput = {
      definition: definitionSection(required(sections, 'model-input'), tool.modelInput.view, file, since),
      differencesSection: sectionOf(sections, 'sdk-differences'),
      configuration: configurationLabel(tool.modelInput.config),
      differences: differences?.map((d) => ({
        path: d.path,
        text: DIFFERENCE_TEXT[d.kind],
        first: d.first,
        second: d.second,
      })),
    };
  }
  const groups = entry ? distinctInputs(entry) : [];
  if (groups.length > 1) {
    view.byConfiguration = {
      section: required(sections, 'definition-by-configuration'),
      groups: groups.map((g) => configurationGroup(tool, g, primary?.description, configurationLabel)),
    };
  }
  return view;
}

/** What the checker does with a hook payload of this tool, as the section's introduction says it. */
export function hookText(name: string, hook: HookRecord): string {
  const outputs = hook.outputs;
  const answer = outputs
    ? ` So does a hook's answer, the JSON a hook prints (members such as ` +
      `${outputs.members.slice(0, 3).join(', ')}): it is checked against what a ` +
      `${outputs.events.map((e) => e.event).join(' or ')} hook may return, as ${outputs.source} declares it.`
    : '';
  return payloadText(name, hook) + answer;
}

function payloadText(name: string, hook: HookRecord): string {
  const recorded =
    `${hook.count} recorded hook ` +
    `${hook.count === 1 ? 'payload' : 'payloads'}${hook.release ? ` (${hook.release})` : ''}`;
  // The member names of the agent's own payloads, every form (Copilot CLI: toolArgs, or tool_input in its PascalCase
  // payloads).
  const forms = [hook.fields ?? DEFAULT_HOOK_FIELDS, ...(hook.otherFields ?? [])];
  const or = (items: string[]) => [...new Set(items)].join(' or ');
  const input = or(forms.map((f) => f.input));
  const toolName = or(forms.map((f) => f.toolName));
  const object = `an object with ${input}`;
  if (hook.form) {
    return (
      `A hook payload (${object}) works too, but ${name}'s hooks do not receive the model's input: the ` +
      `${recorded} ${hook.count === 1 ? 'names' : 'name'} it ${hook.names.join(' or ')}, with a ${input} that ` +
      `is ${formText(hook.form)}. Its ${input} is compared with those, not with the schema.`
    );
  }
  if (hook.count > 0)
    return (
      `A hook payload (${object}) works too: its ${input} is checked, as the ${recorded} carry the model's ` +
      `input, and its ${toolName} must be one this tool answers to.`
    );
  return (
    `A hook payload (${object}) works too: its ${input} is checked against the same schema, though the site ` +
    `has no recorded hook payload of ${name} to show that its hooks receive the model's input unchanged.`
  );
}

/**
 * "Input and result from Claude Code 2.1.333 (read from … 0.3.333; not published as a CLI);
 * model-facing input and examples from Claude Code 2.1.332." when the parts differ.
 */
export function toolReleaseNote(tool: ToolModel): string | undefined {
  const { input, result, modelInput } = tool.releases;
  const parts: { words: string; label: string; description: string }[] = [];
  const add = (words: string, release: Release | undefined) =>
    release && parts.push({ words, label: releaseLabel(release), description: releaseDescription(release) });
  add(input === result ? 'input and result' : 'input', input);
  if (input !== result) add('result', result);
  add('model-facing input', modelInput);
  const recorded = tool.facts.examplesRelease;
  if (recorded) parts.push({ words: 'examples', label: recorded, description: recorded });
  if (new Set(parts.map((p) => p.label)).size <= 1) return undefined;
  const clauses = new Map<string, { words: string[]; description: string }>();
  for (const part of parts) {
    const clause =
      clauses.get(part.label) ?? clauses.set(part.label, { words: [], description: part.description }).get(part.label)!;
    clause.words.push(part.words);
  }
  const text = [...clauses.values()].map((c) => `${c.words.join(' and ')} from ${c.description}`).join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * The "Check a payload" section: which schema the checker validates against, from which release, and the hook payload
 * it also reads.
 */
function payloadCheckView(
  tool: ToolModel,
  sections: readonly ToolSection[],
  release: string,
): ToolPageView['payloadCheck'] {
  const record = tool.facts.payloadCheck;
  const checkSection = sectionOf(sections, 'check-payload');
  if (!checkSection || !record) return undefined;
  const { target, names, hook } = record;
  const examplesSection = sectionOf(sections, 'examples');
  const modelFacing = target.section === 'model-input';
  const checked = modelFacing ? tool.releases.modelInput : tool.releases.input;
  const checkRelease = checked ? releaseLabel(checked) : release;
  return {
    section: checkSection,
    name: tool.fullName,
    names,
    schemaFile: target.schemaFile,
    validatorFile: target.validatorFile,
    root: target.section,
    modelFacing,
    release: checkRelease,
    schemaLabel: `the ${modelFacing ? 'model-facing schema' : 'input schema'} of ${tool.fullName} (${checkRelease})`,
    checkerUrl: sitePath('payload-check/scripts/payload-check.js'),
    hook,
    examples: examplesSection?.id,
    hookText: hookText(tool.fullName, hook),
  };
}

/**
 * Sources read the same way from the same release on the same day, as one entry: Codex's exec_command has 40 captures
 * of one release.
 */
export function sourceGroups(
  provenance: readonly { file: string; package: string; version: string; method: string; date: string }[],
): ToolPageView['provenance']['sources'] {
  const groups = new Map<string, ToolPageView['provenance']['sources'][number]>();
  for (const p of provenance) {
    const release = `${p.package}@${p.version}`;
    const key = JSON.stringify([release, p.method, p.date]);
    const group = groups.get(key) ?? groups.set(key, { files: [], release, method: p.method, date: p.date }).get(key)!;
    group.files.push(p.file);
  }
  return [...groups.values()];
}

/** The captured files the page's Input, Result and model-facing input were read from, for Provenance. */
function capturedOrigins(tool: ToolModel, sections: readonly ToolSection[]): ToolPageView['provenance']['origins'] {
  const definitions = [
    ['input', tool.input],
    ['result', tool.output],
    ['model-input', tool.modelInput?.view],
  ] as const;
  return definitions.flatMap(([id, view]) => {
    const def = view?.definition;
    if (!def || def.kind === 'unavailable' || !def.origin.file.startsWith('content/')) return [];
    return [
      {
        title: required(sections, id).title,
        file: def.origin.file,
        package: def.origin.package,
        version: def.origin.version,
      },
    ];
  });
}

/** "Allow or block it": the permission cases that called the tool, and their rules of thumb. */
function toolPermissionsSection(
  bundle: AgentBundle,
  tool: ToolModel,
  sections: readonly ToolSection[],
): ToolPageView['permissions'] {
  const agentWide = agentToolPermissions(bundle, bundle.record.id);
  const cases = new Set(tool.facts.permissionCases);
  const rows = agentWide.rows.filter((r) => cases.has(r.case));
  return {
    section: required(sections, 'permissions'),
    rules: permissionRulesOfThumb(rows),
    ...agentWide,
    rows,
  };
}

/** Every other name of the tool: its aliases, then the names a history saw it renamed from. */
function aliasList(tool: ToolModel, former: readonly FormerName[]): ToolPageView['aliases']['list'] {
  return [
    ...tool.generated.aliases.map((a) => ({
      name: a.name,
      indexed: a.kind === 'sdk-type',
      kind: ALIAS_KINDS[a.kind],
      evidence: a.evidence,
    })),
    ...former.map((f) => ({
      name: f.name,
      indexed: false,
      kind: `former name, renamed to ${f.renamedTo} ${spanWhen(f.span)}`,
      evidence: `computed release history of the ${f.source === 'sdk' ? 'published SDK types' : 'captures'}`,
    })),
  ];
}

/**
 * The release of the tool's own definition (the header says so when its other parts come from another); without a
 * source release (a documented tool), the agent's, as its record names it.
 */
function toolRelease(bundle: AgentBundle, tool: ToolModel): string {
  const primary = tool.releases.input ?? tool.releases.modelInput;
  return primary
    ? releaseLabel(primary)
    : `${AGENT_LABELS[tool.agent]} ${releaseVersions(bundle.releases ?? { examples: [] }) || bundle.record.version}`;
}

/**
 * The fact line under the title: group, the names it is called by (as shown and as search indexes them), how widely it
 * is advertised.
 */
function factLine(
  tool: ToolModel,
  names: readonly string[],
  former: readonly FormerName[],
  summary: AvailabilitySummary | undefined,
): ToolPageView['facts'] {
  return {
    group: GROUP_LABELS[tool.generated.group],
    calledAs: names.map((name, i) => ({
      name,
      indexed: typedName(name),
      after: names.length > 1 && i === names.length - 1 ? ')' : i >= 1 ? ',' : '',
    })),
    // Lowercased so that search does not split them at case changes: `killbash` must not match `Bash`.
    searchNames: [...names, ...former.map((f) => f.name)].map(typedName).join(' '),
    availability: summary && { advertisedIn: summary.advertisedIn, total: summary.total },
  };
}

/**
 * The "since" badge is explained once per page, above the first table that has one; later tables only say what rows
 * without one date from.
 */
function explainBadgesOnce(tables: readonly (DefinitionSectionView | undefined)[]): void {
  let explained = false;
  for (const table of tables) {
    if (!table?.sinceLegend) continue;
    table.sinceLegend.explains = !explained;
    explained = true;
  }
}

/** What a tool's page shows of the job it does: the other agents' tools for its main job, and every job's. */
function jobParts(
  site: SiteModel,
  tool: ToolModel,
  sections: readonly ToolSection[],
): Pick<ToolPageView, 'counterparts' | 'jobs'> {
  // Per job of this tool (its main job first): the other agents' tools that do it.
  const sameJob = counterparts(
    tool,
    site.jobs,
    site.tools,
    site.agents.map((a) => a.id),
  );
  const main = sameJob[0];
  const jobsSection = sectionOf(sections, 'jobs');
  return {
    counterparts:
      main && main.tools.length > 0
        ? {
            job: main.job.title.toLowerCase(),
            url: jobUrl(main.job.id),
            agents: byAgent(main.tools),
            folded: main.tools.length > COUNTERPARTS_OPEN,
          }
        : undefined,
    jobs: jobsSection && {
      section: jobsSection,
      list: sameJob.map(({ job, tools }) => ({ title: job.title, url: jobUrl(job.id), agents: byAgent(tools) })),
    },
  };
}

/** The three definitions (input, result, what the model was sent), each with its table, file and "since" badges. */
function definitionParts(
  bundle: AgentBundle,
  tool: ToolModel,
  sections: readonly ToolSection[],
): Pick<ToolPageView, 'input' | 'result' | 'modelFacing'> {
  const labels = new Map((bundle.matrix?.configurations ?? []).map((c) => [c.id, c.label]));
  const configurationLabel = (id: string) => labels.get(id) ?? id;
  const files = definitionFiles(tool);
  const fileOf = (id: DefinitionFile['section']) => files.find((f) => f.section === id);
  const since = tool.facts.history.fieldSince;
  return {
    input: definitionSection(required(sections, 'input'), tool.input, fileOf('input'), since),
    result: definitionSection(required(sections, 'result'), tool.output, fileOf('result'), since),
    modelFacing: modelFacingView(tool, sections, configurationLabel, fileOf('model-input'), since),
  };
}

/** The evidence sections below the definitions: where it is advertised, its names, its history, its sources. */
function evidenceParts(
  bundle: AgentBundle,
  tool: ToolModel,
  sections: readonly ToolSection[],
  former: readonly FormerName[],
  summary: AvailabilitySummary | undefined,
): Pick<ToolPageView, 'availability' | 'aliases' | 'lifecycle' | 'history' | 'provenance'> {
  const matrix = bundle.matrix;
  return {
    availability: { section: required(sections, 'availability'), evidence: matrix && summary && { matrix, summary } },
    aliases: { section: required(sections, 'aliases'), list: aliasList(tool, former) },
    lifecycle: { section: required(sections, 'lifecycle') },
    history: { section: required(sections, 'version-notes'), view: versionHistory(tool, bundle) },
    provenance: {
      section: required(sections, 'provenance'),
      files: definitionFiles(tool).map((f) => ({
        title: required(sections, f.section).title.toLowerCase(),
        fileName: f.fileName,
      })),
      origins: capturedOrigins(tool, sections),
      sources: sourceGroups(tool.generated.provenance),
    },
  };
}

/**
 * The tool's page, from the tool, its agent's bundle (the route looks it up, once) and the site model, which serves
 * what spans agents (jobs, the other agents' tools that do the same job).
 */
export function toolPageView(tool: ToolModel, bundle: AgentBundle, site: SiteModel): ToolPageView {
  const editorial: EditorialTool | undefined = tool.editorial;
  const subagents = tool.facts.subagents.table;
  const hooks = toolHooksView(tool, bundle);
  const sections = toolSections(tool, {
    jobCount: site.jobs.filter((j) => editorial?.jobs.includes(j.id)).length,
    startsSubagents: subagents !== undefined,
    hooks: hooks !== undefined,
  });
  const release = toolRelease(bundle, tool);
  const summary = bundle.matrix ? availabilitySummary(tool, bundle.matrix) : undefined;
  const former = tool.facts.history.formerNames;
  const examplesSection = sectionOf(sections, 'examples');
  const view: ToolPageView = {
    title: tool.fullName,
    description: `${AGENT_LABELS[tool.agent]} tool ${tool.fullName}: ${editorial?.summary ?? 'input and result'}`,
    sections,
    release,
    releaseNote: toolReleaseNote(tool),
    agent: bundle.record,
    // Names a history saw it renamed from are searched too (a reader may only know the old one), as past names.
    search: searchFields(
      tool.agent,
      tool.facts.everyName,
      release,
      former.map((f) => f.name),
    ),
    facts: factLine(tool, tool.facts.callableNames, former, summary),
    support: supportStrip(tool, tool.facts.history.place, hooks?.answers.length ?? 0, tool.facts.subagents.line),
    subagents: subagents && { section: required(sections, 'subagents'), table: subagents },
    permissions: toolPermissionsSection(bundle, tool, sections),
    payloadCheck: payloadCheckView(tool, sections, release),
    hooks: hooks && { section: required(sections, 'hooks'), ...hooks },
    examples: examplesSection && {
      section: examplesSection,
      notRun: tool.notRun,
      list: examplesView(tool, bundle),
      release: tool.facts.examplesRelease ?? release,
      recorder: hookWords(bundle.record.id).recorder,
    },
    ...jobParts(site, tool, sections),
    ...definitionParts(bundle, tool, sections),
    ...evidenceParts(bundle, tool, sections, former, summary),
  };
  explainBadgesOnce([view.input, view.result, view.modelFacing.modelInput?.definition]);
  return view;
}
