/**
 * The model side of a payload run: the stub answers the first model request with the
 * scenario's tool call, the request that carries that call's result with the follow-up
 * call (its `$NAME` tokens bound from the result) when there is one, and every other
 * request with its wire format's plain text reply. Also: finding a call's result in a
 * request body. Pure, apart from the state the Conversation keeps between requests.
 */
import { toolUseReply } from '../../../src/lib/wire/anthropic-messages.ts';
import { toolCallReply } from '../../../src/lib/wire/openai-responses.ts';
import { isObject, pathOf } from '../../../src/lib/wire/shared.ts';
import type { StubReply } from '../../../src/lib/wire/types.ts';
import { applyBindings, bindValues, type Binding, type CallInput, type PayloadAgent } from './scenarios.ts';

/** How a call is sent: Anthropic `tool_use`, or an OpenAI Responses function or freeform call. */
export type CallKind = 'tool_use' | 'function_call' | 'custom_tool_call';

export interface PlannedCall {
  /** The id the stub gives the call (`toolu_stub_1`, `call_stub_1`). */
  id: string;
  tool: string;
  /** The input with the run's placeholders expanded; a follow-up's `$NAME` tokens still in it. */
  input: CallInput;
  /** Values to read from the previous call's result before sending this one. */
  bind?: Binding[];
}

export function callKind(agent: PayloadAgent, input: CallInput): CallKind {
  if (agent === 'claude-code') return 'tool_use';
  return typeof input === 'string' ? 'custom_tool_call' : 'function_call';
}

export function callId(agent: PayloadAgent, index: number): string {
  return `${agent === 'claude-code' ? 'toolu' : 'call'}_stub_${index + 1}`;
}

/** The result of call `id` in a request body: the `tool_result` block or the `*_call_output` item, verbatim. */
export function findResult(agent: PayloadAgent, body: unknown, id: string): Record<string, unknown> | undefined {
  if (!isObject(body)) return undefined;
  if (agent === 'claude-code') {
    for (const m of Array.isArray(body['messages']) ? body['messages'] : []) {
      if (!isObject(m) || !Array.isArray(m['content'])) continue;
      for (const b of m['content']) if (isObject(b) && b['type'] === 'tool_result' && b['tool_use_id'] === id) return b;
    }
    return undefined;
  }
  for (const item of Array.isArray(body['input']) ? body['input'] : []) {
    if (isObject(item) && (item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output') && item['call_id'] === id) return item;
  }
  return undefined;
}

/** The text of a result: a string content/output, or its text parts joined by newlines. */
export function resultText(result: Record<string, unknown>): string {
  const value = 'content' in result ? result['content'] : result['output'];
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.flatMap((p) => (isObject(p) && typeof p['text'] === 'string' ? [p['text']] : [])).join('\n');
}

/** Does the request offer the model tools: a non-empty `tools`, or (OpenAI Responses) an `additional_tools` input item? */
export function hasTools(body: unknown): boolean {
  if (!isObject(body)) return false;
  if (Array.isArray(body['tools']) && body['tools'].length > 0) return true;
  return Array.isArray(body['input']) && body['input'].some((item) => isObject(item) && item['type'] === 'additional_tools');
}

/** The reply that makes call `call` (undefined when the request is not one of the agent's model requests). */
export function callReply(agent: PayloadAgent, request: { method: string; path: string; json: unknown }, call: { id: string; tool: string; input: CallInput }): StubReply | undefined {
  if (agent === 'claude-code') return toolUseReply(request, { id: call.id, name: call.tool, input: call.input });
  const { name, namespace } = splitNamespace(call.tool);
  const ns = namespace === undefined ? {} : { namespace };
  return typeof call.input === 'string'
    ? toolCallReply(request, { type: 'custom_tool_call', callId: call.id, name, ...ns, input: call.input })
    : toolCallReply(request, { type: 'function_call', callId: call.id, name, ...ns, arguments: call.input });
}

/** `clock.sleep` → namespace `clock`, name `sleep` (Codex's full names: a namespace has no dot). */
export function splitNamespace(fullName: string): { name: string; namespace?: string } {
  const dot = fullName.indexOf('.');
  return dot <= 0 ? { name: fullName } : { name: fullName.slice(dot + 1), namespace: fullName.slice(0, dot) };
}

/**
 * Which call a request should get: the first call when the request declares tools and
 * carries none of the calls' results; call k+1 when it carries the result of call k but
 * not of k+1; none otherwise (the final text).
 */
export function nextCallIndex(agent: PayloadAgent, body: unknown, calls: readonly PlannedCall[]): number | undefined {
  const answered = calls.map((c) => findResult(agent, body, c.id) !== undefined);
  if (!answered.some(Boolean)) return hasTools(body) ? 0 : undefined;
  for (let k = 0; k + 1 < calls.length; k++) if (answered[k] && !answered[k + 1]) return k + 1;
  return undefined;
}

export class Conversation {
  readonly agent: PayloadAgent;
  readonly calls: readonly PlannedCall[];
  /** The inputs as actually sent, by call index (a follow-up's after binding). */
  readonly sent = new Map<number, CallInput>();
  /** Values bound for follow-ups, by name. */
  readonly bound = new Map<string, string | number>();
  /** Why a follow-up could not be sent (its binding found nothing), if so. */
  error: string | undefined;

  constructor(agent: PayloadAgent, calls: readonly PlannedCall[]) {
    this.agent = agent;
    this.calls = calls;
  }

  /** The stub's answer to `request`, or undefined for the default text reply. Never throws. */
  answer(request: { method: string; url: string; json: unknown }): StubReply | undefined {
    if (request.method !== 'POST') return undefined;
    const index = nextCallIndex(this.agent, request.json, this.calls);
    if (index === undefined) return undefined;
    // The first call goes out once: a later request without its result (a fresh context
    // window, a subagent) gets the plain reply instead of the same call again.
    if (index === 0 && this.sent.has(0)) return undefined;
    const call = this.calls[index]!;
    let input = this.sent.get(index);
    if (input === undefined) {
      input = call.input;
      if (index > 0 && call.bind && call.bind.length > 0) {
        const previous = findResult(this.agent, request.json, this.calls[index - 1]!.id)!;
        try {
          const values = bindValues(call.bind, resultText(previous));
          for (const [k, v] of values) this.bound.set(k, v);
          input = applyBindings(input, values);
        } catch (error) {
          this.error = (error as Error).message;
          return undefined;
        }
      }
      this.sent.set(index, input);
    }
    return callReply(this.agent, { method: request.method, path: pathOf(request.url), json: request.json }, { id: call.id, tool: call.tool, input });
  }
}
