/**
 * What a tool's own recorded hook payloads (content/payloads/) say of it, read through its agent's hook mechanism
 * (agents/hook-shape.ts): the names its hooks gave it, and the first payload a hook received before a call of it.
 * Computed when content is loaded (content/tool-facts.ts). Pure.
 */
import { hookEvent, hookMechanismOf, hookMember, hookOfEvent, hookToolName } from '../agents/hook-shape.ts';
import { shapeOfEvent, type HookShape } from '../agents/types.ts';
import type { ToolModel } from '../model/model.ts';
import type { FirstHookPayload } from '../model/tool-facts.ts';
import { AGENT_LABELS } from '../site/site.ts';

/**
 * The tool's names in its own recorded hook payloads (calls of the tool itself, not of
 * others in the same scenario), each read from the member the agent's hook mechanism
 * declares for the payload's event (agents/types.ts HookShape `toolNameField`: `tool_name`,
 * OpenCode's `input.tool`, Copilot CLI's `toolName` on camelCase events), in order of first
 * appearance; empty when none was recorded.
 */
export function hookToolNames(
  agent: string,
  examples: readonly {
    calls: readonly { own: boolean; hooks: readonly unknown[]; hookEvents?: readonly string[] | undefined }[];
  }[],
): string[] {
  const mechanism = hookMechanismOf(agent);
  if (!mechanism) return [];
  const names: string[] = [];
  for (const example of examples) {
    for (const call of example.calls) {
      if (!call.own) continue;
      call.hooks.forEach((payload, i) => {
        if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return;
        const hook = payload as Readonly<Record<string, unknown>>;
        // The payload's shape follows its event (Copilot CLI: camelCase or PascalCase events).
        const shape =
          [mechanism.shape, ...(mechanism.otherShapes ?? [])].find((s) => {
            const event = s.eventField === undefined ? undefined : hookMember(hook, s.eventField);
            return typeof event === 'string' && [s.before, s.after, s.afterFailure].includes(event);
          }) ?? shapeOfEvent(mechanism, hookEvent(hook, mechanism.shape, call.hookEvents?.[i]));
        const name = hookToolName(hook, shape);
        if (name !== undefined && !names.includes(name)) names.push(name);
      });
    }
  }
  return names;
}

/**
 * The first recorded payload a hook received before a call of the tool in the main thread (not inside a subagent), from
 * its examples in their order.
 */
export function firstHookPayload(
  tool: Pick<ToolModel, 'agent' | 'examples'>,
  shape: HookShape | undefined,
): FirstHookPayload | undefined {
  if (!shape) return undefined;
  for (const example of tool.examples ?? []) {
    for (const call of example.calls.filter((c) => c.own && c.inSubagent !== true)) {
      const hook = hookOfEvent(call.hooks, shape, shape.before, call.hookEvents);
      if (hook === undefined) continue;
      return {
        event: shape.before,
        payload: hook,
        release: `${AGENT_LABELS[tool.agent]} ${example.cli.version}`,
        scenario: example.scenario,
        events: [...new Set(call.hooks.map((h, i) => hookEvent(h, shape, call.hookEvents?.[i])))],
      };
    }
  }
  return undefined;
}
