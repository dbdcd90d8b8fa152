/**
 * A refresh saves content/ and scripts/pins.json to `.refresh-before/` while it writes, and
 * removes the folder when it has finished (kept or restored). A tree that still has it is
 * either being refreshed or was left by a refresh that was stopped outright (SIGKILL, a lost
 * machine): its content may be half of one release and half of another, and may even pass
 * every content rule. The site is never built from it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The refresh's staging folder, relative to the project root (scripts/lib/refresh/transaction.ts). */
export const REFRESH_STAGING = '.refresh-before';

/** Why the content under `root` must not be built now, or undefined when no refresh is unfinished there. */
export function unfinishedRefresh(root: string): string | undefined {
  if (!existsSync(join(root, REFRESH_STAGING))) return undefined;
  return (
    `${REFRESH_STAGING}/ exists: a refresh is running, or one was stopped before it finished, so content/ may ` +
    `be half moved. ` +
    ('Wait for the running refresh to end, or run `npm run refresh -- --restore` to put content/ and ' +
      'scripts/pins.json back as they were before it [rule: refresh-unfinished]')
  );
}
