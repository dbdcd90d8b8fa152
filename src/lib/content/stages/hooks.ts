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
import { type Stage, inItsPlace } from '../context.ts';
import type { Evidence, HookEventsFile, HooksFile } from '../../core/content-types.ts';
import type { HookEventsList, HooksEditorial } from '../../model/model.ts';
import { AGENTS, agentPackages, isAgentId } from '../../agents/index.ts';
import type { NamedHookEvents } from '../../agents/types.ts';

/**
 * Checks the evidence of one fact of an agent's hooks file: a payload must be a recorded
 * payload of the agent, a project file must exist, a package must be the agent's own (a
 * release other than the pinned one is a warning). False when any item is refused.
 */
function evidenceHolds(
  stage: Stage,
  context: { file: string; agent: string; payloads: ReadonlySet<string>; pinned: string | undefined },
  list: readonly Evidence[],
  at: string,
): boolean {
  const { reader, problems } = stage;
  const { file, agent, payloads, pinned } = context;
  let ok = true;
  list.forEach((e, i) => {
    const pointer = `${at}/evidence/${i}`;
    if (e.kind === 'payload') {
      if (!payloads.has(e.file) || !e.file.startsWith(`payloads/${agent}/`)) {
        problems.error(
          file,
          `${pointer}/file`,
          'evidence-payload-recorded',
          `content/${e.file} is not a recorded payload of ${agent}`,
        );
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
    // Its own package, or a standalone one that holds the release (Factory Droid's pin is only in
    // @factory/cli-linux-x64).
    const own = isAgentId(agent) ? agentPackages(agent) : [];
    if (!own.includes(name)) {
      problems.error(
        file,
        `${pointer}/package`,
        'evidence-package-of-agent',
        `${name} is not ${agent}'s package (${own.join(', ') || 'none'})`,
      );
      ok = false;
      return;
    }
    if (pinned !== undefined && pinned !== version) {
      problems.warn(
        file,
        `evidence at ${pointer} was read in ${e.package}; content/capture-matrix.json pins ${pinned}: check it again`,
      );
    }
  });
  return ok;
}

export function loadHooksEditorial(stage: Stage, matrixVersions: ReadonlyMap<string, string>): HooksEditorial[] {
  const { reader, problems, files } = stage;
  const payloads = new Set([...files.payloads.values()].flat());
  const out: HooksEditorial[] = [];
  for (const path of files.hooks) {
    const file = reader.relContent(path);
    const data = reader.read<HooksFile>(path, 'hooks');
    if (!data) continue;
    if (!inItsPlace(stage, path, `hooks/${data.agent}.json`, '/agent', `hooks facts of ${data.agent} belong`)) continue;
    const context = { file, agent: data.agent, payloads, pinned: matrixVersions.get(data.agent) };
    // Every item is checked (each refusal is reported), so no check is skipped once one fails.
    const checks: boolean[] = [];
    const seen = new Map<string, number>();
    data.events.forEach((event, i) => {
      const other = seen.get(event.name);
      if (other !== undefined) {
        problems.error(
          file,
          `/events/${i}/name`,
          'unique-hook-event',
          `event ${event.name} is already described at /events/${other}`,
        );
        checks.push(false);
      } else seen.set(event.name, i);
      checks.push(evidenceHolds(stage, context, event.evidence, `/events/${i}`));
    });
    if (data.configuration) checks.push(evidenceHolds(stage, context, data.configuration.evidence, '/configuration'));
    if (data.matcher) checks.push(evidenceHolds(stage, context, data.matcher.evidence, '/matcher'));
    if (data.input) checks.push(evidenceHolds(stage, context, data.input.evidence, '/input'));
    if (checks.every(Boolean)) out.push({ ...data, file });
  }
  return out;
}

/**
 * content/hook-events/<agent>.json (written by `npm run hook-events`): the file belongs to
 * the agent it is named after, which declares where its events come from
 * (HookMechanism.named); the package is the agent's own (another release than the pinned one
 * is a warning); and every event it names is sorted by the agent's module, as recorded
 * (HookMechanism.events), not recorded (named.notRecorded) or about no tool call
 * (named.noToolCall), while every event the module sorts is named in the file. A new event
 * in a new release thus stops the build until its module says what it is.
 */
export function loadHookEvents(stage: Stage, matrixVersions: ReadonlyMap<string, string>): HookEventsList[] {
  const { reader, problems, files } = stage;
  const out: HookEventsList[] = [];
  for (const path of files.hookEvents) {
    const file = reader.relContent(path);
    const data = reader.read<HookEventsFile>(path, 'hookEvents');
    if (!data) continue;
    if (!inItsPlace(stage, path, `hook-events/${data.agent}.json`, '/agent', `hook events of ${data.agent} belong`))
      continue;
    const hooks = isAgentId(data.agent) ? AGENTS[data.agent].hooks : undefined;
    const mechanism = hooks && !('none' in hooks) ? hooks : undefined;
    if (!mechanism?.named) {
      problems.error(
        file,
        '',
        'hook-events-source-declared',
        `${data.agent}'s registry module declares no source of its hook events (HookMechanism.named): remove the ` +
          `file or declare it`,
      );
      continue;
    }
    let ok = true;
    const sign = data.package.lastIndexOf('@');
    const [name, version] = [data.package.slice(0, sign), data.package.slice(sign + 1)];
    if (!agentPackages(data.agent).includes(name)) {
      problems.error(
        file,
        '/package',
        'evidence-package-of-agent',
        `${name} is not ${data.agent}'s package (${agentPackages(data.agent).join(', ')})`,
      );
      ok = false;
    }
    const pinned = matrixVersions.get(data.agent);
    if (pinned !== undefined && pinned !== version)
      problems.warn(
        file,
        `read in ${data.package}; content/capture-matrix.json pins ${pinned}: run npm run hook-events -- ` +
          `--agent ${data.agent}`,
      );
    if (!eventsSorted(stage, file, data, { recorded: mechanism.events, named: mechanism.named })) ok = false;
    if (ok) out.push({ ...data, contentFile: file });
  }
  return out;
}

/**
 * Whether every event the file names is sorted by the agent's module (recorded, not recorded, about no tool call) and
 * every event the module lists as not recorded or about no tool call is named in the file; each gap is reported.
 */
function eventsSorted(
  stage: Stage,
  file: string,
  data: HookEventsFile,
  module: { recorded: readonly string[]; named: NamedHookEvents },
): boolean {
  const { notRecorded, noToolCall } = module.named;
  let ok = true;
  const sorted = new Set([...module.recorded, ...Object.keys(notRecorded), ...noToolCall]);
  data.events.forEach((e, i) => {
    if (sorted.has(e.name)) return;
    stage.problems.error(
      file,
      `/events/${i}/name`,
      'hook-event-sorted',
      `${data.agent}'s code names the hook event ${e.name}, which its registry module ` +
        `(src/lib/agents/${data.agent}.ts, hooks.named) neither records nor lists as not recorded or ` +
        `about no tool call`,
    );
    ok = false;
  });
  const named = new Set(data.events.map((e) => e.name));
  for (const e of [...Object.keys(notRecorded), ...noToolCall]) {
    if (named.has(e)) continue;
    stage.problems.error(
      file,
      '/events',
      'hook-event-named',
      `${data.agent}'s registry module sorts the hook event ${e}, which ${data.package} does not name`,
    );
    ok = false;
  }
  return ok;
}
