/**
 * The processor time a command used, its descendants included: what a job costs whatever else the machine runs
 * beside it (its wall time grows with the other lane's load; this does not). Node reports no resource usage of a
 * child, so the command runs under `sh`, whose `times` prints, on its second line, the user and system time of the
 * children it waited for; each of those counts the descendants it waited for in turn (a test's Chromium, a build's
 * worker threads are part of its process). The shell writes that line to descriptor 3 and exits with the command's
 * status, so the command's own output and exit status are as before.
 */

/** The script `sh -c` runs: the command (its arguments follow the script), then `times` on descriptor 3. */
const MEASURING_SCRIPT = '"$@"; status=$?; times >&3; exit $status';

/** `command` run so that its processor time is written to descriptor 3 (which the caller opens as a pipe). */
export function measuredCommand(command: readonly string[]): string[] {
  return ['sh', '-c', MEASURING_SCRIPT, 'sh', ...command];
}

/** `1m2.500000s` (POSIX `times`: minutes and seconds) in seconds. */
function shellDuration(text: string): number | undefined {
  const parts = /^(\d+)m(\d+(?:\.\d+)?)s$/.exec(text);
  return parts ? Number(parts[1]) * 60 + Number(parts[2]) : undefined;
}

/**
 * The children's user plus system seconds from what `times` printed (its second line), or undefined when the text is
 * not in that form (a shell that printed nothing: the command was killed with the shell).
 */
export function childCpuSeconds(timesOutput: string): number | undefined {
  const children = timesOutput.trim().split('\n')[1]?.trim().split(/\s+/);
  if (children?.length !== 2) return undefined;
  const [user, system] = children.map(shellDuration);
  return user === undefined || system === undefined ? undefined : user + system;
}
