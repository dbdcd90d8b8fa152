/**
 * The hook events an agent's published code names: reading a declaration
 * (scripts/lib/hook-events.ts) from texts written here, and the hooks pages
 * against the committed content/hook-events/*.json and content/payloads/ read directly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredEvents } from '../../scripts/lib/hook-events.ts';
import type { AgentId, HookEventsFile, PayloadFile } from '../../src/lib/core/content-types.ts';
import { hooksPage } from '../../src/lib/views/hooks-page.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');

test('a compiled enum gives its members in order, each with its own text', () => {
  const text =
    'x;\nvar Other = ((O) => { O["A"] = "A"; return O; })(Other || {});\nvar HookEventName = /* @__PURE__ */ ((HookEventName2) => {\n  HookEventName2["PreToolUse"] = "PreToolUse";\n  HookEventName2["Stop"] = "Stop";\n  return HookEventName2;\n})(HookEventName || {});\nHookEventName2["Later"] = "Later";';
  assert.deepEqual(declaredEvents(text, { form: 'compiled-enum', name: 'HookEventName' }), [
    { name: 'PreToolUse', says: 'HookEventName2["PreToolUse"] = "PreToolUse"' },
    { name: 'Stop', says: 'HookEventName2["Stop"] = "Stop"' },
  ]);
  assert.equal(declaredEvents(text, { form: 'compiled-enum', name: 'HookType' }), undefined);
  assert.equal(declaredEvents(text, { form: 'union-type', name: 'HookEventName' }), undefined);
});

test('a union type gives its literals in order, each with the doc comment before it', () => {
  const text =
    'export type HookTypeX = "no";\n/** @experimental */\nexport type HookType = \n/** Runs before a tool is invoked. */\n"preToolUse"\n/**\n * Runs before an MCP tool\n * is invoked.\n */\n | "preMcpToolCall"\n | "bare";\nexport type After = "x";';
  assert.deepEqual(declaredEvents(text, { form: 'union-type', name: 'HookType' }), [
    { name: 'preToolUse', says: '"preToolUse": Runs before a tool is invoked.' },
    { name: 'preMcpToolCall', says: '"preMcpToolCall": Runs before an MCP tool is invoked.' },
    { name: 'bare', says: '"bare"' },
  ]);
});

const DIR = join(ROOT, 'content/hook-events');
const lists = (existsSync(DIR) ? readdirSync(DIR) : []).map(
  (f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as HookEventsFile,
);

test('every event about tools that an agent’s code names is on its hooks page, recorded or not recorded with why and where the code names it', () => {
  assert.ok(lists.length > 0, 'committed hook events files');
  const site = realContent();
  for (const list of lists) {
    const page = hooksPage(site, list.agent as AgentId);
    // Recorded events, read from the payload files themselves.
    const payloads = join(ROOT, 'content/payloads', list.agent);
    const recorded = new Set(
      (existsSync(payloads) ? readdirSync(payloads) : []).flatMap((f) =>
        (JSON.parse(readFileSync(join(payloads, f), 'utf8')) as PayloadFile).calls.flatMap((c) =>
          c.hooks.map((h, i) => c.hookEvents?.[i] ?? (h as Record<string, unknown>)['hook_event_name']),
        ),
      ),
    );
    // About tools, by its name (independent of how the module sorts them).
    const aboutTools = list.events.map((e) => e.name).filter((n) => /tool|permission/i.test(n));
    assert.ok(aboutTools.length > 0, list.agent);
    for (const name of aboutTools) {
      const row = page.events.find((e) => e.name === name);
      assert.ok(row, `${list.agent}: ${name} is a row of the events table`);
      if (recorded.has(name)) {
        assert.ok(
          row.recorded && row.recorded.payloads > 0 && row.notRecorded === undefined,
          `${list.agent} ${name} recorded`,
        );
      } else {
        assert.ok(
          row.recorded === undefined && row.notRecorded && row.notRecorded.length > 20,
          `${list.agent} ${name}: not recorded, with why`,
        );
      }
      const says = list.events.find((e) => e.name === name)!.says;
      assert.ok(
        row.evidence.some(
          (e) => e.where === `${list.package} ${list.file}` && e.says === says && e.unpacked === list.unpacked,
        ),
        `${list.agent} ${name}: the code's text as evidence`,
      );
    }
    // Every named event is a row or listed as about no tool call, once.
    const shown = [
      ...page.events.map((e) => e.name).filter((n) => list.events.some((e) => e.name === n)),
      ...page.named!.noToolCall,
    ];
    assert.deepEqual([...shown].sort(), list.events.map((e) => e.name).sort(), list.agent);
    assert.equal(page.named!.count, list.events.length);
  }
});
