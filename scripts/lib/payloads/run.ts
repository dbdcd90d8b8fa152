/**
 * Small pure helpers of scripts/payloads.ts: the run's `$NAME` values in scenario texts, and the line printed per
 * payload.
 */
import { hookMember } from '../../../src/lib/agents/types.ts';

/**
 * `value` with `$NAME` replaced in every string wherever NAME is one of `vars` (`$WORKDIR`,
 * `$HOME`, `$RUN`); other `$` text — shell variables, a follow-up's bound names — is left
 * as it is. Keys are left alone.
 */
export function expandRunVariables<T>(value: T, vars: Readonly<Record<string, string>>): T {
  const expand = (text: string): string =>
    text.replace(/\$([A-Z][A-Z0-9_]*)/g, (token, name: string) => vars[name] ?? token);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return expand(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

export interface PayloadShape {
  calls: {
    tool: string;
    outcome: string;
    hooks: unknown[];
    hookEvents?: string[];
    toolUseResult?: unknown;
    sessionLog?: unknown[];
  }[];
}

/**
 * `<agent>/bash/failing  Bash failure (PreToolUse, PostToolUseFailure; tool_use_result)`: each
 * hook by its recorded event, else by the member that names it in the agent's payloads
 * (`eventField`, HookShape).
 */
export function payloadSummary(key: string, payload: PayloadShape, eventField = 'hook_event_name'): string {
  const calls = payload.calls.map((c) => {
    const extra =
      c.toolUseResult !== undefined
        ? '; tool_use_result'
        : c.sessionLog && c.sessionLog.length > 0
          ? `; ${c.sessionLog.length} session-log event${c.sessionLog.length === 1 ? '' : 's'}`
          : '';
    const hooks = c.hooks.map((h, i) => c.hookEvents?.[i] ?? hookMember(h, eventField) ?? '?').join(', ') || 'no hooks';
    return `${c.tool} ${c.outcome} (${hooks}${extra})`;
  });
  return `${key.padEnd(44)} ${calls.join(' → ')}`;
}

/**
 * The wire format a scenario's configuration speaks: the one whose tool request path the
 * configuration's capture recorded (Copilot CLI's `anthropic` and `*-responses`
 * configurations speak Anthropic Messages and OpenAI Responses, its default Chat
 * Completions), when the stub can make tool calls through it; else `fallback`, the agent's
 * first calling wire format.
 */
export function configurationWire<W extends { isToolRequestPath(path: string): boolean; toolCalls?: unknown }>(
  wires: readonly W[],
  capturedPath: string | undefined,
  fallback: W & { toolCalls: NonNullable<W['toolCalls']> },
): W & { toolCalls: NonNullable<W['toolCalls']> } {
  if (capturedPath === undefined) return fallback;
  const wire = wires.find((w) => w.isToolRequestPath(capturedPath));
  return wire !== undefined && wire.toolCalls !== undefined
    ? (wire as W & { toolCalls: NonNullable<W['toolCalls']> })
    : fallback;
}
