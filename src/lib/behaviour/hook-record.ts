/**
 * Build time: what the site recorded of the hook payloads of a tool's calls
 * (content/payloads/), read through the agent's hook shape (hook-shape.ts), for
 * the "Check a payload" form of its page: the tool names the hooks gave the
 * tool, how many payloads carry a tool_input (a JSON-text input decoded),
 * and — when the recorded tool_input is not the model's input — its form: the
 * fields the recorded ones hold, with their JSON types.
 *
 * "Not the model's input": the schema the form checks against rejects a
 * recorded hook tool_input for a reason the call's own input (what the model
 * sent) does not have. A CLI that fills in a default before its hooks run
 * still sends the model's input; one whose hooks see the call under another
 * name with fields of their own (Codex CLI: exec_command's `cmd` reaches the
 * hooks of `Bash` as `command`) does not. Masked values (`"$WORKDIR"`) are
 * not type-checked: `problems` leaves them out, and the form does not type them.
 */
import type { PayloadCall } from '../core/content-types.ts';
import { hasHookInput, hookInput, hookToolName, type HookShape } from '../agents/hook-shape.ts';
import { isPlaceholder } from '../check/payload-check.ts';
import { jsonType, type HookForm, type HookRecord } from '../check/payload-check-ui.ts';

/** JSON with object keys in order: two payloads that differ only in key order are the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const formType = (v: unknown) => (typeof v === 'number' ? 'number' : jsonType(v));

/** The form of some tool_inputs: their JSON types, and for objects each field (in order of first sight). */
export function formOf(inputs: readonly unknown[]): HookForm {
  const types = new Set<string>();
  const fields = new Map<string, { types: Set<string>; seen: number }>();
  let objects = 0;
  for (const input of inputs) {
    types.add(formType(input));
    if (input === null || typeof input !== 'object' || Array.isArray(input)) continue;
    objects++;
    for (const [name, value] of Object.entries(input)) {
      const field = fields.get(name) ?? { types: new Set<string>(), seen: 0 };
      field.seen++;
      if (!isPlaceholder(value)) field.types.add(formType(value));
      fields.set(name, field);
    }
  }
  return {
    types: [...types],
    fields: [...fields].map(([name, f]) => ({ name, types: [...f.types], always: f.seen === objects })),
  };
}

/**
 * What was recorded of the hooks of `calls` (this tool's own calls). `problems`
 * gives what the checked schema finds wrong with a value (masked values left
 * out), as comparable strings; `release` names what recorded them.
 */
export function hookRecord(
  calls: readonly PayloadCall[],
  shape: HookShape,
  problems: (value: unknown) => readonly string[],
  release?: string,
  others: readonly HookShape[] = [],
): HookRecord {
  const names: string[] = [];
  const inputs: unknown[] = [];
  let differs = false;
  for (const call of calls) {
    let callProblems: Set<string> | undefined;
    for (const hook of call.hooks) {
      // A payload in another of the agent's forms (Copilot CLI's VS Code-compatible hooks) is read through that form.
      const own = [shape, ...others].find((s) => hasHookInput(hook, s));
      if (!own) continue;
      const name = hookToolName(hook, own);
      if (name !== undefined && !names.includes(name)) names.push(name);
      const input = hookInput(hook, own);
      inputs.push(input);
      if (differs || canonical(input) === canonical(call.input)) continue;
      callProblems ??= new Set(problems(call.input));
      if (problems(input).some((p) => !callProblems!.has(p))) differs = true;
    }
  }
  const record: HookRecord = { names, count: inputs.length };
  if (release !== undefined && inputs.length > 0) record.release = release;
  if (differs) record.form = formOf(inputs);
  return record;
}
