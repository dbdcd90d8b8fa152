/**
 * How each agent names an MCP server's tool, read from three kinds of record of the same stub
 * server (`capture`, tool `echo`): the name the model is offered (the captures that configure
 * the server), the name a hook receives (the hook behaviour cases on that tool) and the names
 * its permission rules were written with (the permission cases, with whether the call ran).
 * Each name carries the file and release that show it; what no record shows is left out, and
 * the page says so. Pure.
 */
import type { AgentId, AgentRecord, McpNamingReading } from '../core/content-types.ts';
import type { SiteModel } from '../model/model.ts';
import { hookShapeOf, hookToolName } from '../agents/hook-shape.ts';
import { AGENTS } from '../agents/index.ts';
import { AGENT_LABELS, sitePath, toolUrl } from '../site/site.ts';
import { agentPermissionsPath, OUTCOME_LABELS } from './permissions.ts';

export interface McpNaming {
  agent: AgentId;
  product: string;
  /** The family the agent module declares (`mcp__<server>__<tool>`); undefined when no capture shows one. */
  family: string | undefined;
  /** Why no family is declared (the module's words), when none is. */
  notCovered?: string;
  /** The stub tool as the model was offered it, with the captures that show it. */
  toModel: { name: string; configurations: string[]; release: string; page: string } | undefined;
  /** The tool name in the hook payloads of the cases on it. */
  toHooks: { name: string; field: string; file: string; release: string } | undefined;
  /** The rules written for it and what they did. */
  inRules: { form: string; text: string; outcome: string; case: string; page: string; release: string }[];
  /**
   * The configurations both offering the stub tool and read by the agent's capture history: the
   * family page's version history covers the name there. Empty: when the name changed is not read.
   */
  historyConfigurations: string[];
  /** The name over releases (content/mcp-naming/<agent>.json), when it was read. */
  overReleases:
    | {
        file: string;
        configuration: string;
        from: string;
        to: string;
        listed: number;
        read: number;
        changes: {
          before: string;
          after: string;
          was: string;
          became: string;
          wasName: boolean;
          becameName: boolean;
        }[];
        now: string;
      }
    | undefined;
}

/** Whether a reading names the tool (its words are names, shown as code). */
function isNamed(r: McpNamingReading): boolean {
  return !('failed' in r) && r.names.length > 0;
}

/** A reading in words: its names, or that it offered none by name, or that its capture failed. */
export function readingWords(r: McpNamingReading): string {
  if ('failed' in r) return `the capture failed (${r.failed})`;
  return r.names.length === 0 ? 'not offered by name' : r.names.join(', ');
}

/** What of the site the naming is read from. */
type NamingSite = Pick<SiteModel, 'agents' | 'tools' | 'hookBehaviour' | 'permissions'> &
  Partial<Pick<SiteModel, 'matrix' | 'mcpNaming'>>;

/** Each agent's MCP naming, as its captures, hook cases and permission cases show it. */
export function mcpNaming(site: NamingSite): McpNaming[] {
  return site.agents.map((agent) => agentNaming(site, agent));
}

/** One agent's row: each kind of record read on its own, absent where no record shows it. */
function agentNaming(site: NamingSite, agent: AgentRecord): McpNaming {
  const declared = AGENTS[agent.id].mcpNaming;
  const naming = 'none' in declared ? undefined : declared;
  const toModel = naming && nameToModel(site, agent, naming.family);
  const plan = AGENTS[agent.id].captureHistory;
  const read = 'configurations' in plan ? plan.configurations : [];
  const history = site.mcpNaming?.find((h) => h.agent === agent.id);
  const row: McpNaming = {
    agent: agent.id,
    product: AGENT_LABELS[agent.id],
    family: naming?.family,
    toModel,
    toHooks: nameToHooks(site, agent.id),
    inRules: namesInRules(site, agent.id),
    historyConfigurations: toModel ? toModel.configurations.filter((c) => read.includes(c)) : [],
    overReleases: history && overReleases(history),
  };
  if ('none' in declared) row.notCovered = declared.none;
  return row;
}

/** The family's tool as captured, in the release the capture matrix pins (else the agent's own). */
function nameToModel(site: NamingSite, agent: AgentRecord, familyName: string): McpNaming['toModel'] {
  const family = site.tools.find((t) => t.agent === agent.id && t.fullName === familyName && t.captured !== undefined);
  if (family?.captured === undefined) return undefined;
  const pinned = site.matrix?.agents[agent.id];
  return {
    name: family.captured.fullName,
    configurations: [...family.captured.byConfig.keys()],
    release: pinned ? `${pinned.package}@${pinned.version}` : agent.version,
    page: toolUrl(family),
  };
}

/** The name in the first hook payload of the first behaviour case on the MCP tool that ran a hook. */
function nameToHooks(site: NamingSite, agent: AgentId): McpNaming['toHooks'] {
  const shape = hookShapeOf(agent);
  const hooked = site.hookBehaviour.find((r) => r.agent === agent && r.toolRole === 'mcp' && r.call.hooks.length > 0);
  if (!hooked || !shape) return undefined;
  const name = hookToolName(hooked.call.hooks[0]!, shape);
  if (name === undefined) return undefined;
  return {
    name,
    field: shape.toolNameField,
    file: hooked.file,
    release: `${hooked.cli.package}@${hooked.cli.version}`,
  };
}

/** The permission cases whose rule names the MCP tool, with what the rule did. */
function namesInRules(site: NamingSite, agent: AgentId): McpNaming['inRules'] {
  return site.permissions
    .filter((r) => r.agent === agent && r.toolRole === 'mcp' && r.rule.text !== undefined)
    .map((r) => ({
      form: r.rule.form,
      text: r.rule.text!,
      outcome: r.offered ? OUTCOME_LABELS[r.outcome] : `${OUTCOME_LABELS[r.outcome]}, not offered`,
      case: r.case,
      page: sitePath(`${agentPermissionsPath(agent)}#case-${r.case}`),
      release: `${r.cli.package}@${r.cli.version}`,
    }));
}

/** The name over releases, its changes in words. */
function overReleases(history: NonNullable<NamingSite['mcpNaming']>[number]): NonNullable<McpNaming['overReleases']> {
  return {
    file: history.file,
    configuration: history.configuration,
    from: history.from,
    to: history.to,
    listed: history.listed,
    read: history.readings.length,
    changes: history.changes.map((c) => ({
      before: c.before.version,
      after: c.after.version,
      was: readingWords(c.before),
      became: readingWords(c.after),
      wasName: isNamed(c.before),
      becameName: isNamed(c.after),
    })),
    now: readingWords(history.readings.at(-1)!),
  };
}
