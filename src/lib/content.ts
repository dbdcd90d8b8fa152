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
import { duplicateIds, fieldRows, type FieldRow } from './field-rows.ts';
import { shapeFromJsonSchema } from './json-schema-shape.ts';
import { shapeFromTypeScript } from './ts-shape.ts';
import type { AgentId, AgentRecord, Definition, EditorialTool, GeneratedTool, Job, JobsFile } from './content-types.ts';

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export class ContentError extends Error {
  readonly file: string;
  readonly pointer: string;
  readonly rule: string;
  constructor(file: string, pointer: string, rule: string, message: string) {
    super(`${file}: ${pointer === '' ? '/' : pointer}: ${message} [rule: ${rule}]`);
    this.file = file;
    this.pointer = pointer;
    this.rule = rule;
  }
}

export class ContentErrors extends Error {
  // Not named `errors`: tools that treat such an object as an AggregateError would print only the first.
  readonly problems: ContentError[];
  constructor(errors: ContentError[]) {
    super(`Invalid content (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n` + errors.map((e) => `  - ${e.message}`).join('\n'));
    this.problems = errors;
  }
}

export interface DefinitionView {
  definition: Definition;
  rows: FieldRow[];
  /** The definition as text for the highlighted block, with its language. */
  code?: { lang: string; text: string };
}

export interface ToolModel {
  agent: AgentId;
  slug: string;
  /** Callable name, with namespace: `multi_agent_v1.spawn_agent`. */
  fullName: string;
  generated: GeneratedTool;
  editorial?: EditorialTool;
  input: DefinitionView;
  output: DefinitionView;
  files: { generated: string; editorial?: string };
}

export interface SiteModel {
  agents: AgentRecord[];
  tools: ToolModel[];
  jobs: Job[];
}

const SCHEMA_FILES = {
  tool: 'tool.schema.json',
  editorial: 'editorial-tool.schema.json',
  agent: 'agent.schema.json',
  jobs: 'jobs.schema.json',
} as const;

type SchemaName = keyof typeof SCHEMA_FILES;

/** The most useful Ajv errors: for oneOf, only the branch the data claims to be (by `kind`). */
function pickErrors(errors: ErrorObject[], data: unknown): ErrorObject[] {
  const branchErrors = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if');
  const specific = branchErrors.filter((e) => {
    const m = /^(.*)\/oneOf\/(\d+)\//.exec(e.schemaPath);
    if (!m) return true;
    // Keep errors of the branch whose `kind` const matches the data's kind.
    let node: unknown = data;
    for (const part of e.instancePath.split('/').slice(1)) node = (node as Record<string, unknown>)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
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
    validators.set(name, ajv.compile(JSON.parse(readFileSync(join(options.root, 'schemas', file), 'utf8'))));
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
    const validate = validators.get(schema)!;
    if (!validate(data)) {
      for (const e of pickErrors(validate.errors ?? [], data)) {
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
      tools.push({ agent: generated.agent, slug, fullName, generated, input, output, files: { generated: rel(path) } });
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
      const tool = bySlug.get(key);
      if (!tool && unreadableTools.has(key)) continue; // its tool file is already reported
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
  return { agents, tools, jobs };
}

function definitionView(
  definition: Definition,
  root: 'input' | 'output',
  file: string,
  pointer: string,
  errors: ContentError[],
  ajv: Ajv2020,
): DefinitionView {
  try {
    switch (definition.kind) {
      case 'typescript':
        return {
          definition,
          rows: fieldRows(shapeFromTypeScript(definition.source, definition.typeName, `${file}#${pointer}/source`), { root }),
          code: { lang: 'ts', text: definition.source },
        };
      case 'json-schema': {
        try {
          ajv.compile(definition.schema);
        } catch (error) {
          errors.push(new ContentError(file, `${pointer}/schema`, 'definition-compiles', `Ajv cannot compile this JSON Schema: ${(error as Error).message}`));
          return { definition, rows: [] };
        }
        return {
          definition,
          rows: fieldRows(shapeFromJsonSchema(definition.schema), { root }),
          code: { lang: 'json', text: JSON.stringify(definition.schema, null, 2) },
        };
      }
      case 'grammar':
        return { definition, rows: [], code: { lang: 'text', text: definition.definition } };
      case 'unavailable':
        return { definition, rows: [] };
    }
  } catch (error) {
    errors.push(new ContentError(file, pointer, 'definition-readable', (error as Error).message));
    return { definition, rows: [] };
  }
}
