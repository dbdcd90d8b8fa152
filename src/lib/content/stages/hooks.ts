/**
 * Stage: editorial facts of the hooks pages (content/hooks/<agent>.json): when
 * each event fires, the matcher syntax, where hooks are configured, each with its
 * evidence. A file belongs to the agent it is named after; an event is described
 * once; a payload given as evidence must be a recorded payload of the content; a
 * project file must exist; a package given as evidence must be the agent's own (a release other than the
 * pinned one is a warning: the fact should be checked again).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Stage } from '../context.ts';
import type { Evidence, HooksFile } from '../../content-types.ts';
import type { HooksEditorial } from '../../model.ts';
import { AGENTS, isAgentId } from '../../agents/index.ts';

export function loadHooksEditorial(stage: Stage, matrixVersions: ReadonlyMap<string, string>): HooksEditorial[] {
  const { reader, problems, files } = stage;
  const payloads = new Set([...files.payloads.values()].flat());
  const out: HooksEditorial[] = [];
  for (const path of files.hooks) {
    const file = reader.relContent(path);
    const data = reader.read<HooksFile>(path, 'hooks');
    if (!data) continue;
    if (path !== `hooks/${data.agent}.json`) {
      problems.error(file, '/agent', 'file-name-matches-id', `hooks facts of ${data.agent} belong in content/hooks/${data.agent}.json`);
      continue;
    }
    let ok = true;
    const checkEvidence = (list: readonly Evidence[], at: string): void => {
      list.forEach((e, i) => {
        const pointer = `${at}/evidence/${i}`;
        if (e.kind === 'payload') {
          if (!payloads.has(e.file) || !e.file.startsWith(`payloads/${data.agent}/`)) {
            problems.error(file, `${pointer}/file`, 'evidence-payload-recorded', `content/${e.file} is not a recorded payload of ${data.agent}`);
            ok = false;
          }
          return;
        }
        if (e.kind === 'project') {
          if (!existsSync(join(reader.root, e.file))) {
            problems.error(file, `${pointer}/file`, 'evidence-file-exists', `${e.file} does not exist in this project`);
            ok = false;
          }
          return;
        }
        const sign = e.package.lastIndexOf('@');
        const name = e.package.slice(0, sign);
        const version = e.package.slice(sign + 1);
        const own = isAgentId(data.agent) ? AGENTS[data.agent].npmPackage : undefined;
        if (name !== own) {
          problems.error(file, `${pointer}/package`, 'evidence-package-of-agent', `${name} is not ${data.agent}'s package (${own ?? 'none'})`);
          ok = false;
          return;
        }
        const pinned = matrixVersions.get(data.agent);
        if (pinned !== undefined && pinned !== version) {
          problems.warn(file, `evidence at ${pointer} was read in ${e.package}; content/capture-matrix.json pins ${pinned}: check it again`);
        }
      });
    };
    const seen = new Map<string, number>();
    data.events.forEach((event, i) => {
      const other = seen.get(event.name);
      if (other !== undefined) {
        problems.error(file, `/events/${i}/name`, 'unique-hook-event', `event ${event.name} is already described at /events/${other}`);
        ok = false;
      } else seen.set(event.name, i);
      checkEvidence(event.evidence, `/events/${i}`);
    });
    if (data.configuration) checkEvidence(data.configuration.evidence, '/configuration');
    if (data.matcher) checkEvidence(data.matcher.evidence, '/matcher');
    if (data.input) checkEvidence(data.input.evidence, '/input');
    if (ok) out.push({ ...data, file });
  }
  return out;
}
