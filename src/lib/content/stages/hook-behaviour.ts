/**
 * Stage: hook behaviour records (content/hook-behaviour/<agent>/<case>.json, written by
 * `npm run hook-behaviour`). A record belongs to the agent and case it is named after,
 * to a case content/hook-cases.json declares, and to a tool of its agent; one recorded at
 * another release than the pin is a warning (record it again). Records are kept in the
 * order the case file declares them, which is the order the pages show.
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { HookCaseFile, HookCasesFile } from '../../core/content-types.ts';
import type { HookBehaviourRecord, ToolModel } from '../../model/model.ts';
import { toolForCall } from '../../model/tool-names.ts';

export function loadHookBehaviour(
  stage: Stage,
  tools: readonly ToolModel[],
  pins: ReadonlyMap<string, string>,
): HookBehaviourRecord[] {
  const { reader, problems, files } = stage;
  const declared = new Map<string, number>(); // agent/case → order
  if (files.hookCases) {
    const cases = reader.read<HookCasesFile>(files.hookCases, 'hookCases');
    for (const [agent, entry] of Object.entries(cases?.agents ?? {}))
      entry!.cases.forEach((c) => declared.set(`${agent}/${c.id}`, declared.size));
  }
  const out: HookBehaviourRecord[] = [];
  for (const path of files.hookBehaviour) {
    const file = reader.relContent(path);
    const data = reader.read<HookCaseFile>(path, 'hookCase');
    if (!data) continue;
    if (
      !inItsPlace(
        stage,
        path,
        `hook-behaviour/${data.agent}/${data.case}.json`,
        '/case',
        `the record of ${data.agent} case ${data.case} belongs`,
      )
    )
      continue;
    if (!declared.has(`${data.agent}/${data.case}`)) {
      problems.error(
        file,
        '/case',
        'hook-case-declared',
        `content/hook-cases.json declares no case ${data.case} for ${data.agent}`,
      );
      continue;
    }
    if (!toolForCall(tools, data.agent, data.tool)) {
      problems.error(file, '/tool', 'hook-case-tool-known', `${data.agent} has no tool ${data.tool}`);
      continue;
    }
    const pinned = pins.get(data.agent);
    if (pinned !== undefined && pinned !== data.cli.version)
      problems.warn(
        file,
        `recorded with ${data.cli.version}; content/capture-matrix.json pins ${pinned}: run npm run ` +
          `hook-behaviour again`,
      );
    out.push({ ...data, file });
  }
  return out.sort((a, b) => declared.get(`${a.agent}/${a.case}`)! - declared.get(`${b.agent}/${b.case}`)!);
}
