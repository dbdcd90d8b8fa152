/** From a finished run to the committed capture object, or a clear error. */
import type { AgentId } from '../../../src/lib/agents/index.ts';
import { captureWireFormat, type CaptureFile, type ToolCount, type WireFormat } from '../../../src/lib/wire/index.ts';
import { chooseMainRequest, pathOf, requestsSeen, CaptureError } from './normalise.ts';
import { maskJson, maskRules } from './placeholders.ts';
import { PROMPT, type RunOutcome } from './runner.ts';
import type { Configuration } from './matrix.ts';
import type { RecordedRequest } from './stub-server.ts';

function tail(text: string, lines = 8): string {
  const kept = text.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, '').trim().split('\n').slice(-lines);
  return kept.length === 0 || kept[0] === '' ? '    (empty)' : kept.map((l) => `    | ${l.slice(0, 300)}`).join('\n');
}

/** Was the run itself sound? Throws a CaptureError that says what went wrong. */
export function checkOutcome(configuration: Configuration, outcome: RunOutcome): void {
  const limit = configuration.timeoutSeconds ?? 60;
  const requests = outcome.requests.length === 0 ? 'no request reached the stub' : `requests seen: ${requestsSeen(outcome.requests)}`;
  if (outcome.timedOut) {
    throw new CaptureError(`the CLI did not finish within ${limit} s and was killed (${requests})\n  stderr:\n${tail(outcome.stderr)}\n  stdout:\n${tail(outcome.stdout)}`);
  }
  if (configuration.mode === 'interactive') {
    if (!outcome.endedAfterRequest) {
      throw new CaptureError(`the interactive CLI ended by itself (exit ${outcome.exitCode ?? outcome.signal}) before its main request was recorded (${requests})\n  terminal:\n${tail(outcome.stdout)}`);
    }
    return;
  }
  if (outcome.exitCode !== 0) {
    throw new CaptureError(`the CLI exited with ${outcome.exitCode === null ? `signal ${outcome.signal}` : `code ${outcome.exitCode}`} (${requests})\n  stderr:\n${tail(outcome.stderr)}\n  stdout:\n${tail(outcome.stdout)}`);
  }
}

/**
 * Is the chosen request the turn that answers the prompt? It must carry the prompt and
 * offer tools: a side request (a session title, a summary, a token count) that quotes
 * the prompt with `tools: []` is not the turn, and keeping it would record every tool as
 * gone. It must also ask for the configuration's model, when one is declared. Throws a
 * CaptureError that says what the run sent instead.
 */
export function checkMainRequest(configuration: Configuration, main: RecordedRequest, wire: WireFormat, requests: readonly RecordedRequest[], prompt: string = PROMPT): void {
  const seen = requestsSeen(requests);
  if (!main.text.includes(JSON.stringify(prompt).slice(1, -1))) {
    throw new CaptureError(`no request answered the prompt: the request chosen, ${main.method} ${main.url} (#${main.index}), does not carry it (requests seen: ${seen})`);
  }
  if (!wire.hasTools(main.json)) {
    throw new CaptureError(`no request answered the prompt with tools: ${main.method} ${main.url} (#${main.index}) carries the prompt but offers no tools, as a side request (a title, a summary) does, and the run sent no other (requests seen: ${seen})`);
  }
  if (configuration.model !== undefined) {
    const asked = wire.requestModel(main);
    if (asked !== configuration.model) {
      throw new CaptureError(`the configuration asks for model ${configuration.model}, but the request names ${asked === undefined ? 'no model' : `model ${asked}`}: the CLI did not use the model its label says`);
    }
  }
}

export function buildCapture(agent: AgentId, pkg: string, version: string, configuration: Configuration, outcome: RunOutcome): CaptureFile<AgentId> {
  checkOutcome(configuration, outcome);
  const { request: main, wire } = chooseMainRequest(agent, outcome.requests, PROMPT);
  checkMainRequest(configuration, main, wire, outcome.requests);
  const body = wire.captureBody(main.json as Record<string, unknown>);
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
  return captureWireFormat(capture).countTools(capture.body);
}

export function summaryLine(agent: AgentId, id: string, count: ToolCount): string {
  const parts = [`${count.tools} tools`];
  if (count.namespaces) parts.push(`${count.namespaces} namespace${count.namespaces === 1 ? '' : 's'}`);
  if (count.deferred) parts.push(`${count.deferred} deferred`);
  if (count.nested) parts.push(`${count.nested} nested in code mode`);
  return `${`${agent}/${id}`.padEnd(40)} ${parts.join(', ')}`;
}

