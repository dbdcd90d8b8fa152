/**
 * Masking a recorded payload so that a re-run is byte-identical: the capture's rules
 * (run paths, the run's dates, UUIDs: scripts/lib/capture/placeholders.ts) plus what
 * tool runs add — timestamps, CLI-made call ids, Codex's chunk ids and wall times, the
 * kernel and host names, 64-hex device ids, timings and process ids under known keys,
 * and values learned during the run (a background task's id, a bound session id)
 * wherever they appear. Pure.
 */
import { maskRules, maskText, type MaskRule } from '../capture/placeholders.ts';

/** Rules that must run before the capture's date rules (a timestamp holds a date). */
export const TIMESTAMP_RULES: readonly MaskRule[] = [
  // ISO 8601 date-times: 2026-11-30T09:11:29.773Z, 2026-11-30T09:11:29+00:00
  {
    find: /(?<![0-9])\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?(?![0-9])/g,
    replace: '$TIMESTAMP',
  },
  // Gemini CLI's transcript file names (before Codex's rule, which would take a session id
  // that starts with two digits for the seconds: `…T05-11-35a6040f`): session-2026-12-02T01-54-<first 8 hex of the
  // session id>.jsonl
  { find: /(?<=session-)\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[0-9a-f]{8}(?=\.jsonl)/g, replace: '$TIMESTAMP-$SESSION_PREFIX' },
  // Codex session-log file names: rollout-2026-11-30T09-11-29-<uuid>.jsonl
  { find: /(?<![0-9])\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?![0-9])/g, replace: '$TIMESTAMP' },
];

/** Rules for volatile text that tool results carry, applied after the capture's rules. */
export const TEXT_RULES: readonly MaskRule[] = [
  { find: /Chunk ID: [0-9a-f]+/g, replace: 'Chunk ID: $CHUNK_ID' },
  { find: /Wall time: \d+(?:\.\d+)? seconds/g, replace: 'Wall time: $WALL_TIME seconds' },
  { find: /with session ID \d+/g, replace: 'with session ID $SESSION_ID' },
  // Gemini CLI's and Qwen Code's shell results: the process group of the command.
  { find: /Process Group PGID: \d+/g, replace: 'Process Group PGID: $PID' },
  // Qwen Code's background shell: "pid: 7190", "(pid 7190)".
  { find: /(?<=\bpid:? )\d+\b/g, replace: '$PID' },
  // Qwen Code's monitor ids (mon_ and 16 random hex digits).
  { find: /\bmon_[0-9a-f]{16}\b/g, replace: '$MONITOR_ID' },
  // Qwen Code's read_mcp_resource: a random tag around the resource's text
  // ("--- Content from MCP resource … [647f67c2] ---").
  { find: /(?<=--- (?:Content from|End of) MCP resource [^\n]*\[)[0-9a-f]{8}(?=\] ---)/g, replace: '$RESOURCE_TAG' },
  // Codex's clock.curr_time ("It is 2026-11-30 09:25:52 UTC."): the time of day.
  { find: /(?<![0-9])\d{2}:\d{2}:\d{2}(?:\.\d+)?(?![0-9])/g, replace: '$TIME' },
  // Claude Code's ListAgents: the session's peer name, made from the working directory and a hash.
  { find: /(?<=This session is )[^\s[\]]+ \[[0-9a-f]+\]/g, replace: '$SESSION_NAME' },
  // Codex's get_context_remaining: what is left depends on the size of the prompt, paths included.
  { find: /You have \d+ tokens left/g, replace: 'You have $TOKENS tokens left' },
  { find: /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/g, replace: '$DEVICE_ID' },
  // Claude Code's CronCreate: the next fire time, a few seconds of jitter before the minute.
  { find: /Next run: [A-Z][a-z]{2} \d{1,2} \d{1,2}:\d{2}[ap]m/g, replace: 'Next run: $NEXT_RUN' },
  // Ids the CLI itself makes (the stub's own are toolu_stub_N / call_stub_N and stay);
  // Qwen Code's are toolu_<epoch ms>_<random>.
  { find: /\btoolu_\d{10,}_[a-z0-9]+\b/g, replace: '$TOOL_USE_ID' },
  { find: /\btoolu_(?!stub_)[A-Za-z0-9]{10,}/g, replace: '$TOOL_USE_ID' },
  { find: /\bcall_(?!stub_)[A-Za-z0-9]{10,}/g, replace: '$CALL_ID' },
  // OpenCode's session, message and part ids (ses_…, msg_…, prt_…: a time-ordered hex part and random letters).
  { find: /\bses_[0-9a-f]{12}[A-Za-z0-9]{14}\b/g, replace: '$SESSION_ID' },
  { find: /\bmsg_[0-9a-f]{12}[A-Za-z0-9]{14}\b/g, replace: '$MESSAGE_ID' },
  { find: /\bprt_[0-9a-f]{12}[A-Za-z0-9]{14}\b/g, replace: '$PART_ID' },
  // Cline's task, session and agent ids (an epoch in milliseconds and random letters).
  { find: /\bconv_\d{13}_[a-z0-9]+\b/g, replace: '$TASK_ID' },
  { find: /\bagent_\d{13}_[a-z0-9]+\b/g, replace: '$AGENT_ID' },
  { find: /(?<![\w$])\d{13}_[a-z0-9]{5}\b/g, replace: '$SESSION_ID' },
  // Kilo Code's wakeup and cron task ids, made the same way (wku_…).
  { find: /\bwku_[0-9a-f]{12}[A-Za-z0-9]{14}\b/g, replace: '$WAKEUP_ID' },
  // A task list's task ids: 22 random letters and digits after `UUID:`.
  { find: /(?<=\bUUID:)[A-Za-z0-9]{22}\b/g, replace: '$TASK_ID' },
];

/** Numbers (or digit strings) under these keys are replaced, whatever their value. */
export const VOLATILE_KEYS: Readonly<Record<string, string>> = {
  duration_ms: '$DURATION',
  durationMs: '$DURATION',
  duration_api_ms: '$DURATION',
  elapsed_ms: '$DURATION',
  time_to_first_token_ms: '$DURATION',
  ttft_ms: '$DURATION',
  duration: '$DURATION',
  started_at: '$EPOCH',
  completed_at: '$EPOCH',
  started_at_ms: '$EPOCH',
  completed_at_ms: '$EPOCH',
  // A tool result node of the chat stream with request nodes: when the tool started.
  start_time_ms: '$EPOCH',
  create_time: '$EPOCH',
  created_at: '$EPOCH',
  createdAt: '$EPOCH',
  updatedAt: '$EPOCH',
  nextFireAt: '$EPOCH',
  // Cline's hook payloads: how long the tool ran.
  executionTimeMs: '$DURATION',
  // Kilo Code's board (the moment it was read) and its wakeups and cron tasks.
  observedAt: '$EPOCH',
  dueAt: '$EPOCH',
  // Copilot CLI's camelCase hook payloads: milliseconds since the epoch.
  timestamp: '$EPOCH',
  process_id: '$PID',
  pid: '$PID',
};

/** The same keys inside JSON text (a result the CLI sends the model as a JSON string): `"createdAt":1796030616`. */
export function embeddedJsonRules(keys: Readonly<Record<string, string>> = VOLATILE_KEYS): MaskRule[] {
  const byPlaceholder = new Map<string, string[]>();
  for (const [key, placeholder] of Object.entries(keys))
    byPlaceholder.set(placeholder, [...(byPlaceholder.get(placeholder) ?? []), key]);
  return [...byPlaceholder].map(([placeholder, names]) => ({
    find: new RegExp(`"(${names.map(escapeRegExp).join('|')})":\\s*-?\\d+(?:\\.\\d+)?`, 'g'),
    replace: `"$1":"${placeholder}"`,
  }));
}

/** String values under these keys (ids the CLI makes up) are learned and replaced wherever they appear. */
export const LEARNED_KEYS: Readonly<Record<string, string>> = {
  backgroundTaskId: 'TASK_ID',
  task_id: 'TASK_ID',
  taskId: 'TASK_ID',
  // Claude Code's subagent: the id its Agent call returns, and the one the subagent's hook payloads carry.
  agentId: 'AGENT_ID',
  agent_id: 'AGENT_ID',
  // Cline's team (team_status), made up per session.
  teamId: 'TEAM_ID',
  teamName: 'TEAM_NAME',
};

/** Values a run made up, found under LEARNED_KEYS anywhere in `value`: value → placeholder name. */
export function learnValues(
  value: unknown,
  into: Map<string | number, string> = new Map(),
): Map<string | number, string> {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const name = LEARNED_KEYS[k];
        if (name && typeof x === 'string' && x.length >= 4 && !x.startsWith('$') && !into.has(x)) into.set(x, name);
        walk(x);
      }
    }
  };
  walk(value);
  return into;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface PayloadMask {
  rules: MaskRule[];
  /** Learned values: numbers equal to one of these are replaced by its placeholder too. */
  learned: ReadonlyMap<string | number, string>;
}

/** The run folders whose path relative to `/` is masked too (`<NAME>_FROM_ROOT`). */
const FROM_ROOT = ['HOME', 'WORKDIR'] as const;

/**
 * `exact` with, for the home and work folders, their path relative to the file-system root
 * (`work/cache/payload-run/work`): OpenCode, which finds no project around the work folder,
 * names files relative to `/` (`title`, `relativePath`), and that path names the cache folder.
 */
export function withFromRoot(exact: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...exact };
  for (const name of FROM_ROOT) {
    const value = exact[name];
    if (value?.startsWith('/') && value.length > 1) out[`${name}_FROM_ROOT`] = value.slice(1);
  }
  return out;
}

/**
 * The rules of one run: timestamps first, then the capture's (exact values such as
 * paths, longest first; the run's dates; UUIDs), then learned values (as whole words),
 * then the tool-result text rules and VOLATILE_KEYS inside JSON text.
 */
export function payloadMask(
  exact: Readonly<Record<string, string>>,
  days: readonly Date[],
  learned: ReadonlyMap<string | number, string>,
): PayloadMask {
  const learnedRules: MaskRule[] = [...learned]
    .sort((a, b) => String(b[0]).length - String(a[0]).length)
    .map(([value, name]) => ({
      find: new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(String(value))}(?![A-Za-z0-9])`, 'g'),
      replace: `$${name}`,
    }));
  return {
    rules: [
      ...TIMESTAMP_RULES,
      ...maskRules(withFromRoot(exact), days),
      ...learnedRules,
      ...TEXT_RULES,
      ...embeddedJsonRules(),
    ],
    learned,
  };
}

/**
 * Keys whose values are tool inputs (what the stub sent, as sent or as echoed back): VOLATILE_KEYS do not apply inside
 * them.
 */
export const INPUT_KEYS: ReadonlySet<string> = new Set(['input', 'tool_input', 'arguments']);

/**
 * `value` masked: every string (keys too) by the rules, numbers or digit strings under
 * VOLATILE_KEYS (and any value of a `duration` key) by their placeholder — except inside
 * tool inputs (INPUT_KEYS), whose `duration_ms` is the one the scenario asked for —
 * and numbers equal to a learned value by its placeholder. Keeps key order.
 */
export function maskPayloadValue<T>(value: T, mask: PayloadMask): T {
  const walk = (v: unknown, key: string | undefined, inInput: boolean): unknown => {
    const volatile = key === undefined || inInput ? undefined : VOLATILE_KEYS[key];
    if (volatile !== undefined) {
      if (typeof v === 'number' || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v))) return volatile;
      if (key === 'duration' && v !== null && typeof v === 'object') return volatile;
    }
    if (typeof v === 'number') {
      const name = mask.learned.get(v);
      return name === undefined ? v : `$${name}`;
    }
    if (typeof v === 'string') return maskText(v, mask.rules);
    if (Array.isArray(v)) return v.map((x) => walk(x, undefined, inInput));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[maskText(k, mask.rules)] = walk(x, k, inInput || INPUT_KEYS.has(k));
      return out;
    }
    return v;
  };
  return walk(value, undefined, false) as T;
}
