/**
 * What several agent modules share: running a command in a pseudo-terminal, picking the main request, hook
 * configuration, matching hook payloads to calls.
 */
import { wireFormat, type WireFormatId } from '../wire/index.ts';
import { isObject, pathOf } from '../wire/shared.ts';
import type { WireRequest } from '../wire/types.ts';
import { hookMember, type HookedCall, type HookShape, type PromptInput } from './types.ts';
import type { JsonRecord } from '../core/json.ts';

/** Quotes one word for `sh -c`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `argv` run by util-linux `script` in a pseudo-terminal of 120×40, its output discarded; the runner ends it once the
 * main request was answered.
 */
export function inPseudoTerminal(
  argv: readonly string[],
  env: Record<string, string>,
): { command: string; args: string[]; env: Record<string, string>; input: PromptInput } {
  return {
    command: '/usr/bin/script',
    args: ['-q', '-e', '-c', argv.map(shellQuote).join(' '), '/dev/null'],
    env: { ...env, COLUMNS: '120', LINES: '40' },
    input: { kind: 'pty' },
  };
}

/**
 * The main request among `candidates` (requests in any of `wires`, the agent's
 * wire formats) for agents whose side requests (routing,
 * titles, memory extraction) are told apart by their text: among the streaming
 * requests, the first whose last user text ends with the prompt (some CLIs put
 * the date or context before it) and that declares tools; failing that, the
 * first streaming request with tools, then the first streaming one, then the first.
 */
export function promptedRequestWithTools<R extends WireRequest>(
  wires: readonly WireFormatId[],
  candidates: readonly R[],
  prompt?: string,
): R {
  const wireOf = (r: R) => wires.map(wireFormat).find((w) => w.isToolRequestPath(pathOf(r.url)));
  const hasTools = (r: R) => wireOf(r)?.hasTools(r.json) ?? false;
  const streaming = candidates.filter((r) => wireOf(r)?.isStreaming(r) ?? false);
  const prompted =
    prompt === undefined
      ? []
      : streaming.filter((r) => wireOf(r)?.lastUserText(r.json)?.trim().endsWith(prompt.trim()) ?? false);
  return prompted.find(hasTools) ?? streaming.find(hasTools) ?? streaming[0] ?? candidates[0]!;
}

/**
 * For agents that wrap the prompt (in a tag, or before context of their own): is `r` a streaming
 * request, in one of `wires`, with tools, whose last user text holds the prompt? The turn that
 * answers the prompt, where `promptedRequestWithTools`'s "ends with the prompt" does not hold.
 */
export function holdsPromptWithTools(wires: readonly WireFormatId[], r: WireRequest, prompt: string): boolean {
  const wire = wires.map(wireFormat).find((w) => w.isToolRequestPath(pathOf(r.url)));
  return (
    wire !== undefined &&
    wire.isStreaming(r) &&
    wire.hasTools(r.json) &&
    lastUserMessageTexts(r.json).some((t) => t.includes(prompt.trim()))
  );
}

/**
 * Every text of the last user message (`messages` of Chat Completions and Anthropic Messages):
 * its string content, or the `text` of each of its parts. Kilo Code sends the prompt as one
 * part and its <environment_details> as the next, so the last part alone misses the prompt.
 */
export function lastUserMessageTexts(body: unknown): string[] {
  const messages = body !== null && typeof body === 'object' ? (body as { messages?: unknown }).messages : undefined;
  if (!Array.isArray(messages)) return [];
  const last = [...messages]
    .reverse()
    .find((m) => m !== null && typeof m === 'object' && (m as { role?: unknown }).role === 'user') as
    | { content?: unknown }
    | undefined;
  const content = last?.content;
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const text = part !== null && typeof part === 'object' ? (part as { text?: unknown }).text : undefined;
    return typeof text === 'string' ? [text] : [];
  });
}

/**
 * The main request of such an agent: the first that holds the prompt (holdsPromptWithTools), else as
 * promptedRequestWithTools picks it.
 */
export function requestHoldingPrompt<R extends WireRequest>(
  wires: readonly WireFormatId[],
  candidates: readonly R[],
  prompt?: string,
): R {
  return (
    (prompt === undefined ? undefined : candidates.find((r) => holdsPromptWithTools(wires, r, prompt))) ??
    promptedRequestWithTools(wires, candidates, prompt)
  );
}

/**
 * The `hooks` object of a settings file in the form Claude Code's settings.json and
 * Codex's hooks.json share: each event, matcher `*`, one command hook.
 */
export function matcherHooks(events: readonly string[], command: string): { hooks: Record<string, unknown> } {
  const hooks: Record<string, unknown> = {};
  for (const event of events) hooks[event] = [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 10 }] }];
  return { hooks };
}

/** A JSON value's text with object keys sorted, to compare inputs whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * The hook payloads of each call when they carry no call id: call k gets the first
 * before-event payload not yet taken that names its tool with its input (any key order),
 * failing that the first that names its tool; then the first after-event payload after
 * it that names the same tool with the same input as that before-event. Payloads of
 * other events, and those no call claims, are left out. Pure.
 */
export function hooksByOrder(
  shape: HookShape,
  payloads: readonly JsonRecord[],
  calls: readonly HookedCall[],
): JsonRecord[][] {
  const taken = new Set<number>();
  const name = (h: JsonRecord): unknown => hookMember(h, shape.toolNameField);
  const input = (h: JsonRecord): string => canonical(hookMember(h, shape.inputField));
  const event = (h: JsonRecord): unknown =>
    shape.eventField === undefined ? undefined : hookMember(h, shape.eventField);
  const isAfter = (h: JsonRecord): boolean =>
    event(h) === shape.after || (shape.afterFailure !== undefined && event(h) === shape.afterFailure);
  const first = (from: number, ok: (h: JsonRecord) => boolean): number =>
    payloads.findIndex((h, i) => i >= from && !taken.has(i) && ok(h));
  return calls.map((call) => {
    const isBefore = (h: JsonRecord): boolean => event(h) === shape.before && name(h) === call.tool;
    let b = first(0, (h) => isBefore(h) && input(h) === canonical(call.input));
    if (b === -1) b = first(0, isBefore);
    if (b === -1) {
      const a = first(0, (h) => isAfter(h) && name(h) === call.tool);
      if (a === -1) return [];
      taken.add(a);
      return [payloads[a]!];
    }
    taken.add(b);
    const before = payloads[b]!;
    const a = first(b + 1, (h) => isAfter(h) && name(h) === call.tool && input(h) === input(before));
    if (a === -1) return [before];
    taken.add(a);
    return [before, payloads[a]!];
  });
}
