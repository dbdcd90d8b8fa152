/**
 * The agents whose tools the site documents. Adding an agent: one module beside
 * this file that declares an Agent (./types.ts, its quirks on the wire included),
 * one line below, `npm run generate:types` (the AgentId union), and its content
 * (capture matrix entry, captures; editorial files are optional).
 * test/e2e/new-agent.test.ts adds a made-up one this way, runs the registry's unit tests and
 * builds the fixture content with it.
 */
import { deferredNamespaces, extractCapturedTools, wireFormat } from '../wire/index.ts';
import { conversationTexts } from '../wire/shared.ts';
import type {
  CallingWireFormat,
  CaptureFile,
  CapturedTool,
  DeferredNamespace,
  WireFormat,
  WireQuirks,
} from '../wire/types.ts';
import { auggie } from './auggie.ts';
import { claudeCode } from './claude-code.ts';
import { cline } from './cline.ts';
import { codex } from './codex.ts';
import { continueCli } from './continue.ts';
import { copilotCli } from './copilot-cli.ts';
import { factoryDroid } from './factory-droid.ts';
import { geminiCli } from './gemini-cli.ts';
import { grokCli } from './grok-cli.ts';
import { kiloCode } from './kilo-code.ts';
import { lettaCode } from './letta-code.ts';
import { opencode } from './opencode.ts';
import { pi } from './pi.ts';
import { qwenCode } from './qwen-code.ts';
import type { Agent, HookMechanism, McpNaming } from './types.ts';
import type { AgentId } from '../generated/agent-ids.ts';

/** In the order the site lists them and the capture script runs them. */
const REGISTRY = [
  claudeCode,
  codex,
  geminiCli,
  qwenCode,
  opencode,
  copilotCli,
  cline,
  kiloCode,
  factoryDroid,
  pi,
  continueCli,
  grokCli,
  lettaCode,
  auggie,
] as const;

/**
 * The ids as the modules declare them: scripts/generate-content-types.ts writes them into
 * src/lib/generated/agent-ids.ts.
 */
export const REGISTERED_AGENT_IDS: readonly string[] = REGISTRY.map((a) => a.id);

// AgentId is generated from the registry (the content types need it without importing the modules).
// A stale generated file fails type checking here: the two unions must be the same.
type RegistryId = (typeof REGISTRY)[number]['id'];
const sameIds: [RegistryId] extends [AgentId] ? ([AgentId] extends [RegistryId] ? true : false) : false = true;
void sameIds;

export type { AgentId };

export const AGENT_IDS: readonly AgentId[] = REGISTRY.map((a) => a.id);

export const AGENTS: Readonly<Record<AgentId, Agent<AgentId>>> = Object.fromEntries(
  REGISTRY.map((a) => [a.id, a]),
) as Record<AgentId, Agent<AgentId>>;

/** Product names: `Claude Code`, `Codex CLI`, `Gemini CLI` … */
export const AGENT_PRODUCTS: Readonly<Record<AgentId, string>> = Object.fromEntries(
  REGISTRY.map((a) => [a.id, a.product]),
) as Record<AgentId, string>;

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}

export function agent(id: AgentId): Agent<AgentId> {
  return AGENTS[id];
}

/**
 * The packages a release of the agent is published in: its own, then the standalone ones its module declares (a
 * platform package that holds the program).
 */
export function agentPackages(id: AgentId): string[] {
  return [AGENTS[id].npmPackage, ...(AGENTS[id].standalonePackages ?? [])];
}

/**
 * The agent whose module names `script` as its published-types ingest or history script: a script of one agent
 * finds its agent through the registry instead of importing the agent's module.
 */
export function agentOfPublishedTypesScript(script: string): Agent<AgentId> {
  const found = REGISTRY.find(
    (a) => 'ingest' in a.publishedTypes && (a.publishedTypes.ingest === script || a.publishedTypes.history === script),
  );
  if (!found) throw new Error(`no agent module declares ${script} as its published-types ingest or history script`);
  return found;
}

/**
 * How an agent names an MCP server's tools; undefined when no capture shows that (its module says why:
 * Agent.mcpNaming).
 */
export function mcpNamingOf(id: AgentId): McpNaming | undefined {
  const naming = AGENTS[id].mcpNaming;
  return 'none' in naming ? undefined : naming;
}

/** What an agent does on its wire formats beyond the formats themselves (none for an id that is no agent's). */
export function agentWireQuirks(id: string): WireQuirks {
  return (isAgentId(id) ? AGENTS[id].wireQuirks : undefined) ?? {};
}

/** Every tool a capture advertises, read with the quirks of the agent that sent it. Throws CaptureFormatError. */
export function capturedTools(capture: CaptureFile): CapturedTool[] {
  return extractCapturedTools(capture, agentWireQuirks(capture.agent));
}

/**
 * The texts of a capture's conversation that are not whole announcements of deferred tools or
 * namespaces as its agent's module marks them (WireQuirks): a capture keeps only those, so any
 * other text there would be the machine's, the date or the session's.
 */
export function unannouncedTexts(capture: CaptureFile): { text: string; at: string }[] {
  const quirks = agentWireQuirks(capture.agent);
  const announcements = [quirks.deferredTools, quirks.deferredNamespaces];
  const body =
    capture.body !== null && typeof capture.body === 'object' ? (capture.body as Record<string, unknown>) : {};
  return conversationTexts(body, '/body').filter(
    ({ text }) => !announcements.some((a) => a?.passages(text).includes(text)),
  );
}

/** Namespaces a capture names without their tools, read with the quirks of the agent that sent it. */
export function capturedNamespaces(capture: CaptureFile): DeferredNamespace[] {
  return deferredNamespaces(capture, agentWireQuirks(capture.agent));
}

/** The wire formats an agent's model requests may use, the default first. */
export function agentWires(id: AgentId): WireFormat[] {
  return AGENTS[id].wires.map(wireFormat);
}

/** The one of an agent's wire formats whose tool-carrying path is `path` (no query string), if any. */
export function agentWireForPath(id: AgentId, path: string): WireFormat | undefined {
  return agentWires(id).find((w) => w.isToolRequestPath(path));
}

/**
 * What payload runs drive: the agent's hook mechanism and its first wire format through which the stub can make tool
 * calls.
 */
export interface PayloadDriver {
  hooks: HookMechanism;
  wire: CallingWireFormat;
}

/** The agent's payload driver, or why it has none. */
export function payloadDriver(id: AgentId): PayloadDriver | { none: string } {
  const { hooks } = AGENTS[id];
  if ('none' in hooks) return hooks;
  const wire = agentWires(id).find((w): w is CallingWireFormat => w.toolCalls !== undefined);
  if (!wire) return { none: `none of its wire formats (${AGENTS[id].wires.join(', ')}) lets the stub make tool calls` };
  return { hooks, wire };
}

/** The agents whose hook payloads npm run payloads records, in registry order. */
export const PAYLOAD_AGENTS: readonly AgentId[] = AGENT_IDS.filter((id) => !('none' in payloadDriver(id)));

export type {
  Agent,
  CallReport,
  HookMechanism,
  HookRunOutput,
  Invocation,
  InvocationContext,
  Mode,
  PromptInput,
} from './types.ts';
