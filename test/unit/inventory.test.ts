/** The pure readers of scripts/lib/inventory/parse.ts, on small synthetic byte strings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  InventoryParseError,
  modelCatalog,
  parseClaudeInventory,
  parseFeatureList,
  PROSE_LENGTH,
  sourcePaths,
  uniqueOffset,
} from '../../scripts/lib/inventory/parse.ts';

const bundle = (s: string) => Buffer.from(s, 'latin1');

test('the Claude Code name list and alias tables are read with their offsets and variables', () => {
  const prefix = '\x00\x01junk;';
  const text = `${prefix}var xr=["Agent","Bash","propose_skills"],jK={Task:"Agent",KillShell:"TaskStop"};function f(){}var d={...jK,Eval:"REPL"};`;
  const bytes = bundle(text);
  const inv = parseClaudeInventory(bytes);
  assert.deepEqual(inv.names.items, ['Agent', 'Bash', 'propose_skills']);
  assert.equal(inv.names.variable, 'xr');
  assert.equal(
    bytes.subarray(inv.names.read.offset, inv.names.read.offset + inv.names.read.length).toString('latin1'),
    '["Agent","Bash","propose_skills"]',
  );
  assert.equal(inv.aliasTables.length, 2);
  const [base, extended] = inv.aliasTables;
  assert.deepEqual(base!.entries, [
    { alias: 'Task', tool: 'Agent' },
    { alias: 'KillShell', tool: 'TaskStop' },
  ]);
  assert.equal(
    bytes.subarray(base!.read.offset, base!.read.offset + base!.read.length).toString('latin1'),
    '{Task:"Agent",KillShell:"TaskStop"}',
  );
  assert.equal(base!.read.marker, 'KillShell:"TaskStop"');
  assert.deepEqual(
    { ...extended, read: undefined },
    { read: undefined, variable: 'd', extends: 'jK', entries: [{ alias: 'Eval', tool: 'REPL' }] },
  );
  assert.equal(
    bytes.subarray(extended!.read.offset, extended!.read.offset + extended!.read.length).toString('latin1'),
    '{...jK,Eval:"REPL"}',
  );
});

test('the Claude Code reader refuses what it cannot vouch for', () => {
  assert.throws(() => parseClaudeInventory(bundle('nothing here')), InventoryParseError);
  assert.throws(
    () => parseClaudeInventory(bundle('a={KillShell:"TaskStop"};b={KillShell:"TaskStop"}')),
    /more than once/,
  );
  assert.throws(() => parseClaudeInventory(bundle('var q=1,jK={KillShell:"TaskStop"}')), /no array literal/);
  assert.throws(
    () => parseClaudeInventory(bundle('var x=["a b"],jK={KillShell:"TaskStop"}')),
    /not a list of tool names/,
  );
  assert.throws(
    () => parseClaudeInventory(bundle('var x=["A"],jK={[k]:"B",KillShell:"TaskStop"}')),
    /not an alias table/,
  );
  assert.equal(uniqueOffset(bundle('xxKEYxx'), 'KEY'), 2);
});

test('codex features list output is read as name, stage and default', () => {
  const out =
    'apps                                     stable             true\ncode_mode                                under development  false\nguardianv2.thread_context                removed            false\n';
  assert.deepEqual(parseFeatureList(out), [
    { name: 'apps', stage: 'stable', default: true },
    { name: 'code_mode', stage: 'under development', default: false },
    { name: 'guardianv2.thread_context', stage: 'removed', default: false },
  ]);
  assert.throws(() => parseFeatureList('apps stable maybe\n'), /line 1/);
  assert.throws(() => parseFeatureList('\n'), /empty/);
});

test('handler source paths are listed once each, sorted, with their first offset', () => {
  const bytes = bundle(
    'xxcore/src/tools/handlers/plan.rsyycore/src/tools/handlers/a/b.rs:12 core/src/tools/handlers/plan.rs core/src/tools/handlers/.rs',
  );
  assert.deepEqual(sourcePaths(bytes, 'core/src/tools/handlers/'), [
    { path: 'core/src/tools/handlers/a/b.rs', offset: 35 },
    { path: 'core/src/tools/handlers/plan.rs', offset: 2 },
  ]);
});

test('the model catalog embedded in a compiled binary is read whole, with its offset, prose members left out', () => {
  const prose = 'x'.repeat(PROSE_LENGTH + 1);
  const catalog = {
    models: [
      {
        slug: 'm-1',
        apply_patch_tool_type: 'freeform',
        experimental_supported_tools: ['clock'],
        model_messages: { instructions: prose },
        note: 'short "quoted" {brace}',
      },
      { slug: 'm-2', apply_patch_tool_type: null, experimental_supported_tools: [], model_messages: null },
    ],
  };
  const text = JSON.stringify(catalog, null, 2);
  // Rust stores string literals back to back: another near miss before, binary bytes around.
  const bytes = Buffer.concat([
    Buffer.from('\x00\x7f"models": [ not json\x00{"models": []}\x01'),
    Buffer.from(text, 'utf8'),
    Buffer.from('\x00\xff tail'),
  ]);
  const read = modelCatalog(bytes);
  assert.equal(bytes.subarray(read.read.offset, read.read.offset + read.read.length).toString('utf8'), text);
  assert.deepEqual(read.omitted, ['model_messages']);
  assert.deepEqual(read.models, [
    {
      slug: 'm-1',
      apply_patch_tool_type: 'freeform',
      experimental_supported_tools: ['clock'],
      note: 'short "quoted" {brace}',
    },
    { slug: 'm-2', apply_patch_tool_type: null, experimental_supported_tools: [] },
  ]);
});

test('the model catalog reader refuses no catalog and two catalogs', () => {
  assert.throws(() => modelCatalog(Buffer.from('{"models": [1, 2]}')), /no JSON object/);
  const one = JSON.stringify({ models: [{ slug: 'a' }] }, null, 2);
  assert.throws(() => modelCatalog(Buffer.from(`${one}\x00${one}`)), /2 model catalogs/);
});
