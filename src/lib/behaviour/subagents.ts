/**
 * The tool sets of an agent's built-in subagents (content/subagents/), for its tool pages: the
 * table on the page of the tool that starts them, and each tool's line saying which types were
 * offered it. Pure.
 */
import type { Subagents, ToolModel } from '../model/model.ts';
import type { AgentBundle } from '../model/bundles.ts';
import { AGENT_LABELS, toolUrl } from '../site/site.ts';
import { toolForCall } from '../model/tool-names.ts';
import { AGENTS } from '../agents/index.ts';
import type { SubagentLine, SubagentRow, SubagentTable } from '../model/subagent-facts.ts';

export type { SubagentLine, SubagentRow, SubagentTable };

/** The table of the tool that starts the agent's subagents; undefined on any other tool's page. */
export function subagentTable(
  bundle: Pick<AgentBundle, 'subagents' | 'tools'>,
  tool: ToolModel,
): SubagentTable | undefined {
  const record = bundle.subagents;
  if (!record || toolForCall(bundle.tools, tool.agent, record.tool) !== tool) return undefined;
  const link = (name: string) => {
    const found = toolForCall(bundle.tools, tool.agent, name);
    return { name, url: found && toolUrl(found) };
  };
  return {
    release: `${AGENT_LABELS[record.agent]} ${record.cli.version}`,
    configuration: record.configuration,
    file: record.file,
    declared: AGENTS[record.agent].subagents?.declaredPattern !== undefined,
    rows: record.types.map((t) => ({
      type: t.type,
      declared: t.declared,
      tools: t.tools.map(link),
      notOffered: t.mainTools.filter((m) => !t.tools.includes(m)),
    })),
  };
}

/** Which of its agent's subagent types were offered the tool; undefined where no tool sets are recorded. */
export function subagentLine(
  bundle: Pick<AgentBundle, 'subagents' | 'tools'>,
  tool: ToolModel,
): SubagentLine | undefined {
  const record = bundle.subagents;
  if (!record) return undefined;
  const offered = (t: Subagents['types'][number]) =>
    t.tools.some((name) => toolForCall(bundle.tools, tool.agent, name) === tool);
  const starter = toolForCall(bundle.tools, tool.agent, record.tool);
  return {
    offeredTo: record.types.filter(offered).map((t) => t.type),
    notTo: record.types.filter((t) => !offered(t)).map((t) => t.type),
    href: starter && `${toolUrl(starter)}#subagents`,
    release: `${AGENT_LABELS[record.agent]} ${record.cli.version}`,
  };
}
