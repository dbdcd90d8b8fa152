/**
 * Tool models that no generated tool file describes: tools known only from
 * runtime captures, the MCP family as a capture shows it, and tools that public
 * documentation names but no capture advertises. Also attaches captures to the
 * tools that do have a generated file.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { AGENTS, mcpNamingOf } from '../agents/index.ts';
import { declaredResult, primaryConfiguration, type CapturedEntry, type MatrixAgent } from '../model/captures.ts';
import type { Problems } from './problems.ts';
import { toolSlug } from './url-names.ts';
import type { EditorialTool, GeneratedTool } from '../core/content-types.ts';
import { definitionView, type DefinitionPlace } from './definition-view.ts';
import { diffRows } from '../shapes/field-rows.ts';
import type { ToolModel } from '../model/model.ts';
import { noToolFacts } from '../model/tool-facts.ts';
import type { CapturedTool } from '../wire/index.ts';
import { stubServerFamily } from '../model/tool-names.ts';

/** The capture file of a configuration, as error messages name it. */
export type CaptureFileOf = (config: string) => string;

/** Where a captured tool's definition sits: its capture file and the pointer the extractor recorded. */
export function capturePlace(
  fileOf: CaptureFileOf,
  entry: CapturedEntry,
  config: string,
  tool: CapturedTool,
): DefinitionPlace {
  return { file: fileOf(config), pointer: tool.pointer, tool: entry.fullName };
}

export function attachCapture(
  tool: ToolModel,
  entry: CapturedEntry,
  fileOf: CaptureFileOf,
  problems: Problems,
  ajv: Ajv2020,
): void {
  tool.captured = entry;
  const config = primaryConfiguration(entry);
  const captured = entry.byConfig.get(config)!;
  if (captured.input.kind !== 'json-schema') return;
  const view = definitionView(
    captured.input,
    'model-input',
    capturePlace(fileOf, entry, config, captured),
    problems,
    ajv,
  );
  // Only a TypeScript SDK type is compared with the model-facing schema; otherwise say nothing about differences.
  tool.modelInput =
    tool.input.definition.kind === 'typescript'
      ? { view, config, differences: diffRows(tool.input.rows, view.rows) }
      : { view, config };
}

/** Where a tool known from captures comes from: one capture file per configuration that shows it. */
function captureProvenance(
  matrixAgent: MatrixAgent,
  agent: string,
  configs: readonly string[],
): GeneratedTool['provenance'] {
  return configs.map((c) => ({
    package: matrixAgent.package,
    version: matrixAgent.version,
    file: `content/captures/${agent}/${c}.json`,
    method: 'runtime capture of the request the real CLI sends to a loopback stub of its model API',
    date: matrixAgent.checked,
  }));
}

/** A tool of the stub MCP server a capture configured, as its agent names such tools (src/lib/agents). */
export function isMcpInstance(entry: CapturedEntry): boolean {
  return stubServerFamily(entry.agent, entry.fullName) !== undefined;
}

export function mcpFamilyFromCapture(entry: CapturedEntry, matrixAgent: MatrixAgent): ToolModel {
  const naming = mcpNamingOf(entry.agent);
  if (naming === undefined)
    throw new Error(`${entry.agent} names no MCP family, yet ${entry.fullName} was taken for one`);
  const fullName = naming.family;
  const config = primaryConfiguration(entry);
  const reason = `Each MCP server defines its own tools and their input schemas; the CLI passes them on to the model${
    naming.namespace ? ` as function tools in a namespace named ${naming.namespace}` : ''
  }. The capture configured a stub server to show how such a tool is delivered: see "What the model is told".`;
  const generated: GeneratedTool = {
    agent: entry.agent,
    name: naming.namespace ? fullName.slice(naming.namespace.length + 1) : fullName,
    group: 'mcp',
    nameEvidence: `the capture with an MCP server configured shows the stub server's tool as ${entry.fullName}`,
    aliases: [],
    input: { kind: 'unavailable', reason },
    output: { kind: 'unavailable', reason: 'The result is whatever the MCP server returns for the call.' },
    provenance: captureProvenance(matrixAgent, entry.agent, [...entry.byConfig.keys()]),
  };
  if (naming.namespace) generated.namespace = naming.namespace;
  return {
    agent: entry.agent,
    source: 'capture',
    releases: {}, // set by the loader once every source is read
    facts: noToolFacts(), // set by the loader's last stage
    slug: toolSlug(fullName),
    fullName,
    generated,
    input: { definition: generated.input, rows: [] },
    output: { definition: generated.output, rows: [] },
    captured: entry,
    files: { generated: `content/captures/${entry.agent}/${config}.json` },
  };
}

/**
 * Why a captured definition is not the CLI's own but one our stub made up (the agent module recognises it), or
 * undefined.
 */
export function standInReason(entry: CapturedEntry): string | undefined {
  const standIn = AGENTS[entry.agent].standInDefinitions;
  if (!standIn) return undefined;
  const primary = entry.byConfig.get(primaryConfiguration(entry));
  return primary?.description?.startsWith(standIn.descriptionPrefix) ? standIn.reason : undefined;
}

function groupOf(entry: CapturedEntry): ToolModel['generated']['group'] {
  if (isMcpInstance(entry) || standInReason(entry) !== undefined) return 'mcp';
  for (const tool of entry.byConfig.values()) if (tool.delivery === 'hosted') return 'provider-hosted';
  return 'built-in';
}

export function synthesizeFromCapture(
  entry: CapturedEntry,
  matrixAgent: MatrixAgent,
  fileOf: CaptureFileOf,
  problems: Problems,
  ajv: Ajv2020,
): ToolModel {
  const config = primaryConfiguration(entry);
  const primary = entry.byConfig.get(config)!;
  const result = declaredResult(entry);
  const file = `content/captures/${entry.agent}/${config}.json`;
  const configs = [...entry.byConfig.keys()];
  const generated: GeneratedTool = {
    agent: entry.agent,
    name: entry.name,
    group: groupOf(entry),
    nameEvidence:
      `the ${matrixAgent.package} ${matrixAgent.version} CLI sends its model this name in ` +
      `${configs.length} of ${matrixAgent.configurations.length} captured configurations`,
    aliases: [],
    input: primary.input,
    output: result?.output ?? primary.output,
    provenance: captureProvenance(matrixAgent, entry.agent, configs),
  };
  if (entry.namespace) generated.namespace = entry.namespace;
  const slug = toolSlug(entry.fullName);
  const standIn = standInReason(entry);
  const tool: ToolModel = {
    agent: entry.agent,
    source: 'capture',
    releases: {}, // set by the loader once every source is read
    facts: noToolFacts(), // set by the loader's last stage
    slug,
    fullName: entry.fullName,
    generated,
    input: { definition: generated.input, rows: [] },
    output: { definition: generated.output, rows: [] },
    captured: entry,
    files: { generated: file },
  };
  if (standIn !== undefined) {
    // The stub's own schema and description must not read as the tool's: the definition is unknown.
    generated.input = { kind: 'unavailable', reason: standIn };
    generated.output = { kind: 'unavailable', reason: standIn };
    return {
      ...tool,
      input: { definition: generated.input, rows: [] },
      output: { definition: generated.output, rows: [] },
      standIn,
    };
  }
  tool.input = definitionView(primary.input, 'input', capturePlace(fileOf, entry, config, primary), problems, ajv);
  tool.output = result
    ? definitionView(
        result.output,
        'output',
        capturePlace(fileOf, entry, result.config, entry.byConfig.get(result.config)!),
        problems,
        ajv,
      )
    : definitionView(generated.output, 'output', { file, pointer: '' }, problems, ajv);
  return tool;
}

export function documentedOnlyTool(editorial: EditorialTool, file: string): ToolModel {
  const reason =
    `No captured configuration advertises this tool, so its definition could not be read from the ` +
    `CLI. ${editorial.documentedOnly!.evidence}`;
  const [namespace, name] = editorial.name.includes('.')
    ? (editorial.name.split(/\.(.*)/s) as [string, string])
    : [undefined, editorial.name];
  const generated: GeneratedTool = {
    agent: editorial.agent,
    name: name!,
    group: 'built-in',
    nameEvidence: editorial.documentedOnly!.evidence,
    aliases: [],
    input: { kind: 'unavailable', reason },
    output: { kind: 'unavailable', reason },
    provenance: [],
  };
  if (namespace) generated.namespace = namespace;
  return {
    agent: editorial.agent,
    source: 'documented',
    releases: {}, // set by the loader once every source is read
    facts: noToolFacts(), // set by the loader's last stage
    slug: toolSlug(editorial.name),
    fullName: editorial.name,
    generated,
    input: { definition: generated.input, rows: [] },
    output: { definition: generated.output, rows: [] },
    files: { generated: file },
  };
}
