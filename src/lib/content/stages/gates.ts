/**
 * Stage: availability gates checked against the captures. Each captured
 * configuration's facts (the model and wire format of its captured request;
 * its mode, arguments, settings, config.toml lines and environment, the
 * agent module's own variables included, and the model's entry in the model
 * catalog the agent's binary embeds, when the inventory read one) are gathered here; the checking is
 * src/lib/check/gate-check.ts. A contradicted gate is an error naming the editorial
 * file and the gate's pointer; each gate's status is kept for the page.
 */
import type { Stage } from '../context.ts';
import type { CaptureMatrix, MatrixAgent, MatrixConfiguration } from '../../model/captures.ts';
import type { AgentId } from '../../core/content-types.ts';
import type { CatalogModel } from '../../core/content-types.ts';
import type { ToolModel } from '../../model/model.ts';
import { AGENTS } from '../../agents/index.ts';
import { checkGates, type ConfigurationFacts } from '../../check/gate-check.ts';
import type { CapturedRequests } from './captures.ts';

export function checkAvailabilityGates(
  stage: Stage,
  tools: readonly ToolModel[],
  matrix: CaptureMatrix | undefined,
  requests: CapturedRequests,
  catalogs: ReadonlyMap<AgentId, readonly CatalogModel[]> = new Map(),
): void {
  const factsByAgent = new Map<AgentId, ConfigurationFacts[]>();
  for (const [agentId, agentMatrix] of Object.entries(matrix?.agents ?? {}) as [AgentId, MatrixAgent][]) {
    const facts: ConfigurationFacts[] = [];
    for (const config of agentMatrix.configurations) {
      const request = requests.get(`${agentId}/${config.id}`);
      if (request) facts.push(configurationFacts(agentId, config, request, catalogs.get(agentId)));
    }
    // A configuration whose capture could not be read is reported already; without all of them nothing is checked.
    if (facts.length === agentMatrix.configurations.length) factsByAgent.set(agentId, facts);
  }
  for (const tool of tools) {
    const editorial = tool.editorial;
    const facts = factsByAgent.get(tool.agent);
    if (!editorial || !facts || !tool.files.editorial) continue;
    const advertised = new Set(tool.captured?.byConfig.keys() ?? []);
    const result = checkGates(editorial.availability.gates, facts, advertised, editorial.availability.notAdvertisedIn);
    for (const p of result.problems)
      stage.problems.error(tool.files.editorial, p.pointer, p.rule, `${tool.fullName}: ${p.message}`);
    tool.gateStatuses = result.statuses;
  }
}

/** Placeholders for what a run fills in: only the variables a configuration or module sets by name matter to a gate. */
const RUN_PLACEHOLDERS = {
  binary: '$BINARY',
  node: '$NODE',
  home: '$HOME',
  workdir: '$WORKDIR',
  stubUrl: '$STUB_URL',
  prompt: '$PROMPT',
  apiKey: '$API_KEY',
};

function configurationFacts(
  agentId: AgentId,
  config: MatrixConfiguration,
  request: { model?: string; wire: string },
  catalog: readonly CatalogModel[] | undefined,
): ConfigurationFacts {
  const run = runOf(agentId, config);
  const facts: ConfigurationFacts = {
    id: config.id,
    wire: request.wire,
    mode: config.mode,
    env: run.env,
    args: run.args,
  };
  if (request.model !== undefined) facts.model = request.model;
  if (config.settings !== undefined) facts.settings = config.settings;
  if (config.configToml !== undefined) facts.configToml = config.configToml;
  if (catalog) facts.catalog = catalog.find((m) => m.slug === request.model) ?? null;
  return facts;
}

/**
 * The variables the configuration and the agent module set (the fixed minimal environment
 * left out), and the arguments the CLI gets: the module's fixed ones with the configuration's
 * (in a pseudo-terminal the command line is one shell string: the configuration's arguments then).
 */
function runOf(
  agentId: AgentId,
  config: MatrixConfiguration,
): { env: Record<string, string>; args: readonly string[] } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.env)) if (v !== undefined) env[k] = v;
  try {
    const invocation = AGENTS[agentId].invoke({
      ...RUN_PLACEHOLDERS,
      mode: config.mode,
      args: config.args,
      env,
      configToml: config.configToml,
      settings: config.settings,
      baseEnv: {},
    });
    return {
      env: { ...invocation.env, ...env },
      args: invocation.input.kind === 'pty' ? config.args : invocation.args,
    };
  } catch {
    return { env, args: config.args };
  }
}
