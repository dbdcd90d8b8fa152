/**
 * Stage: hook behaviour over releases (content/hook-behaviour-history/<agent>.json, written
 * by `npm run hook-behaviour-history`). A history belongs to the agent it is named after; its
 * cases are cases content/hook-cases.json declares; every release it read, and every release
 * a span or change names, is one it lists; a history ending at another release than the pin
 * is a warning (run it again).
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { HookBehaviourHistoryFile, HookCasesFile } from '../../core/content-types.ts';
import type { HookBehaviourHistory } from '../../model/model.ts';
import { jsonPointer } from '../../core/json.ts';

export function loadHookBehaviourHistories(stage: Stage, pins: ReadonlyMap<string, string>): HookBehaviourHistory[] {
  const { reader, problems, files } = stage;
  const declared = new Set<string>(); // agent/case
  if (files.hookCases) {
    const cases = reader.read<HookCasesFile>(files.hookCases, 'hookCases');
    for (const [agent, entry] of Object.entries(cases?.agents ?? {}))
      for (const c of entry!.cases) declared.add(`${agent}/${c.id}`);
  }
  const out: HookBehaviourHistory[] = [];
  for (const path of files.hookBehaviourHistory) {
    const file = reader.relContent(path);
    const data = reader.read<HookBehaviourHistoryFile>(path, 'hookBehaviourHistory');
    if (!data) continue;
    if (
      !inItsPlace(
        stage,
        path,
        `hook-behaviour-history/${data.agent}.json`,
        '/agent',
        `the hook behaviour history of ${data.agent} belongs`,
      )
    )
      continue;
    if (!historySound(stage, file, data, declared)) continue;
    const pinned = pins.get(data.agent);
    if (pinned !== undefined && pinned !== data.pin)
      problems.warn(
        file,
        `ends at ${data.pin}; content/capture-matrix.json pins ${pinned}: run npm run hook-behaviour-history again`,
      );
    out.push({ ...data, file });
  }
  return out;
}

/**
 * Whether a history's cases are declared and every release it read, or a span or change names, is one it lists or
 * read (rules `hook-case-declared`, `release-listed`); every mistake is reported.
 */
function historySound(
  stage: Stage,
  file: string,
  data: HookBehaviourHistoryFile,
  declared: ReadonlySet<string>,
): boolean {
  const listed = new Set(data.releases);
  const read = new Set(data.read);
  let sound = true;
  const check = (pointer: string, version: string, among: ReadonlySet<string>, what: string): void => {
    if (among.has(version)) return;
    stage.problems.error(file, pointer, 'release-listed', `${version} is not one of the ${what}`);
    sound = false;
  };
  data.read.forEach((v, i) => check(`/read/${i}`, v, listed, 'releases the history lists'));
  for (const [id, spans] of Object.entries(data.cases)) {
    const pointer = jsonPointer('/cases', id);
    if (!declared.has(`${data.agent}/${id}`)) {
      stage.problems.error(
        file,
        pointer,
        'hook-case-declared',
        `content/hook-cases.json declares no case ${id} for ${data.agent}`,
      );
      sound = false;
    }
    spans!.forEach((s, i) =>
      s.read.forEach((v, j) => check(`${pointer}/${i}/read/${j}`, v, read, 'releases the history read')),
    );
  }
  data.changes.forEach((c, i) =>
    c.between.forEach((v, j) => check(`/changes/${i}/between/${j}`, v, read, 'releases the history read')),
  );
  return sound;
}
