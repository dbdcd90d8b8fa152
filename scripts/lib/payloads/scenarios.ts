/**
 * The declared tool scenarios (content/scenarios.json): loading and checking them
 * against their schema and the capture matrix, selecting some with `--only`, and
 * binding a follow-up call's `$NAME` tokens to values read from the first result.
 * Pure, except loadScenarios, which reads the two files.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAgentId, PAYLOAD_AGENTS, payloadDriver, type AgentId } from '../../../src/lib/agents/index.ts';
import { toolSlug } from '../../../src/lib/content/url-names.ts';
import type { Binding, Outcome, Scenario, ScenarioAgent, ScenariosFile } from '../../../src/lib/core/content-types.ts';
import type { CallInput } from '../../../src/lib/wire/types.ts';
import { schemaAjv, schemaRefusal } from '../capture/ajv.ts';
import type { Matrix } from '../capture/matrix.ts';

export const SCENARIOS_FILE = 'content/scenarios.json';
export const SCENARIOS_SCHEMA = 'schemas/scenarios.schema.json';

/** One scenario to run, with the agent it belongs to and the configuration it runs in. */
export interface SelectedScenario {
  agent: AgentId;
  scenario: Scenario;
  configuration: string;
  /** `agent/tool-slug/scenario-id`: what `--only` matches and messages name. */
  key: string;
  /** The payload file, relative to content/payloads/. */
  file: string;
}

export class ScenarioError extends Error {}

/** The payload file of a scenario, relative to content/payloads/: `<agent>/<tool slug>.<id>.json`. */
export function payloadFile(agent: string, tool: string, id: string): string {
  return `${agent}/${toolSlug(tool)}.${id}.json`;
}

/**
 * Checks `data` against the schema and what a schema cannot say: scenario ids unique per
 * tool, every configuration named exists in the matrix, bindings are used and compile.
 */
export function validateScenarios(
  data: unknown,
  schema: unknown,
  matrix: Matrix,
  file: string = SCENARIOS_FILE,
): ScenariosFile {
  const validate = schemaAjv().compile(schema as object);
  if (!validate(data)) {
    throw new ScenarioError(schemaRefusal(file, SCENARIOS_SCHEMA, validate.errors));
  }
  const scenarios = data as ScenariosFile;
  for (const [agent, entry] of Object.entries(scenarios.agents) as [string, ScenarioAgent][]) {
    if (!isAgentId(agent))
      throw new ScenarioError(`${file}: /agents/${agent}: no agent ${agent} in the registry (src/lib/agents/index.ts)`);
    const driver = payloadDriver(agent);
    if ('none' in driver)
      throw new ScenarioError(`${file}: /agents/${agent}: its hook payloads cannot be recorded: ${driver.none}`);
    const known = new Set(matrix.agents[agent].configurations.map((c) => c.id));
    const at = `/agents/${agent}`;
    if (!known.has(entry.configuration))
      throw new ScenarioError(
        `${file}: ${at}/configuration: no configuration ${agent}/${entry.configuration} in content/capture-matrix.json`,
      );
    const seen = new Set<string>();
    entry.scenarios.forEach((s, i) => {
      const where = `${file}: ${at}/scenarios/${i}`;
      const key = payloadFile(agent, s.tool, s.id);
      if (seen.has(key)) throw new ScenarioError(`${where}: scenario ${s.id} of ${s.tool} is declared twice`);
      seen.add(key);
      if (s.configuration !== undefined && !known.has(s.configuration))
        throw new ScenarioError(
          `${where}/configuration: no configuration ${agent}/${s.configuration} in content/capture-matrix.json`,
        );
      // The main conversation's next call and a subagent's first one are told apart by which results a request carries,
      // not both at once.
      if (s.followUp !== undefined && s.inSubagent !== undefined)
        throw new ScenarioError(
          `${where}/inSubagent: a scenario has a follow-up or a call inside a subagent, not both`,
        );
      for (const b of s.followUp?.bind ?? []) {
        try {
          new RegExp(b.pattern);
        } catch (error) {
          throw new ScenarioError(`${where}/followUp/bind: ${b.name}: ${(error as Error).message}`);
        }
        if (!JSON.stringify(s.followUp!.input).includes(`$${b.name}`))
          throw new ScenarioError(`${where}/followUp/bind: $${b.name} is bound but the follow-up input never uses it`);
      }
    });
    const covered = new Set(entry.scenarios.map((s) => s.tool));
    for (const { tools } of entry.cannotRun) {
      for (const tool of tools)
        if (covered.has(tool))
          throw new ScenarioError(`${file}: ${at}/cannotRun: ${tool} has scenarios, yet is listed as not runnable`);
    }
  }
  return scenarios;
}

export function loadScenarios(root: string, matrix: Matrix): ScenariosFile {
  const read = (rel: string): unknown => {
    try {
      return JSON.parse(readFileSync(resolve(root, rel), 'utf8'));
    } catch (error) {
      throw new ScenarioError(`cannot read ${rel}: ${(error as Error).message}`);
    }
  };
  return validateScenarios(read(SCENARIOS_FILE), read(SCENARIOS_SCHEMA), matrix);
}

/**
 * The scenarios to run, in file order. `only` holds `agent`, `agent/tool` or
 * `agent/tool/scenario` selectors (tool by name or slug); empty means all. An unknown
 * selector throws.
 */
export function selectScenarios(file: ScenariosFile, only: readonly string[]): SelectedScenario[] {
  const all: SelectedScenario[] = PAYLOAD_AGENTS.flatMap((agent) => {
    const entry = file.agents[agent];
    if (!entry) return [];
    return entry.scenarios.map((scenario) => ({
      agent,
      scenario,
      configuration: scenario.configuration ?? entry.configuration,
      key: `${agent}/${toolSlug(scenario.tool)}/${scenario.id}`,
      file: payloadFile(agent, scenario.tool, scenario.id),
    }));
  });
  if (only.length === 0) return all;
  const matches = (sel: string, s: SelectedScenario): boolean => {
    const [agent, tool, id, ...rest] = sel.split('/');
    if (rest.length > 0 || agent !== s.agent) return false;
    if (tool === undefined) return true;
    if (toolSlug(tool) !== toolSlug(s.scenario.tool)) return false;
    return id === undefined || id === s.scenario.id;
  };
  for (const sel of only) {
    if (!all.some((s) => matches(sel, s))) {
      throw new ScenarioError(
        `--only ${sel}: no such agent, tool or scenario (use agent/tool/scenario, e.g. ` +
          `${all[0]?.key ?? '<agent>/<tool>/<scenario>'})`,
      );
    }
  }
  return all.filter((s) => only.some((sel) => matches(sel, s)));
}

/**
 * The calls a scenario makes, in order: its `before` call, its own, its follow-up, or the call made inside the subagent
 * its own call started.
 */
export function scenarioCalls(
  scenario: Scenario,
): { tool: string; input: CallInput; expect: Outcome; bind?: Binding[]; resultSent?: boolean; subagent?: boolean }[] {
  return [
    ...(scenario.before ? [scenario.before] : []),
    {
      tool: scenario.tool,
      input: scenario.input,
      expect: scenario.expect,
      ...(scenario.resultSent === false ? { resultSent: false } : {}),
    },
    ...(scenario.followUp ? [scenario.followUp] : []),
    ...(scenario.inSubagent ? [{ ...scenario.inSubagent, subagent: true }] : []),
  ];
}

/** The tools a scenario calls, each once, in order of the calls. */
export function scenarioTools(scenario: Scenario): string[] {
  return [...new Set(scenarioCalls(scenario).map((c) => c.tool))];
}

/** Values bound from a result text: name → value (string or number). Throws when a pattern finds nothing. */
export function bindValues(bindings: readonly Binding[], resultText: string): Map<string, string | number> {
  const out = new Map<string, string | number>();
  for (const b of bindings) {
    const m = new RegExp(b.pattern).exec(resultText);
    if (!m || m[1] === undefined)
      throw new ScenarioError(
        `the follow-up binding $${b.name} (/${b.pattern}/) found nothing in the result: ` +
          `${JSON.stringify(resultText.slice(0, 300))}`,
      );
    if (b.type === 'number') {
      const n = Number(m[1]);
      if (!Number.isFinite(n))
        throw new ScenarioError(`the follow-up binding $${b.name} read ${JSON.stringify(m[1])}, not a number`);
      out.set(b.name, n);
    } else out.set(b.name, m[1]);
  }
  return out;
}

/**
 * `input` with its `$NAME` tokens replaced by bound values: a string that is exactly
 * `$NAME` becomes the value itself (keeping a number a number), a token inside a longer
 * string becomes its text. Other `$` text is left alone.
 */
export function applyBindings<T>(input: T, values: ReadonlyMap<string, string | number>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\$([A-Z][A-Z0-9_]*)$/.exec(v);
      if (whole && values.has(whole[1]!)) return values.get(whole[1]!);
      return v.replace(/\$([A-Z][A-Z0-9_]*)/g, (token, name: string) =>
        values.has(name) ? String(values.get(name)) : token,
      );
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(input) as T;
}
