/**
 * The names a tool answers to, in one place:
 * - its callable names: the full name, then its accepted aliases and former names (an SDK
 *   type name such as `BashInput` is recorded as an alias too, but nobody calls, searches
 *   or writes a history event with it);
 * - every name, type names included (what no other tool may be taken for);
 * - names as people type them: case-insensitively;
 * - the page a call belongs to, including a tool of the stub MCP server the captures
 *   configure, which belongs to its agent's MCP family page (`mcpNaming` of src/lib/agents).
 * Pure; only the agent registry is read.
 */
import { AGENTS, mcpNamingOf, type AgentId } from '../agents/index.ts';
import type { AliasKind } from '../core/content-types.ts';

/** What naming needs of a tool (a ToolModel, or anything shaped like one). */
export interface NamedTool {
  agent: string;
  fullName: string;
  generated: { aliases: readonly { name: string; kind: AliasKind }[] };
}

/** Whether an alias is a name the tool is called by (an accepted alias, a former name), not a type name. */
export function isCallableAlias(alias: { kind: AliasKind }): boolean {
  return alias.kind !== 'sdk-type';
}

/** The accepted aliases and former names, in the order they are recorded. */
export function otherNames(generated: NamedTool['generated']): string[] {
  return generated.aliases.filter(isCallableAlias).map((a) => a.name);
}

/**
 * The names a tool is called by: its full name first, then its accepted aliases and former
 * names. A call, a hook payload's `tool_name`, a history event or a search may use any of them.
 */
export function callableNames(tool: Pick<NamedTool, 'fullName' | 'generated'>): string[] {
  return [tool.fullName, ...otherNames(tool.generated)];
}

/** Every name recorded for a tool, type names included: the full name, then each alias. */
export function everyName(tool: Pick<NamedTool, 'fullName' | 'generated'>): string[] {
  return [tool.fullName, ...tool.generated.aliases.map((a) => a.name)];
}

/** Whether `name` is one of the tool's callable names, exactly as spelled. */
export function answersTo(tool: Pick<NamedTool, 'fullName' | 'generated'>, name: string): boolean {
  return tool.fullName === name || tool.generated.aliases.some((a) => isCallableAlias(a) && a.name === name);
}

/** A name as people type it, for comparing names whatever their case (`KillBash`, `killbash`). */
export function typedName(name: string): string {
  return name.toLowerCase();
}

/**
 * The MCP family page's full name (`mcp__<server>__<tool>`) when `name` is a tool of the stub
 * MCP server the captures configure (`mcp__capture__echo`); undefined for any other name,
 * or an agent outside the registry.
 */
export function stubServerFamily(agent: string, name: string): string | undefined {
  if (!(agent in AGENTS)) return undefined;
  const naming = mcpNamingOf(agent as AgentId);
  return naming?.isStubServerTool(name) ? naming.family : undefined;
}

/**
 * The tool of `agent` whose full name is `fullName`, exactly: how content written by people (job comparisons) names a
 * tool.
 */
export function toolNamed<T extends NamedTool>(tools: readonly T[], agent: string, fullName: string): T | undefined {
  return tools.find((t) => t.agent === agent && t.fullName === fullName);
}

/**
 * The tool page a call of `name` belongs to: the tool of that full name, else the one
 * that answers to it as an accepted alias or former name, else — for a tool of the stub
 * MCP server the captures configure — the page of the MCP family.
 */
export function toolForCall<T extends NamedTool>(tools: readonly T[], agent: string, name: string): T | undefined {
  const direct = toolNamed(tools, agent, name) ?? tools.find((t) => t.agent === agent && answersTo(t, name));
  if (direct) return direct;
  const family = stubServerFamily(agent, name);
  return family === undefined ? undefined : toolNamed(tools, agent, family);
}
