/**
 * Stage: runtime captures. Each configuration of the matrix has a capture; its
 * tools are attached to the tools above, and every tool only a capture shows
 * gets its own page. Every configuration's JSON Schema is compiled, not only
 * the one a page shows.
 */
import type { Stage } from '../context.ts';
import { AGENTS, capturedNamespaces, capturedTools, unannouncedTexts } from '../../agents/index.ts';
import {
  distinctInputs,
  indexCaptured,
  primaryConfiguration,
  type CapturedEntry,
  type CaptureMatrix,
  type MatrixAgent,
} from '../../model/captures.ts';
import type { AgentId } from '../../core/content-types.ts';
import { definitionView } from '../definition-view.ts';
import {
  CaptureFormatError,
  captureWireFormat,
  type CaptureFile,
  type CapturedTool,
  type DeferredNamespace,
} from '../../wire/index.ts';
import type { DefinitionView, ToolModel } from '../../model/model.ts';
import {
  attachCapture,
  capturePlace,
  isMcpInstance,
  mcpFamilyFromCapture,
  synthesizeFromCapture,
} from '../tool-synthesis.ts';
import { checkName } from '../names.ts';
import { answersTo } from '../../model/tool-names.ts';

/**
 * What each captured request was sent as (`<agent>/<configuration>` → its model and wire format, and the package the
 * release was installed from): facts the availability gates are checked against.
 */
export type CapturedRequests = Map<string, { model?: string; wire: string; package: string }>;

/**
 * The tools of an agent's captures, by name across its configurations: each joins the tool it
 * is (by name or alias), or the MCP family (a tool of the stub MCP server), or gets a page of
 * its own. Every distinct definition is compiled, shown or not.
 */
function placeCaptured(
  stage: Stage,
  agentId: AgentId,
  agentMatrix: MatrixAgent,
  perConfig: Parameters<typeof indexCaptured>[1],
  tools: ToolModel[],
): void {
  const { reader, problems } = stage;
  const fileOf = (config: string): string => reader.relContent(`captures/${agentId}/${config}.json`);
  for (const entry of indexCaptured(agentId, perConfig).values()) {
    // Every distinct definition has to be valid, shown or not: compile each one.
    const views = distinctInputs(entry).map(({ configs, tool }) => ({
      configs,
      tool,
      view:
        tool.input.kind === 'json-schema'
          ? definitionView(
              tool.input,
              'input',
              capturePlace(fileOf, entry, configs[0]!, tool),
              problems,
              stage.definitionAjv,
            )
          : undefined,
    }));
    const existing = tools.find((t) => t.agent === agentId && answersTo(t, entry.fullName));
    if (existing) {
      attachCapture(existing, entry, fileOf, problems, stage.definitionAjv);
      setOtherInputs(existing, entry, views);
      continue;
    }
    if (isMcpInstance(entry)) {
      // A tool of the stub MCP server the capture configured: it illustrates
      // the MCP family, it is not a tool of the CLI itself.
      // Each configuration that shows any of its tools counts for the family (Copilot CLI names
      // them differently once deferred: `capture-echo`, then `capture.capture-tool_01` …).
      const family = tools.find((t) => t.agent === agentId && t.generated.group === 'mcp');
      if (!family) tools.push(mcpFamilyFromCapture(entry, agentMatrix));
      else if (!family.captured) family.captured = entry;
      else
        for (const [config, tool] of entry.byConfig)
          if (!family.captured.byConfig.has(config)) family.captured.byConfig.set(config, tool);
      continue;
    }
    const tool = synthesizeFromCapture(entry, agentMatrix, fileOf, problems, stage.definitionAjv);
    if (!tool.standIn) setOtherInputs(tool, entry, views);
    const [config, first] = entry.byConfig.entries().next().value!;
    stage.namePlace.set(tool, { file: fileOf(config), pointer: first.namePointer });
    tools.push(tool);
  }
}

/** One configuration's captured tools and deferred namespaces, as placeCaptured takes them. */
type ConfigurationTools = { configuration: string; tools: CapturedTool[]; deferredNamespaces: DeferredNamespace[] };

export function attachCaptures(stage: Stage, tools: ToolModel[], matrix: CaptureMatrix | undefined): CapturedRequests {
  const requests: CapturedRequests = new Map();
  for (const [agentId, agentMatrix] of Object.entries(matrix?.agents ?? {}) as [AgentId, MatrixAgent][]) {
    const perConfig: ConfigurationTools[] = [];
    // Capture files of the agent no configuration claims: what is left once each has taken its own.
    const present = new Set(stage.files.captures.get(agentId) ?? []);
    const configIds = new Set<string>();
    agentMatrix.configurations.forEach((config, i) => {
      if (configIds.has(config.id)) return; // a duplicate id: reported by the agents stage
      configIds.add(config.id);
      const capture = readConfigurationCapture(stage, agentId, config.id, i, present);
      if (!capture) return;
      const file = stage.reader.relContent(`captures/${agentId}/${config.id}.json`);
      checkCaptureMatchesMatrix(stage, file, { agentId, agentMatrix, configId: config.id }, capture);
      checkKeptTexts(stage, file, agentId, capture);
      const read = readCapturedTools(stage, file, config.id, capture);
      if (!read) return;
      perConfig.push(read.tools);
      requests.set(`${agentId}/${config.id}`, read.request);
    });
    for (const path of present)
      stage.problems.warn(
        stage.reader.relContent(path),
        'ignored: no configuration of content/capture-matrix.json has this id',
      );

    placeCaptured(stage, agentId, agentMatrix, perConfig, tools);
  }
  return requests;
}

/**
 * A configuration's capture, taken out of the agent's unclaimed files (`present`); undefined when it is missing
 * (reported against the matrix) or cannot be read (reported by the reader).
 */
function readConfigurationCapture(
  stage: Stage,
  agentId: AgentId,
  configId: string,
  i: number,
  present: Set<string>,
): CaptureFile | undefined {
  const path = `captures/${agentId}/${configId}.json`;
  if (!present.has(path)) {
    stage.problems.error(
      stage.reader.relContent('capture-matrix.json'),
      `/agents/${agentId}/configurations/${i}/id`,
      'capture-present',
      `configuration ${configId} has no capture at ${stage.reader.relContent(path)}; run npm run capture`,
    );
    return undefined;
  }
  present.delete(path);
  return stage.reader.read<CaptureFile>(path, 'capture');
}

/**
 * A capture is of the configuration and the pinned release it is filed under, from one of the agent's packages; the
 * pin names the package that holds its release (rules `capture-matches-matrix`, `matrix-holder`).
 */
function checkCaptureMatchesMatrix(
  stage: Stage,
  file: string,
  filed: { agentId: AgentId; agentMatrix: MatrixAgent; configId: string },
  capture: CaptureFile,
): void {
  const { problems } = stage;
  const { agentId, agentMatrix, configId } = filed;
  if (capture.configuration !== configId || capture.agent !== agentId) {
    problems.error(
      file,
      '/configuration',
      'capture-matches-matrix',
      `capture of ${capture.agent}/${capture.configuration} is filed as ${agentId}/${configId}`,
    );
  }
  if (capture.cli.version !== agentMatrix.version) {
    problems.error(
      file,
      '/cli/version',
      'capture-matches-matrix',
      `captured ${capture.cli.version}, the matrix pins ${agentMatrix.version}`,
    );
  }
  // The release comes from the matrix's package, or from a standalone package of the agent that has it where that
  // one does not.
  const packages = [agentMatrix.package, ...(AGENTS[agentId]?.standalonePackages ?? [])];
  if (!packages.includes(capture.cli.package)) {
    problems.error(
      file,
      '/cli/package',
      'capture-matches-matrix',
      `captured from ${capture.cli.package}, which is none of the agent's packages (${packages.join(', ')})`,
    );
  } else if (capture.cli.package !== (agentMatrix.holder ?? agentMatrix.package)) {
    // The pin names the package that holds its release, as the capture found it.
    problems.error(
      stage.reader.relContent('capture-matrix.json'),
      `/agents/${agentId}/${agentMatrix.holder ? 'holder' : 'version'}`,
      'matrix-holder',
      `${agentMatrix.package}@${agentMatrix.version} was captured from ${capture.cli.package}; the pin must name ` +
        `it as its holder ("holder": "${capture.cli.package}")`,
    );
  }
}

/**
 * The tools and namespaces a capture sends, and what its request was sent as; undefined when its wire format cannot
 * be read (rule `capture-readable`).
 */
function readCapturedTools(
  stage: Stage,
  file: string,
  configuration: string,
  capture: CaptureFile,
): { tools: ConfigurationTools; request: ReturnType<typeof requestFacts> } | undefined {
  const { problems } = stage;
  try {
    // A name that is not plain printable text is reported once, where the capture gives it, and goes no further.
    const captured = capturedTools(capture).filter((tool) =>
      checkName(problems, { file, pointer: tool.namePointer }, 'tool name', tool.fullName),
    );
    const namespaces = capturedNamespaces(capture).filter((ns) =>
      checkName(problems, { file, pointer: ns.pointer }, 'namespace', ns.name),
    );
    return {
      tools: { configuration, tools: captured, deferredNamespaces: namespaces },
      request: requestFacts(capture),
    };
  } catch (error) {
    if (!(error instanceof CaptureFormatError)) throw error;
    problems.error(
      file,
      error.pointer,
      'capture-readable',
      `${error.tool ? `tool ${error.tool}: ` : ''}${error.message}`,
    );
    return undefined;
  }
}

/**
 * A capture keeps of the conversation only the announcements its agent's module marks (unannouncedTexts): anything else
 * is refused where it is.
 */
function checkKeptTexts(stage: Stage, file: string, agentId: AgentId, capture: CaptureFile): void {
  for (const { at } of unannouncedTexts(capture)) {
    stage.problems.error(
      file,
      at,
      'capture-kept-text',
      `a kept message text must be a whole passage that ${agentId}'s module marks as announcing deferred tools or ` +
        `namespaces (its wireQuirks); this one is not`,
    );
  }
}

/**
 * The JSON Schemas some configurations send that differ from the one the page shows first (the
 * primary configuration's), descriptions aside: each gets its own table on the page.
 */
function setOtherInputs(
  tool: ToolModel,
  entry: CapturedEntry,
  views: { configs: string[]; tool: CapturedTool; view: DefinitionView | undefined }[],
): void {
  const primary = entry.byConfig.get(primaryConfiguration(entry));
  if (!primary) return;
  // Where a definition was recorded is not part of it (JSON.stringify leaves the undefined member out).
  const key = (t: CapturedTool) => JSON.stringify({ ...t.input, origin: undefined });
  const others = views.filter(({ tool: t, view }) => view !== undefined && !view.broken && key(t) !== key(primary));
  if (others.length > 0) tool.otherInputs = others.map(({ configs, view }) => ({ configs, view: view! }));
}

/**
 * The model a captured request asks for, as its wire format reads it (the body's `model`, or the model its path names),
 * and its wire format.
 */
function requestFacts(capture: CaptureFile): { model?: string; wire: string; package: string } {
  const format = captureWireFormat(capture);
  const model = format.requestModel({ url: capture.request.path, json: capture.body });
  const wire = format.id;
  return model === undefined ? { wire, package: capture.cli.package } : { model, wire, package: capture.cli.package };
}
