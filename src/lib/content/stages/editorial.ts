/**
 * Stage: editorial notes (content/editorial/<agent>/<slug>.json). Each belongs
 * to a tool page; a note marked documentedOnly gives a page to a tool that no
 * generated file or capture shows.
 */
import type { Stage } from '../context.ts';
import type { EditorialTool } from '../../core/content-types.ts';
import type { ToolModel } from '../../model/model.ts';
import { documentedOnlyTool } from '../tool-synthesis.ts';
import { toolSlug } from '../url-names.ts';
import { checkName } from '../names.ts';

export function applyEditorial(stage: Stage, tools: ToolModel[], jobIds: ReadonlySet<string> | undefined): void {
  const { reader, problems } = stage;
  // Two tools with one URL are reported by the pages stage; the notes go to the first.
  const bySlug = new Map<string, ToolModel>();
  for (const t of tools) if (!bySlug.has(`${t.agent}/${t.slug}`)) bySlug.set(`${t.agent}/${t.slug}`, t);
  for (const [agentDir, paths] of stage.files.editorial) {
    for (const path of paths) {
      const editorial = reader.read<EditorialTool>(path, 'editorial');
      if (!editorial) continue;
      const file = reader.relContent(path);
      if (!checkName(problems, { file, pointer: '/name' }, 'tool name', editorial.name)) continue;
      const key = `${agentDir}/${path.slice(path.lastIndexOf('/') + 1, -'.json'.length)}`;
      let tool = bySlug.get(key);
      // Its tool file is already reported: one root cause, one error.
      if (!tool && problems.isUnreadable(reader.relContent(`tools/${key}.json`))) continue;
      if (!tool && editorial.documentedOnly) {
        const slug = toolSlug(editorial.name);
        if (`${agentDir}/${slug}` !== key) {
          if (slug !== '')
            problems.error(
              file,
              '/name',
              'file-name-matches-slug',
              `notes on ${editorial.name} belong in ${slug}.json`,
            );
          else
            problems.error(
              file,
              '/name',
              'url-name-valid',
              `tool name ${JSON.stringify(editorial.name)} gives an empty URL segment (no letter or digit survives)`,
            );
          continue;
        }
        tool = documentedOnlyTool(editorial, file);
        stage.namePlace.set(tool, { file, pointer: '/name' });
        tools.push(tool);
      } else if (tool && editorial.documentedOnly) {
        problems.error(
          file,
          '/documentedOnly',
          'documented-only-is-unadvertised',
          `${editorial.name} is advertised or typed after all: remove documentedOnly`,
        );
      }
      if (!tool) {
        problems.error(
          file,
          '',
          'editorial-has-tool',
          `no tool page ${key} (generated file, capture or documentedOnly) for these notes`,
        );
        continue;
      }
      if (editorial.agent !== tool.agent || editorial.name !== tool.fullName) {
        problems.error(
          file,
          '/name',
          'editorial-names-its-tool',
          `notes name ${editorial.agent}/${editorial.name}, the file belongs to ${tool.agent}/${tool.fullName}`,
        );
      }
      if (jobIds) {
        editorial.jobs.forEach((job, i) => {
          if (!jobIds.has(job))
            problems.error(
              file,
              `/jobs/${i}`,
              'known-job',
              `unknown job id ${job} (content/jobs.json has no such job)`,
            );
        });
      }
      tool.editorial = editorial;
      tool.files.editorial = file;
    }
  }
}
