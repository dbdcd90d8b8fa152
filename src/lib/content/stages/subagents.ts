/**
 * Stage: the tool sets of built-in subagents (content/subagents/<agent>.json, written by
 * `npm run subagents`). A file belongs to the agent it is named after; the tool that starts a
 * subagent and every tool a subagent was offered must be tools of that agent (a new tool in a
 * release stops the build until it has a page); one recorded at another release than the pin
 * is a warning. A tool offered only to subagents (not in the main thread's list: Gemini CLI's
 * complete_task) may have no page: no captured main request shows it.
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { SubagentsFile } from '../../core/content-types.ts';
import type { Subagents, ToolModel } from '../../model/model.ts';
import { toolForCall } from '../../model/tool-names.ts';

export function loadSubagents(
  stage: Stage,
  tools: readonly ToolModel[],
  pins: ReadonlyMap<string, string>,
): Subagents[] {
  const { reader, problems, files } = stage;
  const out: Subagents[] = [];
  for (const path of files.subagents) {
    const file = reader.relContent(path);
    const data = reader.read<SubagentsFile>(path, 'subagents');
    if (!data) continue;
    if (
      !inItsPlace(
        stage,
        path,
        `subagents/${data.agent}.json`,
        '/agent',
        `the subagent tool sets of ${data.agent} belong`,
      )
    )
      continue;
    let sound = true;
    const known = (pointer: string, name: string): void => {
      if (toolForCall(tools, data.agent, name)) return;
      problems.error(file, pointer, 'subagent-tool-known', `${data.agent} has no tool ${name}`);
      sound = false;
    };
    known('/tool', data.tool);
    data.types.forEach((t, i) => {
      t.tools.forEach((name, j) => {
        if (t.mainTools.includes(name)) known(`/types/${i}/tools/${j}`, name);
      });
      t.mainTools.forEach((name, j) => known(`/types/${i}/mainTools/${j}`, name));
    });
    if (!sound) continue;
    const pinned = pins.get(data.agent);
    if (pinned !== undefined && pinned !== data.cli.version)
      problems.warn(
        file,
        `recorded with ${data.cli.version}; content/capture-matrix.json pins ${pinned}: run npm run subagents again`,
      );
    out.push({ ...data, file });
  }
  return out;
}
