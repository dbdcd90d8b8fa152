/**
 * Reading one hook payload through its agent's HookShape (src/lib/agents/types.ts):
 * which member names the event, the tool, its input (an object, or a JSON text as
 * Copilot CLI's `toolArgs`) and its response. Everything that reads recorded hook
 * payloads (examples, the payload checks, hooks pages, hook schemas) goes through
 * here, so that no module names `hook_event_name` or `tool_input` itself. Pure.
 */
import { AGENTS, isAgentId } from './index.ts';
import { hookMember, type HookMechanism, type HookShape } from './types.ts';

export type { HookShape };
export { hookMember };

/** The agent's hook mechanism, when its registry module declares one. */
export function hookMechanismOf(agent: string): HookMechanism | undefined {
  if (!isAgentId(agent)) return undefined;
  const { hooks } = AGENTS[agent];
  return 'none' in hooks ? undefined : hooks;
}

/** The agent's hook shape, when its registry module declares a hook mechanism. */
export function hookShapeOf(agent: string): HookShape | undefined {
  if (!isAgentId(agent)) return undefined;
  const { hooks } = AGENTS[agent];
  return 'none' in hooks ? undefined : hooks.shape;
}

type Hook = Readonly<Record<string, unknown>>;

/**
 * The event a payload is of: its event member; a payload without one (a mechanism
 * whose payloads do not name their event) is the after-event when it carries a
 * response, else the before-event.
 */
export function hookEvent(hook: Hook, shape: HookShape, recorded?: string): string {
  // The event the recording tagged the payload with (payload hookEvents), when its payloads name none.
  if (recorded !== undefined) return recorded;
  const named = shape.eventField === undefined ? undefined : hookMember(hook, shape.eventField);
  if (typeof named === 'string') return named;
  return hookMember(hook, shape.responseField) !== undefined ? shape.after : shape.before;
}

/** The tool's name as the hooks see it, when the payload names one. */
export function hookToolName(hook: Hook, shape: HookShape): string | undefined {
  const name =
    hookMember(hook, shape.toolNameField) ??
    (shape.afterToolNameField === undefined ? undefined : hookMember(hook, shape.afterToolNameField));
  return typeof name === 'string' ? name : undefined;
}

/** Whether the payload carries the call's input. */
export function hasHookInput(hook: Hook, shape: HookShape): boolean {
  return hookMember(hook, shape.inputField) !== undefined;
}

/**
 * The call's input as the hooks received it, decoded: a JSON text (`inputEncoding:
 * 'json-string'`) is parsed; one that does not parse stays the string it is.
 */
export function hookInput(hook: Hook, shape: HookShape): unknown {
  const raw = hookMember(hook, shape.inputField);
  if (shape.inputEncoding === 'json-string' && typeof raw === 'string') {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  return raw;
}

/** Whether the payload carries what the tool returned. */
export function hasHookResponse(hook: Hook, shape: HookShape): boolean {
  return hookMember(hook, shape.responseField) !== undefined;
}

/** The first payload of `hooks` that is of `event`. */
export function hookOfEvent<H extends Hook>(
  hooks: readonly H[],
  shape: HookShape,
  event: string,
  recorded?: readonly (string | undefined)[],
): H | undefined {
  return hooks.find((h, i) => hookEvent(h, shape, recorded?.[i]) === event);
}
