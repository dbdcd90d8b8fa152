/**
 * What the Examples section shows of one recorded call (src/components/Examples.astro):
 * the blocks in reading order, and the input's fields with their anchors. Pure.
 */
import { anchorFor } from '../shapes/anchors.ts';
import type { PayloadCall } from '../core/content-types.ts';
import { hookEvent, hookMember, hookOfEvent, type HookShape } from '../agents/hook-shape.ts';

export interface ExamplePart {
  title: string;
  value: unknown;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The input the model sent; the result the CLI sent back to the model; each hook's
 * standard input, titled with its event (read through the agent's hook shape; a
 * plain "Hook" without one); the CLI's structured result (Claude Code's stream-json
 * `tool_use_result`) unless it equals the after-event hook's response, as it
 * usually does.
 */
export function exampleParts(
  call: PayloadCall,
  shape: HookShape | undefined,
  recordTitle = '{event} hook, standard input',
): ExamplePart[] {
  const parts: ExamplePart[] = [{ title: 'Input the model sent', value: call.input }];
  if (call.result !== undefined) parts.push({ title: 'Result the model got', value: call.result });
  else parts.push({ title: 'Result the model got', value: 'The CLI sent the model no result for this call.' });
  // The event: the payload's own member, or the one recorded beside it (hookEvents) where payloads name none.
  call.hooks.forEach((hook, i) => {
    const event = shape ? hookEvent(hook, shape, call.hookEvents?.[i]) : call.hookEvents?.[i];
    parts.push({
      title: event === undefined ? 'Hook, standard input' : recordTitle.replace('{event}', event),
      value: hook,
    });
  });
  const post = shape && hookOfEvent(call.hooks, shape, shape.after, call.hookEvents);
  if (
    call.toolUseResult !== undefined &&
    !(post && shape && same(hookMember(post, shape.responseField), call.toolUseResult))
  ) {
    parts.push({ title: 'Structured result (stream-json tool_use_result)', value: call.toolUseResult });
  }
  return parts;
}

/**
 * The top-level keys of an input, each with the anchor of its row when the page has one (`input.x`, else
 * `model-input.x`).
 */
export function inputFieldLinks(
  input: Record<string, unknown>,
  anchors: ReadonlySet<string>,
): { name: string; anchor?: string }[] {
  return Object.keys(input).map((name) => {
    const anchor = (['input', 'model-input'] as const)
      .map((root) => anchorFor(root, [{ kind: 'property', name }]))
      .find((a) => anchors.has(a));
    return anchor ? { name, anchor } : { name };
  });
}

/** Strings longer than this are shortened where a page shows a payload (base64 images, long outputs). */
export const SHOWN_STRING_LIMIT = 240;

/**
 * `value` with every string over `limit` characters cut, saying how much was left out; the file beside the page has it
 * whole.
 */
export function shortened(value: unknown, limit: number = SHOWN_STRING_LIMIT): unknown {
  if (typeof value === 'string')
    return value.length > limit ? `${value.slice(0, limit)}… [${value.length - limit} more characters]` : value;
  if (Array.isArray(value)) return value.map((v) => shortened(v, limit));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortened(v, limit)]));
  return value;
}
