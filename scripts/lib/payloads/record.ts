/**
 * From a finished payload run to the payload file's content (before masking): for each
 * call, the input as sent, the result the CLI sent back, the hook payloads, and the
 * CLI's structured result (Claude Code's stream-json `tool_use_result`, Codex's session
 * log events), plus Codex's `exec --json` item events. Pure: it reads the texts the
 * run left (standard output, hook log, session logs), not the files.
 */
import { isObject } from '../../../src/lib/wire/shared.ts';
import { findResult, resultText, type CallKind } from './conversation.ts';
import { HOOK_SEPARATOR } from './drivers.ts';
import type { CallInput, Outcome, PayloadAgent } from './scenarios.ts';

type Json = Record<string, unknown>;

export interface RecordedCall {
  tool: string;
  kind: CallKind;
  input: CallInput;
  outcome: Outcome;
  /** Absent when the CLI sends none (the scenario says so). */
  result?: Json;
  hooks: Json[];
  toolUseResult?: unknown;
  toolResultMeta?: Json;
  sessionLog?: Json[];
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
export function parseHookLog(text: string): Json[] {
  return text
    .split(HOOK_SEPARATOR)
    .filter((r) => r.trim() !== '')
    .map((r, i) => {
      let value: unknown;
      try {
        value = JSON.parse(r);
      } catch (error) {
        throw new RecordError(`hook payload ${i + 1} is not JSON: ${(error as Error).message}: ${JSON.stringify(r.slice(0, 200))}`);
      }
      if (!isObject(value)) throw new RecordError(`hook payload ${i + 1} is not a JSON object`);
      return value;
    });
}

/** Claude Code stream-json: the user message carrying the result of `id`: its tool_use_result and this call's tool_result_meta. */
export function streamJsonResult(lines: readonly unknown[], id: string): { toolUseResult?: unknown; toolResultMeta?: Json } | undefined {
  for (const line of lines) {
    if (!isObject(line) || line['type'] !== 'user' || !isObject(line['message'])) continue;
    const content = line['message']['content'];
    if (!Array.isArray(content) || !content.some((b) => isObject(b) && b['type'] === 'tool_result' && b['tool_use_id'] === id)) continue;
    const out: { toolUseResult?: unknown; toolResultMeta?: Json } = {};
    if ('tool_use_result' in line) out.toolUseResult = line['tool_use_result'];
    const meta = Array.isArray(line['tool_result_meta']) ? line['tool_result_meta'].find((m) => isObject(m) && m['id'] === id) : undefined;
    if (isObject(meta)) out.toolResultMeta = meta;
    return out;
  }
  return undefined;
}

/** Codex session log: payloads of `event_msg` entries whose text names call `id`. */
export function sessionLogEvents(entries: readonly unknown[], id: string): Json[] {
  const quoted = JSON.stringify(id);
  return entries.flatMap((e) => (isObject(e) && e['type'] === 'event_msg' && isObject(e['payload']) && JSON.stringify(e['payload']).includes(quoted) ? [e['payload']] : []));
}

/** Codex `exec --json`: the item events of tool calls (not the warnings that hooks run untrusted, not messages or reasoning). */
export function execItemEvents(lines: readonly unknown[]): Json[] {
  return lines.flatMap((l): Json[] => {
    if (!isObject(l) || typeof l['type'] !== 'string' || !l['type'].startsWith('item.') || !isObject(l['item'])) return [];
    const { type, message } = l['item'];
    if (type === 'agent_message' || type === 'reasoning') return [];
    if (type === 'error' && typeof message === 'string' && message.includes('--dangerously-bypass-hook-trust')) return [];
    return [l];
  });
}

/**
 * What the CLI reported for a call. Claude Code: `is_error` on the tool_result. Codex:
 * the exit code its output states (`Process exited with code N`, `Exit code: N`); without
 * one, a call whose PreToolUse hook fired but no PostToolUse did failed (Codex fires
 * none after a patch that does not apply or an image it cannot read).
 */
export function callOutcome(agent: PayloadAgent, result: Json, hooks: readonly Json[]): Outcome {
  if (agent === 'claude-code') return result['is_error'] === true ? 'failure' : 'success';
  const text = resultText(result);
  const code = /Process exited with code (-?\d+)/.exec(text) ?? /^Exit code: (-?\d+)/m.exec(text);
  if (code) return code[1] === '0' ? 'success' : 'failure';
  const fired = (event: string): boolean => hooks.some((h) => h['hook_event_name'] === event);
  return fired('PreToolUse') && !fired('PostToolUse') ? 'failure' : 'success';
}

export interface RunTexts {
  /** Request bodies the stub received, in order. */
  bodies: readonly unknown[];
  stdout: string;
  hookLog: string;
  /** Codex: the session log files' text, in file-name order. */
  sessionLogs: readonly string[];
}

export interface PlannedSent {
  id: string;
  tool: string;
  kind: CallKind;
  /** The input as sent; undefined when the call was never sent. */
  input: CallInput | undefined;
  /** false: no later request is expected to carry the result. */
  resultSent?: boolean;
}

/** Every call of the run, recorded; throws a RecordError when a call was not sent or got no result. */
export function recordCalls(agent: PayloadAgent, calls: readonly PlannedSent[], texts: RunTexts): { calls: RecordedCall[]; execEvents?: Json[] } {
  const lines = jsonLines(texts.stdout);
  const hooks = parseHookLog(texts.hookLog);
  const session = texts.sessionLogs.flatMap(jsonLines);
  const out: RecordedCall[] = calls.map((c, i) => {
    if (c.input === undefined) throw new RecordError(`call ${i + 1} (${c.tool}) was never sent: no request asked for it`);
    let result: Json | undefined;
    for (const body of texts.bodies) {
      result = findResult(agent, body, c.id);
      if (result) break;
    }
    if (c.resultSent === false) {
      if (result) throw new RecordError(`call ${i + 1} (${c.tool}): a later request carried its result, though the scenario says the CLI sends none`);
    } else if (!result) throw new RecordError(`call ${i + 1} (${c.tool}): no later request carried its result`);
    const own = hooks.filter((h) => h['tool_use_id'] === c.id);
    const recorded: RecordedCall = { tool: c.tool, kind: c.kind, input: c.input, outcome: callOutcome(agent, result ?? {}, own), ...(result ? { result } : {}), hooks: own };
    if (agent === 'claude-code') {
      const streamed = streamJsonResult(lines, c.id);
      if (streamed && 'toolUseResult' in streamed) recorded.toolUseResult = streamed.toolUseResult;
      if (streamed?.toolResultMeta) recorded.toolResultMeta = streamed.toolResultMeta;
    } else {
      recorded.sessionLog = sessionLogEvents(session, c.id);
    }
    return recorded;
  });
  return agent === 'codex' ? { calls: out, execEvents: execItemEvents(lines) } : { calls: out };
}
