/** The subagent tool sets as tool pages show them (src/lib/behaviour/subagents.ts), from hand-written records. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subagentLine, subagentTable } from '../../src/lib/behaviour/subagents.ts';
import type { Subagents, ToolModel } from '../../src/lib/model/model.ts';
import { tool as toolModel } from '../helpers/model-fixtures.ts';

const tool = (fullName: string): ToolModel => toolModel('claude-code', fullName);

test('the starting tool shows each type with what it was offered and what the main thread had that it was not', () => {
  const agent = tool('Agent');
  const bash = tool('Bash');
  const edit = tool('Edit');
  const record: Subagents = {
    agent: 'claude-code',
    file: 'content/subagents/claude-code.json',
    cli: { package: 'p', version: '2.1.0' },
    configuration: 'print',
    tool: 'Agent',
    field: 'subagent_type',
    types: [
      {
        type: 'Explore',
        input: {},
        tools: ['Bash'],
        mainTools: ['Agent', 'Bash', 'Edit'],
        declared: 'All tools except Agent, Edit',
      },
      { type: 'general-purpose', input: {}, tools: ['Agent', 'Bash', 'Edit'], mainTools: ['Agent', 'Bash', 'Edit'] },
    ],
  };
  // The agent's bundle: its subagents file and its tools.
  const site = { subagents: record, tools: [agent, bash, edit] };
  const table = subagentTable(site, agent)!;
  assert.equal(table.release, 'Claude Code 2.1.0');
  assert.deepEqual(
    table.rows.map((r) => [r.type, r.tools.map((t) => t.name), r.notOffered, r.declared]),
    [
      ['Explore', ['Bash'], ['Agent', 'Edit'], 'All tools except Agent, Edit'],
      ['general-purpose', ['Agent', 'Bash', 'Edit'], [], undefined],
    ],
  );
  assert.equal(subagentTable(site, bash), undefined, 'only the starting tool has the table');
  const line = subagentLine(site, edit)!;
  assert.deepEqual([line.offeredTo, line.notTo, line.release], [['general-purpose'], ['Explore'], 'Claude Code 2.1.0']);
  assert.match(subagentLine(site, edit)!.href!, /\/claude-code\/agent\/#subagents$/);
  assert.deepEqual(subagentLine(site, bash)!.offeredTo, ['Explore', 'general-purpose']);
  assert.equal(subagentLine({ subagents: undefined, tools: [bash] }, bash), undefined);
});
