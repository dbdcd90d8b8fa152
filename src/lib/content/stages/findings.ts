/**
 * Stage: the findings checkPayload leaves out (src/lib/check/findings.ts), added to each
 * tool's examples after the payloads stage: hook results under another tool name,
 * and quoted model-facing rules that a recorded call breaks. A quoted rule must be
 * in a description the tool is sent with (rule `model-rule-quoted`).
 */
import type { Stage } from '../context.ts';
import type { ToolModel } from '../../model/model.ts';
import { declarationsOf } from '../../check/payload-check.ts';
import { hookResponseFindings, quotes, ruleFindings } from '../../check/findings.ts';

export function addFindings(stage: Stage, tools: readonly ToolModel[]): void {
  for (const tool of tools) {
    const rules = tool.editorial?.modelRules ?? [];
    const descriptions = [...(tool.captured?.byConfig.values() ?? [])].map((t) => t.description ?? '');
    rules.forEach((r, i) => {
      if (!descriptions.some((d) => quotes(d, r.quote))) {
        stage.problems.error(
          tool.files.editorial!,
          `/modelRules/${i}/quote`,
          'model-rule-quoted',
          `${tool.fullName}: no captured description of the tool contains this quote`,
        );
      }
    });
    if (!tool.examples?.length) continue;
    const declared = declarationsOf(tool);
    const output = tool.output.definition;
    const resultName = output.kind === 'typescript' ? output.typeName : undefined;
    for (const example of tool.examples) {
      example.findings.push(
        ...hookResponseFindings(example.calls, tool.fullName, declared, resultName),
        ...ruleFindings(example.calls, tool.fullName, rules),
      );
      example.findings.sort((a, b) => a.call - b.call);
    }
  }
}
