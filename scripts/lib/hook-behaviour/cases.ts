/**
 * The hook behaviour cases of content/hook-cases.json: reading and checking them, choosing
 * the ones to run, and turning a case into what the payload runner runs (a scenario) and
 * what the answering hook reads (its answer file). Pure, except loadHookCases.
 */
import { schemaAjv, schemaRefusal } from '../capture/ajv.ts';
import type { Matrix } from '../capture/matrix.ts';
import { isAgentId, payloadDriver, PAYLOAD_AGENTS } from '../../../src/lib/agents/index.ts';
import type { HookShape } from '../../../src/lib/agents/types.ts';
import type { AgentId, HookCase, HookCasesFile } from '../../../src/lib/core/content-types.ts';
import type { SelectedScenario } from '../payloads/scenarios.ts';
import { oneCallScenario, readJson, selectCases } from '../payloads/case-selection.ts';

export const HOOK_CASES_FILE = 'content/hook-cases.json';
export const HOOK_CASES_SCHEMA = 'schemas/hook-cases.schema.json';

export class HookCaseError extends Error {}

export interface SelectedCase {
  agent: AgentId;
  case: HookCase;
  configuration: string;
  /** `agent/case`: what `--only` matches and messages name. */
  key: string;
  /** The record, relative to content/hook-behaviour/. */
  file: string;
}

/**
 * Checks `data` against the schema and what it cannot say: agents with recordable hooks, known configurations, unique
 * ids.
 */
export function validateHookCases(
  data: unknown,
  schema: unknown,
  matrix: Matrix,
  file: string = HOOK_CASES_FILE,
): HookCasesFile {
  const validate = schemaAjv().compile(schema as object);
  if (!validate(data)) {
    throw new HookCaseError(schemaRefusal(file, HOOK_CASES_SCHEMA, validate.errors));
  }
  const cases = data as HookCasesFile;
  for (const [agent, entry] of Object.entries(cases.agents)) {
    const at = `${file}: /agents/${agent}`;
    if (!isAgentId(agent))
      throw new HookCaseError(`${at}: no agent ${agent} in the registry (src/lib/agents/index.ts)`);
    const driver = payloadDriver(agent);
    if ('none' in driver) throw new HookCaseError(`${at}: its hooks cannot be run: ${driver.none}`);
    const known = new Set(matrix.agents[agent].configurations.map((c) => c.id));
    if (!known.has(entry!.configuration))
      throw new HookCaseError(
        `${at}/configuration: no configuration ${agent}/${entry!.configuration} in content/capture-matrix.json`,
      );
    const seen = new Set<string>();
    entry!.cases.forEach((c, i) => {
      if (seen.has(c.id)) throw new HookCaseError(`${at}/cases/${i}/id: case ${c.id} is declared twice`);
      seen.add(c.id);
      if (c.call.configuration !== undefined && !known.has(c.call.configuration))
        throw new HookCaseError(
          `${at}/cases/${i}/call/configuration: no configuration ${agent}/${c.call.configuration} in ` +
            `content/capture-matrix.json`,
        );
      if (!driver.hooks.events.includes(c.hook.event))
        throw new HookCaseError(
          `${at}/cases/${i}/hook/event: ${c.hook.event} is not an event the run configures for ${agent} ` +
            `(${driver.hooks.events.join(', ')})`,
        );
      // A plugin function answers with code; a command with its output and exit code.
      const plugin = driver.hooks.kind === 'plugin';
      const commandOnly = (['stdout', 'stderr', 'exitCode', 'sleepSeconds', 'crash'] as const).filter(
        (k) => c.hook[k] !== undefined,
      );
      if (plugin && c.hook.script === undefined)
        throw new HookCaseError(`${at}/cases/${i}/hook: ${agent}'s hooks are plugin functions: the answer is a script`);
      if (plugin && commandOnly.length > 0)
        throw new HookCaseError(
          `${at}/cases/${i}/hook/${commandOnly[0]}: ${agent}'s hooks are plugin functions, which print nothing and ` +
            `exit with no code: use script`,
        );
      if (!plugin && c.hook.script !== undefined)
        throw new HookCaseError(
          `${at}/cases/${i}/hook/script: ${agent}'s hooks are commands: answer with stdout, stderr, exitCode, ` +
            `sleepSeconds or crash`,
        );
    });
  }
  return cases;
}

const caseError = (message: string): Error => new HookCaseError(message);

export function loadHookCases(root: string, matrix: Matrix): HookCasesFile {
  return validateHookCases(
    readJson(root, HOOK_CASES_FILE, caseError),
    readJson(root, HOOK_CASES_SCHEMA, caseError),
    matrix,
  );
}

/**
 * The cases to run, in agent then file order; `only` holds `agent` or `agent/case` (empty: all). An unknown selector
 * throws.
 */
export function selectHookCases(file: HookCasesFile, only: readonly string[]): SelectedCase[] {
  const all: SelectedCase[] = PAYLOAD_AGENTS.flatMap((agent) =>
    (file.agents[agent]?.cases ?? []).map((c) => ({
      agent,
      case: c,
      configuration: c.call.configuration ?? file.agents[agent]!.configuration,
      key: `${agent}/${c.id}`,
      file: `${agent}/${c.id}.json`,
    })),
  );
  return selectCases(all, only, caseError);
}

/** The case as the payload runner's scenario (Claude Code's --allowedTools: the case's, else the tool called). */
export function caseScenario(selected: SelectedCase): SelectedScenario {
  return oneCallScenario(selected, selected.case.call.allowedTools);
}

/** What the hook prints on standard output: a JSON value as its JSON text. */
export function hookStdout(answer: HookCase['hook']): string {
  if (answer.stdout === undefined) return '';
  return typeof answer.stdout === 'string' ? answer.stdout : JSON.stringify(answer.stdout);
}

/** The answer file of scripts/lib/hook-behaviour/answer-hook.mjs for a case. */
export function answerFile(answer: HookCase['hook'], shape: HookShape): string {
  return JSON.stringify({
    event: answer.event,
    ...(shape.eventField ? { eventField: shape.eventField } : {}),
    stdout: hookStdout(answer),
    stderr: answer.stderr ?? '',
    exitCode: answer.exitCode ?? 0,
    ...(answer.sleepSeconds ? { sleepSeconds: answer.sleepSeconds } : {}),
    ...(answer.crash ? { crash: answer.crash } : {}),
  });
}

/** What the hook did, as the record states it: a crash exits 1. */
export function hookReturn(answer: HookCase['hook']): {
  stdout: string;
  stderr: string;
  exitCode: number;
  sleepSeconds?: number;
  crash?: string;
  script?: string;
} {
  return {
    stdout: hookStdout(answer),
    stderr: answer.stderr ?? '',
    exitCode: answer.crash ? 1 : (answer.exitCode ?? 0),
    ...(answer.sleepSeconds ? { sleepSeconds: answer.sleepSeconds } : {}),
    ...(answer.crash ? { crash: answer.crash } : {}),
    ...(answer.script ? { script: answer.script } : {}),
  };
}
