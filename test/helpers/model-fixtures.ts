/**
 * Small site models built by hand, for tests of the modules that turn the
 * site model into what a page shows: only the fields those modules read are
 * filled in, with values a test can predict without running them.
 */
import type { MatrixAgent, MatrixConfiguration } from '../../src/lib/model/captures.ts';
import type {
  AgentId,
  AgentRecord,
  AliasRecord,
  Definition,
  EditorialTool,
  ToolGroup,
} from '../../src/lib/core/content-types.ts';
import type { FieldRow } from '../../src/lib/shapes/field-rows.ts';
import type { DefinitionView, SiteModel, ToolModel } from '../../src/lib/model/model.ts';
import { noToolFacts } from '../../src/lib/model/tool-facts.ts';
import type { CapturedTool, Delivery } from '../../src/lib/wire/index.ts';

export function definition(kind: Definition['kind']): Definition {
  const origin = { package: 'p', version: '1', file: 'f' };
  switch (kind) {
    case 'typescript':
      return { kind, typeName: 'T', source: 'type T = {}', origin };
    case 'json-schema':
      return { kind, schema: {}, origin };
    case 'grammar':
      return { kind, syntax: 'lark', definition: 'start: x', origin };
    case 'unavailable':
      return { kind, reason: 'none' };
  }
}

/** A field row with the given anchor (`input.command`, `output.stdout`). */
export function row(id: string, options: { type?: string; required?: boolean } = {}): FieldRow {
  const path = id.slice(id.indexOf('.') + 1);
  return {
    id,
    path,
    fieldKey: path,
    name: path,
    label: path,
    depth: 0,
    role: 'property',
    type: options.type ?? 'string',
    required: options.required ?? false,
    constraints: [],
    segments: [],
  } as unknown as FieldRow;
}

export function view(kind: Definition['kind'], rows: FieldRow[] = [], code?: DefinitionView['code']): DefinitionView {
  return { definition: definition(kind), rows, ...(code ? { code } : {}) };
}

export interface ToolOptions {
  agent?: AgentId;
  slug?: string;
  group?: ToolGroup;
  source?: ToolModel['source'];
  input?: DefinitionView;
  output?: DefinitionView;
  aliases?: AliasRecord[];
  /** Editorial notes; `jobs` alone makes a minimal editorial file. */
  editorial?: Partial<EditorialTool>;
  /** Configuration id → how it advertises the tool. */
  captured?: Record<string, Delivery | Partial<CapturedTool>>;
  modelInput?: ToolModel['modelInput'];
}

export function tool(agent: AgentId, fullName: string, options: ToolOptions = {}): ToolModel {
  const slug = options.slug ?? fullName.toLowerCase();
  const model: ToolModel = {
    agent,
    slug,
    source: options.source ?? 'capture',
    fullName,
    generated: {
      agent,
      name: fullName,
      group: options.group ?? 'built-in',
      nameEvidence: 'fixture',
      aliases: options.aliases ?? [],
      input: definition('json-schema'),
      output: definition('unavailable'),
      provenance: [],
    },
    input: options.input ?? view('json-schema'),
    output: options.output ?? view('unavailable'),
    releases: {},
    facts: noToolFacts(),
    files: { generated: `content/tools/${agent}/${slug}.json` },
  };
  if (options.editorial) {
    model.editorial = {
      agent,
      name: fullName,
      summary: `${fullName} summary`,
      availability: { prose: '', gates: [] },
      lifecycle: '',
      failures: [],
      jobs: [],
      ...options.editorial,
    };
  }
  if (options.captured) {
    const byConfig = new Map<string, CapturedTool>();
    for (const [config, seen] of Object.entries(options.captured)) {
      const fields = typeof seen === 'string' ? { delivery: seen } : seen;
      byConfig.set(config, {
        name: fullName,
        fullName,
        delivery: 'function',
        input: definition('json-schema'),
        output: definition('unavailable'),
        ...fields,
      } as CapturedTool);
    }
    model.captured = { agent, fullName, name: fullName, byConfig };
  }
  if (options.modelInput) model.modelInput = options.modelInput;
  return model;
}

export function agent(id: AgentId, options: Partial<AgentRecord> = {}): AgentRecord {
  return { id, product: `Product ${id}`, version: '1.2.3', checked: '2026-01-02', sources: [], ...options };
}

export function configuration(id: string, options: Partial<MatrixConfiguration> = {}): MatrixConfiguration {
  return {
    id,
    label: id.toUpperCase(),
    description: `${id} configuration`,
    mode: 'print',
    args: [],
    env: {},
    ...options,
  } as MatrixConfiguration;
}

export function matrix(configurations: MatrixConfiguration[]): MatrixAgent {
  return { package: 'pkg', version: '9.9.9', checked: '2026-01-02', configurations } as MatrixAgent;
}

export function site(parts: Partial<SiteModel> & Pick<SiteModel, 'agents' | 'tools'>): SiteModel {
  return {
    jobs: [],
    comparisons: [],
    histories: [],
    removedTools: [],
    inventory: [],
    releases: {},
    archived: [],
    hooks: [],
    hookEvents: [],
    hookBehaviour: [],
    hookBehaviourHistories: [],
    hookOutputs: [],
    subagents: [],
    permissions: [],
    mcpNaming: [],
    notDocumented: [],
    ...parts,
  };
}
