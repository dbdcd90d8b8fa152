/**
 * The names a tool answers to (src/lib/model/tool-names.ts): callable names (full name,
 * accepted aliases, former names, never SDK type names), every recorded name,
 * names as people type them, the tool a call belongs to (the MCP family page for
 * the stub server's tools), and the same facts on the real content.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answersTo,
  callableNames,
  everyName,
  isCallableAlias,
  otherNames,
  stubServerFamily,
  toolForCall,
  toolNamed,
  typedName,
  type NamedTool,
} from '../../src/lib/model/tool-names.ts';
import { realContent } from '../helpers/real-content.ts';

const taskStop: NamedTool = {
  agent: 'claude-code',
  fullName: 'TaskStop',
  generated: {
    aliases: [
      { name: 'TaskStopInput', kind: 'sdk-type' },
      { name: 'KillShell', kind: 'former-name' },
      { name: 'KillBash', kind: 'accepted-alias' },
      { name: 'TaskStopOutput', kind: 'sdk-type' },
    ],
  },
};
const bash: NamedTool = {
  agent: 'claude-code',
  fullName: 'Bash',
  generated: { aliases: [{ name: 'BashInput', kind: 'sdk-type' }] },
};
const family: NamedTool = { agent: 'claude-code', fullName: 'mcp__<server>__<tool>', generated: { aliases: [] } };
const codexShell: NamedTool = { agent: 'codex', fullName: 'shell', generated: { aliases: [] } };
const codexFamily: NamedTool = { agent: 'codex', fullName: 'mcp__<server>.<tool>', generated: { aliases: [] } };
const TOOLS = [taskStop, bash, family, codexShell, codexFamily];

test('callable names: the full name first, then accepted aliases and former names in their order; type names are not callable', () => {
  assert.deepEqual(callableNames(taskStop), ['TaskStop', 'KillShell', 'KillBash']);
  assert.deepEqual(otherNames(taskStop.generated), ['KillShell', 'KillBash']);
  assert.deepEqual(callableNames(bash), ['Bash']);
  assert.equal(isCallableAlias({ kind: 'sdk-type' }), false);
  assert.equal(isCallableAlias({ kind: 'former-name' }), true);
  assert.equal(isCallableAlias({ kind: 'accepted-alias' }), true);
});

test('every name includes the type names, after the full name', () => {
  assert.deepEqual(everyName(taskStop), ['TaskStop', 'TaskStopInput', 'KillShell', 'KillBash', 'TaskStopOutput']);
});

test('a tool answers to its callable names exactly as spelled; people type them in any case', () => {
  assert.equal(answersTo(taskStop, 'TaskStop'), true);
  assert.equal(answersTo(taskStop, 'KillBash'), true);
  assert.equal(answersTo(taskStop, 'TaskStopInput'), false, 'a type name');
  assert.equal(answersTo(taskStop, 'killbash'), false, 'exact, not case-insensitive');
  assert.equal(typedName('KillBash'), typedName('killBASH'));
  assert.notEqual(typedName('KillBash'), typedName('Kill_Bash'));
});

test('the tool a call belongs to: full name, else a callable alias, else the MCP family for a stub-server tool; only within the agent', () => {
  assert.equal(toolForCall(TOOLS, 'claude-code', 'TaskStop'), taskStop);
  assert.equal(toolForCall(TOOLS, 'claude-code', 'KillShell'), taskStop);
  assert.equal(toolForCall(TOOLS, 'claude-code', 'TaskStopInput'), undefined, 'nobody calls a type name');
  assert.equal(toolForCall(TOOLS, 'claude-code', 'mcp__capture__echo'), family);
  assert.equal(
    toolForCall(TOOLS, 'claude-code', 'mcp__other__echo'),
    undefined,
    'another MCP server is not the stub the captures configure',
  );
  assert.equal(
    toolForCall(TOOLS, 'codex', 'mcp__capture.echo'),
    codexFamily,
    'each agent spells MCP tools its own way',
  );
  assert.equal(toolForCall(TOOLS, 'codex', 'mcp__capture__echo'), undefined);
  assert.equal(toolForCall(TOOLS, 'codex', 'Bash'), undefined);
  assert.equal(toolForCall(TOOLS, 'no-such-agent', 'Bash'), undefined);
  assert.equal(stubServerFamily('claude-code', 'mcp__capture__echo'), 'mcp__<server>__<tool>');
  assert.equal(stubServerFamily('no-such-agent', 'mcp__capture__echo'), undefined);
  assert.equal(toolNamed(TOOLS, 'claude-code', 'Bash'), bash);
  assert.equal(toolNamed(TOOLS, 'claude-code', 'KillShell'), undefined, 'content names tools by full name only');
});

test('on the real content: every alias, former name and type name is recorded once per agent, and calls by any callable name reach their page', () => {
  const { tools } = realContent();
  const typed = new Map<string, string>();
  let aliases = 0;
  for (const tool of tools) {
    for (const name of callableNames(tool)) {
      const key = `${tool.agent} ${typedName(name)}`;
      assert.equal(typed.get(key) ?? tool.fullName, tool.fullName, `${key} names two tools`);
      typed.set(key, tool.fullName);
      assert.equal(toolForCall(tools, tool.agent, name), tool, `${tool.agent} ${name}`);
    }
    aliases += otherNames(tool.generated).length;
    for (const alias of tool.generated.aliases.filter((a) => a.kind === 'sdk-type'))
      assert.equal(answersTo(tool, alias.name), false);
  }
  assert.ok(aliases >= 5, `${aliases} accepted aliases and former names`);
});
