/**
 * The hooks page of an agent (`/<agent>/hooks/`) and the page comparing every
 * agent's hooks (`/hooks/`), decided from the site model: what was recorded
 * (hooks.ts), the editorial facts with their evidence (content/hooks/<agent>.json),
 * the registry's reason where nothing was recorded, and the hook schemas
 * (hook-schemas.ts). The Astro pages only render this. Pure.
 */
import { hooksSearchFields, type HooksSearchFields } from './search.ts';
import { AGENTS } from '../agents/index.ts';
import type { HookShape } from '../agents/types.ts';
import type { AgentId, Evidence } from '../core/content-types.ts';
import { eventSchemaPath, toolHookSchemaPath } from '../behaviour/hook-schemas.ts';
import { agentHooks, hookForms, hookNames, type AgentHooks, type EnvelopeMember } from '../behaviour/hooks.ts';
import { hookWords, type HookWords } from '../behaviour/hook-words.ts';
import { hookOutputsView, type HookOutputsView, type OutputEventView } from '../behaviour/hook-outputs.ts';
import {
  behaviourComparison,
  behaviourHistorySummary,
  behaviourRows,
  sharedHookConfiguration,
  type BehaviourComparisonRow,
  type BehaviourRow,
} from '../behaviour/hook-behaviour.ts';
import { rulesOfThumb, type RuleOfThumb } from '../behaviour/rules-of-thumb.ts';
import type { HooksEditorial, SiteModel, ToolModel } from '../model/model.ts';
import { type AgentBundle, agentBundle, agentBundles } from '../model/bundles.ts';
import type { PageSection } from '../core/page-sections.ts';
import { AGENT_LABELS, sitePath, toolUrl } from '../site/site.ts';

export const HOOKS_PATH = '/hooks/';

/** Site-relative path (no base) of an agent's hooks page. */
export function hooksPath(agent: AgentId): string {
  return `/${agent}/hooks/`;
}

export interface EvidenceView {
  /** `@google/gemini-cli@0.61.0 bundle/chunk-….js`, `content/payloads/…`, `src/lib/agents/…`. */
  where: string;
  /** A link, for a recorded payload shown on a tool page. */
  href?: string;
  /** Where the executable named by `where` writes out, when it runs, the file actually read. */
  unpacked?: string;
  says: string;
}

export interface FactView {
  text: string;
  evidence: EvidenceView[];
  file: string;
}

export interface EventView {
  name: string;
  /** Before the tool runs, after it succeeded, after it failed (from the registry's hook shape). */
  role: string | undefined;
  fires: string | undefined;
  evidence: EvidenceView[];
  /** How many payloads were recorded, of how many tools. */
  recorded: { payloads: number; tools: number } | undefined;
  /**
   * Why no payload of it is recorded, for an event the agent's code names about tool calls that the recordings do not
   * give (its registry module says why).
   */
  notRecorded?: string;
  schema: string | undefined;
}

export interface MemberView {
  name: string;
  role: EnvelopeMember['role'];
  types: string;
  /** `PreToolUse, PostToolUse` with `(12 of 40)` where not every payload of the event has it. */
  events: string;
  /** The example value as JSON, cut at EXAMPLE_LIMIT characters. */
  example: string;
  masked: boolean;
}

export interface NameView {
  model: string;
  url: string;
  hooks: string[];
  /** The names in the payloads of each form of HooksPage.nameForms (one entry when the agent has one form). */
  byForm: string[][];
  /** The hooks see another name than the model calls it by. */
  differs: boolean;
}

export interface FailureView {
  /** The events fired, in order (empty: none). */
  events: string[];
  calls: { tool: string; scenario: string; url: string }[];
}

export interface HooksPage {
  agent: AgentId;
  title: string;
  description: string;
  product: string;
  /**
   * What search reads (search.ts): the agent filter value, as the agent's other pages give it, and
   * the names of the events the page documents (the rows of `events` and those `named` concern no
   * tool call), so that a search for an event finds the hooks pages that have it first.
   */
  search: HooksSearchFields;
  sections: PageSection[];
  /** Why no payload is recorded (the registry's reason), when none is. */
  notRecorded: string | undefined;
  /** `Claude Code 2.1.332`: the releases that recorded the payloads. */
  release: string | undefined;
  counts: { payloads: number; calls: number; tools: number; toolsWithout: number };
  shape:
    | {
        eventField?: string | undefined;
        toolNameField: string;
        inputField: string;
        inputEncoding: string;
        responseField: string;
      }
    | undefined;
  events: EventView[];
  /** What happened when a hook answered, one row per recorded case (hook-behaviour.ts). */
  behaviour: BehaviourRow[];
  /** What those cases come to, a rule per kind of answer (rules-of-thumb.ts). */
  rules: RuleOfThumb[];
  /** The hook configuration all those cases ran with, when they share one (JSON text). */
  behaviourConfiguration: string | undefined;
  /** The releases the cases were recorded with. */
  behaviourReleases: string[];
  /** What the behaviour history covers (npm run hook-behaviour-history), where the agent has one. */
  behaviourHistory: ReturnType<typeof behaviourHistorySummary> | undefined;
  /** What a hook may return, from the agent's published code, each member linked to the cases that answered with it. */
  outputs:
    | (Omit<HookOutputsView, 'answered' | 'others'> & {
        answered: (OutputEventView & { schemaUrl: string })[];
        others: { event: string; schemaUrl: string }[];
      })
    | undefined;
  /**
   * Where the agent's published code names its hook events (content/hook-events/<agent>.json):
   * how many, where, and those that concern no single tool call (the others are rows of `events`).
   */
  named: { count: number; where: EvidenceView; file: string; noToolCall: string[] } | undefined;
  failures: FailureView[];
  members: MemberView[];
  names: NameView[];
  /**
   * The forms of the agent's hooks, each with its events (`preToolUse, postToolUse, postToolUseFailure`): a column each
   * of the names table.
   */
  nameForms: { events: string[] }[];
  /**
   * Where one tool has other names in the payloads of another form: the trap that a matcher
   * written for one form never fires in the other, with a recorded example
   * (Copilot CLI: `preToolUse` sees `bash`, `PreToolUse` sees `Bash`).
   */
  trap: { tool: string; url: string; forms: { events: string[]; names: string[] }[] } | undefined;
  /** How hooks are written and worded (hook-words.ts). */
  words: HookWords;
  /** Tools with no recorded hook payload, with why when the content says. */
  without: { name: string; url: string; why: string | undefined }[];
  matcher: FactView | undefined;
  configuration: FactView | undefined;
  /** How the hooks receive the tool's input, where the editorial file says (Copilot CLI's `toolArgs`). */
  input: FactView | undefined;
  examples: { tool: string; url: string; scenarios: { id: string; url: string; expect: string }[] }[];
  schemas: { label: string; url: string }[];
  editorialFile: string | undefined;
}

export const EXAMPLE_LIMIT = 80;

function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > EXAMPLE_LIMIT ? `${text.slice(0, EXAMPLE_LIMIT)}…` : text;
}

function evidenceView(e: Evidence, site: Pick<SiteModel, 'tools'>): EvidenceView {
  if (e.kind === 'package')
    return { where: `${e.package} ${e.file}`, ...(e.unpacked ? { unpacked: e.unpacked } : {}), says: e.says };
  if (e.kind === 'project') return { where: e.file, says: e.says };
  // A recorded payload: link to its example on the page of the tool it is about.
  const file = `content/${e.file}`;
  const tool = site.tools.find((t) => t.examples?.some((x) => x.file === file && x.calls.some((c) => c.own)));
  const example = tool?.examples?.find((x) => x.file === file);
  if (tool && example) return { where: file, href: `${toolUrl(tool)}#example-${example.scenario}`, says: e.says };
  return { where: file, says: e.says };
}

function factView(
  fact: { text: string; evidence: Evidence[] } | undefined,
  editorial: HooksEditorial,
  site: Pick<SiteModel, 'tools'>,
): FactView | undefined {
  return fact && { text: fact.text, evidence: fact.evidence.map((e) => evidenceView(e, site)), file: editorial.file };
}

function roles(recorded: AgentHooks): Map<string, string> {
  const out = new Map<string, string>();
  const shape = recorded.shape;
  if (!shape) return out;
  out.set(shape.before, 'before the tool runs');
  out.set(shape.after, shape.afterFailure ? 'after it succeeded' : 'after it ran');
  if (shape.afterFailure) out.set(shape.afterFailure, 'after it failed');
  return out;
}

const KNOWN_FROM: Record<ToolModel['source'], string> = {
  sdk: 'the published SDK types',
  documented: 'public documentation',
  capture: 'the captures',
};

/**
 * Why a tool has no recorded call when no captured configuration advertises it (computed
 * from the capture matrix, not written by hand): a payload run offers the model only what
 * its configuration advertises, so there is no run in which to call it. Undefined for a
 * tool that some configuration advertises.
 */
export function notAdvertisedReason(tool: Pick<ToolModel, 'captured' | 'source' | 'editorial'>): string | undefined {
  if (tool.captured !== undefined && tool.captured.byConfig.size > 0) return undefined;
  const page = tool.editorial?.availability ? '; its page says what would turn it on' : '';
  return (
    `No captured configuration advertises it (it is known from ${KNOWN_FROM[tool.source]} only${page}), so no ` +
    `payload run offers it to the model.`
  );
}

/** A tool whose definition our stub stood in for: a recorded call would record the stub's answers, not the tool's. */
export function standInReason(tool: Pick<ToolModel, 'standIn'>): string | undefined {
  return tool.standIn === undefined
    ? undefined
    : 'It is served by a server that the captures could only stand in for with our stub (see its page), so a ' +
        'recorded call would show what the stub answers, not what the tool does.';
}

const SECTION_TITLES = {
  'in-short': 'In short',
  events: 'Events',
  behaviour: 'When a hook answers',
  outputs: 'What a hook may return',
  failures: 'What failed calls fired',
  envelope: 'Envelope',
  'tool-input': 'Tool input',
  'tool-names': 'Tool names in hooks',
  matcher: 'Matchers',
  configuration: 'Configuration',
  examples: 'Recorded examples',
  schemas: 'Schemas',
} as const;

type SectionId = keyof typeof SECTION_TITLES;

/**
 * The events section: every event the editorial file, the recorded payloads or the published code names, and the
 * published code's list.
 */
function eventsSection(
  bundle: AgentBundle,
  agent: AgentId,
  recorded: AgentHooks,
  editorial: HooksEditorial | undefined,
): { events: EventView[]; named: HooksPage['named'] } {
  const mechanism = AGENTS[agent].hooks;
  const roleOf = roles(recorded);
  // The events the published code names (generated), sorted by the registry module.
  const list = bundle.hookEvents;
  const sorting = 'none' in mechanism ? undefined : mechanism.named;
  const namedEvidence = (name: string): EvidenceView[] => {
    const e = list?.events.find((x) => x.name === name);
    return list && e
      ? [{ where: `${list.package} ${list.file}`, ...(list.unpacked ? { unpacked: list.unpacked } : {}), says: e.says }]
      : [];
  };
  const eventNames = [...(editorial?.events.map((e) => e.name) ?? [])];
  const notRecordedNames =
    list && sorting ? list.events.map((e) => e.name).filter((n) => Object.hasOwn(sorting.notRecorded, n)) : [];
  for (const e of [...roleOf.keys(), ...recorded.events, ...notRecordedNames])
    if (!eventNames.includes(e)) eventNames.push(e);
  const events: EventView[] = eventNames.map((name) => {
    const described = editorial?.events.find((e) => e.name === name);
    const hooks = recorded.hooks.filter((h) => h.event === name);
    const why = hooks.length === 0 && notRecordedNames.includes(name) ? sorting!.notRecorded[name] : undefined;
    return {
      name,
      role: roleOf.get(name),
      fires: described?.fires,
      evidence: [...(described ? described.evidence.map((e) => evidenceView(e, bundle)) : []), ...namedEvidence(name)],
      recorded:
        hooks.length > 0 ? { payloads: hooks.length, tools: new Set(hooks.map((h) => h.tool)).size } : undefined,
      ...(why === undefined ? {} : { notRecorded: why }),
      schema: hooks.length > 0 ? sitePath(eventSchemaPath(agent, name)) : undefined,
    };
  });
  const named =
    list && sorting
      ? {
          count: list.events.length,
          where: {
            where: `${list.package} ${list.file}`,
            ...(list.unpacked ? { unpacked: list.unpacked } : {}),
            says: `declares ${list.declaration}: ${list.events.map((e) => e.name).join(', ')}`,
          },
          file: list.contentFile,
          noToolCall: list.events.map((e) => e.name).filter((n) => sorting.noToolCall.includes(n)),
        }
      : undefined;
  return { events, named };
}

/** Failed calls grouped by the events they fired. */
function failureGroups(recorded: AgentHooks): FailureView[] {
  const failures = new Map<string, FailureView>();
  for (const c of recorded.calls) {
    if (c.call.outcome !== 'failure') continue;
    const key = c.events.join(' ');
    const group = failures.get(key) ?? failures.set(key, { events: c.events, calls: [] }).get(key)!;
    group.calls.push({
      tool: c.tool.fullName,
      scenario: c.example.scenario,
      url: `${toolUrl(c.tool)}#example-${c.example.scenario}`,
    });
  }
  return [...failures.values()];
}

function memberViews(recorded: AgentHooks): MemberView[] {
  return recorded.members.map((m) => ({
    name: m.name,
    role: m.role,
    types: m.masked ? 'masked' : m.types.join(' | '),
    events: m.events.map((e) => (e.count === e.of ? e.event : `${e.event} (${e.count} of ${e.of})`)).join(', '),
    example: shownValue(m.example),
    masked: m.masked,
  }));
}

/** The tool-names section: each tool's names in hooks, a column per payload form some payload was recorded in. */
function namesSection(agent: AgentId, recorded: AgentHooks): Pick<HooksPage, 'names' | 'nameForms' | 'trap'> {
  const forms = hookForms(agent);
  const names: NameView[] = hookNames(recorded).map(({ tool, names, byForm }) => ({
    model: tool.fullName,
    url: toolUrl(tool),
    hooks: names,
    byForm,
    differs: names.some((n) => n !== tool.fullName),
  }));
  // Only forms some payload was recorded in get a column.
  const shownForms = forms
    .map((f, i) => ({ events: f.events, i }))
    .filter(({ i }) => names.some((n) => (n.byForm[i] ?? []).length > 0));
  const nameForms = shownForms.length > 1 ? shownForms.map(({ events }) => ({ events })) : [];
  for (const n of names) n.byForm = shownForms.length > 1 ? shownForms.map(({ i }) => n.byForm[i] ?? []) : [n.hooks];
  const trap = nameForms.length > 1 ? formTrap(names, nameForms) : undefined;
  return { names, nameForms, trap };
}

/** The agent's tools no recorded payload shows, each with why. */
function toolsWithout(own: readonly ToolModel[], hooked: ReadonlySet<ToolModel>): HooksPage['without'] {
  return own
    .filter((t) => !hooked.has(t))
    .map((t) => ({
      name: t.fullName,
      url: toolUrl(t),
      why:
        t.notRun ??
        ((t.examples ?? []).some((x) => x.calls.some((c) => c.own))
          ? 'its recorded calls fired no hook (see "What failed calls fired")'
          : (notAdvertisedReason(t) ?? standInReason(t))),
    }));
}

/**
 * Links to what was recorded: each hooked tool's examples, and the schemas of the events and of each tool's hook input.
 */
function recordedLinks(
  agent: AgentId,
  recorded: AgentHooks,
  hooked: ReadonlySet<ToolModel>,
): Pick<HooksPage, 'examples' | 'schemas'> {
  const examples = [...hooked].map((tool) => ({
    tool: tool.fullName,
    url: toolUrl(tool),
    scenarios: (tool.examples ?? [])
      .filter((x) => x.calls.some((c) => c.own && c.hooks.length > 0))
      .map((x) => ({ id: x.scenario, url: `${toolUrl(tool)}#example-${x.scenario}`, expect: x.expect })),
  }));
  const schemas = [
    ...recorded.events.map((event) => ({ label: `${event} envelope`, url: sitePath(eventSchemaPath(agent, event)) })),
    ...[...hooked].map((tool) => ({
      label: `${tool.fullName}: input and response by event`,
      url: sitePath(toolHookSchemaPath(tool)),
    })),
  ];
  return { examples, schemas };
}

/** What hooks answered on this agent's calls: the rows, their rules of thumb, and what the answers may hold. */
function behaviourParts(
  bundle: AgentBundle,
  agent: AgentId,
): Pick<
  HooksPage,
  'behaviour' | 'rules' | 'behaviourConfiguration' | 'behaviourReleases' | 'behaviourHistory' | 'outputs'
> {
  const records = bundle.hookBehaviour;
  const history = bundle.hookBehaviourHistory;
  const behaviour = behaviourRows(
    { tools: bundle.tools, hookBehaviour: records, hookBehaviourHistories: history ? [history] : [] },
    agent,
  );
  const outputs = hookOutputsView(bundle.hookOutputs, records);
  return {
    behaviour,
    rules: rulesOfThumb(behaviour),
    behaviourConfiguration: sharedHookConfiguration(records),
    behaviourReleases: [...new Set(behaviour.map((b) => b.release))],
    behaviourHistory: history && behaviourHistorySummary(history),
    outputs: outputs && {
      ...outputs,
      answered: outputs.answered.map((e) => ({ ...e, schemaUrl: sitePath(e.schemaPath) })),
      others: outputs.others.map((o) => ({ ...o, schemaUrl: sitePath(o.schemaPath) })),
    },
  };
}

/** The editorial facts (matcher, configuration, input), each with its evidence linked. */
function editorialParts(bundle: AgentBundle): Pick<HooksPage, 'matcher' | 'configuration' | 'input' | 'editorialFile'> {
  const editorial = bundle.hooks;
  return {
    matcher: editorial && factView(editorial.matcher, editorial, bundle),
    configuration: editorial && factView(editorial.configuration, editorial, bundle),
    input: editorial && factView(editorial.input, editorial, bundle),
    editorialFile: editorial?.file,
  };
}

/** The page's one-line description, in the words of the agent's kind of hooks. */
function hooksDescription(product: string, words: HooksPage['words']): string {
  return words.kind === 'plugin'
    ? `What ${product}'s tool ${words.handlers} receive: events, ${words.schemaOf}, tool names, how each picks its ` +
        `tools, recorded examples and their JSON Schemas.`
    : `What ${product}'s tool hooks receive: events, envelope, tool names, matchers, recorded examples and JSON ` +
        `Schemas of their standard input.`;
}

/** The agent's hooks page, from its bundle (looked up once, here). */
export function hooksPage(site: SiteModel, agent: AgentId): HooksPage {
  const bundle = agentBundle(site, agent);
  const recorded = agentHooks(bundle, agent);
  const product = AGENT_LABELS[agent];
  const mechanism = AGENTS[agent].hooks;
  const notRecorded =
    recorded.hooks.length > 0
      ? undefined
      : 'none' in mechanism
        ? mechanism.none
        : 'no hook payload has been recorded yet.';
  const { events, named } = eventsSection(bundle, agent, recorded, bundle.hooks);
  const words = hookWords(agent);
  const hooked = new Set(recorded.hooks.map((h) => h.tool));
  const without = notRecorded ? [] : toolsWithout(bundle.tools, hooked);
  const shape = recorded.shape;
  const page: Omit<HooksPage, 'sections'> = {
    agent,
    title: `${product} hooks`,
    description: hooksDescription(product, words),
    product,
    search: hooksSearchFields(agent, [...events.map((e) => e.name), ...(named?.noToolCall ?? [])]),
    notRecorded,
    release: recorded.versions.length > 0 ? `${product} ${recorded.versions.join(', ')}` : undefined,
    counts: {
      payloads: recorded.hooks.length,
      calls: recorded.calls.length,
      tools: hooked.size,
      toolsWithout: without.length,
    },
    shape: shape && {
      eventField: shape.eventField,
      toolNameField: shape.toolNameField,
      inputField: shape.inputField,
      inputEncoding: shape.inputEncoding,
      responseField: shape.responseField,
    },
    events,
    ...behaviourParts(bundle, agent),
    named,
    failures: failureGroups(recorded),
    members: memberViews(recorded),
    ...namesSection(agent, recorded),
    words,
    without,
    ...editorialParts(bundle),
    ...recordedLinks(agent, recorded, hooked),
  };
  return { ...page, sections: pageSections(page) };
}

/** The page's sections, in SECTION_TITLES order: those it has something to show in. */
function pageSections(page: Omit<HooksPage, 'sections'>): PageSection[] {
  const present: Record<SectionId, boolean> = {
    'in-short': page.rules.length > 0,
    events: page.events.length > 0,
    behaviour: page.behaviour.length > 0,
    outputs: page.outputs !== undefined,
    failures: page.failures.length > 0,
    envelope: page.members.length > 0,
    'tool-input': page.input !== undefined,
    'tool-names': page.names.length > 0,
    matcher: page.matcher !== undefined,
    configuration: page.configuration !== undefined,
    examples: page.examples.length > 0,
    schemas: page.schemas.length > 0,
  };
  const title = (id: SectionId) => (id === 'matcher' ? page.words.choosingTitle : SECTION_TITLES[id]);
  return (Object.keys(SECTION_TITLES) as SectionId[])
    .filter((id) => present[id])
    .map((id) => ({ id, title: title(id), depth: 2 }));
}

/**
 * The first tool whose names differ between two forms, preferring one whose names differ
 * only in case (`bash` and `Bash`), as recorded.
 */
function formTrap(names: readonly NameView[], forms: readonly { events: string[] }[]): HooksPage['trap'] {
  const differs = names.filter(
    (n) => n.byForm.every((f) => f.length > 0) && new Set(n.byForm.map((f) => [...f].sort().join(' '))).size > 1,
  );
  const lower = (f: string[]) =>
    f
      .map((x) => x.toLowerCase())
      .sort()
      .join(' ');
  const pick = differs.find((n) => new Set(n.byForm.map(lower)).size === 1) ?? differs[0];
  return (
    pick && {
      tool: pick.model,
      url: pick.url,
      forms: forms.map((f, i) => ({ events: f.events, names: pick.byForm[i]! })),
    }
  );
}

// ---------------------------------------------------------------------------
// The comparison page

export interface ComparisonRow {
  agent: AgentId;
  product: string;
  url: string;
  recorded: string;
  /**
   * `command`: a command per event, with a matcher; `plugin`: a plugin function called for every tool; not established
   * for an agent whose hooks are not recorded.
   */
  kind: string;
  before: string | undefined;
  after: string | undefined;
  failure: string | undefined;
  toolName: string | undefined;
  input: string | undefined;
  response: string | undefined;
}

export interface HooksComparison {
  title: string;
  description: string;
  sections: PageSection[];
  rows: ComparisonRow[];
  /** Envelope members (rows) × agents with recordings (columns): the events whose payloads carry it. */
  members: { name: string; cells: (string | undefined)[] }[];
  memberAgents: { agent: AgentId; product: string }[];
  /** Recorded hook behaviour, kind and tool role (rows) × agents with records (columns). */
  behaviour: BehaviourComparisonRow[];
  behaviourAgents: { agent: AgentId; product: string }[];
}

/** One agent's row of the comparison table, from its hooks page. */
function comparisonRow(p: HooksPage): ComparisonRow {
  // Every form of the agent's hooks (Copilot CLI: camelCase, then PascalCase), joined.
  const shapes = hookForms(p.agent).map((f) => f.shape);
  const all = (value: (s: HookShape) => string) =>
    shapes.length > 0 ? [...new Set(shapes.map(value))].join(' · ') : undefined;
  const described = p.events.map((e) => e.name);
  return {
    agent: p.agent,
    product: p.product,
    url: sitePath(hooksPath(p.agent)),
    recorded: p.notRecorded
      ? 'not yet'
      : `${p.counts.payloads} ${p.words.record(p.counts.payloads)} of ${p.counts.tools} tools`,
    // An agent whose hooks are not recorded yet: how they are written is not established here.
    kind:
      'none' in AGENTS[p.agent].hooks
        ? 'not established'
        : p.words.kind === 'plugin'
          ? `${p.words.handlers}, called for every tool`
          : 'commands, with matchers',
    before: all((s) => s.before) ?? described[0],
    after: all((s) => s.after) ?? described[1],
    failure: shapes.length > 0 ? all((s) => s.afterFailure ?? 'none') : described[2],
    toolName: all((s) => s.toolNameField),
    input: all(
      (s) =>
        `${s.inputField}${s.afterInputField ? ` (after: ${s.afterInputField})` : ''}` +
        `${s.inputEncoding === 'json-string' ? ' (a JSON text)' : ''}`,
    ),
    response: all((s) => s.responseField),
  };
}

export function hooksComparison(site: SiteModel): HooksComparison {
  const bundles = agentBundles(site);
  const pages = site.agents.map((a) => hooksPage(site, a.id));
  const rows = pages.map(comparisonRow);
  const hooksOf = (id: AgentId) => agentHooks(bundles.get(id)!, id);
  const withMembers = site.agents.map((a) => a.id).filter((id) => hooksOf(id).members.length > 0);
  const recorded = new Map(withMembers.map((id) => [id, hooksOf(id)]));
  const names: string[] = [];
  for (const r of recorded.values()) for (const m of r.members) if (!names.includes(m.name)) names.push(m.name);
  const members = names.map((name) => ({
    name,
    cells: withMembers.map((id) => {
      const m = recorded.get(id)!.members.find((x) => x.name === name);
      return m?.events.map((e) => (e.count === e.of ? e.event : `${e.event} (some)`)).join(', ');
    }),
  }));
  const behaviourAgents = site.agents.map((a) => a.id).filter((id) => bundles.get(id)!.hookBehaviour.length > 0);
  const behaviour = behaviourComparison({ hookBehaviour: site.hookBehaviour }, behaviourAgents, (agent) =>
    sitePath(hooksPath(agent)),
  );
  const sections: PageSection[] = [
    { id: 'events', title: 'Events and members', depth: 2 },
    ...(behaviour.length > 0 ? [{ id: 'behaviour', title: 'When a hook answers', depth: 2 as const }] : []),
    ...(members.length > 0 ? [{ id: 'envelope', title: 'Envelope members', depth: 2 as const }] : []),
  ];
  return {
    title: 'Hooks compared',
    description:
      'The tool hooks of every agent side by side: their events, the members naming the tool, its input and its ' +
      'response, and the envelope members each agent sends.',
    sections,
    rows,
    members,
    memberAgents: withMembers.map((agent) => ({ agent, product: AGENT_LABELS[agent] })),
    behaviour,
    behaviourAgents: behaviourAgents.map((agent) => ({ agent, product: AGENT_LABELS[agent] })),
  };
}
