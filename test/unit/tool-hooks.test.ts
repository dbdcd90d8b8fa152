/**
 * A tool page's "In hooks" (src/lib/views/tool-hooks.ts): member grouping by hand, and,
 * over the real content read from its files here, that the payload shown is one a hook
 * of that tool received before a main-thread call, and that every recorded case on the
 * tool is listed once, one of each kind first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  firstPayload,
  memberGroups,
  sharedMembers,
  toolHooksView,
  OPEN_ANSWERS,
} from '../../src/lib/views/tool-hooks.ts';
import { shortened } from '../../src/lib/views/examples.ts';
import { openRowCount } from '../../src/lib/views/tool-page.ts';
import { sourceGroups } from '../../src/lib/views/tool-page-view.ts';
import { realContent } from '../helpers/real-content.ts';
import { agentBundle } from '../../src/lib/model/bundles.ts';

const ROOT = join(import.meta.dirname, '../..');

test('member paths group under their top-level member, in order', () => {
  assert.deepEqual(
    memberGroups([
      'continue',
      'hookSpecificOutput',
      'hookSpecificOutput.permissionDecision',
      'reason',
      'hookSpecificOutput.updatedInput',
    ]),
    [
      { name: 'continue', inner: [] },
      { name: 'hookSpecificOutput', inner: ['permissionDecision', 'updatedInput'] },
      { name: 'reason', inner: [] },
    ],
  );
});

test('members every event declares alike are said once; what differs stays with its event', () => {
  const g = (name: string, inner: string[] = []) => ({ name, inner });
  const events = [
    { event: 'Pre', href: '#pre', members: [g('continue'), g('out', ['decision'])] },
    { event: 'Post', href: '#post', members: [g('continue'), g('out', ['context'])] },
  ];
  assert.deepEqual(sharedMembers(events), {
    common: [g('continue')],
    events: [
      { event: 'Pre', href: '#pre', members: [g('out', ['decision'])] },
      { event: 'Post', href: '#post', members: [g('out', ['context'])] },
    ],
  });
  // One event: nothing is "common", its members stay its own.
  assert.deepEqual(sharedMembers(events.slice(0, 1)).common, []);
});

test('a table folds before a top-level field, only when enough rows would fold', () => {
  const rows = (depths: number[]) => depths.map((depth) => ({ depth }));
  assert.equal(openRowCount(rows([0, 0, 0]), 2), 3, 'too few rows to fold');
  assert.equal(
    openRowCount(rows([0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0]), 4),
    3,
    'the cut is before the top-level field at or under the limit',
  );
  assert.equal(openRowCount(rows([0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), 4), 11, 'no top-level field to cut before');
});

test('sources read alike are one entry, files in order', () => {
  const p = (file: string, version = '1') => ({ file, package: 'pkg', version, method: 'capture', date: '2026-01-01' });
  assert.deepEqual(sourceGroups([p('a'), p('b'), p('c', '2'), p('d')]), [
    { files: ['a', 'b', 'd'], release: 'pkg@1', method: 'capture', date: '2026-01-01' },
    { files: ['c'], release: 'pkg@2', method: 'capture', date: '2026-01-01' },
  ]);
});

/** Recorded cases per agent and tool name, read from content/hook-behaviour. */
function recordedCases(): Map<string, { case: string; tool: string; kind: string }[]> {
  const out = new Map<string, { case: string; tool: string; kind: string }[]>();
  const dir = join(ROOT, 'content/hook-behaviour');
  for (const agent of readdirSync(dir)) {
    out.set(
      agent,
      readdirSync(join(dir, agent))
        .filter((f) => f.endsWith('.json'))
        .map(
          (f) => JSON.parse(readFileSync(join(dir, agent, f), 'utf8')) as { case: string; tool: string; kind: string },
        ),
    );
  }
  return out;
}

/**
 * Whether a call's tool name is this tool's, or names no tool of the agent at all (an MCP server's tool, shown on the
 * agent's MCP page).
 */
function callsOf(
  model: ReturnType<typeof realContent>,
  tool: ReturnType<typeof realContent>['tools'][number],
): (name: string) => 'own' | 'unknown' | 'other' {
  const namesOf = (t: typeof tool) => new Set([t.fullName, ...t.generated.aliases.map((a) => a.name)]);
  const own = namesOf(tool);
  const agentNames = new Set(model.tools.filter((t) => t.agent === tool.agent).flatMap((t) => [...namesOf(t)]));
  return (name) => (own.has(name) ? 'own' : agentNames.has(name) ? 'other' : 'unknown');
}

test('every recorded case on a tool is listed once on its page, one of each kind first', () => {
  const model = realContent();
  const cases = recordedCases();
  let listed = 0;
  const unknownShown = new Map<string, number>();
  for (const tool of model.tools) {
    const view = toolHooksView(tool, agentBundle(model, tool.agent));
    const kind = callsOf(model, tool);
    const all = cases.get(tool.agent) ?? [];
    const shown = view?.answers ?? [];
    const shownCases = shown.map((a) => a.href.split('#case-')[1]!);
    // Cases on a name no tool has are listed on one page of the agent (its MCP page); all others where their tool is.
    const expected = all.filter(
      (c) => kind(c.tool) === 'own' || (kind(c.tool) === 'unknown' && shownCases.includes(c.case)),
    );
    for (const c of expected)
      if (kind(c.tool) === 'unknown')
        unknownShown.set(`${tool.agent}/${c.case}`, (unknownShown.get(`${tool.agent}/${c.case}`) ?? 0) + 1);
    assert.deepEqual(shownCases.sort(), expected.map((c) => c.case).sort(), `${tool.agent}/${tool.slug}`);
    if (!view) continue;
    const kinds = new Set(expected.map((c) => c.kind)).size;
    assert.equal(view.open, Math.min(kinds, OPEN_ANSWERS), `${tool.agent}/${tool.slug}: the open rows`);
    const openKinds = shown
      .slice(0, view.open)
      .map((a) => expected.find((c) => a.href.endsWith(`#case-${c.case}`))!.kind);
    assert.equal(
      new Set(openKinds).size,
      openKinds.length,
      `${tool.agent}/${tool.slug}: the open rows are of different kinds`,
    );
    listed += shown.length;
  }
  assert.ok(listed > 0, 'some case is listed');
  for (const [key, pages] of unknownShown) assert.equal(pages, 1, `${key} is listed on one page`);
});

test('the payload shown is one a hook received before a main-thread call of the tool, as recorded', () => {
  const model = realContent();
  let shown = 0;
  for (const tool of model.tools) {
    const payload = firstPayload(tool);
    if (!payload) continue;
    shown++;
    const kind = callsOf(model, tool);
    const dir = join(ROOT, 'content/payloads', tool.agent);
    const recorded = readdirSync(dir).flatMap((f) => {
      const data = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        calls: { tool: string; inSubagent?: boolean; hooks?: unknown[] }[];
      };
      return data.calls.filter((c) => kind(c.tool) !== 'other' && c.inSubagent !== true).flatMap((c) => c.hooks ?? []);
    });
    const json = JSON.parse(payload.json) as unknown;
    assert.ok(
      recorded.some((h) => JSON.stringify(shortened(h)) === JSON.stringify(json)),
      `${tool.agent}/${tool.slug}: the payload shown was recorded`,
    );
  }
  assert.ok(shown > 0);
});

test("an example's fold says what opening it shows", async () => {
  const { exampleSummary } = await import('../../src/lib/views/tool-page-view.ts');
  assert.equal(exampleSummary(1, 0), 'Input, result');
  assert.equal(exampleSummary(1, 1), 'Input, result and 1 more recorded block');
  assert.equal(exampleSummary(2, 4), '2 calls: input, result and 4 more recorded blocks');
});
