/**
 * Stage: the tool inventory read from each pinned binary
 * (content/inventory/<agent>.json, written by scripts/inventory.ts).
 * Runs after editorial and before the pages stage: an alias from the binary's
 * alias table becomes a structured accepted alias of the tool it points to
 * (unless that tool already lists it), so that it gets a redirect page and
 * search weight like any alias; an alias of a name without a page stays on the
 * inventory entry. Every inventoried name must have a page (by name or alias)
 * or is listed as registered but never advertised.
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { AgentId, AliasRecord, InventoryFile } from '../../core/content-types.ts';
import { AGENTS } from '../../agents/index.ts';
import type { AgentInventory, ToolModel } from '../../model/model.ts';
import { checkName } from '../names.ts';
import { callableNames, typedName } from '../../model/tool-names.ts';

/**
 * Each registered name is a list item with the id `registered-<name lowercased>`: names are checked, and unique
 * ignoring case; alias table names are checked too.
 */
function inventoryNamesOk(problems: Stage['problems'], file: string, data: InventoryFile): boolean {
  const registered = new Map<string, number>();
  let namesOk = true;
  (data.names?.items ?? []).forEach((name, i) => {
    const pointer = `/names/items/${i}`;
    if (!checkName(problems, { file, pointer }, 'registered name', name)) return void (namesOk = false);
    const first = registered.get(name.toLowerCase());
    if (first !== undefined) {
      problems.error(
        file,
        pointer,
        'unique-inventory-name',
        `${name} is already listed at /names/items/${first} (names differing only in case share one id on ` +
          `the agent page)`,
      );
      namesOk = false;
    } else registered.set(name.toLowerCase(), i);
  });
  (data.aliasTables ?? []).forEach((table, t) =>
    table.entries.forEach((entry, e) => {
      for (const key of ['alias', 'tool'] as const)
        if (!checkName(problems, { file, pointer: `/aliasTables/${t}/entries/${e}/${key}` }, key, entry[key]))
          namesOk = false;
    }),
  );
  return namesOk;
}

/**
 * The binary's alias tables applied to the tools: each alias whose target has a page becomes an
 * accepted alias of it (unless another tool already answers to it); a target the registered list
 * lacks is added to `names`. Returns each name's aliases and the aliases given to tools.
 */
function applyAliasTables(
  stage: Stage,
  file: string,
  data: InventoryFile,
  names: string[],
  byName: Map<string, ToolModel>,
  evidence: string,
): { aliasesOf: Map<string, string[]>; structured: { alias: string; tool: string }[] } {
  const { problems } = stage;
  const aliasesOf = new Map<string, string[]>();
  const structured: { alias: string; tool: string }[] = [];
  (data.aliasTables ?? []).forEach((table, t) => {
    table.entries.forEach((entry, e) => {
      if (!names.includes(entry.tool)) {
        const sameButCase = names.find((n) => n.toLowerCase() === entry.tool.toLowerCase());
        if (sameButCase)
          return problems.error(
            file,
            `/aliasTables/${t}/entries/${e}/tool`,
            'unique-inventory-name',
            `${entry.tool} differs from the registered name ${sameButCase} only in case (they would share one id ` +
              `on the agent page)`,
          );
        names.push(entry.tool);
      }
      aliasesOf.set(entry.tool, [...(aliasesOf.get(entry.tool) ?? []), entry.alias]);
      const target = byName.get(typedName(entry.tool));
      if (!target) return; // no page: the alias stays on the inventory entry
      const owner = byName.get(typedName(entry.alias));
      if (owner === target) return; // already listed (by the tool itself or an earlier table)
      // two tools with one name: the pages stage reports that
      if (owner && typedName(owner.fullName) === typedName(target.fullName)) return;
      if (owner) {
        problems.error(
          file,
          `/aliasTables/${t}/entries/${e}/alias`,
          'inventory-alias-free',
          `alias ${entry.alias} of ${entry.tool} is already the name or alias of ${owner.fullName}`,
        );
        return;
      }
      const record: AliasRecord = {
        name: entry.alias,
        kind: 'accepted-alias',
        evidence:
          `${evidence}: ${entry.alias} → ` +
          `${entry.tool}` +
          (table.extends
            ? ` (a table extending ${table.extends}, applied only when the bundle's ` + `condition holds)`
            : '') +
          `.`,
      };
      target.generated.aliases.push(record);
      stage.aliasPlace.set(record, { file, pointer: `/aliasTables/${t}/entries/${e}/alias` });
      byName.set(typedName(entry.alias), target);
      structured.push({ alias: entry.alias, tool: target.fullName });
    });
  });
  return { aliasesOf, structured };
}

/** A gate condition on the catalog reads the entry of one model: two entries of one slug would make it ambiguous. */
function catalogSlugsOk(problems: Stage['problems'], file: string, data: InventoryFile): boolean {
  const slugs = new Map<string, number>();
  let catalogOk = true;
  (data.modelCatalog?.models ?? []).forEach((m, i) => {
    const first = slugs.get(m.slug);
    if (first !== undefined) {
      problems.error(
        file,
        `/modelCatalog/models/${i}/slug`,
        'unique-catalog-slug',
        `${m.slug} is already the slug of /modelCatalog/models/${first}`,
      );
      catalogOk = false;
    } else slugs.set(m.slug, i);
  });
  return catalogOk;
}

export function applyInventory(
  stage: Stage,
  tools: ToolModel[],
  matrixVersions: ReadonlyMap<string, string>,
): AgentInventory[] {
  const { reader, problems, files } = stage;
  const out: AgentInventory[] = [];
  for (const path of files.inventory) {
    const file = reader.relContent(path);
    const data = reader.read<InventoryFile>(path, 'inventory');
    if (!data) continue;
    if (!inItsPlace(stage, path, `inventory/${data.agent}.json`, '/agent', `an inventory of ${data.agent} belongs`))
      continue;
    const pinned = matrixVersions.get(data.agent);
    if (pinned !== undefined && pinned !== data.version) {
      problems.error(
        file,
        '/version',
        'inventory-matches-pin',
        `inventory of ${data.package}@${data.version}, but content/capture-matrix.json pins ${pinned}: run node ` +
          `scripts/inventory.ts`,
      );
      continue;
    }
    if (!inventoryNamesOk(problems, file, data)) continue;
    out.push(inventoryRecord(stage, file, data, tools));
  }
  return out;
}

/**
 * What the agent page shows of an inventory: its names against the tools with pages, its aliases, features, catalog.
 */
function inventoryRecord(stage: Stage, file: string, data: InventoryFile, tools: readonly ToolModel[]): AgentInventory {
  const byName = new Map<string, ToolModel>();
  for (const t of tools)
    if (t.agent === data.agent) for (const name of callableNames(t)) byName.set(typedName(name), t);
  // Reader text: the file it was read into is on the agent page's provenance, not in the sentence.
  const evidence = `In the alias table of the ${data.package}@${data.version} binary`;
  // Inventoried names: the registered list, then alias targets it lacks (REPL behind `Eval`).
  const names: string[] = [...(data.names?.items ?? [])];
  const { aliasesOf, structured } = applyAliasTables(stage, file, data, names, byName, evidence);
  const unadvertised = unadvertisedNames(data, names, byName, aliasesOf);
  const withPage = names.filter((n) => byName.has(typedName(n))).map((n) => byName.get(typedName(n))!);
  const catalogOk = catalogSlugsOk(stage.problems, file, data);
  return {
    agent: data.agent as AgentId,
    file,
    version: data.version,
    names,
    aliases: (data.aliasTables ?? []).flatMap((t) => t.entries),
    structuredAliases: structured,
    unadvertised,
    counts: {
      names: names.length,
      captured: withPage.filter((t) =>
        [...(t.captured?.byConfig.values() ?? [])].some((c) => c.delivery !== 'deferred'),
      ).length,
      sdk: withPage.filter((t) => t.source === 'sdk').length,
      onlyRegistered: unadvertised.length,
    },
    ...(data.features
      ? {
          features: data.features.items.length,
          featureNames: data.features.items.map((f) => f.name),
          featuresCommand: data.features.command,
        }
      : {}),
    ...(data.handlerModules ? { handlerModules: data.handlerModules.items.map((h) => h.path) } : {}),
    ...(data.modelCatalog && catalogOk
      ? { modelCatalog: { models: data.modelCatalog.models, omitted: data.modelCatalog.omitted, askedBy: new Map() } }
      : {}),
  };
}

/** The inventoried names no tool page answers to, each with its aliases and the gate its agent module knows. */
function unadvertisedNames(
  data: InventoryFile,
  names: readonly string[],
  byName: ReadonlyMap<string, ToolModel>,
  aliasesOf: ReadonlyMap<string, string[]>,
): AgentInventory['unadvertised'] {
  // Gates come from the agent module, where a committed source establishes them.
  const method = AGENTS[data.agent].inventory;
  const gates = ('none' in method ? undefined : method.gates) ?? {};
  return names
    .filter((name) => !byName.has(typedName(name)))
    .map((name) => {
      const entry: AgentInventory['unadvertised'][number] = { name, aliases: aliasesOf.get(name) ?? [] };
      const gate = gates[name];
      if (gate) entry.gate = gate;
      return entry;
    });
}
