/**
 * Stage: what an agent's hooks may return (content/hook-outputs/<agent>.json, written by
 * `npm run hook-outputs` from the agent's published code). A file belongs to the agent it is
 * named after; each event appears once, and its schema must compile as JSON Schema 2020-12
 * (with the lenient instance upstream definitions get): a schema the site cannot check a
 * hook's answer against is refused here, naming its pointer.
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { HookOutputsFile } from '../../core/content-types.ts';
import type { HookOutputs } from '../../model/model.ts';
import { compileDefinition } from '../../check/definition-ajv.ts';

export function loadHookOutputs(stage: Stage): HookOutputs[] {
  const { reader, problems, files, definitionAjv } = stage;
  const out: HookOutputs[] = [];
  for (const path of files.hookOutputs) {
    const file = reader.relContent(path);
    const data = reader.read<HookOutputsFile>(path, 'hookOutputs');
    if (!data) continue;
    if (
      !inItsPlace(stage, path, `hook-outputs/${data.agent}.json`, '/agent', `the hook outputs of ${data.agent} belong`)
    )
      continue;
    let sound = true;
    const seen = new Set<string>();
    ('events' in data ? data.events : []).forEach((e, i) => {
      if (seen.has(e.event)) {
        problems.error(file, `/events/${i}/event`, 'hook-output-event-once', `${e.event} has an output schema already`);
        sound = false;
      }
      seen.add(e.event);
      try {
        compileDefinition(definitionAjv, e.schema);
      } catch (error) {
        problems.error(
          file,
          `/events/${i}/schema`,
          'hook-output-schema-compiles',
          `the output schema of ${e.event} does not compile: ${(error as Error).message}`,
        );
        sound = false;
      }
    });
    if (sound) out.push({ ...data, file });
  }
  return out;
}
