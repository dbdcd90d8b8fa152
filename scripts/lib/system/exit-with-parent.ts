/**
 * A process that ends when the process that started it has gone. Loaded for its side effect, first:
 * imported by scripts/start.ts, and given to the build start.ts runs with `node --import`.
 *
 * Why: `npm start` runs `sh -c "node scripts/start.ts"`, and npm passes a SIGTERM on to the shell only,
 * which dies of it; node, left behind, went on holding the port. A parent ended outright (SIGKILL)
 * leaves its children the same way. So a worker thread reads the process's parent from the kernel every
 * half second (`process.ppid` is read once, at start); once the parent has changed (the process was
 * handed to init or a subreaper), it sends the process SIGTERM, once, and the process's own handler
 * stops what it runs as it would for any SIGTERM. A thread of its own, because the main thread can be
 * busy for a long time (the build loads the content synchronously): a process with no SIGTERM handler
 * yet ends at once, one with a handler runs it when its main thread is free. The worker does not keep
 * the process alive. Linux only (it reads /proc); elsewhere it does nothing.
 *
 * The parent to watch is the one named by EXIT_WITH_PARENT when it is set (start.ts sets its own pid for
 * the build: a parent killed before this module runs would otherwise be missed), else the parent at load.
 * The variable is removed, so that what the process starts in turn does not inherit it.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** The parent's pid as the kernel has it now, or undefined where /proc cannot tell. */
export function currentParent(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // "pid (command name) state ppid …": the name may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** The worker's code (plain JavaScript: an eval'd worker is not type-stripped); /proc/self is the whole process. */
const WATCH = `
const { readFileSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const parentNow = () => {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return workerData.parent;
  }
};
const timer = setInterval(() => {
  if (parentNow() === workerData.parent) return;
  clearInterval(timer);
  process.kill(process.pid, 'SIGTERM');
}, 500);
`;

/** The variable through which a parent names itself to the child it starts. */
export const PARENT_VARIABLE = 'EXIT_WITH_PARENT';

const named = Number(process.env[PARENT_VARIABLE]);
delete process.env[PARENT_VARIABLE];
const parent = Number.isInteger(named) && named > 0 ? named : currentParent();
if (parent !== undefined && currentParent() !== undefined)
  new Worker(WATCH, { eval: true, workerData: { parent } }).unref();
