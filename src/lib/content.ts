/**
 * Loads every content file, validates it against schemas/, checks the rules
 * that span files, and builds the model the pages render.
 *
 * Any problem becomes a ContentError naming the file, the JSON pointer and the
 * rule; loadContent collects all of them and throws one ContentErrors, so the
 * build stops before a single page is written.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { toolSlug } from './anchors.ts';
import { duplicateIds, type FieldDifference } from './field-rows.ts';
import { indexCaptured, type CaptureMatrix, type CapturedEntry, type MatrixAgent } from './captures.ts';
import { ContentError, ContentErrors } from './content-errors.ts';
import { definitionView, type DefinitionView } from './definition-view.ts';
import { deferredNamespaces, extractCapturedTools, type CaptureFile } from './ingest/captured-tools.ts';
import { attachCapture, documentedOnlyTool, isMcpInstance, mcpFamilyFromCapture, synthesizeFromCapture } from './tool-synthesis.ts';
import { AGENT_PRODUCTS, type AgentId, type AgentRecord, type EditorialTool, type GeneratedTool, type Job, type JobsFile } from './content-types.ts';

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export interface ToolModel {
  agent: AgentId;
  slug: string;
  /** Where the tool's page comes from: published SDK types, runtime captures only, or documentation only. */
  source: 'sdk' | 'capture' | 'documented';
  /** Callable name, with namespace: `multi_agent_v1.spawn_agent`. */
  fullName: string;
  generated: GeneratedTool;
  editorial?: EditorialTool;
  input: DefinitionView;
  output: DefinitionView;
  /** How each captured configuration advertises the tool (absent when never captured). */
  captured?: CapturedEntry;
  /** For SDK-typed tools: the JSON Schema the model is sent, and how it differs from the SDK type. */
  modelInput?: { view: DefinitionView; config: string; differences: FieldDifference[] };
  files: { generated: string; editorial?: string };
}

export interface SiteModel {
  agents: AgentRecord[];
  tools: ToolModel[];
  jobs: Job[];
  /** The declared capture matrix, when content/capture-matrix.json exists. */
  matrix?: CaptureMatrix;
}

const SCHEMA_FILES = {
  tool: 'tool.schema.json',
  editorial: 'editorial-tool.schema.json',
  agent: 'agent.schema.json',
  jobs: 'jobs.schema.json',
  matrix: 'capture-matrix.schema.json',
  capture: 'capture.schema.json',
} as const;

type SchemaName = keyof typeof SCHEMA_FILES;

/** The most useful Ajv errors: for oneOf, only the branch the data claims to be (by `kind`). */
function pickErrors(errors: ErrorObject[]): ErrorObject[] {
  const branchErrors = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if');
  const specific = branchErrors.filter((e) => {
    const m = /^(.*)\/oneOf\/(\d+)\//.exec(e.schemaPath);
    if (!m) return true;
    // Keep errors of the branch whose `kind` const matches the data's kind.
    const kindError = errors.find((x) => x.schemaPath === `${m[1]}/oneOf/${m[2]}/properties/kind/const` && x.instancePath.startsWith(e.instancePath));
    return !kindError;
  });
  const chosen = specific.length > 0 ? specific : errors;
  const seen = new Set<string>();
  return chosen.filter((e) => {
    const key = `${e.instancePath} ${e.keyword} ${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface LoadOptions {
  /** Folder holding content/ and schemas/ (the project root). */
  root: string;
  /** Override of the content folder (tests point this at fixtures). */
  contentDir?: string;
}

export function loadContent(options: LoadOptions): SiteModel {
  const contentDir = options.contentDir ?? join(options.root, 'content');
  const errors: ContentError[] = [];
  const rel = (path: string): string => relative(options.root, path) || path;

  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validators = new Map<SchemaName, ValidateFunction>();
  for (const [name, file] of Object.entries(SCHEMA_FILES) as [SchemaName, string][]) {
    const path = join(options.root, 'schemas', file);
    if (existsSync(path)) validators.set(name, ajv.compile(JSON.parse(readFileSync(path, 'utf8'))));
  }
  // Definitions come from upstream: compile them with a separate, lenient instance
  // (unknown keywords allowed) that still rejects schemas that are not valid JSON Schema.
  const definitionAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  addFormats(definitionAjv);

  function readJson<T>(path: string, schema: SchemaName): T | undefined {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      errors.push(new ContentError(rel(path), '', 'json-parse', `not valid JSON: ${(error as Error).message}`));
      return undefined;
    }
    const validate = validators.get(schema);
    if (!validate) {
      errors.push(new ContentError(rel(path), '', 'schema-present', `schemas/${SCHEMA_FILES[schema]} is missing`));
      return undefined;
    }
    if (!validate(data)) {
      for (const e of pickErrors(validate.errors ?? [])) {
        const detail = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})` : '';
        errors.push(new ContentError(rel(path), e.instancePath, `${SCHEMA_FILES[schema]}#${e.schemaPath.slice(1)}`, `${e.message ?? 'is invalid'}${detail}`));
      }
      return undefined;
    }
    return data as T;
  }

  const listJson = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort() : [];

  // Jobs
  const jobsPath = join(contentDir, 'jobs.json');
  const jobsFile = existsSync(jobsPath) ? readJson<JobsFile>(jobsPath, 'jobs') : undefined;
  if (!existsSync(jobsPath)) errors.push(new ContentError(rel(jobsPath), '', 'file-required', 'the job index is missing'));
  const jobs = jobsFile?.jobs ?? [];
  const jobIds = new Set<string>();
  jobs.forEach((job, i) => {
    if (jobIds.has(job.id)) errors.push(new ContentError(rel(jobsPath), `/jobs/${i}/id`, 'unique-job-id', `job id ${job.id} is used twice`));
    jobIds.add(job.id);
  });

  // Agents
  const agents: AgentRecord[] = [];
  for (const file of listJson(join(contentDir, 'agents'))) {
    const path = join(contentDir, 'agents', file);
    const agent = readJson<AgentRecord>(path, 'agent');
    if (!agent) continue;
    if (`${agent.id}.json` !== file) errors.push(new ContentError(rel(path), '/id', 'file-name-matches-id', `id ${agent.id} does not match the file name ${file}`));
    agents.push(agent);
  }
  // The capture matrix: captures are a source of every agent they cover, and an
  // agent known only from captures gets its record from the matrix.
  const matrixPath = join(contentDir, 'capture-matrix.json');
  const matrix = existsSync(matrixPath) ? readJson<CaptureMatrix>(matrixPath, 'matrix') : undefined;
  for (const [id, m] of Object.entries(matrix?.agents ?? {}) as [AgentId, MatrixAgent][]) {
    const source = {
      package: m.package,
      version: m.version,
      files: [`content/captures/${id}/ (${m.configurations.length} configurations)`],
      role: 'Runtime captures: the tools the real CLI sends its model in each configuration of the capture matrix',
    };
    const record = agents.find((a) => a.id === id);
    if (record) record.sources.push(source);
    else agents.push({ id, product: AGENT_PRODUCTS[id], version: m.version, checked: m.checked, sources: [source] });
  }
  const agentIds = new Set(agents.map((a) => a.id));

  // Tools and their editorial notes
  const tools: ToolModel[] = [];
  const toolsDir = join(contentDir, 'tools');
  const editorialDir = join(contentDir, 'editorial');
  const agentDirs = existsSync(toolsDir) ? readdirSync(toolsDir).filter((d) => !d.startsWith('.')).sort() : [];
  const unreadableTools = new Set<string>(); // `agent/slug` of tool files that failed validation
  for (const agentDir of agentDirs) {
    const names = new Map<string, string>(); // lower-cased name or alias → file that claims it
    for (const file of listJson(join(toolsDir, agentDir))) {
      const path = join(toolsDir, agentDir, file);
      const generated = readJson<GeneratedTool>(path, 'tool');
      if (!generated) {
        unreadableTools.add(`${agentDir}/${file.replace(/\.json$/, '')}`);
        continue;
      }
      const fullName = generated.namespace ? `${generated.namespace}.${generated.name}` : generated.name;
      if (generated.agent !== agentDir) errors.push(new ContentError(rel(path), '/agent', 'agent-matches-folder', `agent ${generated.agent} is filed under ${agentDir}/`));
      if (!agentIds.has(generated.agent)) errors.push(new ContentError(rel(path), '/agent', 'known-agent', `no content/agents/${generated.agent}.json describes this agent`));
      const slug = toolSlug(fullName);
      if (`${slug}.json` !== file) errors.push(new ContentError(rel(path), '/name', 'file-name-matches-slug', `tool ${fullName} belongs in ${slug}.json`));
      const claims: [string, string][] = [[fullName, '/name'], ...generated.aliases.map((a, i): [string, string] => [a.name, `/aliases/${i}/name`])];
      for (const [claimed, pointer] of claims) {
        const key = claimed.toLowerCase();
        const other = names.get(key);
        if (other && other !== rel(path)) {
          errors.push(new ContentError(rel(path), pointer, 'unique-tool-name', `${claimed} is already the name or alias of the tool in ${other}`));
        } else names.set(key, rel(path));
      }
      const input = definitionView(generated.input, 'input', rel(path), '/input', errors, definitionAjv);
      const output = definitionView(generated.output, 'output', rel(path), '/output', errors, definitionAjv);
      const collisions = duplicateIds([...input.rows, ...output.rows]);
      if (collisions.length > 0) {
        errors.push(new ContentError(rel(path), '', 'unique-field-anchor', `field anchors collide on the page: ${collisions.join(', ')}`));
      }
      tools.push({ agent: generated.agent, source: 'sdk', slug, fullName, generated, input, output, files: { generated: rel(path) } });
    }
  }

  // Runtime captures: attach them to the tools above, and give every tool that
  // only a capture shows its own page.
  for (const [agentId, agentMatrix] of Object.entries(matrix?.agents ?? {}) as [AgentId, MatrixAgent][]) {
    const perConfig: { configuration: string; tools: ReturnType<typeof extractCapturedTools>; deferredNamespaces: string[] }[] = [];
    for (const config of agentMatrix.configurations) {
      const path = join(contentDir, 'captures', agentId, `${config.id}.json`);
      if (!existsSync(path)) {
        errors.push(new ContentError(rel(matrixPath), `/agents/${agentId}/configurations`, 'capture-present', `configuration ${config.id} has no capture at ${rel(path)}; run npm run capture`));
        continue;
      }
      const capture = readJson<CaptureFile>(path, 'capture');
      if (!capture) continue;
      if (capture.configuration !== config.id || capture.agent !== agentId) {
        errors.push(new ContentError(rel(path), '/configuration', 'capture-matches-matrix', `capture of ${capture.agent}/${capture.configuration} is filed as ${agentId}/${config.id}`));
      }
      if (capture.cli.version !== agentMatrix.version) {
        errors.push(new ContentError(rel(path), '/cli/version', 'capture-matches-matrix', `captured ${capture.cli.version}, the matrix pins ${agentMatrix.version}`));
      }
      try {
        perConfig.push({ configuration: config.id, tools: extractCapturedTools(capture), deferredNamespaces: deferredNamespaces(capture) });
      } catch (error) {
        errors.push(new ContentError(rel(path), '/body', 'capture-readable', (error as Error).message));
      }
    }
    const index = indexCaptured(agentId, perConfig);
    for (const entry of index.values()) {
      const existing = tools.find((t) => t.agent === agentId && (t.fullName === entry.fullName || t.generated.aliases.some((a) => a.kind !== 'sdk-type' && a.name === entry.fullName)));
      if (existing) {
        attachCapture(existing, entry, errors, definitionAjv);
        continue;
      }
      if (isMcpInstance(entry)) {
        // A tool of the stub MCP server the capture configured: it illustrates
        // the MCP family, it is not a tool of the CLI itself.
        const family = tools.find((t) => t.agent === agentId && t.generated.group === 'mcp');
        if (family) family.captured ??= entry;
        else tools.push(mcpFamilyFromCapture(entry, agentMatrix));
        continue;
      }
      const tool = synthesizeFromCapture(entry, agentMatrix, errors, definitionAjv);
      if (tools.some((t) => t.agent === agentId && t.slug === tool.slug)) {
        errors.push(new ContentError(tool.files.generated, '/body', 'unique-tool-name', `captured tool ${entry.fullName} has the same URL as another tool (${tool.slug})`));
        continue;
      }
      tools.push(tool);
    }
  }

  const bySlug = new Map(tools.map((t) => [`${t.agent}/${t.slug}`, t]));
  const editorialAgents = existsSync(editorialDir) ? readdirSync(editorialDir).filter((d) => !d.startsWith('.')).sort() : [];
  for (const agentDir of editorialAgents) {
    for (const file of listJson(join(editorialDir, agentDir))) {
      const path = join(editorialDir, agentDir, file);
      const editorial = readJson<EditorialTool>(path, 'editorial');
      if (!editorial) continue;
      const key = `${agentDir}/${file.replace(/\.json$/, '')}`;
      let tool = bySlug.get(key);
      if (!tool && unreadableTools.has(key)) continue; // its tool file is already reported
      if (!tool && editorial.documentedOnly) {
        tool = documentedOnlyTool(editorial, rel(path));
        if (`${tool.agent}/${tool.slug}` !== key) {
          errors.push(new ContentError(rel(path), '/name', 'file-name-matches-slug', `notes on ${editorial.name} belong in ${tool.slug}.json`));
          continue;
        }
        tools.push(tool);
      } else if (tool && editorial.documentedOnly) {
        errors.push(new ContentError(rel(path), '/documentedOnly', 'documented-only-is-unadvertised', `${editorial.name} is advertised or typed after all: remove documentedOnly`));
      }
      if (!tool) {
        errors.push(new ContentError(rel(path), '', 'editorial-has-tool', `no generated tool content/tools/${agentDir}/${file} for these notes`));
        continue;
      }
      if (editorial.agent !== tool.agent || editorial.name !== tool.fullName) {
        errors.push(new ContentError(rel(path), '/name', 'editorial-names-its-tool', `notes name ${editorial.agent}/${editorial.name}, the file belongs to ${tool.agent}/${tool.fullName}`));
      }
      editorial.jobs.forEach((job, i) => {
        if (!jobIds.has(job)) errors.push(new ContentError(rel(path), `/jobs/${i}`, 'known-job', `unknown job id ${job} (content/jobs.json has no such job)`));
      });
      tool.editorial = editorial;
      tool.files.editorial = rel(path);
    }
  }

  if (errors.length > 0) throw new ContentErrors(errors);
  tools.sort((a, b) => (a.agent === b.agent ? a.fullName.localeCompare(b.fullName) : a.agent.localeCompare(b.agent)));
  return matrix ? { agents, tools, jobs, matrix } : { agents, tools, jobs };
}

export { ContentError, ContentErrors, type DefinitionView };
