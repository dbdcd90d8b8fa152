/**
 * The loader's last stage: what the evidence says of each tool beyond its own files (model/tool-facts.ts), computed
 * once per tool from its agent's bundle, so that the pages only arrange and word it. Pure but for setting `facts`.
 */
import { hasHookInput } from '../agents/hook-shape.ts';
import { hookRecord } from '../behaviour/hook-record.ts';
import { outputCheck } from '../behaviour/hook-outputs.ts';
import { permissionCasesOf } from '../behaviour/permissions.ts';
import { subagentLine, subagentTable } from '../behaviour/subagents.ts';
import { firstHookPayload, hookToolNames } from '../behaviour/tool-hook-payloads.ts';
import { checkModelInput } from '../check/payload-check.ts';
import { payloadCheckTarget } from '../check/payload-check-ui.ts';
import type { HistoryFile } from '../core/content-types.ts';
import { compareVersions } from '../core/version-order.ts';
import { releaseUrl } from '../history/changelog-addresses.ts';
import { fieldSince, formerNames, versionNotes } from '../history/history.ts';
import { toolHistory, untrackedBy } from '../history/tool-history.ts';
import type { ToolHistoryFacts } from '../model/history-facts.ts';
import { agentBundles, type AgentBundle } from '../model/bundles.ts';
import type { SiteModel, ToolModel } from '../model/model.ts';
import type { HookRecord, PayloadCheckRecord, PayloadCheckTarget } from '../model/payload-check-record.ts';
import type { ToolFacts } from '../model/tool-facts.ts';
import { callableNames, everyName } from '../model/tool-names.ts';
import { toolSchema } from '../site/tool-exports.ts';
import { AGENT_LABELS } from '../site/site.ts';

/** `Claude Code 2.1.332`, or `Claude Code 2.1.331, 2.1.332`: the releases that recorded the tool's examples. */
export function examplesRelease(tool: ToolModel): string | undefined {
  const versions = [...new Set((tool.examples ?? []).map((e) => e.cli.version))].sort(compareVersions);
  return versions.length > 0 ? `${AGENT_LABELS[tool.agent]} ${versions.join(', ')}` : undefined;
}

/**
 * The hook payloads recorded for a tool's own calls, as its checker reads them:
 * a recorded tool_input is the model's input unless the schema the checker uses
 * finds fault with it that it does not find with the call's input.
 */
export function checkedHookRecord(
  tool: ToolModel,
  target: PayloadCheckTarget,
  hooks: Pick<AgentBundle, 'hookShape' | 'hookMechanism' | 'hookOutputs'>,
): HookRecord {
  const calls = (tool.examples ?? []).flatMap((e) => e.calls.filter((c) => c.own));
  const shape = hooks.hookShape;
  if (!shape) return { names: [], count: 0 };
  // The answers the tool's hooks may give, before and after its calls.
  const check = outputCheck(hooks.hookOutputs, [
    shape.before,
    shape.after,
    ...(shape.afterFailure ? [shape.afterFailure] : []),
  ]);
  const outputs = check ? { outputs: check } : {};
  const fields = {
    event: shape.eventField,
    toolName: shape.toolNameField,
    input: shape.inputField,
    inputEncoding: shape.inputEncoding,
  };
  // The agent's other forms, from its declared shapes: the after-call input (OpenCode's input.args), then the other
  // shapes (Copilot CLI's PascalCase payloads).
  const others = hooks.hookMechanism?.otherShapes ?? [];
  const otherFields = [
    ...(shape.afterInputField ? [{ ...fields, input: shape.afterInputField }] : []),
    ...others.map((s) => ({
      event: s.eventField,
      toolName: s.toolNameField,
      input: s.inputField,
      inputEncoding: s.inputEncoding,
    })),
  ];
  const withOthers = otherFields.length > 0 ? { fields, otherFields } : { fields };
  if (!calls.some((c) => c.hooks.some((h) => hasHookInput(h, shape))))
    return { names: [], count: 0, ...withOthers, ...outputs };
  const schema = toolSchema(tool, target.section, {});
  const rows = target.section === 'model-input' ? (tool.modelInput?.view.rows ?? []) : tool.input.rows;
  const problems = (value: unknown) =>
    schema
      ? checkModelInput(value, schema, { root: target.section, rows }).map((p) => `${p.pointer} ${p.message}`)
      : [];
  // The tool's hook schema and its validator, beside the page (pages/[agent]/[tool]/hooks.schema.json.ts,
  // validate-hooks.js.ts).
  return {
    ...hookRecord(calls, shape, problems, examplesRelease(tool), others),
    ...withOthers,
    schema: 'hooks.schema.json',
    validator: 'validate-hooks.js',
    ...outputs,
  };
}

/** What the tool's "Check a payload" form checks, under which names, with its recorded hook payloads. */
function payloadCheckRecord(tool: ToolModel, bundle: AgentBundle): PayloadCheckRecord | undefined {
  const target = payloadCheckTarget(tool);
  if (!target) return undefined;
  return { target, names: callableNames(tool), hook: checkedHookRecord(tool, target, bundle) };
}

/** What the agent's histories say of the tool: its former names, its fields' "since", its place and its notes. */
export function toolHistoryFacts(tool: ToolModel, histories: readonly HistoryFile[]): ToolHistoryFacts {
  return {
    formerNames: formerNames(tool, histories),
    fieldSince: fieldSince(tool, histories),
    place: toolHistory(tool, histories),
    notes: versionNotes(tool, histories).map((group) => ({
      ...group,
      releaseUrl: releaseUrl(tool.agent, group.release, histories),
    })),
    untracked: untrackedBy(tool, histories),
  };
}

/** One tool's facts, from its agent's bundle. */
export function toolFacts(tool: ToolModel, bundle: AgentBundle): ToolFacts {
  return {
    callableNames: callableNames(tool),
    everyName: everyName(tool),
    examplesRelease: examplesRelease(tool),
    payloadCheck: payloadCheckRecord(tool, bundle),
    history: toolHistoryFacts(tool, bundle.histories),
    hooks: {
      names: hookToolNames(tool.agent, tool.examples ?? []),
      firstPayload: firstHookPayload(tool, bundle.hookShape),
    },
    subagents: { table: subagentTable(bundle, tool), line: subagentLine(bundle, tool) },
    permissionCases: permissionCasesOf(bundle, tool),
  };
}

/** Sets every tool's facts, once every source is read. */
export function attachToolFacts(model: SiteModel): void {
  for (const bundle of agentBundles(model).values())
    for (const tool of bundle.tools) tool.facts = toolFacts(tool, bundle);
}
