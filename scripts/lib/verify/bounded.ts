/** Running a child of `npm run verify` within a time limit, and the first words of what it said when it failed. */
import { spawn } from 'node:child_process';

export interface Bounded {
  status: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Runs a command in its own process group, echoing its output; on timeout the group is killed (by its id). */
export function runBounded(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs: number; echo: boolean },
): Promise<Bounded> {
  const { cwd, timeoutMs, echo } = options;
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      if (echo) process.stdout.write(d);
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
      if (echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ status: null, signal: null, timedOut, stdout, stderr: `${stderr}\n${error.message}` });
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, timedOut, stdout, stderr });
    });
  });
}

/** The first lines of a failure, as the CLI or npm said it. */
export function firstLines(text: string, n = 4): string {
  return text
    .trim()
    .split('\n')
    .slice(0, n)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' / ');
}
