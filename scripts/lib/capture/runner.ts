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
import type { PromptInput } from '../../../src/lib/agents/types.ts';
import { pathOf } from '../../../src/lib/wire/shared.ts';
import type { StubReply } from '../../../src/lib/wire/types.ts';
import { expandPlaceholders } from './placeholders.ts';
import { checkRequiredCommands } from './required-commands.ts';
import { startStub, type Answer, type RecordedRequest, type Stub } from './stub-server.ts';
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

/** What a run learns as it goes, for its outcome. */
interface RunState {
  timedOut: boolean;
  endedAfterRequest: boolean;
  turnRecorded: boolean;
}

/** The CLI's process as it runs: its output so far (each stream kept up to OUTPUT_LIMIT) and its end. */
interface CliProcess {
  proc: ChildProcess;
  output: { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/** HOME and the working directory, wiped and made again: each run starts from nothing. */
function freshFolders(paths: RunPaths): void {
  for (const dir of [paths.home, paths.workdir]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
}

/**
 * The run's own reply to `req`, asked before the wire formats': the scripted answer (payload runs), then the
 * services the agent module answers for its CLI (Invocation.services), then its fixed replies (Invocation.stubReplies).
 */
function runReply(
  req: RecordedRequest,
  answer: Answer | undefined,
  invocation: Invocation | undefined,
): StubReply | undefined {
  const path = pathOf(req.url);
  return (
    answer?.(req) ??
    invocation?.services?.({ method: req.method, path, headers: req.headers, json: req.json }) ??
    invocation?.stubReplies?.[`${req.method} ${path}`]
  );
}

function writeFiles(files: Iterable<readonly [string, string | Uint8Array]>): void {
  for (const [file, text] of files) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
  }
}

/** Starts the CLI in its own process group (so that what it leaves behind can be found) and collects its output. */
function spawnCli(invocation: Invocation, workdir: string): CliProcess {
  const proc = spawn(invocation.command, invocation.args, {
    cwd: workdir,
    env: invocation.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const output = { stdout: '', stderr: '' };
  proc.stdout!.on('data', (d: Buffer) => {
    if (output.stdout.length < OUTPUT_LIMIT) output.stdout += d.toString('utf8');
  });
  proc.stderr!.on('data', (d: Buffer) => {
    if (output.stderr.length < OUTPUT_LIMIT) output.stderr += d.toString('utf8');
  });
  proc.stdin!.on('error', () => {}); // a CLI that exits early closes its stdin
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    proc.on('error', (error) => {
      output.stderr += `\n[capture] could not start ${invocation.command}: ${error.message}`;
      resolve({ code: null, signal: null });
    });
    proc.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { proc, output, exited };
}

/** Hands the CLI its prompt as the invocation says (PromptInput); a pseudo-terminal run has it on its command line. */
function givePrompt(proc: ChildProcess, input: PromptInput): void {
  if (input.kind === 'stdin') proc.stdin!.end(input.text);
  else if (input.kind === 'argument') proc.stdin!.end();
  else if (input.kind === 'stream') {
    proc.stdin!.write(input.lines.map((l) => l + '\n').join(''));
    closeStdinWhen(proc, input.closeWhen);
  }
}

/** Closes standard input once a JSON line of standard output satisfies `closeWhen` (a stream-input CLI then exits). */
function closeStdinWhen(proc: ChildProcess, closeWhen: (message: unknown) => boolean): void {
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
      if (closeWhen(message)) proc.stdin!.end();
    }
  });
}

/**
 * Ends the run INTERACTIVE_GRACE_MS after the turn that answers the prompt reached the stub, if the CLI is still
 * running then: the shared test of the main request, or the agent's own (Agent.answersPrompt).
 */
function endAfterTurn(agent: AgentId, stub: Stub, proc: ChildProcess, state: RunState): void {
  const answersPrompt = AGENTS[agent].answersPrompt;
  void stub
    .waitFor((r) => isMainCandidate(agent, r) || (answersPrompt?.(r, PROMPT) ?? false))
    .then(() => {
      state.turnRecorded = true;
      setTimeout(() => {
        if (proc.exitCode === null && proc.signalCode === null) {
          state.endedAfterRequest = true;
          killTree(proc.pid!);
        }
      }, INTERACTIVE_GRACE_MS);
    });
}

/** Kills the CLI and what it started once the configuration's time is up. */
function killAtTimeout(proc: ChildProcess, configuration: Configuration, state: RunState): NodeJS.Timeout {
  return setTimeout(
    () => {
      state.timedOut = true;
      if (proc.pid !== undefined) killTree(proc.pid);
    },
    (configuration.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
  );
}

/** Ends whatever the run left behind: the CLI if still running, its process group, anything at work in its folders. */
function cleanUp(child: ChildProcess | undefined, paths: RunPaths): void {
  if (child?.pid !== undefined) {
    if (child.exitCode === null && child.signalCode === null) killTree(child.pid);
    killLeftovers(child.pid);
  }
  killRunningIn([paths.home, paths.workdir]);
}

/**
 * Gives the CLI its prompt and watches it until it exits: ended after its turn where the invocation says so (not in a
 * scripted conversation, which goes on past the first turn by design), killed once its time is up.
 */
async function superviseCli(
  agent: AgentId,
  configuration: Configuration,
  invocation: Invocation,
  stub: Stub,
  cli: CliProcess,
  scripted: boolean,
): Promise<RunState & { code: number | null; signal: string | null }> {
  const state: RunState = { timedOut: false, endedAfterRequest: false, turnRecorded: false };
  givePrompt(cli.proc, invocation.input);
  if (invocation.input.kind === 'pty' || (invocation.endAfterTurn === true && !scripted))
    endAfterTurn(agent, stub, cli.proc, state);
  const timer = killAtTimeout(cli.proc, configuration, state);
  const { code, signal } = await cli.exited;
  clearTimeout(timer);
  return { ...state, code, signal };
}

export async function runConfiguration(
  agent: AgentId,
  configuration: Configuration,
  binary: string,
  paths: RunPaths,
  extras: RunExtras = {},
): Promise<RunOutcome> {
  freshFolders(paths);
  // The invocation's own replies (services, stubReplies) are known once it is built, after the stub has its port.
  let invocation: Invocation | undefined;
  const stub = await startStub((req) => runReply(req, extras.answer, invocation));
  const stubUrl = `http://127.0.0.1:${stub.port}`;
  const startedAt = new Date();
  let child: ChildProcess | undefined;
  try {
    invocation = buildInvocation(agent, configuration, binary, paths, stubUrl, extras.release);
    // Before anything runs: a CLI without a program it needs would be captured without what it offers with it.
    checkRequiredCommands(agent, AGENTS[agent].requiresCommands ?? [], invocation.env['PATH'] ?? '');
    writeFiles([...invocation.files, ...(extras.files ?? [])]);
    const cli = spawnCli(invocation, paths.workdir);
    child = cli.proc;
    const end = await superviseCli(agent, configuration, invocation, stub, cli, extras.answer !== undefined);
    return {
      requests: [...stub.requests],
      exitCode: end.code,
      signal: end.signal,
      timedOut: end.timedOut,
      endedAfterRequest: end.endedAfterRequest,
      turnRecorded: end.turnRecorded,
      stdout: cli.output.stdout,
      stderr: cli.output.stderr,
      variables: runVariables(paths, stubUrl),
      startedAt,
      endedAt: new Date(),
    };
  } finally {
    cleanUp(child, paths);
    await stub.close();
  }
}
