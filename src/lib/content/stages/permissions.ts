/**
 * Stage: permission records (content/permissions/<agent>/<case>.json, written by
 * `npm run permissions`). A record belongs to the agent and case it is named after, to a
 * case content/permission-cases.json declares, and to a tool of its agent; one recorded at
 * another release than the pin is a warning (record it again). Records are kept in the
 * order the case file declares them, which is the order the pages show.
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { PermissionCasesFile, PermissionFile } from '../../core/content-types.ts';
import type { PermissionRecord, ToolModel } from '../../model/model.ts';
import { toolForCall } from '../../model/tool-names.ts';

export function loadPermissions(
  stage: Stage,
  tools: readonly ToolModel[],
  pins: ReadonlyMap<string, string>,
): PermissionRecord[] {
  const { reader, problems, files } = stage;
  const { declared, notes } = declaredCases(stage);
  const out: PermissionRecord[] = [];
  for (const path of files.permissions) {
    const file = reader.relContent(path);
    const data = reader.read<PermissionFile>(path, 'permission');
    if (!data) continue;
    if (
      !inItsPlace(
        stage,
        path,
        `permissions/${data.agent}/${data.case}.json`,
        '/case',
        `the record of ${data.agent} case ${data.case} belongs`,
      )
    )
      continue;
    if (!declared.has(`${data.agent}/${data.case}`)) {
      problems.error(
        file,
        '/case',
        'permission-case-declared',
        `content/permission-cases.json declares no case ${data.case} for ${data.agent}`,
      );
      continue;
    }
    const tool = toolForCall(tools, data.agent, data.tool);
    if (!tool) {
      problems.error(file, '/tool', 'permission-case-tool-known', `${data.agent} has no tool ${data.tool}`);
      continue;
    }
    if (!outcomeFollows(stage, file, data)) continue;
    const pinned = pins.get(data.agent);
    if (pinned !== undefined && pinned !== data.cli.version)
      problems.warn(
        file,
        `recorded with ${data.cli.version}; content/capture-matrix.json pins ${pinned}: run npm run permissions again`,
      );
    const note = notes.get(`${data.agent}/${data.case}`);
    out.push({ ...data, file, toolSlug: tool.slug, ...(note === undefined ? {} : { note }) });
  }
  return out.sort((a, b) => declared.get(`${a.agent}/${a.case}`)! - declared.get(`${b.agent}/${b.case}`)!);
}

/** The cases content/permission-cases.json declares (`agent/case` → its place in the file) and their notes. */
function declaredCases(stage: Stage): { declared: Map<string, number>; notes: Map<string, string> } {
  const declared = new Map<string, number>();
  const notes = new Map<string, string>();
  if (!stage.files.permissionCases) return { declared, notes };
  const cases = stage.reader.read<PermissionCasesFile>(stage.files.permissionCases, 'permissionCases');
  for (const [agent, entry] of Object.entries(cases?.agents ?? {})) {
    for (const c of entry!.cases) {
      declared.set(`${agent}/${c.id}`, declared.size);
      if (c.note !== undefined) notes.set(`${agent}/${c.id}`, c.note);
    }
  }
  return { declared, notes };
}

/**
 * Whether the record's outcome is what its side effect and result say (rule `permission-outcome-follows`): a record
 * that
 * says otherwise was edited.
 */
function outcomeFollows(stage: Stage, file: string, data: PermissionFile): boolean {
  const expected = data.sideEffect.happened ? 'ran' : data.modelSaw.result === null ? 'no-result' : 'did-not-run';
  if (data.outcome === expected) return true;
  stage.problems.error(
    file,
    '/outcome',
    'permission-outcome-follows',
    `the side effect ${data.sideEffect.happened ? 'happened' : 'did not happen'} and ` +
      `${data.modelSaw.result === null ? 'no result' : 'a result'} reached the model, so the outcome is ${expected}, ` +
      `not ${data.outcome}`,
  );
  return false;
}
