/**
 * What permission rules did to real calls (content/permissions/), for the pages: an agent's
 * permissions page, the comparison across agents, each tool page's "Allow or block it"
 * section, and catalog.json's `permissions`. Every statement comes from a record: the rule as
 * written, whether the tool was offered, whether its side effect happened, and what the model
 * was sent. Pure.
 */
import type { AgentId, PermissionRule } from '../core/content-types.ts';
import type { PermissionRecord, SiteModel, ToolModel } from '../model/model.ts';
import type { PageSection } from '../core/page-sections.ts';
import { AGENT_LABELS, sitePath, toolUrl } from '../site/site.ts';
import { toolForCall } from '../model/tool-names.ts';
import { AGENTS } from '../agents/index.ts';
import { permissionPlain, permissionRulesOfThumb, ruleWhere, type PermissionPlain } from './permission-words.ts';
import type { RuleOfThumb } from './rules-of-thumb.ts';

export const PERMISSIONS_PATH = '/permissions/';

export function agentPermissionsPath(agent: AgentId): string {
  return `/${agent}/permissions/`;
}

export const ROLE_LABELS: Record<PermissionRecord['toolRole'], string> = {
  shell: 'runs a command',
  'file-write': 'writes a file',
  fetch: 'fetches a URL',
  mcp: 'an MCP server tool',
};

export const SAYS_LABELS: Record<PermissionRule['says'], string> = {
  allow: 'allows',
  ask: 'asks',
  deny: 'denies',
  exclude: 'excludes',
  mode: 'sets a mode',
  none: 'no rule',
};

export const OUTCOME_LABELS: Record<PermissionRecord['outcome'], string> = {
  ran: 'ran',
  'did-not-run': 'did not run',
  'no-result': 'did not run, and no result reached the model',
};

export interface PermissionRow {
  anchor: string;
  case: string;
  description: string;
  role: string;
  tool: string;
  toolUrl: string | undefined;
  rule: PermissionRule;
  says: string;
  /** The flags the case added for its rule (beside the ones every run adds). */
  caseArgs: string[];
  /** Those flags without the rule itself when the rule is a flag (`--approval-mode yolo` beside a settings rule). */
  otherArgs: string[];
  input: string;
  offered: boolean;
  outcome: PermissionRecord['outcome'];
  outcomeLabel: string;
  /** What the rule came to, in plain words (permission-words.ts). */
  plain: PermissionPlain;
  /** Where the rule was written: a flag, or the file that holds it; undefined with no rule. */
  where: string | undefined;
  /** What a reader needs to read the outcome, from the case file (content/permission-cases.json `note`). */
  note: string | undefined;
  /** What shows it: `marker.txt was created`, `the probe server was asked` … */
  evidence: string;
  modelSaw: PermissionRecord['modelSaw'];
  mode: string;
  configuration: string;
  release: string;
  file: string;
  cliExit: PermissionRecord['cliExit'];
}

function records(site: Pick<SiteModel, 'permissions'>, agent: AgentId): PermissionRecord[] {
  return site.permissions.filter((r) => r.agent === agent);
}

/** The side effect's check, as the evidence column words it. */
export function sideEffectWords(r: Pick<PermissionRecord, 'sideEffect'>): string {
  const { kind, target, happened } = r.sideEffect;
  switch (kind) {
    case 'file':
      return `${target} ${happened ? 'was' : 'was not'} created`;
    case 'probe':
      return `the loopback probe server ${happened ? 'was' : 'was not'} asked for the page`;
    case 'mcpCall':
      return `the stub MCP server ${happened ? 'got' : 'did not get'} a call of ${target}`;
    case 'output':
      return `the result ${happened ? 'lists' : 'does not list'} ${target}, which only running it shows`;
  }
}

/** The flags the case added: the record's args after the ones every run of the agent adds (the hook logging). */
function caseArgs(r: PermissionRecord, shared: readonly string[]): string[] {
  return r.args.slice(shared.length);
}

/** `args` without the rule's own flag and value (a rule written as a flag). */
function withoutRule(args: readonly string[], rule: PermissionRule): string[] {
  const at = args.findIndex((a, i) => a === rule.form && args[i + 1] === rule.text);
  return at < 0 ? [...args] : [...args.slice(0, at), ...args.slice(at + 2)];
}

/** The longest prefix of args every record of the agent shares. */
function sharedArgs(all: readonly PermissionRecord[]): string[] {
  if (all.length === 0) return [];
  const first = all[0]!.args;
  let n = first.length;
  for (const r of all) {
    let i = 0;
    while (i < n && i < r.args.length && r.args[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n);
}

export function permissionRow(
  site: Pick<SiteModel, 'tools'>,
  r: PermissionRecord,
  shared: readonly string[],
): PermissionRow {
  const tool: ToolModel | undefined = toolForCall(site.tools, r.agent, r.tool);
  return {
    anchor: `case-${r.case}`,
    case: r.case,
    description: r.description,
    role: ROLE_LABELS[r.toolRole],
    tool: r.tool,
    toolUrl: tool && toolUrl(tool),
    rule: r.rule,
    says: SAYS_LABELS[r.rule.says],
    caseArgs: caseArgs(r, shared),
    otherArgs: withoutRule(caseArgs(r, shared), r.rule),
    input: JSON.stringify(r.input ?? {}, null, 0),
    offered: r.offered,
    outcome: r.outcome,
    outcomeLabel: OUTCOME_LABELS[r.outcome],
    plain: permissionPlain(r, tool?.captured ? [...tool.captured.byConfig.keys()] : []),
    where: ruleWhere(r, AGENTS[r.agent].settingsFile),
    note: r.note,
    evidence: sideEffectWords(r),
    modelSaw: r.modelSaw,
    mode: r.mode,
    configuration: r.configuration,
    release: `${r.cli.package}@${r.cli.version}`,
    file: r.file,
    cliExit: r.cliExit,
  };
}

/** The rows of an agent's permissions table, in case-file order. */
export function permissionRows(site: Pick<SiteModel, 'permissions' | 'tools'>, agent: AgentId): PermissionRow[] {
  const all = records(site, agent);
  const shared = sharedArgs(all);
  return all.map((r) => permissionRow(site, r, shared));
}

/** One way of writing a rule that the agent's records show, with the cases that used it. */
export interface RuleForm {
  form: string;
  examples: { text: string | undefined; says: string; case: string; tool: string }[];
}

/** The rule forms the agent's records used, in first-use order. */
export function ruleForms(rows: readonly PermissionRow[]): RuleForm[] {
  const forms = new Map<string, RuleForm>();
  for (const r of rows) {
    if (r.rule.form === 'none') continue;
    const form = forms.get(r.rule.form) ?? { form: r.rule.form, examples: [] };
    form.examples.push({ text: r.rule.text, says: r.says, case: r.case, tool: r.tool });
    forms.set(r.rule.form, form);
  }
  return [...forms.values()];
}

export interface PermissionsPage {
  agent: AgentId;
  product: string;
  title: string;
  description: string;
  /** `@anthropic-ai/claude-code-linux-x64@2.1.335`, every release the records come from. */
  releases: string[];
  /** The flags every run added (hook logging, output format), said once. */
  sharedArgs: string[];
  rows: PermissionRow[];
  forms: RuleForm[];
  /** Cases where the tool was not in the model's list: the rule removed it, or the agent's defaults did. */
  notOffered: PermissionRow[];
  /** Cases with no rule: what the agent's defaults did. */
  defaults: PermissionRow[];
  /** What the cases come to, per kind of rule. */
  rules: RuleOfThumb[];
  /** Why the agent has no cases, from its module, when it says (Pi has no rules). */
  noRules: string | undefined;
  sections: PageSection[];
}

export function permissionsPage(site: Pick<SiteModel, 'permissions' | 'tools'>, agent: AgentId): PermissionsPage {
  const product = AGENT_LABELS[agent];
  const all = records(site, agent);
  const rows = permissionRows(site, agent);
  const sections: PageSection[] = [];
  if (rows.length > 0) {
    sections.push({ id: 'in-short', title: 'In short', depth: 2 });
    sections.push({ id: 'cases', title: 'What each rule did', depth: 2 });
    sections.push({ id: 'forms', title: 'Rule forms recorded', depth: 2 });
    sections.push({ id: 'defaults', title: 'With no rule', depth: 2 });
    sections.push({ id: 'not-offered', title: 'Tools the model was not offered', depth: 2 });
  }
  return {
    agent,
    product,
    title: `${product} permissions`,
    description:
      `How ${product} allows, asks about or blocks a tool call: each rule recorded against a real call ` +
      `of the pinned release, with whether the call ran and the model's exact words.`,
    releases: [...new Set(all.map((r) => `${r.cli.package}@${r.cli.version}`))],
    sharedArgs: sharedArgs(all),
    rows,
    forms: ruleForms(rows),
    notOffered: rows.filter((r) => !r.offered),
    defaults: rows.filter((r) => r.rule.form === 'none'),
    rules: permissionRulesOfThumb(rows),
    noRules: AGENTS[agent].permissions?.none,
    sections,
  };
}

/**
 * What a tool page's "Allow or block it" shows of its agent's cases: every row (the page keeps the ones that called the
 * tool, permissionCasesOf), and what the agent's page has for every tool.
 */
export interface ToolPermissions {
  rows: PermissionRow[];
  /** The agent's permissions page. */
  href: string;
  product: string;
  /** How many cases the agent has, and the rule forms they used. */
  agentCases: number;
  forms: string[];
  /** Rules recorded to take a tool out of the model's list (on any of the agent's tools). */
  removal: { form: string; text: string | undefined; tool: string; case: string }[];
}

/** The agent's cases as its tool pages show them, every row of them. */
export function agentToolPermissions(site: Pick<SiteModel, 'permissions' | 'tools'>, agent: AgentId): ToolPermissions {
  const rows = permissionRows(site, agent);
  return {
    rows,
    href: sitePath(agentPermissionsPath(agent)),
    product: AGENT_LABELS[agent],
    agentCases: rows.length,
    forms: ruleForms(rows).map((f) => f.form),
    removal: rows
      .filter((r) => !r.offered && r.rule.form !== 'none')
      .map((r) => ({ form: r.rule.form, text: r.rule.text, tool: r.tool, case: r.case })),
  };
}

/**
 * The cases whose call was of this tool (by any name it answers to), in case-file order: computed when content is
 * loaded.
 */
export function permissionCasesOf(site: Pick<SiteModel, 'permissions' | 'tools'>, tool: ToolModel): string[] {
  return records(site, tool.agent)
    .filter((r) => toolForCall(site.tools, tool.agent, r.tool) === tool)
    .map((r) => r.case);
}

/** catalog.json's `permissions` entry of one record. */
export interface PermissionEntry {
  case: string;
  tool: string;
  toolRole: PermissionRecord['toolRole'];
  rule: PermissionRule;
  call: { input: unknown; configuration: string; mode: string; args: string[] };
  offered: boolean;
  outcome: PermissionRecord['outcome'];
  sideEffect: PermissionRecord['sideEffect'];
  modelSaw: { result: string | null; isError: boolean };
  release: string;
  evidence: string;
  page: string;
}

export function permissionEntries(site: Pick<SiteModel, 'permissions' | 'tools'>, agent: AgentId): PermissionEntry[] {
  const all = records(site, agent);
  const shared = sharedArgs(all);
  return all.map((r) => ({
    case: r.case,
    tool: r.tool,
    toolRole: r.toolRole,
    rule: r.rule,
    call: { input: r.input ?? {}, configuration: r.configuration, mode: r.mode, args: caseArgs(r, shared) },
    offered: r.offered,
    outcome: r.outcome,
    sideEffect: r.sideEffect,
    modelSaw: { result: r.modelSaw.result, isError: r.modelSaw.isError },
    release: `${r.cli.package}@${r.cli.version}`,
    evidence: r.file,
    page: sitePath(`${agentPermissionsPath(agent)}#case-${r.case}`),
  }));
}

/** One cell of the comparison: an agent's cases of one tool role and one kind of rule. */
export interface ComparisonCell {
  agent: AgentId;
  /**
   * `outcome`: two or three words (PermissionPlain.mark); `sentence`: in full; `where`: the flag or file the rule is
   * written in.
   */
  cases: {
    case: string;
    tool: string;
    rule: string;
    where: string | undefined;
    outcome: string;
    verdict: PermissionPlain['verdict'];
    sentence: string;
    surprise: string | undefined;
    url: string;
  }[];
}

export interface ComparisonRow {
  role: string;
  says: string;
  cells: ComparisonCell[];
}

const ROLE_ORDER: readonly PermissionRecord['toolRole'][] = ['shell', 'file-write', 'fetch', 'mcp'];
const SAYS_ORDER: readonly PermissionRule['says'][] = ['none', 'allow', 'ask', 'deny', 'exclude', 'mode'];

/** The comparison across agents: per tool role and kind of rule, each agent's cases and their outcomes. */
export function permissionsComparison(site: Pick<SiteModel, 'permissions' | 'agents' | 'tools'>): {
  agents: { id: AgentId; product: string; href: string; cases: number }[];
  rows: ComparisonRow[];
} {
  const agents = site.agents.map((a) => ({
    id: a.id,
    product: a.product,
    href: sitePath(agentPermissionsPath(a.id)),
    cases: site.permissions.filter((r) => r.agent === a.id).length,
  }));
  const rows: ComparisonRow[] = [];
  for (const role of ROLE_ORDER) {
    for (const says of SAYS_ORDER) {
      const matching = site.permissions.filter((r) => r.toolRole === role && r.rule.says === says);
      if (matching.length === 0) continue;
      rows.push({
        role: ROLE_LABELS[role],
        says: SAYS_LABELS[says],
        cells: agents.map((a) => ({
          agent: a.id,
          cases: matching
            .filter((r) => r.agent === a.id)
            .map((r) => {
              const row = permissionRow(site, r, []);
              return {
                case: r.case,
                tool: r.tool,
                rule: r.rule.text ?? '',
                where: row.where,
                outcome: row.plain.mark,
                verdict: row.plain.verdict,
                sentence: row.plain.sentence,
                surprise: row.plain.surprise,
                url: sitePath(`${agentPermissionsPath(a.id)}#case-${r.case}`),
              };
            }),
        })),
      });
    }
  }
  return { agents, rows };
}
