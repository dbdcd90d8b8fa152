/**
 * Qwen Code's deferred-tool reminder, shared by the wire formats Qwen Code speaks
 * (OpenAI Chat Completions and OpenAI Responses). Qwen Code defers most of its
 * tools to its `tool_search`/`tool_call` pair and only names them, one
 * `- "name": "description"` line each, in a `<system-reminder>` text of the user
 * message ("The following tools are reachable through `tool_search` and
 * `tool_call`…"; MCP tools that became available later: "The following MCP
 * tools …"). A capture keeps that reminder and no other text of the conversation.
 */
import type { Definition } from '../core/content-types.ts';

/** The reminder, anywhere in a text (the rest of the text describes the machine, the date and the session). */
const DEFERRED_REMINDER = /<system-reminder>\nThe following (?:MCP )?tools [^\n]*?reachable through `tool_search`[\s\S]*?<\/system-reminder>/;
/** A tool line of that reminder: the name as a JSON string, then `: "description"` or nothing. */
const DEFERRED_LINE = /^- ("(?:[^"\\]|\\.)*")(?::|$)/;

/** The complete reminder inside `text`, verbatim, or undefined when the text holds none. */
export function deferredReminderIn(text: string): string | undefined {
  return DEFERRED_REMINDER.exec(text)?.[0];
}

/**
 * Tool names announced as deferred by the reminders in `texts` (each text with the
 * pointer of where it is), in order, each once, with the pointer of the first text
 * naming it.
 */
export function deferredReminderNames(texts: Iterable<{ text: string; at: string }>): { name: string; at: string }[] {
  const out: { name: string; at: string }[] = [];
  for (const { text, at } of texts) {
    const reminder = deferredReminderIn(text);
    if (reminder === undefined) continue;
    for (const line of reminder.split('\n')) {
      const quoted = DEFERRED_LINE.exec(line)?.[1];
      if (quoted === undefined) continue;
      const name = JSON.parse(quoted) as string;
      if (name !== '' && !out.some((d) => d.name === name)) out.push({ name, at });
    }
  }
  return out;
}

/** The input definition of a tool the reminder only names. */
export const DEFERRED_INPUT: Definition = {
  kind: 'unavailable',
  reason: 'Deferred in this configuration: the model is told only the name and a one-line description, loads the schema through tool_search, and calls the tool through tool_call.',
};
