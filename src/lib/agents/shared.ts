/** What several agent modules share: running a command in a pseudo-terminal, picking the main request, hook configuration. */
import { wireFormat, type WireFormatId } from '../wire/index.ts';
import { pathOf } from '../wire/shared.ts';
import type { WireRequest } from '../wire/types.ts';
import type { PromptInput } from './types.ts';

/** Quotes one word for `sh -c`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `argv` run by util-linux `script` in a pseudo-terminal of 120×40, its output discarded; the runner ends it once the main request was answered. */
export function inPseudoTerminal(argv: readonly string[], env: Record<string, string>): { command: string; args: string[]; env: Record<string, string>; input: PromptInput } {
  return { command: '/usr/bin/script', args: ['-q', '-e', '-c', argv.map(shellQuote).join(' '), '/dev/null'], env: { ...env, COLUMNS: '120', LINES: '40' }, input: { kind: 'pty' } };
}

/**
 * The main request among `candidates` (requests in any of `wires`, the agent's
 * wire formats) for agents whose side requests (routing,
 * titles, memory extraction) are told apart by their text: among the streaming
 * requests, the first whose last user text ends with the prompt (some CLIs put
 * the date or context before it) and that declares tools; failing that, the
 * first streaming request with tools, then the first streaming one, then the first.
 */
export function promptedRequestWithTools<R extends WireRequest>(wires: readonly WireFormatId[], candidates: readonly R[], prompt?: string): R {
  const wireOf = (r: R) => wires.map(wireFormat).find((w) => w.isToolRequestPath(pathOf(r.url)));
  const hasTools = (r: R) => wireOf(r)?.hasTools(r.json) ?? false;
  const streaming = candidates.filter((r) => wireOf(r)?.isStreaming(r) ?? false);
  const prompted = prompt === undefined ? [] : streaming.filter((r) => wireOf(r)?.lastUserText(r.json)?.trim().endsWith(prompt.trim()) ?? false);
  return prompted.find(hasTools) ?? streaming.find(hasTools) ?? streaming[0] ?? candidates[0]!;
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

