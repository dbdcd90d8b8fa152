/**
 * Commands a CLI needs on its PATH for a capture to show what it offers (Agent.requiresCommands): a CLI that offers
 * a tool only when a program runs would, on a machine without it, be captured without the tool, and the history
 * would record a removal that is a fact about the machine, not the release. The runner checks them before every run
 * (scripts/lib/capture/runner.ts) and stops with RequiredCommandError, which no caller records as the release's.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { RequiredCommand } from '../../../src/lib/agents/types.ts';

/** A required command is not on the run's PATH: this machine's failure, never the release's. */
export class RequiredCommandError extends Error {
  override name = 'RequiredCommandError';
}

/** Is `command` an executable file in one of the folders of `path` (a PATH value)? */
export function onPath(command: string, path: string): boolean {
  return path
    .split(delimiter)
    .filter((dir) => dir !== '')
    .some((dir) => {
      const file = join(dir, command);
      try {
        if (!statSync(file).isFile()) return false;
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** The required commands that `path` lacks. */
export function missingCommands(required: readonly RequiredCommand[], path: string): RequiredCommand[] {
  return required.filter((r) => !onPath(r.command, path));
}

/** Throws RequiredCommandError naming each command `agent` needs that `path` lacks, and the module's reason. */
export function checkRequiredCommands(agent: string, required: readonly RequiredCommand[], path: string): void {
  const missing = missingCommands(required, path);
  if (missing.length === 0) return;
  throw new RequiredCommandError(
    missing
      .map(
        (m) =>
          `${agent} needs \`${m.command}\` on PATH: ${m.why} (not found on the run's PATH ${path}; ` +
          `nothing was run or recorded)`,
      )
      .join('\n'),
  );
}
