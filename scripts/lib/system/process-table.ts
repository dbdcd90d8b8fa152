/**
 * Every process of this machine, read from /proc: the capture runner follows process trees
 * with it, and refresh finds what is left of a process group it stops.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  /** `/proc/<pid>/stat`'s state letter: `Z` for a zombie (ended, not yet reaped). */
  state: string;
}

export function processTable(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After "pid (comm) ": state ppid pgrp … (comm may hold spaces and parentheses, hence the last ')').
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(entry), ppid: Number(fields[1]), pgrp: Number(fields[2]), state: fields[0]! });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}
