/**
 * From a finished payload run to the payload file's content (before masking): for each
 * call, the input as sent, the result the CLI sent back (found through the wire
 * format), the hook payloads, and what the agent's hook mechanism reads of the CLI's
 * own reports (Claude Code's stream-json `tool_use_result`, Codex's session log and
 * `exec --json` item events). Pure: it reads the texts the run left (standard output,
 * hook log, logs), not the files.
 */
import type { CallReport, HookMechanism } from '../../../src/lib/agents/types.ts';
import { isObject } from '../../../src/lib/wire/shared.ts';
import type { CallInput, CallKind, ToolCallWire } from '../../../src/lib/wire/types.ts';
import { HOOK_EVENT_TAG, HOOK_SEPARATOR } from './drivers.ts';
import type { Outcome } from '../../../src/lib/core/content-types.ts';
import type { JsonRecord } from '../../../src/lib/core/json.ts';

export interface RecordedCall extends CallReport {
  tool: string;
  kind: CallKind;
  input: CallInput;
  outcome: Outcome;
  /** Absent when the CLI sends none (the scenario says so). */
  result?: JsonRecord;
  hooks: JsonRecord[];
  /** The event of each hook payload, when tag records named them (agents whose payloads do not name their event). */
  hookEvents?: string[];
}

export class RecordError extends Error {}

/** The JSON values of a text of JSON lines; lines that are not JSON are skipped. */
export function jsonLines(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '') continue;
    try {
      out.push(JSON.parse(t));
    } catch {
      // not a JSON line (a warning the CLI printed)
    }
  }
  return out;
}

/** The hook payloads of the hook log, in order; a record that is not a JSON object throws. */
export function parseHookLog(text: string): JsonRecord[] {
  return text
    .split(HOOK_SEPARATOR)
    .filter((r) => r.trim() !== '')
    .map((r, i) => {
      let value: unknown;
      try {
        value = JSON.parse(r);
      } catch (error) {
        throw new RecordError(
          `hook payload ${i + 1} is not JSON: ${(error as Error).message}: ${JSON.stringify(r.slice(0, 200))}`,
        );
      }
      if (!isObject(value)) throw new RecordError(`hook payload ${i + 1} is not a JSON object`);
      return value;
    });
}

/** Is `record` a tag record (`{"$hookEvent": "<event>"}` and nothing else)? */
export function isEventTag(record: JsonRecord): boolean {
  const keys = Object.keys(record);
  return keys.length === 1 && keys[0] === HOOK_EVENT_TAG && typeof record[HOOK_EVENT_TAG] === 'string';
}

/**
 * The hook payloads of a parsed hook log with the event each was sent for: a tag record
 * names the event of the payload right after it and is removed; payloads without a tag
 * have none. A tag not followed by a payload throws.
 */
export function untagHookLog(records: readonly JsonRecord[]): {
  payloads: JsonRecord[];
  events: (string | undefined)[];
} {
  const payloads: JsonRecord[] = [];
  const events: (string | undefined)[] = [];
  let pending: string | undefined;
  records.forEach((r, i) => {
    if (isEventTag(r)) {
      if (pending !== undefined)
        throw new RecordError(
          `hook record ${i + 1}: a second event tag (${r[HOOK_EVENT_TAG] as string}) follows the tag ${pending} ` +
            `without a payload between them`,
        );
      pending = r[HOOK_EVENT_TAG] as string;
      return;
    }
    payloads.push(r);
    events.push(pending);
    pending = undefined;
  });
  if (pending !== undefined)
    throw new RecordError(`the hook log ends with the event tag ${pending} and no payload after it`);
  return { payloads, events };
}

export interface RunTexts {
  /** Request bodies the stub received, in order. */
  bodies: readonly unknown[];
  stdout: string;
  hookLog: string;
  /** The text of the files under the hook mechanism's logDir, in file-name order. */
  logs: readonly string[];
}

export interface PlannedSent {
  id: string;
  tool: string;
  kind: CallKind;
  /** The input as sent; undefined when the call was never sent. */
  input: CallInput | undefined;
  /** false: no later request is expected to carry the result. */
  resultSent?: boolean;
  /** Made inside a subagent an earlier call started. */
  inSubagent?: boolean;
}

/** Every call of the run, recorded; throws a RecordError when a call was not sent or got no result. */
export function recordCalls(
  hooks: HookMechanism,
  calls: ToolCallWire,
  planned: readonly PlannedSent[],
  texts: RunTexts,
): { calls: RecordedCall[]; execEvents?: JsonRecord[] } {
  const output = { stdout: jsonLines(texts.stdout), logs: texts.logs.flatMap(jsonLines) };
  const { payloads, events } = untagHookLog(parseHookLog(texts.hookLog));
  const eventOf = new Map(payloads.map((p, i) => [p, events[i]]));
  const hooked = planned.map((c) => ({ id: c.id, tool: c.tool, input: c.input }));
  const perCall = hooks.hooksOfCalls
    ? hooks.hooksOfCalls(payloads, hooked, events)
    : hooked.map((c) => payloads.filter((h) => h['tool_use_id'] === c.id));
  const out: RecordedCall[] = planned.map((c, i) => {
    if (c.input === undefined)
      throw new RecordError(`call ${i + 1} (${c.tool}) was never sent: no request asked for it`);
    let result: JsonRecord | undefined;
    for (const body of texts.bodies) {
      result = calls.findResult(body, c.id);
      if (result) break;
    }
    if (c.resultSent === false) {
      if (result)
        throw new RecordError(
          `call ${i + 1} (${c.tool}): a later request carried its result, though the scenario says the CLI sends none`,
        );
    } else if (!result) throw new RecordError(`call ${i + 1} (${c.tool}): no later request carried its result`);
    const own = perCall[i] ?? [];
    const outcome = hooks.outcome(result ?? {}, result ? calls.resultText(result) : '', own);
    const tagged = own.map((h) => eventOf.get(h));
    const hookEvents =
      tagged.length > 0 && tagged.every((e): e is string => e !== undefined) ? { hookEvents: tagged } : {};
    if (!('hookEvents' in hookEvents) && tagged.some((e) => e !== undefined))
      throw new RecordError(
        `call ${i + 1} (${c.tool}): some of its hook payloads have an event tag and some have none`,
      );
    return {
      tool: c.tool,
      kind: c.kind,
      ...(c.inSubagent ? { inSubagent: true as const } : {}),
      input: c.input,
      outcome,
      ...(result ? { result } : {}),
      hooks: own,
      ...hookEvents,
      ...hooks.callReport(output, c.id),
    };
  });
  return hooks.runEvents ? { calls: out, execEvents: hooks.runEvents(output) } : { calls: out };
}
