/**
 * Running one configuration of one CLI against the recording stub: a fresh HOME (and
 * CODEX_HOME) and working directory at fixed paths, a fixed minimal environment, a hard
 * timeout, and every process that the run started ended by its id afterwards.
 *
 * Must run inside a network namespace that has only loopback (see scripts/capture.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENTS, agentWireForPath, type AgentId, type Invocation } from '../../../src/lib/agents/index.ts';
import { pathOf } from '../../../src/lib/wire/shared.ts';
import { expandPlaceholders } from './placeholders.ts';
import { startStub, type Answer, type RecordedRequest } from './stub-server.ts';
import { githubReply } from './github-stub.ts';
import type { GithubLoginStub } from '../../../src/lib/agents/types.ts';
import type { Configuration } from './matrix.ts';
import { processTable, type ProcEntry } from '../system/process-table.ts';

export const PROMPT = 'Reply with the single word: ok';
export const DUMMY_KEY = 'capture-stub-key-not-a-secret';
export const DEFAULT_TIMEOUT_SECONDS = 60;
/** After the interactive main request has been answered, time left before the kill. */
const INTERACTIVE_GRACE_MS = 1500;

export interface RunPaths {
  /** Fixed folder, wiped and recreated per run, used as HOME. */
  home: string;
  /** Fixed folder, wiped and recreated per run, used as the working directory. */
  workdir: string;
  /** The Node.js binary, for the stub MCP server. */
  node: string;
  /** The stub MCP server script; the capture fixtures ($FIXTURES) sit beside it in `fixtures/`. */
  mcpServer: string;
}

/** Placeholder values of a run, for `$NAME` tokens in the matrix. */
export function runVariables(paths: RunPaths, stubUrl: string): Record<string, string> {
  return {
    STUB_URL: stubUrl,
    HOME: paths.home,
    WORKDIR: paths.workdir,
    NODE: paths.node,
    MCP_SERVER: paths.mcpServer,
    FIXTURES: join(dirname(paths.mcpServer), 'fixtures'),
  };
}

/** The fixed minimal environment every run starts from (nothing is inherited). */
export function baseEnv(home: string): Record<string, string> {
  return {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: home,
    SHELL: '/bin/bash',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
  };
}

/** `value` with `expand` applied to every string in it (keys are left alone). */
export function expandInJson<T>(value: T, expand: (text: string) => string): T {
  if (typeof value === 'string') return expand(value) as T;
  if (Array.isArray(value)) return value.map((v) => expandInJson(v, expand)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandInJson(v, expand)])) as T;
  return value;
}

/**
 * The command line, environment and files of one run: the configuration's args, env,
 * config.toml lines and settings with their placeholders expanded, handed to the agent module
 * (src/lib/agents), which knows how its CLI is run. Pure.
 */
export function buildInvocation(
  agent: AgentId,
  configuration: Configuration,
  binary: string,
  paths: RunPaths,
  stubUrl: string,
  release?: string,
): Invocation {
  const vars = runVariables(paths, stubUrl);
  const expand = (text: string): string => expandPlaceholders(text, vars);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(configuration.env)) env[k] = expand(v);
  const invocation = AGENTS[agent].invoke({
    mode: configuration.mode,
    args: configuration.args.map(expand),
    env,
    configToml: configuration.configToml === undefined ? undefined : expand(configuration.configToml),
    settings: configuration.settings === undefined ? undefined : expandInJson(configuration.settings, expand),
    baseEnv: baseEnv(paths.home),
    binary,
    node: paths.node,
    home: paths.home,
    workdir: paths.workdir,
    stubUrl,
    prompt: PROMPT,
    apiKey: DUMMY_KEY,
    release,
  });
  for (const [relative, text] of Object.entries(configuration.homeFiles ?? {})) {
    const file = join(paths.home, relative);
    if (invocation.files.has(file))
      throw new Error(`homeFiles ${relative}: ${agent} writes this file itself (src/lib/agents/${agent}.ts)`);
    invocation.files.set(file, expand(text));
  }
  return invocation;
}

/**
 * Could `r` be the main request of a run of `agent` (used to end interactive runs once
 * it is answered)? A streaming POST to the tool path of one of the agent's wire formats
 * whose last user text ends with the prompt (some CLIs put context before it) and that
 * offers tools. Side requests quote the prompt too (Claude Code from 2.1.81 first asks
 * for a session title, `tools: []`), and the turn follows them seconds later: ending the
 * run on the side request would lose the turn.
 */
export function isMainCandidate(agent: AgentId, r: RecordedRequest, prompt: string = PROMPT): boolean {
  const wire = r.method === 'POST' ? agentWireForPath(agent, pathOf(r.url)) : undefined;
  return (
    wire !== undefined &&
    wire.isStreaming(r) &&
    wire.hasTools(r.json) &&
    (wire.lastUserText(r.json)?.trim().endsWith(prompt.trim()) ?? false)
  );
}

export interface RunOutcome {
  requests: RecordedRequest[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /**
   * Interactive runs, and runs whose invocation says `endAfterTurn`: ended by us after the main request was recorded.
   */
  endedAfterRequest: boolean;
  /**
   * Those runs: the turn that answers the prompt reached the stub (and was answered) before the
   * run ended, whether we ended it or the CLI ended by itself within the grace period after it.
   */
  turnRecorded?: boolean;
  stdout: string;
  stderr: string;
  /** Values that were substituted into the run, for masking the capture. */
  variables: Record<string, string>;
  startedAt: Date;
  endedAt: Date;
}

/** Process ids of all descendants of `pid`, deepest first. */
export function descendants(pid: number, table: readonly Pick<ProcEntry, 'pid' | 'ppid'>[] = processTable()): number[] {
  const children = new Map<number, number[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      walk(c);
      out.push(c);
    }
  };
  walk(pid);
  return out;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** SIGKILLs the (still running) process `pid` and everything it started, each by its id. */
export function killTree(pid: number): void {
  for (const p of descendants(pid)) kill(p);
  kill(pid);
}

/**
 * After the CLI has exited: SIGKILLs what is left of the process group the run created
 * (detached helpers, MCP servers) and their descendants, each by its id.
 */
export function killLeftovers(pgid: number): void {
  const table = processTable();
  for (const p of table.filter((e) => e.pgrp === pgid && e.pid !== process.pid)) {
    for (const d of descendants(p.pid, table)) kill(d);
    kill(p.pid);
  }
}

/**
 * After a run: SIGKILLs every process still at work in the run's folders, by its working
 * directory or by a command-line argument inside one of them, and everything it started. A
 * helper that made itself a session leader has left the run's process group (a CLI's detached
 * daemon, adopted by pid 1), so killLeftovers cannot see it; the folders are the run's own, so
 * nothing else works there. This process and its ancestors are spared.
 */
export function killRunningIn(dirs: readonly string[]): number[] {
  const inside = (path: string) => dirs.some((d) => path === d || path.startsWith(`${d}/`));
  const table = processTable();
  const spared = new Set<number>();
  for (
    let pid: number | undefined = process.pid;
    pid !== undefined && pid > 0 && !spared.has(pid);
    pid = table.find((p) => p.pid === pid)?.ppid
  )
    spared.add(pid);
  const killed: number[] = [];
  for (const p of table) {
    if (spared.has(p.pid)) continue;
    let cwd = '';
    let args: string[] = [];
    try {
      cwd = readlinkSync(`/proc/${p.pid}/cwd`);
      args = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile, or not ours to read
    }
    // An argument names a folder as a path of its own or after `=` (`--cwd=/…/work`); `/…/work2` is not inside
    // `/…/work`.
    if (!inside(cwd) && !args.some((a) => inside(a) || inside(a.slice(a.indexOf('=') + 1)))) continue;
    for (const d of descendants(p.pid, table)) kill(d);
    kill(p.pid);
    killed.push(p.pid);
  }
  return killed;
}

const OUTPUT_LIMIT = 4 * 1024 * 1024;

/** What a run may add to a configuration (the payload runs: scripted replies, files to work on). */
export interface RunExtras {
  /** Asked first for the reply to each request (see startStub). */
  answer?: Answer;
  /** Files written before the run (absolute path → text), after the agent's own. */
  files?: ReadonlyMap<string, string | Uint8Array>;
  /** The release being run when it is not the pin (InvocationContext.release). */
  release?: string;
}

export async function runConfiguration(
  agent: AgentId,
  configuration: Configuration,
  binary: string,
  paths: RunPaths,
  extras: RunExtras = {},
): Promise<RunOutcome> {
  for (const dir of [paths.home, paths.workdir]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  // A stand-in GitHub login (Invocation.githubLogin) is known once the invocation is built, after the stub has its
  // port.
  let githubLogin: GithubLoginStub | undefined;
  let stubReplies: Invocation['stubReplies'];
  const stub = await startStub(
    (req) =>
      extras.answer?.(req) ??
      (githubLogin ? githubReply({ ...req, path: pathOf(req.url) }, githubLogin) : undefined) ??
      stubReplies?.[`${req.method} ${pathOf(req.url)}`],
  );
  const stubUrl = `http://127.0.0.1:${stub.port}`;
  const variables = runVariables(paths, stubUrl);
  const startedAt = new Date();
  let child: ChildProcess | undefined;
  try {
    const invocation = buildInvocation(agent, configuration, binary, paths, stubUrl, extras.release);
    githubLogin = invocation.githubLogin;
    stubReplies = invocation.stubReplies;
    for (const [file, text] of [...invocation.files, ...(extras.files ?? [])]) {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
    }
    const proc = spawn(invocation.command, invocation.args, {
      cwd: paths.workdir,
      env: invocation.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d: Buffer) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += d.toString('utf8');
    });
    proc.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += d.toString('utf8');
    });
    proc.stdin!.on('error', () => {}); // a CLI that exits early closes its stdin

    let timedOut = false;
    let endedAfterRequest = false;
    let turnRecorded = false;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      proc.on('error', (error) => {
        stderr += `\n[capture] could not start ${invocation.command}: ${error.message}`;
        resolve({ code: null, signal: null });
      });
      proc.on('exit', (code, signal) => resolve({ code, signal }));
    });

    const input = invocation.input;
    if (input.kind === 'stdin') {
      proc.stdin!.end(input.text);
    } else if (input.kind === 'argument') {
      proc.stdin!.end();
    } else if (input.kind === 'stream') {
      proc.stdin!.write(input.lines.map((l) => l + '\n').join(''));
      let buffered = '';
      proc.stdout!.on('data', (d: Buffer) => {
        buffered += d.toString('utf8');
        let nl: number;
        while ((nl = buffered.indexOf('\n')) !== -1) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          let message: unknown;
          try {
            message = JSON.parse(line);
          } catch {
            continue; // not a JSON line
          }
          if (input.closeWhen(message)) proc.stdin!.end();
        }
      });
    }
    // A scripted conversation (payload runs: extras.answer) goes on past the first turn by design.
    if (input.kind === 'pty' || (invocation.endAfterTurn === true && extras.answer === undefined)) {
      const answersPrompt = AGENTS[agent].answersPrompt;
      void stub
        .waitFor((r) => isMainCandidate(agent, r) || (answersPrompt?.(r, PROMPT) ?? false))
        .then(() => {
          turnRecorded = true;
          setTimeout(() => {
            if (proc.exitCode === null && proc.signalCode === null) {
              endedAfterRequest = true;
              killTree(proc.pid!);
            }
          }, INTERACTIVE_GRACE_MS);
        });
    }

    const timeoutMs = (configuration.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    const timer = setTimeout(() => {
      timedOut = true;
      if (proc.pid !== undefined) killTree(proc.pid);
    }, timeoutMs);
    const { code, signal } = await exited;
    clearTimeout(timer);
    return {
      requests: [...stub.requests],
      exitCode: code,
      signal,
      timedOut,
      endedAfterRequest,
      turnRecorded,
      stdout,
      stderr,
      variables,
      startedAt,
      endedAt: new Date(),
    };
  } finally {
    // Anything the run left behind (MCP servers, helpers) in the process group it ran in.
    if (child?.pid !== undefined) {
      if (child.exitCode === null && child.signalCode === null) killTree(child.pid);
      killLeftovers(child.pid);
    }
    killRunningIn([paths.home, paths.workdir]);
    await stub.close();
  }
}
