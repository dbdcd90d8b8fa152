/**
 * The folders the CLIs run in, under the capture cache: `npm run capture`'s, the capture
 * histories' (one per agent) and the payload, hook-behaviour and permission runs'. A process
 * whose working folder or arguments lie inside one was started by a run (runner.ts,
 * killRunningIn), so a script stopped from outside can end them with it.
 */
import { join } from 'node:path';

export const captureRunFolder = (cacheRoot: string): string => join(cacheRoot, 'capture-run');
/** One per agent: two agents' histories can run side by side. */
export const historyRunFolder = (cacheRoot: string, agent?: string): string =>
  join(cacheRoot, 'history', 'run', ...(agent ? [agent] : []));
export const payloadRunFolder = (cacheRoot: string): string => join(cacheRoot, 'payload-run');

/** Every run folder under the cache. */
export function runFolders(cacheRoot: string): string[] {
  return [captureRunFolder(cacheRoot), historyRunFolder(cacheRoot), payloadRunFolder(cacheRoot)];
}
