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
      const note: Note = { editorial, file, agentDir, key };
      const tool = noteTool(stage, note, bySlug.get(key), tools);
      if (!tool) continue;
      checkNoteReferences(stage, note, tool, jobIds);
      tool.editorial = editorial;
      tool.files.editorial = file;
    }
  }
}

/** A note as read: its file, its agent folder and `<agent>/<slug>` of its file name. */
interface Note {
  editorial: EditorialTool;
  file: string;
  agentDir: string;
  key: string;
}

/**
 * The tool page a note goes to: the tool its file name gives (`found`), or a page of its own when it is documentedOnly;
 * undefined when there is none (reported here, or by its unreadable tool file).
 */
function noteTool(stage: Stage, note: Note, found: ToolModel | undefined, tools: ToolModel[]): ToolModel | undefined {
  const { problems, reader } = stage;
  const { editorial, file, key } = note;
  // Its tool file is already reported: one root cause, one error.
  if (!found && problems.isUnreadable(reader.relContent(`tools/${key}.json`))) return undefined;
  if (!found && editorial.documentedOnly) return documentedOnlyPage(stage, note, tools);
  if (found && editorial.documentedOnly) {
    problems.error(
      file,
      '/documentedOnly',
      'documented-only-is-unadvertised',
      `${editorial.name} is advertised or typed after all: remove documentedOnly`,
    );
  }
  if (!found) {
    problems.error(
      file,
      '',
      'editorial-has-tool',
      `no tool page ${key} (generated file, capture or documentedOnly) for these notes`,
    );
  }
  return found;
}

/** The page a documentedOnly note gives its tool, when the note's file is named as the tool's URL (else reported). */
function documentedOnlyPage(stage: Stage, note: Note, tools: ToolModel[]): ToolModel | undefined {
  const { editorial, file, agentDir, key } = note;
  const slug = toolSlug(editorial.name);
  if (`${agentDir}/${slug}` !== key) {
    if (slug !== '')
      stage.problems.error(
        file,
        '/name',
        'file-name-matches-slug',
        `notes on ${editorial.name} belong in ${slug}.json`,
      );
    else
      stage.problems.error(
        file,
        '/name',
        'url-name-valid',
        `tool name ${JSON.stringify(editorial.name)} gives an empty URL segment (no letter or digit survives)`,
      );
    return undefined;
  }
  const tool = documentedOnlyTool(editorial, file);
  stage.namePlace.set(tool, { file, pointer: '/name' });
  tools.push(tool);
  return tool;
}

/** A note names the tool of its page, and jobs the job index has (when it could be read). */
function checkNoteReferences(stage: Stage, note: Note, tool: ToolModel, jobIds: ReadonlySet<string> | undefined): void {
  const { editorial, file } = note;
  if (editorial.agent !== tool.agent || editorial.name !== tool.fullName) {
    stage.problems.error(
      file,
      '/name',
      'editorial-names-its-tool',
      `notes name ${editorial.agent}/${editorial.name}, the file belongs to ${tool.agent}/${tool.fullName}`,
    );
  }
  if (!jobIds) return;
  editorial.jobs.forEach((job, i) => {
    if (!jobIds.has(job))
      stage.problems.error(
        file,
        `/jobs/${i}`,
        'known-job',
        `unknown job id ${job} (content/jobs.json has no such job)`,
      );
  });
}
