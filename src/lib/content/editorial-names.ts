/**
 * Field names that editorial prose mentions in code style, checked against
 * the evidence: a name must be a field (or listed value) of the tool in some
 * table, configuration or release, another name the agent answers to (a tool,
 * a namespace, a feature flag of its binary), or be listed by the editorial
 * file itself under `namesNotInSchema` with the reason it is not in any schema.
 */
import { inlineParts } from '../core/inline-text.ts';
import { definitionView } from './definition-view.ts';
import { distinctInputs } from '../model/captures.ts';
import { fieldTables, type SiteModel, type ToolModel } from '../model/model.ts';
import { toolChanges } from '../history/history.ts';
import { everyName } from '../model/tool-names.ts';
import { Problems } from './problems.ts';
import { definitionAjv } from '../check/definition-ajv.ts';

/** A camelCase or snake_case identifier: what reads as a field name (`file_path`, `backgroundCwdHint`). */
const FIELD_LIKE = /^[a-z][a-zA-Z0-9]*(?:_[a-zA-Z0-9]+)*$/;
export function looksLikeFieldName(text: string): boolean {
  return FIELD_LIKE.test(text) && /[A-Z_]/.test(text);
}

/** Every code-style field-like name in a tool's editorial prose. */
export function mentionedNames(tool: ToolModel): string[] {
  const e = tool.editorial;
  if (!e) return [];
  const texts = [
    e.summary,
    e.availability.prose,
    ...e.availability.gates.map((g) => g.effect),
    e.lifecycle,
    ...e.failures,
    ...(e.versionNotes ?? []).map((n) => n.change),
  ];
  return [
    ...new Set(
      texts.flatMap((t) =>
        inlineParts(t)
          .filter((p) => p.code && looksLikeFieldName(p.text))
          .map((p) => p.text),
      ),
    ),
  ];
}

/** Names the tool's own definitions establish: fields and listed values in every table, configuration and release. */
export function establishedNames(tool: ToolModel, site: Pick<SiteModel, 'histories'>): Set<string> {
  const names = new Set<string>();
  const addRows = (rows: { name: string; literals?: readonly unknown[] }[]) => {
    for (const r of rows) {
      names.add(r.name);
      for (const l of r.literals ?? []) names.add(String(l));
    }
  };
  for (const table of fieldTables(tool)) addRows(table.rows);
  // Definitions of other configurations (a field only some of them send), read with the site's own code.
  if (tool.captured) {
    const ajv = definitionAjv();
    for (const group of distinctInputs(tool.captured)) {
      for (const [definition, root] of [
        [group.tool.input, 'model-input'],
        [group.tool.output, 'output'],
      ] as const) {
        if (definition.kind === 'unavailable') continue;
        addRows(definitionView(definition, root, { file: 'capture', pointer: '' }, new Problems(), ajv).rows);
      }
    }
  }
  // A name sent inside its server's namespace with the server's prefix (`github-mcp-server-search_code`):
  // the part after the prefix is the server's own name for the tool, which the CLI asked it for.
  for (const captured of tool.captured?.byConfig.values() ?? []) {
    const prefix = captured.namespace !== undefined ? `${captured.namespace}-` : undefined;
    if (prefix && captured.name.startsWith(prefix)) names.add(captured.name.slice(prefix.length));
  }
  // Fields of earlier releases.
  for (const change of toolChanges(tool, site.histories)) {
    for (const part of (change.event.path ?? '').split(/[^A-Za-z0-9_]+/)) if (part) names.add(part);
  }
  return names;
}

/**
 * Other names of the agent a text may mention in code style: tools (full and short), namespaces, aliases, feature
 * flags.
 */
export function agentNames(site: Pick<SiteModel, 'tools' | 'removedTools' | 'inventory'>, agent: string): Set<string> {
  const names = new Set<string>();
  // Tool names of every agent: prose compares tools across agents (`tool_search` on ToolSearch's page).
  for (const t of site.tools) {
    for (const name of everyName(t)) names.add(name);
    for (const part of t.fullName.split('.')) names.add(part);
  }
  for (const r of site.removedTools.filter((x) => x.agent === agent)) names.add(r.name);
  for (const i of site.inventory.filter((x) => x.agent === agent)) {
    for (const n of i.names) names.add(n);
    for (const f of i.featureNames ?? []) names.add(f);
    // Members of the model catalog the binary embeds: gates and prose name them.
    for (const m of i.modelCatalog?.models ?? []) for (const k of Object.keys(m)) names.add(k);
  }
  return names;
}

export interface NameFinding {
  tool: string;
  name: string;
  problem: 'unestablished' | 'listed-but-established' | 'listed-but-not-mentioned';
}

/** Every mention that is neither established nor listed, and every stale `namesNotInSchema` entry. */
export function checkEditorialNames(
  site: Pick<SiteModel, 'tools' | 'removedTools' | 'inventory' | 'histories'>,
): NameFinding[] {
  const findings: NameFinding[] = [];
  const byAgent = new Map<string, Set<string>>();
  for (const tool of site.tools) {
    if (!tool.editorial) continue;
    const known = byAgent.get(tool.agent) ?? agentNames(site, tool.agent);
    byAgent.set(tool.agent, known);
    const established = establishedNames(tool, site);
    const listed = new Set((tool.editorial.namesNotInSchema ?? []).map((n) => n.name));
    const mentioned = mentionedNames(tool);
    for (const name of mentioned) {
      const ok = established.has(name) || known.has(name);
      if (!ok && !listed.has(name)) findings.push({ tool: tool.fullName, name, problem: 'unestablished' });
    }
    for (const name of listed) {
      if (!mentioned.includes(name)) findings.push({ tool: tool.fullName, name, problem: 'listed-but-not-mentioned' });
      else if (established.has(name)) findings.push({ tool: tool.fullName, name, problem: 'listed-but-established' });
    }
  }
  return findings;
}
