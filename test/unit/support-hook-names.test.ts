/**
 * The support strip's "In hooks" names (support.ts hookToolNames) are read from the member
 * each agent's hook mechanism declares (agents/*.ts HookShape `toolNameField`), for every
 * agent and every payload shape it declares: payloads built here from the declaration alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENTS } from '../../src/lib/agents/index.ts';
import type { HookShape } from '../../src/lib/agents/types.ts';
import { hookToolNames } from '../../src/lib/behaviour/tool-hook-payloads.ts';

/** An object with `value` at the dotted path `field` (`input.tool` → `{ input: { tool } }`). */
function withMember(target: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const keys = field.split('.');
  let at = target;
  for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[keys[keys.length - 1]!] = value;
  return target;
}

for (const [id, agent] of Object.entries(AGENTS)) {
  const hooks = agent.hooks;
  if ('none' in hooks) continue;
  const shapes: HookShape[] = [hooks.shape, ...(hooks.otherShapes ?? [])];
  test(`${id}: the tool's name in hooks is read from each declared shape's ${shapes.map((s) => s.toolNameField).join(' / ')}`, () => {
    const expected: string[] = [];
    const calls = shapes.map((shape, i) => {
      const name = `Tool${i}_${id}`;
      expected.push(name);
      // A before- and an after-payload of the shape; the event is the payload's own member where it has one, else
      // recorded beside it.
      const payloads = [shape.before, shape.after].map((event) => {
        const p: Record<string, unknown> = {};
        if (shape.eventField !== undefined) withMember(p, shape.eventField, event);
        withMember(p, shape.toolNameField, name);
        // A decoy under the other agents' usual member, which this shape does not declare.
        if (shape.toolNameField !== 'tool_name') p['tool_name'] = `decoy_${id}`;
        return p;
      });
      return {
        own: true,
        hooks: payloads,
        hookEvents: shape.eventField === undefined ? [shape.before, shape.after] : undefined,
      };
    });
    // A call of another tool in the same scenario does not lend its names.
    const other = {
      own: false,
      hooks: [withMember({}, hooks.shape.toolNameField, 'Other')],
      hookEvents: [hooks.shape.before],
    };
    assert.deepEqual(hookToolNames(id, [{ calls: [...calls, other] }]), expected);
    assert.deepEqual(hookToolNames(id, []), []);
  });
}
