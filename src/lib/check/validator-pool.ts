/**
 * Validator modules written ahead, in worker threads, while a build renders its pages. Ajv's standalone code for the
 * hundreds of validators the site publishes is seconds of one core; Astro asks every route for its paths before it
 * renders any (so a validator route's getStaticPaths knows every schema it will write long before its turn) and then
 * renders on one thread. A route hands its schemas to `prepareValidatorModules`; its GET takes the module with
 * `validatorModuleOf`, which waits for the worker's text, or writes it itself when none was prepared. The worker runs
 * the same `validatorModule`, so the text is the same either way.
 *
 * The worker is this folder's validator-worker.ts, run by Node itself: its path comes from the site's integration,
 * which knows where the sources are (a page's code runs from Astro's bundle). Without it, nothing is prepared.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { validatorModule, type ValidatorModuleOptions } from './payload-validator.ts';

/** One module to write: a schema and its options, with the key that names both. */
export interface ValidatorRequest {
  key: string;
  schema: Record<string, unknown>;
  options: ValidatorModuleOptions;
}

/** What a worker sends back for one request. */
export type ValidatorAnswer = { key: string; code: string } | { key: string; error: string };

interface PoolState {
  /** The worker's file, set by the integration. */
  worker?: URL | undefined;
  /** Modules asked for and not yet taken, by key. */
  prepared: Map<string, Promise<string>>;
}

// On globalThis: the integration runs in the config's evaluation of this module, the routes in the bundle's.
const SLOT = Symbol.for('agent-tool-reference.validator-pool');
const state: PoolState = ((globalThis as { [SLOT]?: PoolState })[SLOT] ??= { prepared: new Map() });

/** A prepared module not yet answered: its request, and how to settle its promise. */
interface Waiting {
  request: ValidatorRequest;
  resolve: (code: string) => void;
  reject: (error: Error) => void;
}

/** The key of a module: its schema and options as JSON. */
export function validatorKey(schema: Record<string, unknown>, options: ValidatorModuleOptions = {}): string {
  return JSON.stringify([schema, options]);
}

/** Where the worker is (validator-worker.ts beside this file); until it is set (or once unset), nothing is prepared. */
export function setValidatorWorker(file: URL | undefined): void {
  state.worker = file;
}

/** Splits `items` into `n` lists of nearly equal length, keeping their order within each. */
export function shares<T>(items: readonly T[], n: number): T[][] {
  const out: T[][] = Array.from({ length: Math.max(1, Math.min(n, items.length)) }, () => []);
  items.forEach((item, i) => out[i % out.length]!.push(item));
  return out;
}

/**
 * Starts writing these modules in worker threads (one fewer than the cores, at least one), each taken later by
 * `validatorModuleOf`. Requests already prepared, and every request when no worker is set, are left alone.
 */
export function prepareValidatorModules(requests: readonly Omit<ValidatorRequest, 'key'>[]): void {
  const file = state.worker;
  if (!file) return;
  // Each key once: a schema asked for twice is written once and taken once.
  const byKey = new Map(requests.map((r) => [validatorKey(r.schema, r.options), r] as const));
  const fresh = [...byKey].filter(([key]) => !state.prepared.has(key)).map(([key, r]) => ({ ...r, key }));
  for (const share of shares(fresh, availableParallelism() - 1)) {
    const waiting = new Map<string, Waiting>();
    for (const request of share)
      state.prepared.set(
        request.key,
        new Promise<string>((resolve, reject) => waiting.set(request.key, { request, resolve, reject })),
      );
    const worker = new Worker(file, { workerData: share });
    // A build that ends (or fails) does not wait for a worker.
    worker.unref();
    worker.on('message', (answer: ValidatorAnswer) => {
      const entry = waiting.get(answer.key);
      waiting.delete(answer.key);
      if ('code' in answer) entry?.resolve(answer.code);
      else entry?.reject(new Error(answer.error));
    });
    // A worker that stops before it answered everything leaves the rest to this thread, as if none was prepared.
    const finishHere = () => {
      for (const { request, resolve, reject } of waiting.values()) {
        try {
          resolve(validatorModule(request.schema, request.options));
        } catch (error) {
          reject(error as Error);
        }
      }
      waiting.clear();
    };
    worker.on('error', finishHere);
    worker.on('exit', finishHere);
  }
}

/** The module for this schema and options: the worker's, when it was prepared, or written here. */
export async function validatorModuleOf(
  schema: Record<string, unknown>,
  options: ValidatorModuleOptions = {},
): Promise<string> {
  const key = validatorKey(schema, options);
  const prepared = state.prepared.get(key);
  if (!prepared) return validatorModule(schema, options);
  state.prepared.delete(key);
  return prepared;
}
