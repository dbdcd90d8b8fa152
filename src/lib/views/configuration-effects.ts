/**
 * What each captured configuration changes, against the first configuration
 * of the agent's matrix (its baseline): the tools it adds and the tools it
 * drops. Configurations with the same change are grouped, so the agent page
 * can say "these five turn on nothing new; this one adds LSP".
 */
import type { MatrixAgent, MatrixConfiguration } from '../model/captures.ts';
import type { ToolModel } from '../model/model.ts';

export interface ConfigurationEffect {
  added: string[];
  removed: string[];
  configurations: MatrixConfiguration[];
}

/**
 * Groups of configurations by the tools they add to and drop from the baseline, in matrix order of first appearance.
 */
export function configurationEffects(
  tools: readonly ToolModel[],
  matrix: MatrixAgent,
): { baseline: MatrixConfiguration; effects: ConfigurationEffect[] } | undefined {
  const [baseline, ...others] = matrix.configurations;
  if (!baseline) return undefined;
  const advertised = (config: string) =>
    new Set(tools.filter((t) => t.captured?.byConfig.has(config)).map((t) => t.fullName));
  const base = advertised(baseline.id);
  const groups = new Map<string, ConfigurationEffect>();
  for (const configuration of others) {
    const here = advertised(configuration.id);
    const added = [...here].filter((n) => !base.has(n)).sort();
    const removed = [...base].filter((n) => !here.has(n)).sort();
    const key = JSON.stringify([added, removed]);
    const group = groups.get(key) ?? { added, removed, configurations: [] };
    group.configurations.push(configuration);
    groups.set(key, group);
  }
  return { baseline, effects: [...groups.values()] };
}
