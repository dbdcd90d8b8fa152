/**
 * How long one CLI run may take, on a machine that may be busy: the configured limit (60 s
 * unless the configuration says otherwise) times a factor that grows with the load of the
 * machine (`npm run verify`), and doubled for the retry (verify and the capture histories). A CLI that needed 33 s
 * before its first request and
 * 143 s in all on a two-core machine running a build beside it (Gemini CLI 0.28.1) was killed
 * at a fixed 60 s; its fact then "could not run" for our reason, not the release's.
 */

import { DEFAULT_TIMEOUT_SECONDS } from './runner.ts';

/** 1.5 times the load per core (one-minute load average), at least 1 and at most 5. */
export function limitFactor(load: number, cores: number): number {
  return Math.min(5, Math.max(1, Math.round((load / Math.max(1, cores)) * 1.5 * 10) / 10));
}

/** The limit of one attempt: the configured limit, scaled, doubled for each retry. */
export function scaledLimit(configured: number | undefined, factor: number, attempt: number): number {
  return Math.ceil((configured ?? DEFAULT_TIMEOUT_SECONDS) * factor * 2 ** (attempt - 1));
}
