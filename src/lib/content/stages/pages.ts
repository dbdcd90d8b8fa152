/**
 * Stage: checks over the finished set of pages, whatever source each tool came
 * from — URL names, names and aliases people search, and field anchors — so
 * that nothing which would break a URL, an id or a file reaches Astro.
 */
import type { Stage } from '../context.ts';
import type { AliasRecord } from '../../core/content-types.ts';
import { fieldTables, type ToolModel } from '../../model/model.ts';
import { toolSlug, urlNameProblem } from '../url-names.ts';
import { isCallableAlias, typedName } from '../../model/tool-names.ts';

type Place = { file: string; pointer: string };

/**
 * Alias pages: every accepted alias or former name whose URL name differs from the tool's
 * gets a redirect page (tool.redirectSlugs), so its URL must be as valid and unclaimed as a tool's.
 */
function aliasRedirects(
  stage: Stage,
  withPage: readonly ToolModel[],
  names: {
    slugs: ReadonlyMap<string, ToolModel>;
    claimed: ReadonlyMap<string, ToolModel>;
    placeOf: (tool: ToolModel) => Place;
    aliasAt: (tool: ToolModel, alias: AliasRecord, i: number) => Place;
  },
): void {
  const { problems } = stage;
  const { slugs, claimed, placeOf, aliasAt } = names;
  const aliasPages = new Map<string, ToolModel>(); // `agent/slug` of a redirect page → its tool
  for (const tool of withPage) {
    const redirects = new Set<string>();
    tool.generated.aliases.forEach((alias, i) => {
      if (!isCallableAlias(alias)) return;
      const slug = toolSlug(alias.name);
      if (slug === tool.slug || redirects.has(slug)) return;
      if (claimed.get(`${tool.agent} ${typedName(alias.name)}`) !== tool) return; // already reported as a name clash
      const at = aliasAt(tool, alias, i);
      const problem = urlNameProblem(slug, stage.reserved.agent);
      if (problem)
        return problems.error(at.file, at.pointer, 'url-name-valid', `alias ${JSON.stringify(alias.name)} ${problem}`);
      const owner = slugs.get(`${tool.agent}/${slug}`) ?? aliasPages.get(`${tool.agent}/${slug}`);
      if (owner)
        return problems.error(
          at.file,
          at.pointer,
          'unique-tool-url',
          `alias ${alias.name} of ${tool.fullName} would take the URL /${tool.agent}/${slug}/ of ${owner.fullName} ` +
            `(${placeOf(owner).file})`,
        );
      aliasPages.set(`${tool.agent}/${slug}`, tool);
      redirects.add(slug);
    });
    tool.redirectSlugs = [...redirects];
  }
}

/** Field anchors must be unique on a tool's page, across all its tables. */
function checkFieldAnchors(stage: Stage, tool: ToolModel, place: Place): void {
  const seen = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const table of fieldTables(tool)) {
    for (const row of table.rows) {
      if (seen.has(row.id)) duplicates.add(`${row.id} (${seen.get(row.id)} and ${table.title})`);
      else seen.set(row.id, table.title);
    }
  }
  if (duplicates.size > 0) {
    stage.problems.error(
      place.file,
      place.pointer,
      'unique-field-anchor',
      `tool ${tool.fullName}: field anchors collide on its page: ${[...duplicates].join(', ')}`,
    );
  }
}

export function checkPages(stage: Stage, tools: ToolModel[]): void {
  const { problems } = stage;
  const placeOf = (tool: ToolModel) => stage.namePlace.get(tool) ?? { file: tool.files.generated, pointer: '/name' };
  // An alias is written in its tool's file, or (added by the inventory stage) in the inventory file.
  const aliasAt = (tool: ToolModel, alias: AliasRecord, i: number) =>
    stage.aliasPlace.get(alias) ?? { file: placeOf(tool).file, pointer: `/aliases/${i}/name` };
  const { slugs, withPage } = toolUrls(stage, tools, placeOf);

  // Names people type: the callable name and accepted aliases, case-insensitively, once per agent.
  // Across agents names coincide on purpose (Bash and bash, Task and task): search lists them all.
  // Callable names are claimed first, so that a clash with an alias is reported on the alias.
  const claimed = new Map<string, ToolModel>(); // `agent lowercased-name` → tool
  const claim = (tool: ToolModel, name: string, at: { file: string; pointer: string }): void => {
    const key = `${tool.agent} ${typedName(name)}`;
    const other = claimed.get(key);
    if (other && other !== tool)
      problems.error(
        at.file,
        at.pointer,
        'unique-tool-name',
        `${name} is already the name or alias of ${other.fullName} (${placeOf(other).file})`,
      );
    else claimed.set(key, tool);
  };
  for (const tool of withPage) claim(tool, tool.fullName, placeOf(tool));
  for (const tool of withPage) {
    tool.generated.aliases.forEach((alias, i) => {
      if (!isCallableAlias(alias)) return; // a type name, not something to call or search
      const at = aliasAt(tool, alias, i);
      claim(tool, alias.name, at);
    });
  }

  aliasRedirects(stage, withPage, { slugs, claimed, placeOf, aliasAt });
  for (const tool of withPage) checkFieldAnchors(stage, tool, placeOf(tool));
}

/**
 * Each tool's URL (`agent/slug` → its tool) and the tools whose URL is valid and their own: the later checks run on
 * these only, one problem per root cause.
 */
function toolUrls(
  stage: Stage,
  tools: readonly ToolModel[],
  placeOf: (tool: ToolModel) => { file: string; pointer: string },
): { slugs: Map<string, ToolModel>; withPage: ToolModel[] } {
  const slugs = new Map<string, ToolModel>();
  const withPage: ToolModel[] = [];
  for (const tool of tools) {
    const place = placeOf(tool);
    const problem = urlNameProblem(tool.slug, stage.reserved.agent);
    if (problem) {
      stage.problems.error(
        place.file,
        place.pointer,
        'url-name-valid',
        `tool name ${JSON.stringify(tool.fullName)} ${problem}`,
      );
      continue;
    }
    const key = `${tool.agent}/${tool.slug}`;
    const other = slugs.get(key);
    if (other) {
      stage.problems.error(
        place.file,
        place.pointer,
        'unique-tool-url',
        `tool ${tool.fullName} has the same URL /${key}/ as ${other.fullName} (${placeOf(other).file})`,
      );
      continue;
    }
    slugs.set(key, tool);
    withPage.push(tool);
  }
  return { slugs, withPage };
}
