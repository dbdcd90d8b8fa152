/**
 * Stage: real payloads (content/payloads/<agent>/<tool>.<scenario>.json, recorded by
 * `npm run payloads`) and the tools no scenario can run (content/scenarios.json
 * `cannotRun`). Runs after captures and editorial: each payload becomes an example on
 * the page of every tool it calls, with its findings against what that page declares
 * (src/lib/check/payload-check.ts); each tool that cannot run here carries the reason.
 */
import type { Stage } from '../context.ts';
import type { PayloadFile, ScenariosFile } from '../../core/content-types.ts';
import type { ToolExample, ToolModel } from '../../model/model.ts';
import { checkPayload, declarationsOf } from '../../check/payload-check.ts';
import { toolForCall } from '../../model/tool-names.ts';
import type { CaptureMatrix } from '../../model/captures.ts';
import { toolSlug } from '../url-names.ts';

/** Tools no scenario can run here (content/scenarios.json `cannotRun`) carry the reason. */
function markNotRun(stage: Stage, scenariosPath: string, tools: readonly ToolModel[]): void {
  const { reader, problems } = stage;
  const file = reader.relContent(scenariosPath);
  const data = reader.read<ScenariosFile>(scenariosPath, 'scenarios');
  for (const [agent, entry] of Object.entries(data?.agents ?? {})) {
    entry!.cannotRun.forEach((group, g) => {
      group.tools.forEach((name, i) => {
        const tool = toolForCall(tools, agent, name);
        if (!tool)
          problems.error(
            file,
            `/agents/${agent}/cannotRun/${g}/tools/${i}`,
            'scenario-tool-known',
            `${agent} has no tool ${name}`,
          );
        else tool.notRun = group.reason;
      });
    });
  }
}

/**
 * The payload as an example on the page of every tool it calls (`#example-<scenario>`), with the findings about that
 * tool's calls.
 */
function showExamples(
  stage: Stage,
  recorded: {
    payload: PayloadFile;
    file: string;
    called: readonly ToolModel[];
    findings: ReturnType<typeof checkPayload>;
  },
  scenariosOn: Map<ToolModel, Map<string, string>>,
): void {
  const { problems } = stage;
  const { payload, file, called, findings } = recorded;
  for (const tool of new Set(called)) {
    const own = (i: number) => called[i] === tool;
    const onPage = scenariosOn.get(tool) ?? scenariosOn.set(tool, new Map()).get(tool)!;
    const other = onPage.get(payload.scenario);
    if (other !== undefined) {
      problems.error(
        file,
        '/scenario',
        'unique-example-id',
        `${tool.fullName}'s page already shows an example ${payload.scenario} (${other})`,
      );
      continue;
    }
    onPage.set(payload.scenario, file);
    const example: ToolExample = {
      file,
      scenario: payload.scenario,
      description: payload.description,
      expect: payload.expect,
      configuration: payload.configuration,
      cli: { package: payload.cli.package, version: payload.cli.version },
      calls: payload.calls.map((call, i) => ({ ...call, own: own(i) })),
      findings: findings.filter((f) => own(f.call)),
    };
    (tool.examples ??= []).push(example);
  }
}

export function attachPayloads(stage: Stage, tools: readonly ToolModel[], matrix: CaptureMatrix | undefined): void {
  const { reader, files } = stage;
  // Each example is `#example-<scenario>` and `examples/<scenario>.json` on the page of every tool it calls.
  const scenariosOn = new Map<ToolModel, Map<string, string>>(); // tool → scenario → file
  if (files.scenarios) markNotRun(stage, files.scenarios, tools);
  for (const [folder, paths] of files.payloads) {
    for (const path of paths) {
      const file = reader.relContent(path);
      const payload = reader.read<PayloadFile>(path, 'payload');
      if (!payload) continue;
      if (!payloadInItsPlace(stage, { path, file, folder }, payload, tools)) continue;
      checkPayloadConfiguration(stage, file, payload, matrix);
      const called = calledTools(stage, file, payload, tools);
      if (!called) continue;
      // The stage's Ajv: a fresh instance per payload compiled the 2020-12 meta-schema again each time.
      const findings = checkPayload(
        payload,
        (name) => {
          const tool = toolForCall(tools, payload.agent, name);
          return tool && declarationsOf(tool);
        },
        stage.definitionAjv,
      );
      showExamples(stage, { payload, file, called, findings }, scenariosOn);
    }
  }
}

/**
 * Whether a payload is filed under its agent, of a tool the agent has, in the file its tool and scenario name
 * (`payloads/<agent>/<tool>.<scenario>.json`); each mistake is reported and the payload goes no further.
 */
function payloadInItsPlace(
  stage: Stage,
  { path, file, folder }: { path: string; file: string; folder: string },
  payload: PayloadFile,
  tools: readonly ToolModel[],
): boolean {
  const { problems } = stage;
  if (payload.agent !== folder) {
    problems.error(
      file,
      '/agent',
      'agent-matches-folder',
      `a payload of ${payload.agent} belongs in content/payloads/${payload.agent}/`,
    );
    return false;
  }
  if (!toolForCall(tools, payload.agent, payload.tool)) {
    problems.error(file, '/tool', 'payload-tool-known', `${payload.agent} has no tool ${payload.tool}`);
    return false;
  }
  const expectedPath = `payloads/${folder}/${toolSlug(payload.tool)}.${payload.scenario}.json`;
  if (path !== expectedPath) {
    problems.error(
      file,
      '/scenario',
      'payload-file-name',
      `the payload of ${payload.tool} scenario ${payload.scenario} belongs in content/${expectedPath}`,
    );
    return false;
  }
  return true;
}

/** A payload was recorded under a configuration the capture matrix has for its agent (when the matrix was read). */
function checkPayloadConfiguration(
  stage: Stage,
  file: string,
  payload: PayloadFile,
  matrix: CaptureMatrix | undefined,
): void {
  const configurations = matrix?.agents[payload.agent as keyof CaptureMatrix['agents']]?.configurations;
  if (configurations && !configurations.some((c) => c.id === payload.configuration)) {
    stage.problems.error(
      file,
      '/configuration',
      'payload-configuration-known',
      `${payload.agent} has no configuration ${payload.configuration} in content/capture-matrix.json`,
    );
  }
}

/** The tool of each call, by call; undefined when a call names no tool of the agent (each such call reported). */
function calledTools(
  stage: Stage,
  file: string,
  payload: PayloadFile,
  tools: readonly ToolModel[],
): ToolModel[] | undefined {
  const called = payload.calls.map((call) => toolForCall(tools, payload.agent, call.tool));
  let known = true;
  called.forEach((tool, i) => {
    if (!tool) {
      stage.problems.error(
        file,
        `/calls/${i}/tool`,
        'payload-tool-known',
        `${payload.agent} has no tool ${payload.calls[i]!.tool}`,
      );
      known = false;
    }
  });
  return known ? (called as ToolModel[]) : undefined;
}
