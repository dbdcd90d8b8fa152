/**
 * What a payload run adds to a capture configuration, per agent: the arguments that
 * let the tool run without asking (and, for Claude Code, the stream-json output), the
 * environment that keeps temporary files inside the run folder, and the hook
 * configuration whose command appends each hook payload to one log in the run folder.
 * Pure.
 */
import { join } from 'node:path';
import type { PayloadAgent } from './scenarios.ts';

/** Between two hook payloads in the hook log (ASCII record separator). */
export const HOOK_SEPARATOR = '\x1e';

/** The hook events recorded, per agent (Codex 0.171.0 has no PostToolUseFailure). */
export const HOOK_EVENTS: Record<PayloadAgent, readonly string[]> = {
  'claude-code': ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
  codex: ['PreToolUse', 'PostToolUse'],
};

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
  return { run, home: join(run, 'home'), workdir: join(run, 'work'), tmp: join(run, 'tmp'), hookLog: join(run, 'hooks.log') };
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

/** The `hooks` object of Claude Code's settings.json and Codex's hooks.json: every event, matcher "*", the hook command. */
export function hooksConfig(agent: PayloadAgent, hookLog: string): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of HOOK_EVENTS[agent]) hooks[event] = [{ matcher: '*', hooks: [{ type: 'command', command: hookCommand(hookLog), timeout: 10 }] }];
  return { hooks };
}

export interface RunAdditions {
  args: string[];
  env: Record<string, string>;
  /** Absolute path → text, written before the run. */
  files: Map<string, string>;
}

/**
 * Claude Code: `--output-format stream-json --verbose` (structured results), and
 * `--allowedTools` with the scenario's tools (as root, bypass modes refuse to start
 * without IS_SANDBOX=1; allowing the tools is enough); hooks in $HOME/.claude/settings.json.
 * Codex: approvals and sandbox off for the throwaway work folder, hooks from
 * $CODEX_HOME/hooks.json trusted for this run, analytics and plugins off (no network
 * attempts, no delay at exit).
 */
export function runAdditions(agent: PayloadAgent, paths: PayloadPaths, allowedTools: readonly string[]): RunAdditions {
  const files = new Map<string, string>();
  const env: Record<string, string> = { TMPDIR: paths.tmp };
  const hooks = JSON.stringify(hooksConfig(agent, paths.hookLog), null, 2) + '\n';
  if (agent === 'claude-code') {
    files.set(join(paths.home, '.claude', 'settings.json'), hooks);
    env['CLAUDE_CODE_TMPDIR'] = paths.tmp;
    env['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'] = '1';
    return { args: ['--output-format', 'stream-json', '--verbose', '--allowedTools', allowedTools.join(',')], env, files };
  }
  files.set(join(paths.home, '.codex', 'hooks.json'), hooks);
  return {
    args: ['--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', '-c', 'analytics.enabled=false', '-c', 'features.plugins=false'],
    env,
    files,
  };
}
