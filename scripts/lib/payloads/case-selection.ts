/**
 * What the case files of the recording scripts share (content/hook-cases.json,
 * content/permission-cases.json): reading one JSON file of the repository with an error that
 * names it, and choosing cases by `--only agent` or `--only agent/case`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentId, Scenario } from '../../../src/lib/core/content-types.ts';
import type { SelectedScenario } from './scenarios.ts';

/** The JSON value of `rel` under `root`; an unreadable file throws `error(message)`. */
export function readJson(root: string, rel: string, error: (message: string) => Error): unknown {
  try {
    return JSON.parse(readFileSync(resolve(root, rel), 'utf8'));
  } catch (e) {
    throw error(`cannot read ${rel}: ${(e as Error).message}`);
  }
}

/**
 * The items `only` selects (`agent` or `agent/case`; empty: all), in their order; an unknown selector throws
 * `error(message)`.
 */
export function selectCases<T extends { agent: string; key: string }>(
  all: readonly T[],
  only: readonly string[],
  error: (message: string) => Error,
): T[] {
  if (only.length === 0) return [...all];
  const matches = (sel: string, s: T): boolean => sel === s.agent || sel === s.key;
  for (const sel of only)
    if (!all.some((s) => matches(sel, s)))
      throw error(
        `--only ${sel}: no such agent or case (use agent or agent/case, e.g. ${all[0]?.key ?? '<agent>/<case>'})`,
      );
  return all.filter((s) => only.some((sel) => matches(sel, s)));
}

/** A case of a case file, as much of it as makes the payload runner's scenario. */
export interface OneCallCase {
  id: string;
  description: string;
  timeoutSeconds?: number;
  call: {
    tool: string;
    input: Scenario['input'];
    args?: string[];
    env?: Record<string, string | undefined>;
    files?: Record<string, string | undefined>;
  };
}

/**
 * The case as the payload runner's scenario: one call, no expectation checked (what the CLI
 * reports is the case's finding, whichever it is), with the tools the run itself allows.
 */
export function oneCallScenario<
  S extends { agent: AgentId; case: OneCallCase; configuration: string; key: string; file: string },
>(selected: S, allowedTools: string[] | undefined): SelectedScenario {
  const { call } = selected.case;
  const scenario: Scenario = {
    id: selected.case.id,
    tool: call.tool,
    description: selected.case.description,
    input: call.input,
    expect: 'success',
    timeoutSeconds: selected.case.timeoutSeconds ?? 60,
    ...(allowedTools ? { allowedTools } : {}),
    ...(call.args ? { args: call.args } : {}),
    ...(call.env ? { env: call.env } : {}),
    ...(call.files ? { files: call.files } : {}),
  };
  return {
    agent: selected.agent,
    scenario,
    configuration: selected.configuration,
    key: selected.key,
    file: selected.file,
  };
}
