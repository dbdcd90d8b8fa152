/**
 * Running one configuration of one CLI against the recording stub: a fresh HOME (and
 * CODEX_HOME) and working directory at fixed paths, a fixed minimal environment, a hard
 * timeout, and every process that the run started ended by its id afterwards.
 *
 * Must run inside a network namespace that has only loopback (see scripts/capture.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandPlaceholders } from './placeholders.ts';
import { startStub, type RecordedRequest } from './stub-server.ts';
import { lastUserText, pathOf, type WireFormat } from './normalise.ts';
import type { AgentId, Configuration } from './matrix.ts';

export const PROMPT = 'Reply with the single word: ok';
export const DUMMY_KEY = 'capture-stub-key-not-a-secret';
export const DEFAULT_TIMEOUT_SECONDS = 60;
/** After the interactive main request has been answered, time left before the kill. */
const INTERACTIVE_GRACE_MS = 1500;

export const WIRE: Record<AgentId, WireFormat> = {
  'claude-code': 'anthropic-messages',
  codex: 'openai-responses',
};

export interface RunPaths {
  /** Fixed folder, wiped and recreated per run, used as HOME. */
  home: string;
  /** Fixed folder, wiped and recreated per run, used as the working directory. */
  workdir: string;
  /** The Node.js binary, for the stub MCP server. */
  node: string;
  /** The stub MCP server script. */
  mcpServer: string;
}

export interface Invocation {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** How the prompt reaches the CLI. */
  input: 'stdin' | 'pty' | 'stream-json';
  /** Files to write before the run (absolute path → text). */
  files: Map<string, string>;
}

/** Placeholder values of a run, for `$NAME` tokens in the matrix. */
export function runVariables(paths: RunPaths, stubUrl: string): Record<string, string> {
  return { STUB_URL: stubUrl, HOME: paths.home, WORKDIR: paths.workdir, NODE: paths.node, MCP_SERVER: paths.mcpServer };
}

/** Quotes one word for `sh -c`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
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

/** The command line, environment and files of one run. Pure. */
export function buildInvocation(agent: AgentId, configuration: Configuration, binary: string, paths: RunPaths, stubUrl: string): Invocation {
  const vars = runVariables(paths, stubUrl);
  const expand = (text: string): string => expandPlaceholders(text, vars);
  const extraArgs = configuration.args.map(expand);
  const extraEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(configuration.env)) extraEnv[k] = expand(v);
  const files = new Map<string, string>();
  const env = baseEnv(paths.home);

  if (agent === 'codex') {
    if (configuration.mode !== 'exec') throw new Error(`codex has no mode ${configuration.mode}`);
    const codexHome = join(paths.home, '.codex');
    const extraToml = configuration.configToml ? [expand(configuration.configToml).replace(/\n+$/, '')] : [];
    files.set(join(codexHome, 'config.toml'), [
      'model_provider = "capture_stub"',
      'check_for_update_on_startup = false',
      ...extraToml,
      '[model_providers.capture_stub]',
      'name = "capture stub"',
      `base_url = "${stubUrl}/v1"`,
      'env_key = "CAPTURE_STUB_API_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'));
    Object.assign(env, { CODEX_HOME: codexHome, CAPTURE_STUB_API_KEY: DUMMY_KEY }, extraEnv);
    return { command: binary, args: ['exec', '--skip-git-repo-check', '--json', ...extraArgs], env, input: 'stdin', files };
  }

  Object.assign(env, { ANTHROPIC_BASE_URL: stubUrl, ANTHROPIC_API_KEY: DUMMY_KEY }, extraEnv);
  switch (configuration.mode) {
    case 'print':
      return { command: binary, args: ['-p', '--output-format', 'json', ...extraArgs], env, input: 'stdin', files };
    case 'sdk':
      return {
        command: binary,
        args: ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--permission-prompt-tool', 'stdio', ...extraArgs],
        env,
        input: 'stream-json',
        files,
      };
    case 'interactive': {
      files.set(join(paths.home, '.claude.json'), JSON.stringify(claudeSeed(paths.workdir), null, 2) + '\n');
      const inner = [binary, PROMPT, ...extraArgs].map(shellQuote).join(' ');
      return { command: '/usr/bin/script', args: ['-q', '-e', '-c', inner, '/dev/null'], env: { ...env, COLUMNS: '120', LINES: '40' }, input: 'pty', files };
    }
    default:
      throw new Error(`claude-code has no mode ${configuration.mode}`);
  }
}

/** ~/.claude.json that skips the first-run dialogs: onboarding, API key approval, folder trust. */
export function claudeSeed(workdir: string): unknown {
  return {
    hasCompletedOnboarding: true,
    theme: 'dark',
    numStartups: 1,
    customApiKeyResponses: { approved: [DUMMY_KEY.slice(-20)], rejected: [] },
    projects: { [workdir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
}

/** The lines the Agent SDK writes first: an initialize control request, then the prompt. */
export function sdkInputLines(prompt: string): string[] {
  return [
    JSON.stringify({ type: 'control_request', request_id: 'capture-init-1', request: { subtype: 'initialize' } }),
    JSON.stringify({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: prompt }] }, parent_tool_use_id: null }),
  ];
}

/** Is `r` the main request of the run (used to end interactive runs)? */
export function isMainCandidate(wire: WireFormat, r: RecordedRequest): boolean {
  const body = r.json as { stream?: unknown } | undefined;
  if (r.method !== 'POST') return false;
  if (wire === 'anthropic-messages') return pathOf(r.url) === '/v1/messages' && body?.stream === true && lastUserText(body)?.trim() === PROMPT;
  return pathOf(r.url) === '/v1/responses';
}

export interface RunOutcome {
  requests: RecordedRequest[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Interactive runs: ended by us after the main request was recorded. */
  endedAfterRequest: boolean;
  stdout: string;
  stderr: string;
  /** Values that were substituted into the run, for masking the capture. */
  variables: Record<string, string>;
  startedAt: Date;
  endedAt: Date;
}

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
}

/** Every process, from /proc: id, parent id, process group id. */
function processTable(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After "pid (comm) ": state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(entry), ppid: Number(fields[1]), pgrp: Number(fields[2]) });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** Process ids of all descendants of `pid`, deepest first. */
export function descendants(pid: number, table: readonly ProcEntry[] = processTable()): number[] {
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

const OUTPUT_LIMIT = 4 * 1024 * 1024;

export async function runConfiguration(agent: AgentId, configuration: Configuration, binary: string, paths: RunPaths): Promise<RunOutcome> {
  for (const dir of [paths.home, paths.workdir]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  const stub = await startStub();
  const stubUrl = `http://127.0.0.1:${stub.port}`;
  const variables = runVariables(paths, stubUrl);
  const wire = WIRE[agent];
  const startedAt = new Date();
  let child: ChildProcess | undefined;
  try {
    const invocation = buildInvocation(agent, configuration, binary, paths, stubUrl);
    for (const [file, text] of invocation.files) {
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
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      proc.on('error', (error) => {
        stderr += `\n[capture] could not start ${invocation.command}: ${error.message}`;
        resolve({ code: null, signal: null });
      });
      proc.on('exit', (code, signal) => resolve({ code, signal }));
    });

    if (invocation.input === 'stdin') {
      proc.stdin!.end(PROMPT + '\n');
    } else if (invocation.input === 'stream-json') {
      proc.stdin!.write(sdkInputLines(PROMPT).map((l) => l + '\n').join(''));
      // The SDK closes the input once the result message arrives.
      let buffered = '';
      proc.stdout!.on('data', (d: Buffer) => {
        buffered += d.toString('utf8');
        let nl: number;
        while ((nl = buffered.indexOf('\n')) !== -1) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          try {
            if ((JSON.parse(line) as { type?: unknown }).type === 'result') proc.stdin!.end();
          } catch {
            // not a JSON line
          }
        }
      });
    } else {
      void stub.waitFor((r) => isMainCandidate(wire, r)).then(() => {
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
    return { requests: [...stub.requests], exitCode: code, signal, timedOut, endedAfterRequest, stdout, stderr, variables, startedAt, endedAt: new Date() };
  } finally {
    // Anything the run left behind (MCP servers, helpers) in the process group it ran in.
    if (child?.pid !== undefined) {
      if (child.exitCode === null && child.signalCode === null) killTree(child.pid);
      killLeftovers(child.pid);
    }
    await stub.close();
  }
}
