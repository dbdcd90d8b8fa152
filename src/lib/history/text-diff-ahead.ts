/**
 * The word-for-word diffs of a history's changed texts, computed in a worker thread while the content load goes on:
 * the changelog's cut needs every one of them before the load ends (changelog-addresses.ts weighs rows by their diffs),
 * and a few long rewrites take seconds of one core. `diffAhead` starts the worker with every pair of texts. The first
 * diff the load asks for and does not know (text-diff.ts calls the wait) makes the loading thread take pairs too, until
 * none is left, wait for the worker's last, and file them all. Both threads run this module's `takePairs`, so a diff is
 * the same wherever it is computed; a worker that cannot start or fails leaves its pairs to the loading thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { rememberDiff, setAwaitAhead, textDiff, type TextDiff, type TextPair } from './text-diff.ts';

/** How long the load waits at most for the pairs the worker took; then they are diffed when asked for. */
const WAIT_LIMIT_MS = 60_000;

/** Shared between the threads: the next pair nobody took yet, and whether the worker has stopped. */
const NEXT = 0;
const STOPPED = 1;

/** One diff the worker sends back: the pair's index in the list both threads share. */
export interface DiffedPair {
  index: number;
  diff: TextDiff;
}

/**
 * Takes pairs one by one, the next one nobody took (`shared[NEXT]`), until none is left: the worker and the waiting
 * thread both run this, so the work is split however long each pair takes.
 */
export function takePairs(pairs: readonly TextPair[], shared: Int32Array, onDiff: (answer: DiffedPair) => void): void {
  for (let index = Atomics.add(shared, NEXT, 1); index < pairs.length; index = Atomics.add(shared, NEXT, 1)) {
    const pair = pairs[index]!;
    onDiff({ index, diff: textDiff(pair.before, pair.after, pair.by) });
  }
}

/**
 * The worker's code, run as a script: it imports this module and takes pairs, sending each diff through the port;
 * then it says it stopped, whether it got that far or not (a failed import sends nothing, and the pairs it took are
 * diffed again by the waiting thread).
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const { module, pairs, port, shared } = workerData;
import(module)
  .then((m) => m.takePairs(pairs, shared, (answer) => port.postMessage(answer)))
  .catch(() => {})
  .finally(() => { Atomics.store(shared, ${STOPPED}, 1); Atomics.notify(shared, ${STOPPED}); });
`;

/**
 * Starts diffing `pairs` in a worker thread that runs `takePairs` of the module `worker` (this one; tests give
 * another),
 * longest first, so that the last ones, which both threads may be taking, are short. Nothing starts when the module is
 * not a file Node can run (this one is part of a bundle: Astro's pages ask for diffs the site's load has filed).
 * Whether a worker was started.
 */
export function diffAhead(pairs: readonly TextPair[], worker: URL = new URL(import.meta.url)): boolean {
  if (pairs.length === 0 || worker.protocol !== 'file:' || !existsSync(fileURLToPath(worker))) return false;
  const size = (p: TextPair) => p.before.length + p.after.length;
  const ordered = [...pairs].sort((a, b) => size(b) - size(a));
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { module: worker.href, pairs: ordered, port: port2, shared },
    transferList: [port2],
  });
  // A load that ends without asking does not wait for the worker.
  thread.unref();
  setAwaitAhead(() => {
    setAwaitAhead(undefined);
    const file = ({ index, diff }: DiffedPair) => rememberDiff(ordered[index]!, diff);
    takePairs(ordered, shared, file);
    Atomics.wait(shared, STOPPED, 0, WAIT_LIMIT_MS);
    for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) file(m.message as DiffedPair);
    port1.close();
    void thread.terminate();
    // What the worker took and did not send (it failed, or the wait ran out) is diffed when asked for (text-diff.ts).
  });
  return true;
}
