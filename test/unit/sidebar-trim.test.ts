import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trimSidebar, type SidebarItem } from '../../src/lib/views/sidebar-trim.ts';

const link = (isCurrent = false): SidebarItem => ({ type: 'link', isCurrent });
const agent = (current: boolean): SidebarItem => ({
  type: 'group',
  entries: [link(), link(), { type: 'group', entries: [link(current), link()] }, { type: 'group', entries: [link()] }],
});

test('only the agent group that holds the page keeps its tool groups; the others keep their plain links', () => {
  const sidebar: SidebarItem[] = [link(), agent(false), agent(true), agent(false), link()];
  const trimmed = trimSidebar(sidebar);
  assert.deepEqual(trimmed[2], sidebar[2]);
  for (const i of [1, 3]) assert.deepEqual(trimmed[i], { type: 'group', entries: [link(), link()] });
  assert.deepEqual([trimmed[0], trimmed[4]], [sidebar[0], sidebar[4]]);
  // A page outside every agent (home, jobs) keeps no tool list at all.
  assert.ok(
    trimSidebar([agent(false), agent(false)]).every(
      (g) => g.type === 'group' && g.entries.every((e) => e.type === 'link'),
    ),
  );
  assert.deepEqual(sidebar[1], agent(false), 'the input is not changed');
});
