/**
 * The run folder of payload runs, and the hook command every agent's hook
 * configuration runs: it appends each hook payload to one log in the run folder.
 * What else a run adds (arguments, environment, the hook configuration file) is
 * the agent's (HookMechanism.runAdditions). Pure.
 */
import { join } from 'node:path';
import type { HookMechanism, HookRunAdditions } from '../../../src/lib/agents/types.ts';

/** Between two hook payloads in the hook log (ASCII record separator). */
export const HOOK_SEPARATOR = '\x1e';

/** Fixed folders of the payload runs, wiped before each run. */
export interface PayloadPaths {
  /** The run folder: holds home/, work/, tmp/ and the hook log. */
  run: string;
  home: string;
  workdir: string;
  tmp: string;
  hookLog: string;
}

export function payloadPaths(run: string): PayloadPaths {
  return {
    run,
    home: join(run, 'home'),
    workdir: join(run, 'work'),
    tmp: join(run, 'tmp'),
    hookLog: join(run, 'hooks.log'),
  };
}

/** Quotes one word for `sh -c` (always, in single quotes). */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The hook command: standard input appended to the hook log, then a separator. */
export function hookCommand(hookLog: string): string {
  const log = quote(hookLog);
  return `cat >> ${log}; printf '\\036' >> ${log}`;
}

/**
 * The member of a tag record: `{"$hookEvent": "<event>"}` written just before a payload by
 * taggedHookCommand names the event the next payload was sent for. The recorder removes
 * tag records and keeps the event beside the payload (payload call `hookEvents`).
 */
export const HOOK_EVENT_TAG = '$hookEvent';

/** The hook command preceded by a tag record naming `event` (one open of the log, so the two stay together). */
export function taggedHookCommand(hookLog: string, event: string): string {
  const log = quote(hookLog);
  return `{ printf '%s\\036' ${quote(JSON.stringify({ [HOOK_EVENT_TAG]: event }))}; cat; printf '\\036'; } >> ${log}`;
}

/**
 * What a payload run adds to its configuration: the agent's hook mechanism
 * (src/lib/agents/<agent>.ts) given the run folder and the hook command.
 */
export function runAdditions(
  hooks: HookMechanism,
  paths: PayloadPaths,
  allowedTools: readonly string[],
  commands: HookCommands = loggingHookCommands(paths.hookLog),
): HookRunAdditions {
  return hooks.runAdditions({
    home: paths.home,
    tmp: paths.tmp,
    hookCommand: commands.hookCommand,
    taggedHookCommand: commands.taggedHookCommand,
    hookLog: paths.hookLog,
    allowedTools,
    ...(commands.pluginAnswer ? { pluginAnswer: commands.pluginAnswer } : {}),
  });
}

/**
 * The commands an agent's hook configuration runs: one for every event, and one that knows its event (tagged); for
 * plugin hooks, an answer's script.
 */
export interface HookCommands {
  hookCommand: string;
  taggedHookCommand: (event: string) => string;
  pluginAnswer?: { event: string; script: string };
}

/** The hook commands of payload runs: they log each payload and answer nothing. */
export function loggingHookCommands(hookLog: string): HookCommands {
  return { hookCommand: hookCommand(hookLog), taggedHookCommand: (event) => taggedHookCommand(hookLog, event) };
}
