/**
 * The model side of a payload run: the stub answers the first model request with the
 * scenario's tool call, the request that carries that call's result with the follow-up
 * call (its `$NAME` tokens bound from the result) when there is one, and every other
 * request with its wire format's plain text reply. How a call is made and its result
 * found is the wire format's (ToolCallWire, src/lib/wire). Pure, apart from the state
 * the Conversation keeps between requests.
 */
import { pathOf } from '../../../src/lib/wire/shared.ts';
import type { CallInput, CallingWireFormat, StubReply } from '../../../src/lib/wire/types.ts';
import type { Binding } from '../../../src/lib/core/content-types.ts';
import { applyBindings, bindValues } from './scenarios.ts';

export interface PlannedCall {
  /** The id the stub gives the call (ToolCallWire.callId). */
  id: string;
  tool: string;
  /** The input with the run's placeholders expanded; a follow-up's `$NAME` tokens still in it. */
  input: CallInput;
  /** Values to read from the previous call's result before sending this one. */
  bind?: Binding[];
  /**
   * Made inside a subagent: the answer to the first request that carries no result once the first call went out (a
   * subagent's own conversation).
   */
  subagent?: boolean;
}

/**
 * Which call a request should get: the first call when the request declares tools and
 * carries none of the calls' results; call k+1 when it carries the result of call k but
 * not of k+1 (a call made inside a subagent is never the next of the main conversation);
 * none otherwise (the final text).
 */
export function nextCallIndex(
  wire: CallingWireFormat,
  body: unknown,
  calls: readonly PlannedCall[],
): number | undefined {
  const answered = calls.map((c) => wire.toolCalls.findResult(body, c.id) !== undefined);
  if (!answered.some(Boolean)) return wire.hasTools(body) ? 0 : undefined;
  for (let k = 0; k + 1 < calls.length; k++)
    if (answered[k] && !answered[k + 1] && calls[k + 1]!.subagent !== true) return k + 1;
  return undefined;
}

export class Conversation {
  readonly wire: CallingWireFormat;
  readonly calls: readonly PlannedCall[];
  /** The inputs as actually sent, by call index (a follow-up's after binding). */
  readonly sent = new Map<number, CallInput>();
  /** Values bound for follow-ups, by name. */
  readonly bound = new Map<string, string | number>();
  /** Why a follow-up could not be sent (its binding found nothing), if so. */
  error: string | undefined;

  constructor(wire: CallingWireFormat, calls: readonly PlannedCall[]) {
    this.wire = wire;
    this.calls = calls;
  }

  /** The stub's answer to `request`, or undefined for the default text reply. Never throws. */
  answer(request: { method: string; url: string; json: unknown }): StubReply | undefined {
    if (request.method !== 'POST' || !this.wire.isToolRequestPath(pathOf(request.url))) return undefined;
    const { toolCalls } = this.wire;
    let index = nextCallIndex(this.wire, request.json, this.calls);
    if (index === undefined) return undefined;
    // The first call goes out once: a later request without its result (a fresh context
    // window, a subagent) gets the plain reply instead of the same call again, or, the
    // first time, the call the scenario makes inside the subagent.
    if (index === 0 && this.sent.has(0)) {
      const inSubagent = this.calls.findIndex((c, i) => c.subagent === true && !this.sent.has(i));
      if (inSubagent < 0) return undefined;
      index = inSubagent;
    }
    const call = this.calls[index]!;
    let input = this.sent.get(index);
    if (input === undefined) {
      input = call.input;
      if (index > 0 && call.bind && call.bind.length > 0) {
        const previous = toolCalls.findResult(request.json, this.calls[index - 1]!.id)!;
        try {
          const values = bindValues(call.bind, toolCalls.resultText(previous));
          for (const [k, v] of values) this.bound.set(k, v);
          input = applyBindings(input, values);
        } catch (error) {
          this.error = (error as Error).message;
          return undefined;
        }
      }
      this.sent.set(index, input);
    }
    return toolCalls.callReply(
      { method: request.method, path: pathOf(request.url), json: request.json },
      { id: call.id, tool: call.tool, input },
    );
  }
}
