/**
 * Runtime captures across the configuration matrix: which tools each
 * configuration advertises, and how (function, grammar, code mode, deferred…).
 */
import type { AgentId, Definition } from '../core/content-types.ts';
import type { AgentMatrix, MatrixConfiguration as GeneratedConfiguration } from '../generated/content-files.ts';
import { deferredNamespaceTool, type CapturedTool, type DeferredNamespace, type Delivery } from '../wire/index.ts';
import { mcpNamingOf } from '../agents/index.ts';

/** A configuration of content/capture-matrix.json (schemas/capture-matrix.schema.json). */
export type MatrixConfiguration = GeneratedConfiguration;

/** One agent's entry of the capture matrix. */
export type MatrixAgent = AgentMatrix;

/** content/capture-matrix.json: an entry per agent of the registry that has captures. */
export interface CaptureMatrix {
  agents: Partial<Record<AgentId, MatrixAgent>>;
}

/** One tool as seen across the configurations of one agent. */
export interface CapturedEntry {
  agent: AgentId;
  fullName: string;
  name: string;
  namespace?: string;
  /** Configuration id → the tool as that configuration advertises it. */
  byConfig: Map<string, CapturedTool>;
  /**
   * The configurations of `byConfig` that name only the tool's namespace (deferred to
   * tool_search): the tool is known there through another configuration that shows it.
   */
  viaNamespace?: Set<string>;
}

export const DELIVERY_LABELS: Record<Delivery, string> = {
  function: 'function (JSON Schema)',
  custom: 'freeform (grammar)',
  hosted: 'hosted by the provider',
  'client-builtin': 'built-in (typed)',
  'code-mode': 'nested in code mode (TypeScript)',
  deferred: 'deferred (name only)',
  'defer-loading': 'deferred (schema sent, loaded through tool search)',
};

/** Delivery kinds that give the model a full definition, best first. */
const INPUT_PREFERENCE: Delivery[] = [
  'function',
  'custom',
  'client-builtin',
  'code-mode',
  'defer-loading',
  'hosted',
  'deferred',
];

/**
 * Groups captured tools by name across configurations, in matrix order. A
 * configuration that names a namespace without its tools (`deferredNamespaces`)
 * counts as deferring every tool of that namespace that another configuration shows.
 */
export function indexCaptured(
  agent: AgentId,
  perConfig: { configuration: string; tools: CapturedTool[]; deferredNamespaces?: DeferredNamespace[] }[],
): Map<string, CapturedEntry> {
  const index = new Map<string, CapturedEntry>();
  const unnamespaced = mcpNamingOf(agent)?.unnamespaced;
  for (const { configuration, tools } of perConfig) {
    for (const tool of tools) {
      const single = unnamespaced?.(tool);
      const key = single ?? tool.fullName;
      let entry = index.get(key);
      if (!entry) {
        entry =
          single === undefined
            ? { agent, fullName: tool.fullName, name: tool.name, byConfig: new Map() }
            : { agent, fullName: single, name: single, byConfig: new Map() };
        if (tool.namespace && single === undefined) entry.namespace = tool.namespace;
        index.set(key, entry);
      }
      entry.byConfig.set(configuration, tool);
    }
  }
  for (const { configuration, deferredNamespaces = [] } of perConfig) {
    for (const entry of index.values()) {
      const deferred = deferredNamespaces.find((d) => d.name === entry.namespace);
      if (!deferred || entry.byConfig.has(configuration)) continue;
      const known = entry.byConfig.values().next().value!;
      entry.byConfig.set(configuration, deferredNamespaceTool(known, deferred));
      (entry.viaNamespace ??= new Set()).add(configuration);
    }
  }
  // Keep each entry's configurations in matrix order.
  const order = perConfig.map((p) => p.configuration);
  for (const entry of index.values()) {
    entry.byConfig = new Map([...entry.byConfig].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])));
  }
  return index;
}

/** The configuration whose definition a page shows first: the most complete delivery, earliest in the matrix. */
export function primaryConfiguration(entry: CapturedEntry): string {
  for (const delivery of INPUT_PREFERENCE) {
    for (const [config, tool] of entry.byConfig) if (tool.delivery === delivery) return config;
  }
  return entry.byConfig.keys().next().value!;
}

/** A result definition from any configuration that declares one (code mode does). */
export function declaredResult(entry: CapturedEntry): { config: string; output: Definition } | undefined {
  for (const [config, tool] of entry.byConfig)
    if (tool.output.kind !== 'unavailable') return { config, output: tool.output };
  return undefined;
}

/**
 * Groups configurations that send the same definition (same description and
 * same input, wherever it was recorded).
 */
export function distinctInputs(entry: CapturedEntry): { configs: string[]; tool: CapturedTool }[] {
  const groups: { key: string; configs: string[]; tool: CapturedTool }[] = [];
  for (const [config, tool] of entry.byConfig) {
    if (tool.input.kind === 'unavailable') continue;
    const { origin: _recordedIn, ...input } = tool.input;
    const key = JSON.stringify({ d: tool.description, i: input });
    const group = groups.find((g) => g.key === key);
    if (group) group.configs.push(config);
    else groups.push({ key, configs: [config], tool });
  }
  return groups.map(({ configs, tool }) => ({ configs, tool }));
}
