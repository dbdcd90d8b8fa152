/**
 * What the site recorded of one agent's hooks, gathered once from the tool
 * examples (content/payloads/, attached to each tool by the payloads stage) and
 * read through the agent's HookShape: every hook payload of every own call, its
 * event, and the envelope members with their JSON types per event. The hooks
 * pages (hooks-page.ts) and the hook schemas (hook-schemas.ts) both start here.
 * Pure: the model comes in as an argument.
 */
import type { AgentId, PayloadCall } from '../core/content-types.ts';
import { hookEvent, hookMechanismOf, hookShapeOf, hookToolName, type HookShape } from '../agents/hook-shape.ts';
import type { SiteModel, ToolExample, ToolModel } from '../model/model.ts';
import { isPlaceholder } from '../check/payload-check.ts';

/** One hook payload of a recorded call of `tool`. */
export interface RecordedHook {
  tool: ToolModel;
  example: ToolExample;
  call: PayloadCall;
  /** Index of the call in its example. */
  callIndex: number;
  payload: Record<string, unknown>;
  event: string;
}

/** A recorded call of the agent's tool (its own calls only: each call counted once). */
export interface RecordedCall {
  tool: ToolModel;
  example: ToolExample;
  call: PayloadCall;
  callIndex: number;
  /** The events its hook payloads were of, in order. */
  events: string[];
}

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : (typeof value as JsonType);
}

/** One member of the envelope, over every recorded payload. */
export interface EnvelopeMember {
  name: string;
  /** JSON types of its values, masked values left out, in order of first sight. */
  types: JsonType[];
  /** Every recorded value of it was masked (a placeholder such as `$DURATION`). */
  masked: boolean;
  /** The events whose payloads carry it, each with how many of them do. */
  events: { event: string; count: number; of: number }[];
  /** A value as recorded: the first unmasked one, else the first (a placeholder). */
  example: unknown;
  /** What the shape says it is (`event`, `tool name`, `input`, `response`), when it says. */
  role?: 'event' | 'tool name' | 'input' | 'response';
}

/** Everything recorded of an agent's hooks. */
export interface AgentHooks {
  agent: AgentId;
  shape: HookShape | undefined;
  /** Calls of the agent's tools with their hook payloads (own calls, in tool then example order). */
  calls: RecordedCall[];
  hooks: RecordedHook[];
  /** The events recorded, in the shape's order (before, after, after failure), then others as seen. */
  events: string[];
  /** The envelope members, in order of first sight. */
  members: EnvelopeMember[];
  /** `<product> <versions>` of the CLI releases that recorded them. */
  versions: string[];
}

/** Every own call of the agent's tools that has a recorded example, and their hook payloads. */
export function agentHooks(site: Pick<SiteModel, 'tools'>, agent: AgentId): AgentHooks {
  const shape = hookShapeOf(agent);
  const calls: RecordedCall[] = [];
  const hooks: RecordedHook[] = [];
  const versions = new Set<string>();
  for (const tool of site.tools) {
    if (tool.agent !== agent) continue;
    for (const example of tool.examples ?? []) {
      versions.add(example.cli.version);
      example.calls.forEach((call, callIndex) => {
        if (!call.own) return;
        const events: string[] = [];
        for (const [i, payload] of call.hooks.entries()) {
          const event = shape ? hookEvent(payload, shape, call.hookEvents?.[i]) : (call.hookEvents?.[i] ?? 'hook');
          events.push(event);
          hooks.push({ tool, example, call, callIndex, payload, event });
        }
        calls.push({ tool, example, call, callIndex, events });
      });
    }
  }
  const seen = [...new Set(hooks.map((h) => h.event))];
  const ordered = shape
    ? [shape.before, shape.after, ...(shape.afterFailure ? [shape.afterFailure] : [])].filter((e) => seen.includes(e))
    : [];
  const events = [...ordered, ...seen.filter((e) => !ordered.includes(e))];
  return {
    agent,
    shape,
    calls,
    hooks,
    events,
    members: envelopeMembers(
      hooks,
      events,
      hookForms(agent).map((f) => f.shape),
    ),
    versions: [...versions],
  };
}

function envelopeMembers(
  hooks: readonly RecordedHook[],
  events: readonly string[],
  shapes: readonly HookShape[],
): EnvelopeMember[] {
  const perEvent = new Map(events.map((e) => [e, hooks.filter((h) => h.event === e).length]));
  const members = new Map<string, { types: Set<JsonType>; values: unknown[]; events: Map<string, number> }>();
  for (const hook of hooks) {
    for (const [name, value] of Object.entries(hook.payload)) {
      const m = members.get(name) ?? members.set(name, { types: new Set(), values: [], events: new Map() }).get(name)!;
      if (!isPlaceholder(value)) m.types.add(jsonTypeOf(value));
      m.values.push(value);
      m.events.set(hook.event, (m.events.get(hook.event) ?? 0) + 1);
    }
  }
  // What each form's shape says its members are (a top-level member: `input.tool` is a member of `input`).
  const roles: Record<string, EnvelopeMember['role']> = {};
  for (const shape of [...shapes].reverse()) {
    if (shape.eventField !== undefined) roles[shape.eventField] = 'event';
    roles[shape.toolNameField] = 'tool name';
    if (shape.afterToolNameField !== undefined) roles[shape.afterToolNameField] = 'tool name';
    roles[shape.inputField] = 'input';
    if (shape.afterInputField !== undefined) roles[shape.afterInputField] = 'input';
    roles[shape.responseField] = 'response';
  }
  return [...members].map(([name, m]) => {
    const unmasked = m.values.find((v) => !isPlaceholder(v));
    const member: EnvelopeMember = {
      name,
      types: [...m.types],
      masked: m.types.size === 0,
      events: events
        .filter((e) => m.events.has(e))
        .map((event) => ({ event, count: m.events.get(event)!, of: perEvent.get(event)! })),
      example: unmasked !== undefined ? unmasked : m.values[0],
    };
    const role = roles[name];
    if (role) member.role = role;
    return member;
  });
}

/** One form of an agent's hooks (its HookShape): the events it names, in the shape's order. */
export interface HookForm {
  shape: HookShape;
  events: string[];
}

/**
 * The forms of the agent's hooks: its shape, then the other shapes its mechanism declares
 * (Copilot CLI's PascalCase events, whose payloads are snake_case and name tools as Claude Code
 * does). Each recorded payload is of the form whose events name its event.
 */
export function hookForms(agent: AgentId): HookForm[] {
  const mechanism = hookMechanismOf(agent);
  if (!mechanism) return [];
  return [mechanism.shape, ...(mechanism.otherShapes ?? [])].map((shape) => ({
    shape,
    events: [shape.before, shape.after, ...(shape.afterFailure ? [shape.afterFailure] : [])],
  }));
}

/**
 * The names the hooks gave each tool that has recorded hook payloads, in tool order:
 * `names` over every form, `byForm[i]` the names in the payloads of form `i` of
 * hookForms (a matcher is tested against the name its own event's payloads carry).
 */
export function hookNames(recorded: AgentHooks): { tool: ToolModel; names: string[]; byForm: string[][] }[] {
  const forms = hookForms(recorded.agent);
  const out = new Map<ToolModel, { names: string[]; byForm: string[][] }>();
  for (const hook of recorded.hooks) {
    const entry = out.get(hook.tool) ?? out.set(hook.tool, { names: [], byForm: forms.map(() => []) }).get(hook.tool)!;
    const index = Math.max(
      0,
      forms.findIndex((f) => f.events.includes(hook.event)),
    );
    const form = forms[index];
    const name = form ? hookToolName(hook.payload, form.shape) : undefined;
    if (name === undefined) continue;
    if (!entry.names.includes(name)) entry.names.push(name);
    if (!entry.byForm[index]!.includes(name)) entry.byForm[index]!.push(name);
  }
  return [...out].map(([tool, e]) => ({ tool, ...e }));
}

/**
 * A file and URL name for an event, its case kept: one agent may have events that
 * differ only in case (Copilot CLI's `preToolUse` and VS Code-compatible `PreToolUse`),
 * so lowercasing would give both one URL. `tool.execute.before` stays as it is.
 */
export function eventSlug(event: string): string {
  return event.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
}
