/**
 * The permission cases of content/permission-cases.json: reading and checking them,
 * choosing the ones to run, and turning a case into what the payload runner runs.
 * Pure, except loadPermissionCases.
 */
import { schemaAjv, schemaRefusal } from '../capture/ajv.ts';
import type { Matrix } from '../capture/matrix.ts';
import { isAgentId, payloadDriver, PAYLOAD_AGENTS } from '../../../src/lib/agents/index.ts';
import type { AgentId, PermissionCase, PermissionCasesFile } from '../../../src/lib/core/content-types.ts';
import type { SelectedScenario } from '../payloads/scenarios.ts';
import { oneCallScenario, readJson, selectCases } from '../payloads/case-selection.ts';

export const PERMISSION_CASES_FILE = 'content/permission-cases.json';
export const PERMISSION_CASES_SCHEMA = 'schemas/permission-cases.schema.json';

export class PermissionCaseError extends Error {}

export interface SelectedPermissionCase {
  agent: AgentId;
  case: PermissionCase;
  configuration: string;
  /** `agent/case`: what `--only` matches and messages name. */
  key: string;
  /** The record, relative to content/permissions/. */
  file: string;
}

/** Where a case writes its configuration: everything the rule's text must appear in. */
export function caseConfigurationText(c: PermissionCase): string {
  const { args, files, homeFiles, settings, env } = c.call;
  return [
    ...(args ?? []),
    ...Object.values(files ?? {}),
    ...Object.values(homeFiles ?? {}),
    JSON.stringify(settings ?? {}),
    JSON.stringify(env ?? {}),
  ].join('\n');
}

/**
 * The problems the schema cannot state, as `pointer: message`: a rule whose text the case
 * does not write, a rule of form `none` with a text, an unknown configuration, a repeated id.
 */
export function permissionCaseProblems(cases: PermissionCasesFile, matrix: Matrix): string[] {
  const problems: string[] = [];
  for (const [agent, entry] of Object.entries(cases.agents)) {
    const at = `/agents/${agent}`;
    if (!isAgentId(agent)) {
      problems.push(`${at}: no agent ${agent} in the registry (src/lib/agents/index.ts)`);
      continue;
    }
    const driver = payloadDriver(agent);
    if ('none' in driver) problems.push(`${at}: it cannot be run: ${driver.none}`);
    const known = new Set(matrix.agents[agent].configurations.map((c) => c.id));
    if (!known.has(entry!.configuration))
      problems.push(
        `${at}/configuration: no configuration ${agent}/${entry!.configuration} in content/capture-matrix.json`,
      );
    const seen = new Set<string>();
    entry!.cases.forEach((c, i) => {
      const here = `${at}/cases/${i}`;
      if (seen.has(c.id)) problems.push(`${here}/id: case ${c.id} is declared twice`);
      seen.add(c.id);
      if (c.call.configuration !== undefined && !known.has(c.call.configuration))
        problems.push(
          `${here}/call/configuration: no configuration ${agent}/${c.call.configuration} in ` +
            `content/capture-matrix.json`,
        );
      if (c.rule.form === 'none' && c.rule.text !== undefined)
        problems.push(`${here}/rule/text: a case without a rule (form none) writes no rule text`);
      if ((c.rule.form === 'none') !== (c.rule.says === 'none'))
        problems.push(`${here}/rule: form none goes with says none, and only with it`);
      if (c.rule.text !== undefined && !caseConfigurationText(c).includes(c.rule.text))
        problems.push(
          `${here}/rule/text: ${JSON.stringify(c.rule.text)} is not written by the case (call.args, files, ` +
            `homeFiles, settings or env)`,
        );
      if ('probe' in c.sideEffect && !JSON.stringify(c.call.input).includes('$PROBE_URL'))
        problems.push(`${here}/sideEffect: a probe side effect needs $PROBE_URL in call.input`);
    });
  }
  return problems;
}

/** Checks `data` against the schema and what it cannot say; throws PermissionCaseError naming the file and pointers. */
export function validatePermissionCases(
  data: unknown,
  schema: unknown,
  matrix: Matrix,
  file: string = PERMISSION_CASES_FILE,
): PermissionCasesFile {
  const validate = schemaAjv().compile(schema as object);
  if (!validate(data)) {
    throw new PermissionCaseError(schemaRefusal(file, PERMISSION_CASES_SCHEMA, validate.errors));
  }
  const cases = data as PermissionCasesFile;
  const problems = permissionCaseProblems(cases, matrix);
  if (problems.length > 0) throw new PermissionCaseError(`${file}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return cases;
}

const caseError = (message: string): Error => new PermissionCaseError(message);

export function loadPermissionCases(root: string, matrix: Matrix): PermissionCasesFile {
  return validatePermissionCases(
    readJson(root, PERMISSION_CASES_FILE, caseError),
    readJson(root, PERMISSION_CASES_SCHEMA, caseError),
    matrix,
  );
}

/**
 * The cases to run, in agent then file order; `only` holds `agent` or `agent/case` (empty: all). An unknown selector
 * throws.
 */
export function selectPermissionCases(file: PermissionCasesFile, only: readonly string[]): SelectedPermissionCase[] {
  const all: SelectedPermissionCase[] = PAYLOAD_AGENTS.flatMap((agent) =>
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

/**
 * The case as the payload runner's scenario. The run allows no tool itself: Claude Code's --allowedTools is left empty,
 * then left out (HookMechanism.bypass).
 */
export function permissionScenario(selected: SelectedPermissionCase): SelectedScenario {
  return oneCallScenario(selected, []);
}

/**
 * What the record calls the run's result: ran when the side effect happened; otherwise did-not-run when a result
 * reached the model, no-result when none did.
 */
export function permissionOutcome(happened: boolean, resultSent: boolean): 'ran' | 'did-not-run' | 'no-result' {
  if (happened) return 'ran';
  return resultSent ? 'did-not-run' : 'no-result';
}
