/**
 * Reading content files: which files the site reads (everything else under
 * content/ is reported as ignored), JSON parsing with a byte-order mark
 * removed, and validation against schemas/ with Ajv. Every problem goes to the
 * shared Problems collector with the file, the JSON pointer and the rule.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Problems } from './problems.ts';
import { boundProblems } from './bounds.ts';
import { duplicateKeys } from './duplicate-keys.ts';
import { jsonPointer } from '../core/json.ts';
import { AGENT_IDS, isAgentId } from '../agents/index.ts';
import { AGENT_ID_FORMAT, CONTENT_SCHEMAS, SHARED_SCHEMAS, type SchemaName } from './schema-files.ts';

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

/** Schema file of each kind of content file. */
export const SCHEMA_FILES = Object.fromEntries(Object.entries(CONTENT_SCHEMAS).map(([name, s]) => [name, s.file])) as {
  readonly [K in SchemaName]: (typeof CONTENT_SCHEMAS)[K]['file'];
};

export type { SchemaName };

/**
 * Ajv for this project's own content schemas: strict, every error, formats checked (`date` rejects 2026-13-45), agent
 * ids checked against the registry, the shared schemas (`sharedSchemas(root)`) added for `$ref`.
 */
export function contentAjv(shared: Iterable<object> = []): Ajv2020 {
  // verbose: errors carry their schema object, so a rule can be named by its path from the file's root.
  const ajv = new Ajv2020({ allErrors: true, strict: true, discriminator: true, verbose: true });
  addFormats(ajv);
  // Agent ids are whatever the registry holds; no schema lists them.
  ajv.addFormat(AGENT_ID_FORMAT, { type: 'string', validate: isAgentId });
  // json-schema-to-typescript's keyword (the registry's AgentId type), not a rule.
  ajv.addVocabulary(['tsType']);
  for (const schema of shared) ajv.addSchema(schema);
  return ajv;
}

/**
 * The shared schemas of the project at `root` (schemas/agent-id.schema.json …), by file name; missing ones are left
 * out.
 */
export function sharedSchemas(root: string): Map<string, object> {
  const out = new Map<string, object>();
  for (const file of SHARED_SCHEMAS) {
    const path = join(root, 'schemas', file);
    if (existsSync(path)) out.set(file, JSON.parse(readFileSync(path, 'utf8')) as object);
  }
  return out;
}

/** The content files the site reads, by kind, as paths relative to the content folder. */
export interface ContentFiles {
  jobs?: string;
  matrix?: string;
  /** content/scenarios.json */
  scenarios?: string;
  agents: string[];
  /** agent folder → files */
  tools: Map<string, string[]>;
  editorial: Map<string, string[]>;
  captures: Map<string, string[]>;
  /** content/payloads/<agent>/<tool>.<scenario>.json */
  payloads: Map<string, string[]>;
  /** content/history/<agent>.<source>.json */
  history: string[];
  /** content/inventory/<agent>.json */
  inventory: string[];
  /** content/archive/<agent>.json */
  archive: string[];
  /** content/comparisons/<job>.json */
  comparisons: string[];
  /** content/hooks/<agent>.json: editorial facts of an agent's hooks page */
  hooks: string[];
  /** content/hook-events/<agent>.json: the hook events the agent's published code names (npm run hook-events) */
  hookEvents: string[];
  /** content/hook-cases.json: the hook behaviour cases `npm run hook-behaviour` runs */
  hookCases?: string;
  /** content/hook-behaviour/<agent>/<case>.json: what happened when a hook answered (npm run hook-behaviour) */
  hookBehaviour: string[];
  /**
   * content/hook-behaviour-history/<agent>.json: the agent's cases over its releases (npm run hook-behaviour-history)
   */
  hookBehaviourHistory: string[];
  /** content/hook-outputs/<agent>.json: what the agent's hooks may return, per event (npm run hook-outputs) */
  hookOutputs: string[];
  /** content/subagents/<agent>.json: the tool sets of the agent's built-in subagents (npm run subagents) */
  subagents: string[];
  /** content/permission-cases.json: the permission cases `npm run permissions` runs */
  permissionCases?: string;
  /** content/not-documented.json: agents the site does not document, and why (editorial) */
  notDocumented?: string;
  /** content/permissions/<agent>/<case>.json: what a permission rule did to a call (npm run permissions) */
  permissions: string[];
  /**
   * content/mcp-naming/<agent>.json: the agent's name for an MCP server's tool over its releases (npm run
   * mcp-naming-history)
   */
  mcpNaming: string[];
}

const JSON_FILE = /^[^.][^/]*\.json$/;
const HISTORY_FILE = /^[a-z0-9-]+\.(sdk|capture)\.json$/;
/** `<agent>.json`, `<job>.json`: a lowercase id. */
const ID_FILE = /^[a-z0-9-]+\.json$/;
const PER_AGENT = ['tools', 'editorial', 'captures', 'payloads'] as const;

/**
 * Folders of one file per agent (or job) each: where they are in ContentFiles, the file names read, and what a stray
 * file is told.
 */
const FLAT_FOLDERS: readonly { folder: string; key: FlatKey; file: RegExp; says: string }[] = [
  { folder: 'agents', key: 'agents', file: JSON_FILE, says: 'agent records are content/agents/<agent>.json' },
  {
    folder: 'history',
    key: 'history',
    file: HISTORY_FILE,
    says: 'history files are content/history/<agent>.<sdk|capture>.json',
  },
  {
    folder: 'comparisons',
    key: 'comparisons',
    file: ID_FILE,
    says: 'comparison files are content/comparisons/<job>.json',
  },
  { folder: 'archive', key: 'archive', file: ID_FILE, says: 'archive files are content/archive/<agent>.json' },
  { folder: 'hooks', key: 'hooks', file: ID_FILE, says: 'hooks files are content/hooks/<agent>.json' },
  {
    folder: 'hook-events',
    key: 'hookEvents',
    file: ID_FILE,
    says: 'hook event files are content/hook-events/<agent>.json',
  },
  {
    folder: 'hook-behaviour-history',
    key: 'hookBehaviourHistory',
    file: ID_FILE,
    says: 'hook behaviour histories are content/hook-behaviour-history/<agent>.json',
  },
  {
    folder: 'hook-outputs',
    key: 'hookOutputs',
    file: ID_FILE,
    says: 'hook output files are content/hook-outputs/<agent>.json',
  },
  {
    folder: 'subagents',
    key: 'subagents',
    file: ID_FILE,
    says: 'subagent tool sets are content/subagents/<agent>.json',
  },
  {
    folder: 'mcp-naming',
    key: 'mcpNaming',
    file: ID_FILE,
    says: 'MCP naming histories are content/mcp-naming/<agent>.json',
  },
  { folder: 'inventory', key: 'inventory', file: ID_FILE, says: 'inventory files are content/inventory/<agent>.json' },
];
type FlatKey =
  | 'agents'
  | 'history'
  | 'comparisons'
  | 'archive'
  | 'hooks'
  | 'hookEvents'
  | 'hookBehaviourHistory'
  | 'hookOutputs'
  | 'subagents'
  | 'mcpNaming'
  | 'inventory';

/** What the walk of the content folder shares: the folder, its listings (sorted) and the warning for a stray file. */
interface Scan {
  contentDir: string;
  list: (dir: string) => string[];
  ignored: (path: string, why: string) => void;
}

/**
 * Walks the content folder and sorts its files into what the loader reads;
 * anything else (a `.JSON` or `.txt` file, a dotfile, a file in an unknown
 * folder) is reported as a warning so that it is not skipped silently.
 */
export function scanContent(contentDir: string, problems: Problems, rel: (path: string) => string): ContentFiles {
  const files = noContentFiles();
  const scan: Scan = {
    contentDir,
    list: (dir) => readdirSync(dir).sort(),
    ignored: (path, why) => problems.warn(rel(path), `ignored: ${why}`),
  };
  if (!existsSync(contentDir)) return files;
  for (const name of scan.list(contentDir)) {
    const path = join(contentDir, name);
    const isDir = statSync(path).isDirectory();
    const flat = isDir ? FLAT_FOLDERS.find((f) => f.folder === name) : undefined;
    if (name === 'jobs.json' && !isDir) files.jobs = name;
    else if (name === 'capture-matrix.json' && !isDir) files.matrix = name;
    else if (name === 'scenarios.json' && !isDir) files.scenarios = name;
    else if (name === 'hook-cases.json' && !isDir) files.hookCases = name;
    else if (name === 'permission-cases.json' && !isDir) files.permissionCases = name;
    else if (name === 'not-documented.json' && !isDir) files.notDocumented = name;
    else if (name === 'hook-behaviour' && isDir) files.hookBehaviour.push(...caseRecords(scan, name, 'hook behaviour'));
    else if (name === 'permissions' && isDir) files.permissions.push(...caseRecords(scan, name, 'permission'));
    else if (flat) files[flat.key].push(...flatFiles(scan, flat));
    else if ((PER_AGENT as readonly string[]).includes(name) && isDir) {
      const kind = name as (typeof PER_AGENT)[number];
      files[kind] = perAgentFiles(scan, kind);
    } else
      scan.ignored(
        path,
        'not a content file or folder the site reads (jobs.json, capture-matrix.json, scenarios.json, ' +
          'hook-cases.json, permission-cases.json, not-documented.json, agents/, tools/, editorial/, captures/, ' +
          'payloads/, history/, inventory/, comparisons/, archive/, hooks/, hook-events/, hook-behaviour/, ' +
          'hook-behaviour-history/, ' +
          'hook-outputs/, subagents/, permissions/, mcp-naming/)',
      );
  }
  return files;
}

/** ContentFiles before the walk: every list empty. */
function noContentFiles(): ContentFiles {
  return {
    agents: [],
    tools: new Map(),
    editorial: new Map(),
    captures: new Map(),
    payloads: new Map(),
    history: [],
    inventory: [],
    comparisons: [],
    archive: [],
    hooks: [],
    hookEvents: [],
    hookBehaviour: [],
    hookBehaviourHistory: [],
    hookOutputs: [],
    subagents: [],
    permissions: [],
    mcpNaming: [],
  };
}

/** content/<folder>/<agent>/<case>.json: one record per case of an agent. */
function caseRecords(scan: Scan, folder: string, what: string): string[] {
  const out: string[] = [];
  for (const agent of scan.list(join(scan.contentDir, folder))) {
    const agentDir = join(scan.contentDir, folder, agent);
    if (!statSync(agentDir).isDirectory()) {
      scan.ignored(agentDir, `${what} records live in content/${folder}/<agent>/`);
      continue;
    }
    for (const f of scan.list(agentDir)) {
      if (ID_FILE.test(f) && statSync(join(agentDir, f)).isFile()) out.push(`${folder}/${agent}/${f}`);
      else scan.ignored(join(agentDir, f), `${what} records are content/${folder}/<agent>/<case>.json`);
    }
  }
  return out;
}

/** The files of a folder of one file per agent (or job) that are named as it says. */
function flatFiles(scan: Scan, { folder, file, says }: (typeof FLAT_FOLDERS)[number]): string[] {
  const path = join(scan.contentDir, folder);
  const out: string[] = [];
  for (const f of scan.list(path)) {
    if (file.test(f) && statSync(join(path, f)).isFile()) out.push(`${folder}/${f}`);
    else scan.ignored(join(path, f), says);
  }
  return out;
}

/** content/<kind>/<agent>/<name>.json: each agent's files of one kind (tools, editorial notes, captures, payloads). */
function perAgentFiles(scan: Scan, kind: (typeof PER_AGENT)[number]): Map<string, string[]> {
  const path = join(scan.contentDir, kind);
  const byAgent = new Map<string, string[]>();
  for (const agent of scan.list(path)) {
    const agentDir = join(path, agent);
    if (!statSync(agentDir).isDirectory()) {
      scan.ignored(agentDir, `${kind} files live in content/${kind}/<agent>/`);
      continue;
    }
    const found: string[] = [];
    for (const f of scan.list(agentDir)) {
      if (JSON_FILE.test(f) && statSync(join(agentDir, f)).isFile()) found.push(`${kind}/${agent}/${f}`);
      else scan.ignored(join(agentDir, f), `only files named <lowercase name>.json are read here`);
    }
    byAgent.set(agent, found);
  }
  return byAgent;
}

/** The project's content schemas, as read and as compiled. Never changed once made: loads share them. */
interface CompiledSchemas {
  shared: Map<string, object>;
  schemas: Map<SchemaName, unknown>;
  validators: Map<SchemaName, ValidateFunction>;
}

/**
 * Compiled schemas by the text of every schema file: compiling them is most of the time a small load takes (about
 * 110 ms), and a process loads content many times over the same schemas (each refresh step's check, every test that
 * loads edited fixture content). Keyed by the files' text, so an edited schema is compiled again; the last few kept.
 */
const compiledByText = new Map<string, CompiledSchemas>();
const COMPILED_KEPT = 4;

function compiledSchemas(root: string): CompiledSchemas {
  const read = (file: string) => {
    const path = join(root, 'schemas', file);
    return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  };
  const sharedTexts = SHARED_SCHEMAS.map((file) => [file, read(file)] as const);
  const ownTexts = (Object.entries(SCHEMA_FILES) as [SchemaName, string][]).map(
    ([name, file]) => [name, read(file)] as const,
  );
  const key = JSON.stringify([sharedTexts, ownTexts]);
  const known = compiledByText.get(key);
  if (known) return known;
  const shared = new Map<string, object>();
  for (const [file, text] of sharedTexts) if (text !== undefined) shared.set(file, JSON.parse(text) as object);
  const ajv = contentAjv(shared.values());
  const schemas = new Map<SchemaName, unknown>();
  const validators = new Map<SchemaName, ValidateFunction>();
  for (const [name, text] of ownTexts) {
    if (text === undefined) continue;
    const schema = JSON.parse(text) as object;
    schemas.set(name, schema);
    validators.set(name, ajv.compile(schema));
  }
  const compiled = { shared, schemas, validators };
  if (compiledByText.size >= COMPILED_KEPT) compiledByText.delete(compiledByText.keys().next().value!);
  compiledByText.set(key, compiled);
  return compiled;
}

/** Reads content JSON and validates it; returns undefined (with the problems recorded) when it cannot be used. */
export class ContentReader {
  private readonly validators: ReadonlyMap<SchemaName, ValidateFunction>;
  private readonly schemas: ReadonlyMap<SchemaName, unknown>;
  /** The shared schemas by file, for naming the rule of an error inside one. */
  private readonly shared: Map<string, object>;
  readonly root: string;
  readonly contentDir: string;
  private readonly problems: Problems;

  constructor(root: string, contentDir: string, problems: Problems) {
    this.root = root;
    this.contentDir = contentDir;
    this.problems = problems;
    const compiled = compiledSchemas(root);
    this.shared = compiled.shared;
    this.schemas = compiled.schemas;
    this.validators = compiled.validators;
  }

  /** Path as shown in messages: relative to the project root, with `/`. */
  rel(path: string): string {
    return (relative(this.root, path) || path).split(sep).join('/');
  }

  /** `rel` of a path given relative to the content folder. */
  relContent(contentPath: string): string {
    return this.rel(join(this.contentDir, contentPath));
  }

  read<T>(contentPath: string, schema: SchemaName): T | undefined {
    const path = join(this.contentDir, contentPath);
    const file = this.rel(path);
    let text = readFileSync(path, 'utf8');
    if (text.charCodeAt(0) === 0xfeff) {
      // Some editors save UTF-8 with a byte-order mark; JSON forbids it, the content is otherwise fine.
      this.problems.warn(
        file,
        'starts with a UTF-8 byte-order mark (U+FEFF); it was ignored — save the file without it',
      );
      text = text.slice(1);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      this.problems.error(file, '', 'json-parse', `not valid JSON: ${(error as Error).message}`);
      this.problems.markUnreadable(file);
      return undefined;
    }
    const outOfBounds = boundProblems(data);
    if (outOfBounds.length > 0) {
      for (const p of outOfBounds) this.problems.error(file, p.pointer, p.rule, p.message);
      this.problems.markUnreadable(file);
      return undefined;
    }
    // After the bounds: the walk below recurses as deep as the data nests.
    const duplicates = duplicateKeys(text);
    if (duplicates.length > 0) {
      for (const d of duplicates)
        this.problems.error(
          file,
          d.pointer,
          'json-unique-keys',
          `the key ${JSON.stringify(d.key)} is written twice in one object; a JSON reader keeps only the last, so ` +
            `the first would be lost: keep one`,
        );
      this.problems.markUnreadable(file);
      return undefined;
    }
    const validate = this.validators.get(schema);
    if (!validate) {
      this.problems.error(file, '', 'schema-present', `schemas/${SCHEMA_FILES[schema]} is missing`);
      this.problems.markUnreadable(file);
      return undefined;
    }
    if (!validate(data)) {
      for (const e of dedupe(validate.errors ?? [])) {
        this.problems.error(file, pointerOf(e), this.ruleOf(schema, e), messageOf(e));
      }
      this.problems.markUnreadable(file);
      return undefined;
    }
    return data as T;
  }

  /**
   * `<schema file>#<path from its root>` of the failing keyword: the file read with, or a shared schema it refers to.
   */
  private ruleOf(schema: SchemaName, e: ErrorObject): string {
    const own = schemaPathFromRoot(this.schemas.get(schema), e);
    if (own !== undefined) return `${SCHEMA_FILES[schema]}#${own}`;
    for (const [file, shared] of this.shared) {
      const at = schemaPathFromRoot(shared, e);
      if (at !== undefined) return `${file}#${at}`;
    }
    return `${SCHEMA_FILES[schema]}#${e.schemaPath.slice(1)}`;
  }
}

/**
 * The failing keyword's path from the schema file's root. Ajv gives it from the
 * `$ref` target (`/oneOf/1/required` for `#/$defs/definition/oneOf/1/required`);
 * the schema object of the error (verbose mode) is found in the file instead.
 */
function schemaPathFromRoot(root: unknown, e: ErrorObject): string | undefined {
  const target = e.parentSchema;
  const find = (node: unknown, path: string): string | undefined => {
    if (node === target) return path;
    if (typeof node !== 'object' || node === null) return undefined;
    for (const [key, value] of Object.entries(node)) {
      const found = find(value, jsonPointer(path, key));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const at = target === undefined ? undefined : find(root, '');
  return at === undefined ? undefined : `${at}/${e.keyword}`;
}

/** Where the error is: the instance path, or for a discriminator error the tag itself. */
function pointerOf(e: ErrorObject): string {
  if (e.keyword === 'discriminator') return `${e.instancePath}/${(e.params as { tag: string }).tag}`;
  return e.instancePath;
}

function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const detail =
    e.keyword === 'additionalProperties'
      ? ` (${String(p.additionalProperty)})`
      : e.keyword === 'enum'
        ? ` (${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`
        : e.keyword === 'discriminator'
          ? ` (${JSON.stringify(p.tagValue)})`
          : e.keyword === 'format' && p.format === AGENT_ID_FORMAT
            ? `: ${JSON.stringify(e.data)} is not an agent of the registry (src/lib/agents/index.ts: ` +
              `${AGENT_IDS.join(', ')})`
            : '';
  return `${e.message ?? 'is invalid'}${detail}`;
}

function dedupe(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.instancePath} ${e.keyword} ${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
