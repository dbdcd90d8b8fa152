/**
 * From one capture (one release, one configuration) to the compact snapshot a history
 * compares: per tool, how it is delivered, its description, its input definition as
 * text, and the field rows a page would show for that input (rows.ts: the snapshot every
 * history compares). The extraction and the rows are the site's own (src/lib/wire, src/lib/content/definition-view.ts),
 * so a history
 * event names a field exactly as its tool page does.
 */
import { definitionView } from '../../../src/lib/content/definition-view.ts';
import { definitionAjv } from '../../../src/lib/check/definition-ajv.ts';
import { Problems } from '../../../src/lib/content/problems.ts';
import { deferredNamespaceTool, type CaptureFile, type CapturedTool } from '../../../src/lib/wire/index.ts';
import { capturedNamespaces, capturedTools } from '../../../src/lib/agents/index.ts';
import { rowSnapshot, type RowSnapshot } from './rows.ts';

export interface CaptureToolSnapshot {
  delivery: string;
  description?: string;
  /** `json-schema`, `grammar`, `typescript` or `unavailable`. */
  kind: string;
  /** The input definition as text (JSON of the definition without its origin), to see a change that has no rows. */
  definition: string;
  /** The input table's rows (rooted at `input`, the root row itself left out). */
  rows: RowSnapshot[];
  /**
   * Set when the definition, kept as the CLI sent it, is a JSON Schema that Ajv cannot
   * compile (Gemini CLI 0.1.19 and 0.1.21 sent google_web_search's OpenAPI-style upper-case
   * `OBJECT`/`STRING` types as `parametersJsonSchema`): what Ajv says, in one line. The
   * tool then has no field rows; the capture is still data, not a failed run.
   */
  finding?: string;
}

export interface ConfigSnapshot {
  /** By full tool name, in name order. */
  tools: Record<string, CaptureToolSnapshot>;
  /** Namespaces named without their tools whose tools no compared configuration of the release shows. */
  unresolvedNamespaces: string[];
}

/** The definition without where it was read from (package version, file): only what the model is told. */
function withoutOrigin(definition: object): object {
  const { origin: _origin, ...rest } = definition as { origin?: unknown };
  return rest;
}

/** What Ajv said of a definition it cannot compile, without the place and rule the content loader adds. */
export function ajvFinding(message: string): string {
  const said = /Ajv cannot compile this JSON Schema: (.*?)(?: \[rule: [^\]]+\])?$/s.exec(message)?.[1] ?? message;
  return `not a JSON Schema that Ajv can compile: ${said.replace(/\s+/g, ' ').trim()}`;
}

function toolSnapshot(tool: CapturedTool, file: string): CaptureToolSnapshot {
  const problems = new Problems();
  const view = definitionView(
    tool.input,
    'input',
    { file, pointer: tool.pointer, tool: tool.fullName },
    problems,
    definitionAjv(),
  );
  // A schema that does not compile is what the CLI sent: recorded with the finding, without rows.
  const uncompiled = problems.errors.length > 0 && problems.errors.every((e) => e.rule === 'definition-compiles');
  if (problems.errors.length > 0 && !uncompiled) throw new Error(problems.errors.map((e) => e.message).join('; '));
  // Rows only where the site shows them; a variant header row carries no field of its own.
  const rows = view.rows.filter((r) => r.role !== 'root').map(rowSnapshot);
  return {
    delivery: tool.delivery,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    kind: tool.input.kind,
    definition: tool.input.kind === 'unavailable' ? '' : JSON.stringify(withoutOrigin(tool.input)),
    rows,
    ...(uncompiled ? { finding: ajvFinding(problems.errors.map((e) => e.message).join('; ')) } : {}),
  };
}

function sortedRecord<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Snapshots of the captures of one release, by configuration. A namespace that one
 * configuration names without its tools (deferred to tool_search) is resolved, as the
 * site does, to the tools another configuration of the same release shows in it.
 */
export function releaseSnapshots(captures: ReadonlyMap<string, CaptureFile>): Map<string, ConfigSnapshot> {
  const extracted = new Map<string, CapturedTool[]>();
  for (const [config, capture] of captures) extracted.set(config, capturedTools(capture));
  const known = new Map<string, CapturedTool[]>();
  for (const tools of extracted.values()) {
    for (const t of tools) {
      if (!t.namespace || t.delivery === 'deferred') continue;
      const list = known.get(t.namespace) ?? [];
      if (!list.some((k) => k.fullName === t.fullName)) list.push(t);
      known.set(t.namespace, list);
    }
  }
  const out = new Map<string, ConfigSnapshot>();
  for (const [config, capture] of captures) {
    const file = `${capture.agent}/${capture.cli.version}/${config}`;
    const tools = new Map<string, CaptureToolSnapshot>();
    for (const t of extracted.get(config)!) tools.set(t.fullName, toolSnapshot(t, file));
    const unresolved: string[] = [];
    for (const ns of capturedNamespaces(capture)) {
      const members = known.get(ns.name);
      if (!members) {
        unresolved.push(ns.name);
        continue;
      }
      for (const m of members)
        if (!tools.has(m.fullName)) tools.set(m.fullName, toolSnapshot(deferredNamespaceTool(m, ns), file));
    }
    out.set(config, { tools: sortedRecord(tools), unresolvedNamespaces: [...new Set(unresolved)].sort() });
  }
  return out;
}
