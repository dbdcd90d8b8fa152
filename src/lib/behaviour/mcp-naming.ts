/**
 * How each agent names an MCP server's tool, read from three kinds of record of the same stub
 * server (`capture`, tool `echo`): the name the model is offered (the captures that configure
 * the server), the name a hook receives (the hook behaviour cases on that tool) and the names
 * its permission rules were written with (the permission cases, with whether the call ran).
 * Each name carries the file and release that show it; what no record shows is left out, and
 * the page says so. Pure.
 */
import type { AgentId, McpNamingReading } from '../core/content-types.ts';
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

export function mcpNaming(
  site: Pick<SiteModel, 'agents' | 'tools' | 'hookBehaviour' | 'permissions'> &
    Partial<Pick<SiteModel, 'matrix' | 'mcpNaming'>>,
): McpNaming[] {
  return site.agents.map((agent) => {
    const declared = AGENTS[agent.id].mcpNaming;
    const naming = 'none' in declared ? undefined : declared;
    const family =
      naming &&
      site.tools.find((t) => t.agent === agent.id && t.fullName === naming.family && t.captured !== undefined);
    const pinned = site.matrix?.agents[agent.id];
    const toModel =
      family?.captured === undefined
        ? undefined
        : {
            name: family.captured.fullName,
            configurations: [...family.captured.byConfig.keys()],
            release: pinned ? `${pinned.package}@${pinned.version}` : agent.version,
            page: toolUrl(family),
          };
    const shape = hookShapeOf(agent.id);
    const hooked = site.hookBehaviour.find(
      (r) => r.agent === agent.id && r.toolRole === 'mcp' && r.call.hooks.length > 0,
    );
    const hookName = hooked && shape ? hookToolName(hooked.call.hooks[0]!, shape) : undefined;
    const toHooks =
      hooked && shape && hookName !== undefined
        ? {
            name: hookName,
            field: shape.toolNameField,
            file: hooked.file,
            release: `${hooked.cli.package}@${hooked.cli.version}`,
          }
        : undefined;
    const inRules = site.permissions
      .filter((r) => r.agent === agent.id && r.toolRole === 'mcp' && r.rule.text !== undefined)
      .map((r) => ({
        form: r.rule.form,
        text: r.rule.text!,
        outcome: r.offered ? OUTCOME_LABELS[r.outcome] : `${OUTCOME_LABELS[r.outcome]}, not offered`,
        case: r.case,
        page: sitePath(`${agentPermissionsPath(agent.id)}#case-${r.case}`),
        release: `${r.cli.package}@${r.cli.version}`,
      }));
    const plan = AGENTS[agent.id].captureHistory;
    const read = 'configurations' in plan ? plan.configurations : [];
    const historyConfigurations = toModel ? toModel.configurations.filter((c) => read.includes(c)) : [];
    const history = site.mcpNaming?.find((h) => h.agent === agent.id);
    const overReleases = history && {
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
    const row: McpNaming = {
      agent: agent.id,
      product: AGENT_LABELS[agent.id],
      family: naming?.family,
      toModel,
      toHooks,
      inRules,
      historyConfigurations,
      overReleases,
    };
    if ('none' in declared) row.notCovered = declared.none;
    return row;
  });
}
