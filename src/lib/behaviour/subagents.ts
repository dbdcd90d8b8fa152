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

export interface SubagentRow {
  type: string;
  /** What the main thread is told the type gets, in the CLI's words. */
  declared: string | undefined;
  tools: { name: string; url: string | undefined }[];
  /** Tools the main thread was offered and this type was not. */
  notOffered: string[];
}

export interface SubagentTable {
  /** `Claude Code 2.1.335`, configuration `print-no-tool-search`. */
  release: string;
  configuration: string;
  file: string;
  /**
   * Whether the agent's module says where its main thread is told what a type gets (the table then has that column).
   */
  declared: boolean;
  rows: SubagentRow[];
}

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

export interface SubagentLine {
  /** Types whose first request offered the tool. */
  offeredTo: string[];
  /** Types whose first request did not. */
  notTo: string[];
  /** The table, on the starting tool's page. */
  href: string | undefined;
  release: string;
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
