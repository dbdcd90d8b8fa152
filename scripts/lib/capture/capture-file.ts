/** From a finished run to the committed capture object, or a clear error. */
import { agentWireQuirks, type AgentId } from '../../../src/lib/agents/index.ts';
import { captureWireFormat, type CaptureFile, type ToolCount, type WireFormat } from '../../../src/lib/wire/index.ts';
import { chooseMainRequest, pathOf, requestsSeen, CaptureError } from './normalise.ts';
import { maskJson, maskRules, maskText, type MaskRule } from './placeholders.ts';
import { PROMPT, type RunOutcome } from './runner.ts';
import type { Configuration } from './matrix.ts';
import type { RecordedRequest } from './stub-server.ts';

function tail(text: string, lines = 8): string {
  const kept = text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, '')
    .trim()
    .split('\n')
    .slice(-lines);
  return kept.length === 0 || kept[0] === '' ? '    (empty)' : kept.map((l) => `    | ${l.slice(0, 300)}`).join('\n');
}

/** A line that says something went wrong, in the words CLIs use. */
const ERROR_WORDS =
  /\b(?:error|errors|unknown|invalid|cannot|can't|could not|couldn't|failed|failure|fatal|not found|denied|unsupported|requires?|missing|unexpected|refused|not allowed|no such)\b/i;
/** Lines of a stack trace or of a crash banner, which say where, not what. */
const NOT_WORDS = /^(?:at\s|[-=*]{3,}|\}|\{|Stack trace|errno:|code:|syscall:|hostname:|\[?capture\]?)/i;

/**
 * The CLI's own words about what went wrong, in one line: of its standard error (else its
 * standard output), without terminal escapes, the last line that says something failed
 * (ERROR_WORDS), else its last line that is not part of a stack trace; with the run's own
 * values masked (`rules`: its HOME, working directory, stub address), any address and any host
 * a name lookup failed for replaced by `<address>` / `<host>` (no host name reaches the
 * history), the folders of an absolute path left out (`…/index.js`), dates and times (a log
 * file named after the moment of the run) as `<time>`, and cut to 240 characters. Undefined when the CLI printed
 * nothing. Pure.
 */
export function cliWords(stderr: string, stdout: string, rules: readonly MaskRule[] = []): string | undefined {
  const linesOf = (text: string): string[] =>
    text
      .replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, '')
      .split(/\r?\n|\r/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .filter((l) => l !== '' && !NOT_WORDS.test(l));
  const lines = linesOf(stderr).length > 0 ? linesOf(stderr) : linesOf(stdout);
  const line = [...lines].reverse().find((l) => ERROR_WORDS.test(l)) ?? lines[lines.length - 1];
  if (line === undefined) return undefined;
  const masked = maskText(line, rules)
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`)]+/gi, '<address>')
    .replace(/(?<![\w.$])\/(?:[\w.@+-]+\/)+(?=[\w.@+-])/g, '…/')
    .replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<address>')
    .replace(/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:?\d{2}:?\d{2}(?:\.\d+)?Z?)?/g, '<time>')
    .replace(
      /\b(getaddrinfo \S+|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|connect \S+) ([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?/gi,
      '$1 <host>',
    );
  return masked.length > 240 ? `${masked.slice(0, 239)}…` : masked;
}

/** ` — the CLI said: “…”` or ` — the CLI printed nothing`, for the first line of a failure. */
export function said(outcome: RunOutcome): string {
  const words = cliWords(outcome.stderr, outcome.stdout, maskRules(outcome.variables));
  return words === undefined ? '; the CLI printed nothing' : `; the CLI said: “${words}”`;
}

/**
 * How a case's run of the CLI ended, for its record: the exit code, or that it was still running at
 * the case's limit and was killed (an ask with nobody to ask: that is its behaviour, recorded). When
 * it ended by itself and no result reached the model, its own words say why (`said`, as cliWords).
 */
export function cliExitOf(
  outcome: RunOutcome,
  limitSeconds: number,
  resultReached: boolean,
): { code: number | null; killedAfterSeconds?: number; said?: string } {
  if (outcome.timedOut) return { code: null, killedAfterSeconds: limitSeconds };
  const words = resultReached
    ? undefined
    : cliWords(withoutNotices(outcome.stderr), withoutNotices(outcome.stdout), maskRules(outcome.variables));
  return { code: outcome.exitCode, ...(words === undefined ? {} : { said: words }) };
}

/**
 * Output without the notices a run prints whatever happens, which would otherwise pass for the
 * reason it stopped: runtime warnings (`DeprecationWarning: …`, `(node:12) Warning: …`) with their
 * stack lines, and notes about the machine's Node version (`Node 20.20.2 … needs >= 22.15`), which
 * also differ from machine to machine.
 */
export function withoutNotices(text: string): string {
  const lines = text.split(/\r?\n/);
  const kept: string[] = [];
  let inWarning = false;
  for (const line of lines) {
    if (
      /^(?:\(node:\d+\) )?\w*Warning\b/.test(line.trim()) ||
      /\bNode(?:\.js)? v?\d+\.\d+\.\d+\b.*\bneeds? >=/.test(line)
    ) {
      inWarning = true;
      continue;
    }
    if (inWarning && /^\s+at\s/.test(line)) continue;
    inWarning = false;
    kept.push(line);
  }
  return kept.join('\n');
}

/**
 * Was the run itself sound? Throws a CaptureError that says what went wrong, quoting the CLI (its first line is what a
 * history keeps).
 */
export function checkOutcome(configuration: Configuration, outcome: RunOutcome): void {
  const limit = configuration.timeoutSeconds ?? 60;
  const requests =
    outcome.requests.length === 0 ? 'no request reached the stub' : `requests seen: ${requestsSeen(outcome.requests)}`;
  if (outcome.timedOut) {
    throw new CaptureError(
      `the CLI did not finish within ${limit} s and was killed (${requests})${said(outcome)}\n  ` +
        `stderr:\n${tail(outcome.stderr)}\n  stdout:\n${tail(outcome.stdout)}`,
    );
  }
  if (configuration.mode === 'interactive') {
    // Its turn reached the stub: what it sent is recorded, however the terminal session then ended
    // (Qwen Code 0.23.0 in verify runs exited 1 within the grace period after its turn, its last
    // words "Update check skipped (registry error)"; the history run of it had been ended by us).
    if (!outcome.endedAfterRequest && outcome.turnRecorded !== true) {
      throw new CaptureError(
        `the interactive CLI ended by itself (exit ${outcome.exitCode ?? outcome.signal}) before its main request ` +
          `was recorded (${requests})${said(outcome)}\n  terminal:\n${tail(outcome.stdout)}`,
      );
    }
    return;
  }
  if (outcome.endedAfterRequest) return; // ended by us once its turn was answered (Invocation.endAfterTurn)
  if (outcome.exitCode !== 0) {
    throw new CaptureError(
      `the CLI exited with ${outcome.exitCode === null ? `signal ${outcome.signal}` : `code ${outcome.exitCode}`} ` +
        `(${requests})${said(outcome)}\n  stderr:\n${tail(outcome.stderr)}\n  stdout:\n${tail(outcome.stdout)}`,
    );
  }
}

/**
 * Is the chosen request the turn that answers the prompt? It must carry the prompt and
 * offer tools: a side request (a session title, a summary, a token count) that quotes
 * the prompt with `tools: []` is not the turn, and keeping it would record every tool as
 * gone. It must also ask for the configuration's model, when one is declared. Throws a
 * CaptureError that says what the run sent instead.
 */
export function checkMainRequest(
  configuration: Configuration,
  main: RecordedRequest,
  wire: WireFormat,
  requests: readonly RecordedRequest[],
  prompt: string = PROMPT,
): void {
  const seen = requestsSeen(requests);
  if (!main.text.includes(JSON.stringify(prompt).slice(1, -1))) {
    throw new CaptureError(
      `no request answered the prompt: the request chosen, ${main.method} ${main.url} (#${main.index}), does not ` +
        `carry it (requests seen: ${seen})`,
    );
  }
  if (!wire.hasTools(main.json)) {
    throw new CaptureError(
      `no request answered the prompt with tools: ${main.method} ${main.url} (#${main.index}) carries the prompt ` +
        `but offers no tools, as a side request (a title, a summary) does, and the run sent no other ` +
        `(requests seen: ${seen})`,
    );
  }
  if (configuration.model !== undefined) {
    const asked = wire.requestModel(main);
    if (asked !== configuration.model) {
      throw new CaptureError(
        `the configuration asks for model ${configuration.model}, but the request names ` +
          `${asked === undefined ? 'no model' : `model ${asked}`}: the CLI did not use the model its label says`,
      );
    }
  }
}

export function buildCapture(
  agent: AgentId,
  pkg: string,
  version: string,
  configuration: Configuration,
  outcome: RunOutcome,
): CaptureFile<AgentId> {
  checkOutcome(configuration, outcome);
  let chosen: ReturnType<typeof chooseMainRequest>;
  try {
    chosen = chooseMainRequest(agent, outcome.requests, PROMPT);
    checkMainRequest(configuration, chosen.request, chosen.wire, outcome.requests);
  } catch (error) {
    // A run that exited cleanly without the turn: what the CLI printed says why.
    if (!(error instanceof CaptureError)) throw error;
    const [first, ...rest] = error.message.split('\n');
    throw new CaptureError([`${first}${said(outcome)}`, ...rest].join('\n'));
  }
  const { request: main, wire } = chosen;
  const body = wire.captureBody(main.json as Record<string, unknown>, agentWireQuirks(agent));
  const rules = maskRules(outcome.variables, [outcome.startedAt, outcome.endedAt]);
  return {
    agent,
    cli: { package: pkg, version },
    configuration: configuration.id,
    request: { method: main.method, path: pathOf(main.url) },
    body: maskJson(body, rules),
  };
}

/** What a capture declares, counted by the wire format of its request. */
export function countTools(capture: CaptureFile<AgentId>): ToolCount {
  return captureWireFormat(capture).countTools(capture.body, agentWireQuirks(capture.agent));
}

export function summaryLine(agent: AgentId, id: string, count: ToolCount): string {
  const parts = [`${count.tools} tools`];
  if (count.namespaces) parts.push(`${count.namespaces} namespace${count.namespaces === 1 ? '' : 's'}`);
  if (count.deferred) parts.push(`${count.deferred} deferred`);
  if (count.nested) parts.push(`${count.nested} nested in code mode`);
  return `${`${agent}/${id}`.padEnd(40)} ${parts.join(', ')}`;
}
