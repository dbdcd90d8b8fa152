/**
 * The "In hooks" section of a tool page: what a hook author asks first, answered
 * near the top. One recorded payload a hook receives before the tool runs (with
 * the tool's hook schema beside it), what the agent's hooks may return on the
 * events around the call, and what each recorded answer did to this tool, in a
 * hook author's words. Pure: the section renders this (ToolHooks.astro).
 */
import type { HookShape } from '../agents/types.ts';
import type { AgentId } from '../core/content-types.ts';
import type { AgentBundle } from '../model/bundles.ts';
import { behaviourOutcome, KIND_LABELS } from '../behaviour/hook-behaviour.ts';
import { outputMembers } from '../behaviour/hook-outputs.ts';
import { eventSlug } from '../behaviour/hooks.ts';
import type { Verdict } from '../behaviour/outcome-words.ts';
import type { HookBehaviourRecord, HookOutputs, ToolModel } from '../model/model.ts';
import { toolForCall } from '../model/tool-names.ts';
import { AGENT_LABELS, sitePath } from '../site/site.ts';
import { shortened } from './examples.ts';

/**
 * How many recorded answers the section shows before its fold: one per kind of
 * answer (deny, allow, ask …) in case order, up to this many; the rest (the same
 * answers under rules, several hooks, time-outs) are one click away.
 */
export const OPEN_ANSWERS = 5;

export interface ToolHookAnswer {
  /** `PreToolUse denies, with a reason`. */
  label: string;
  /** Its case on the agent's hooks page. */
  href: string;
  /** What the case set up, in the recording's words. */
  setting: string;
  verdict: Verdict;
  /** What happened to the call, in a hook author's words. */
  outcome: string;
  surprise: string | undefined;
}

export interface ToolHookPayload {
  /** The event whose payload is shown: the one before the call. */
  event: string;
  /** The payload as JSON, long strings shortened. */
  json: string;
  /** `<product> <version>` that recorded it. */
  release: string;
  /** The scenario it comes from: its block under Examples. */
  scenario: string;
  /** The events the tool's recorded payloads came on, in the order first seen. */
  events: string[];
}

export interface ToolHooksView {
  product: string;
  /** The agent's hooks page. */
  hooksHref: string;
  payload: ToolHookPayload | undefined;
  /**
   * What a hook may return on the events around the call, as its source declares it: the members every one of them
   * takes once, then each event's own.
   */
  mayReturn: MayReturn;
  /** The recorded answers on calls of this tool: the first `open` shown, the rest folded. */
  answers: ToolHookAnswer[];
  open: number;
}

/**
 * The first recorded payload a hook received before a main-thread call of the tool (its facts), as the section shows
 * it.
 */
export function firstPayload(tool: ToolModel): ToolHookPayload | undefined {
  const first = tool.facts.hooks.firstPayload;
  return (
    first && {
      event: first.event,
      json: JSON.stringify(shortened(first.payload), null, 2),
      release: first.release,
      scenario: first.scenario,
      events: first.events,
    }
  );
}

/**
 * The answers recorded on calls of the tool, one of each kind first (in case order), then the others; `kinds` counts
 * the first.
 */
export function answersOn(
  tool: ToolModel,
  records: readonly HookBehaviourRecord[],
  tools: readonly ToolModel[],
): { answers: ToolHookAnswer[]; kinds: number } {
  // toolForCall finds a tool of the record's agent: the same tool means the same agent.
  const own = records.filter((r) => toolForCall(tools, r.agent, r.tool) === tool);
  const seen = new Set<string>();
  const first = own.filter((r) => !seen.has(r.kind) && seen.add(r.kind));
  const answers = [...first, ...own.filter((r) => !first.includes(r))].map((r) => {
    const plain = behaviourOutcome(r).plain;
    return {
      label: `${r.event} ${KIND_LABELS[r.kind] ?? r.kind}`,
      href: sitePath(`/${r.agent}/hooks/#case-${r.case}`),
      setting: r.description,
      verdict: plain.verdict,
      outcome: plain.sentence,
      surprise: plain.surprise,
    };
  });
  return { answers, kinds: first.length };
}

/**
 * A top-level member of a hook's answer and the members inside it (`hookSpecificOutput` → `permissionDecision`, …).
 */
export interface MemberGroup {
  name: string;
  inner: string[];
}

/**
 * Member paths (`decision`, `hookSpecificOutput.permissionDecision`) grouped under their top-level member, in order.
 */
export function memberGroups(paths: readonly string[]): MemberGroup[] {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    const top = dot < 0 ? path : path.slice(0, dot);
    const inner = groups.get(top) ?? groups.set(top, []).get(top)!;
    if (dot >= 0) inner.push(path.slice(dot + 1));
  }
  return [...groups].map(([name, inner]) => ({ name, inner }));
}

export interface MayReturn {
  /** Members every event declares alike (when there are several events). */
  common: MemberGroup[];
  /** Each event (the one before the call first) with its other members and its block on the hooks page. */
  events: { event: string; members: MemberGroup[]; href: string }[];
}

/** The members every event declares alike, said once, and what is left of each event. */
export function sharedMembers(events: readonly { event: string; members: MemberGroup[]; href: string }[]): MayReturn {
  const key = (m: MemberGroup) => `${m.name}(${m.inner.join(',')})`;
  const everywhere =
    events.length < 2
      ? new Set<string>()
      : new Set(events[0]!.members.map(key).filter((k) => events.every((e) => e.members.some((m) => key(m) === k))));
  return {
    common: events[0]?.members.filter((m) => everywhere.has(key(m))) ?? [],
    events: events.map((e) => ({ ...e, members: e.members.filter((m) => !everywhere.has(key(m))) })),
  };
}

/**
 * The members a hook may return on the events before and after a call, as the agent's published source declares them.
 */
export function mayReturn(agent: AgentId, shape: HookShape | undefined, outputs: HookOutputs | undefined): MayReturn {
  if (!shape || outputs === undefined || 'unavailable' in outputs) return { common: [], events: [] };
  const around = [shape.before, shape.after, ...(shape.afterFailure ? [shape.afterFailure] : [])];
  return sharedMembers(
    around.flatMap((event) => {
      const declared = outputs.events.find((e) => e.event === event);
      return declared
        ? [
            {
              event,
              members: memberGroups(outputMembers(declared.schema).map((m) => m.path)),
              href: sitePath(`/${agent}/hooks/#output-${eventSlug(event)}`),
            },
          ]
        : [];
    }),
  );
}

/** The section, when the agent has hooks at all (an agent without a hook mechanism gets none). */
export function toolHooksView(
  tool: ToolModel,
  bundle: Pick<AgentBundle, 'hookBehaviour' | 'tools' | 'hookOutputs' | 'hookShape' | 'hookMechanism'>,
): ToolHooksView | undefined {
  if (!bundle.hookMechanism && !bundle.hookShape) return undefined;
  const { answers, kinds } = answersOn(tool, bundle.hookBehaviour, bundle.tools);
  return {
    product: AGENT_LABELS[tool.agent],
    hooksHref: sitePath(`/${tool.agent}/hooks/`),
    payload: firstPayload(tool),
    mayReturn: mayReturn(tool.agent, bundle.hookShape, bundle.hookOutputs),
    answers,
    open: Math.min(kinds, OPEN_ANSWERS),
  };
}
