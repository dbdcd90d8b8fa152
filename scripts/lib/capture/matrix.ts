/** The declared capture matrix (content/capture-matrix.json), validated against its schema. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AGENT_IDS, AGENTS, type AgentId } from '../../../src/lib/agents/index.ts';
import type { ConfigurationOption, JsonObject } from '../../../src/lib/agents/types.ts';
import { schemaAjv, schemaRefusal } from './ajv.ts';
import type {
  AgentMatrix as GeneratedAgentMatrix,
  MatrixConfiguration,
} from '../../../src/lib/generated/content-files.ts';

/** A configuration as the schema declares it, its maps exact (a value present is a string). */
export type Configuration = Omit<MatrixConfiguration, 'env' | 'settings' | 'homeFiles'> & {
  env: Record<string, string>;
  settings?: JsonObject;
  homeFiles?: Record<string, string>;
};

/** One agent's entry; every registered agent has one (validateMatrix checks it). */
export type AgentMatrix = Omit<GeneratedAgentMatrix, 'configurations'> & { configurations: Configuration[] };

export interface Matrix {
  agents: Record<AgentId, AgentMatrix>;
}

export class MatrixError extends Error {}

const OPTIONS: readonly ConfigurationOption[] = ['configToml', 'settings'];

export const MATRIX_FILE = 'content/capture-matrix.json';
export const MATRIX_SCHEMA = 'schemas/capture-matrix.schema.json';

/**
 * Checks `data` against the schema and the rules a schema cannot say: unique ids, and
 * the agent registry (src/lib/agents) agrees on each agent's package, modes and
 * options (`configToml`, `settings`).
 */
export function validateMatrix(data: unknown, schema: unknown, file: string = MATRIX_FILE): Matrix {
  const validate = schemaAjv().compile(schema as object);
  if (!validate(data)) {
    throw new MatrixError(schemaRefusal(file, MATRIX_SCHEMA, validate.errors));
  }
  const matrix = data as Matrix;
  for (const agent of AGENT_IDS) {
    const { npmPackage, modes, options } = AGENTS[agent];
    const entry = matrix.agents[agent];
    if (entry === undefined) throw new MatrixError(`${file}: /agents has no ${agent}`);
    if (entry.package !== npmPackage)
      throw new MatrixError(
        `${file}: /agents/${agent}/package is ${entry.package}, but src/lib/agents/${agent}.ts installs ${npmPackage}`,
      );
    const seen = new Set<string>();
    entry.configurations.forEach((c, i) => {
      if (seen.has(c.id)) throw new MatrixError(`${file}: configuration id ${agent}/${c.id} is used twice`);
      seen.add(c.id);
      if (!modes.includes(c.mode))
        throw new MatrixError(
          `${file}: /agents/${agent}/configurations/${i}/mode: ${agent} has no mode ${c.mode} (modes: ` +
            `${modes.join(', ')})`,
        );
      for (const option of OPTIONS) {
        if (c[option] !== undefined && !options.includes(option)) {
          throw new MatrixError(
            `${file}: /agents/${agent}/configurations/${i}/${option}: ${agent} takes no ${option} ` +
              `(src/lib/agents/${agent}.ts options: ${options.join(', ') || 'none'})`,
          );
        }
      }
    });
  }
  return matrix;
}

/** Loads and checks the matrix; `file` (absolute or relative to `root`) overrides the committed one. */
export function loadMatrix(root: string, file: string = MATRIX_FILE): Matrix {
  const read = (rel: string): unknown => {
    try {
      return JSON.parse(readFileSync(resolve(root, rel), 'utf8'));
    } catch (error) {
      throw new MatrixError(`cannot read ${rel}: ${(error as Error).message}`);
    }
  };
  return validateMatrix(read(file), read(MATRIX_SCHEMA), file);
}

export interface Selected {
  agent: AgentId;
  configuration: Configuration;
}

/**
 * The configurations to run, in matrix order. `only` holds `agent/id` or `agent`
 * selectors; empty means all. An unknown selector throws.
 */
export function selectConfigurations(matrix: Matrix, only: readonly string[]): Selected[] {
  const all: Selected[] = AGENT_IDS.flatMap((agent) =>
    matrix.agents[agent].configurations.map((configuration) => ({ agent, configuration })),
  );
  if (only.length === 0) return all;
  for (const sel of only) {
    if (!all.some((s) => sel === s.agent || sel === `${s.agent}/${s.configuration.id}`)) {
      throw new MatrixError(
        `--only ${sel}: no such agent or configuration (use agent or agent/configuration, e.g. ` +
          `${all[0] ? `${all[0].agent}/${all[0].configuration.id}` : '<agent>/<configuration>'})`,
      );
    }
  }
  return all.filter((s) => only.some((sel) => sel === s.agent || sel === `${s.agent}/${s.configuration.id}`));
}
