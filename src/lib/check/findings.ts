/**
 * Findings that checkPayload (payload-check.ts) leaves out, so that every recorded
 * payload is checked against every declared shape and every quoted rule:
 * - a hook's `tool_response` where the hooks name the call another tool (Codex's
 *   exec_command reaches its hooks as `Bash`): it is still this call's result, so it
 *   is checked against the tool's Result rows;
 * - a rule the description sent to the model states (an editorial `modelRules`
 *   entry quoting it) that a recorded call breaks: "You must Read the file … or the
 *   call will fail", and the recorded Edit of a file no earlier call read succeeded.
 * Pure: the loader stage (src/lib/content/stages/findings.ts) applies them to the examples.
 */
import type { ModelRule, PayloadCall } from '../core/content-types.ts';
import { checkAgainstRows, type Declarations, type Finding } from './payload-check.ts';

/** A recorded call as an example holds it. */
export type RecordedCall = PayloadCall & { own: boolean };

/**
 * Each own call's PostToolUse `tool_response`, where the hook names the call another tool,
 * against the tool's Result rows (checkPayload checks it only when the names agree).
 */
export function hookResponseFindings(
  calls: readonly RecordedCall[],
  tool: string,
  declared: Declarations,
  resultName?: string,
): Finding[] {
  if (!declared.resultDeclared) return [];
  const out: Finding[] = [];
  calls.forEach((call, index) => {
    if (!call.own) return;
    const post = call.hooks.find((h) => h.hook_event_name === 'PostToolUse');
    if (!post || !('tool_response' in post) || post['tool_name'] === undefined || post['tool_name'] === call.tool)
      return;
    const named = JSON.stringify(post['tool_name']);
    for (const p of checkAgainstRows(post['tool_response'], declared.resultRows, 'output')) {
      out.push({
        call: index,
        tool,
        parts: ['hook tool_response'],
        ...p,
        message:
          `the PostToolUse hook (which names the call ${named}) receives a result that differs from the ` +
          `declared one${resultName ? ` (${resultName})` : ''}: ${p.message}`,
      });
    }
  });
  return out;
}

/** Does the description sent to the model contain the quote? Compared with runs of white space made one space. */
export function quotes(description: string, quote: string): boolean {
  const squash = (t: string) => t.replace(/\s+/g, ' ').trim();
  return squash(description).includes(squash(quote));
}

/** Own calls of `tool` that break `rule`: each a finding on the model description. */
export function ruleFindings(calls: readonly RecordedCall[], tool: string, rules: readonly ModelRule[]): Finding[] {
  const out: Finding[] = [];
  for (const { quote, rule } of rules) {
    calls.forEach((call, index) => {
      if (!call.own || call.outcome !== 'success' || typeof call.input !== 'object') return;
      const value = call.input[rule.field];
      if (value === undefined) return;
      if (rule.onlyWhere && !sameJson(at(call.toolUseResult, rule.onlyWhere.pointer), rule.onlyWhere.value)) return;
      const earlierField = rule.earlierField ?? rule.field;
      const earlier = calls
        .slice(0, index)
        .some((c) => c.tool === rule.tool && typeof c.input === 'object' && sameJson(c.input[earlierField], value));
      if (earlier) return;
      const where = rule.onlyWhere
        ? ` (its result has ${rule.onlyWhere.pointer} = ${JSON.stringify(rule.onlyWhere.value)})`
        : '';
      out.push({
        call: index,
        tool,
        parts: ['input', 'tool_use_result'],
        kind: 'rule-contradicted',
        anchor: 'model-description',
        pointer: `/${rule.field}`,
        message:
          `the description sent to the model says “${quote}”, but in this recorded run no earlier ` +
          `${rule.tool} call had ${earlierField} ${JSON.stringify(value)}, and the call succeeded${where}`,
      });
    });
  }
  return out;
}

function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let here = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
