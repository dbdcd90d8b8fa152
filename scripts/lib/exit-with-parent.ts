/**
 * A process that ends when the process that started it has gone. Loaded for its side effect, first:
 * imported by scripts/start.ts, and given to the build start.ts runs with `node --import`.
 *
 * Why: `npm start` runs `sh -c "node scripts/start.ts"`, and npm passes a SIGTERM on to the shell only,
 * which dies of it; node, left behind, went on holding the port. A parent ended outright (SIGKILL)
 * leaves its children the same way. So every half second the process reads its parent from the
 * kernel (`process.ppid` is read once, at start); once the parent has changed (the process was handed
 * to init or a subreaper), it sends itself SIGTERM, once, and its own handler stops what it runs as it
 * would for any SIGTERM. The timer does not keep the process alive, and it fires only when the event
 * loop is free (the build's synchronous content load delays it by seconds). Linux only (it reads
 * /proc); elsewhere it does nothing.
 */
import { readFileSync } from 'node:fs';

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

const parent = currentParent();
if (parent !== undefined) {
  const timer = setInterval(() => {
    if (currentParent() === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  timer.unref();
}
