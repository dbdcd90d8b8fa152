/** The agent page's model catalog table (src/lib/views/model-catalog.ts), on a hand-written catalog and gates. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogPaths, catalogTable, memberText } from '../../src/lib/views/model-catalog.ts';
import type { ToolModel } from '../../src/lib/model/model.ts';

const tool = (gates: unknown[]) =>
  ({ editorial: { availability: { gates } } }) as unknown as Pick<ToolModel, 'editorial'>;

test('the columns are the catalog members the gates read, alternatives included, each once and sorted', () => {
  assert.deepEqual(
    catalogPaths({
      catalog: { b: 1 },
      catalogLists: { 'a.list': 'x' },
      anyOf: [{ catalog: { c: null } }, { catalogEntry: false }],
    }),
    ['b', 'a.list', 'c'],
  );
  const models = [
    { slug: 'one', mode: 'code', tools: ['clock'], nested: { v: 2 } },
    { slug: 'two', tools: [] },
  ];
  const tools = [
    tool([{ kind: 'model', name: 'mode', effect: 'requires', when: { catalog: { mode: 'code' } } }]),
    tool([
      {
        kind: 'model',
        name: 'clock',
        effect: 'enables',
        when: { catalogLists: { tools: 'clock' }, anyOf: [{ catalog: { 'nested.v': 2 } }, { catalogEntry: false }] },
      },
    ]),
    tool([{ kind: 'feature', name: 'x', effect: 'requires' }]),
    {},
  ];
  const asked = new Map([
    ['one', ['config-a', 'config-b']],
    ['unknown', ['config-c']],
  ]);
  const table = catalogTable(models, asked, tools);
  assert.deepEqual(table.members, ['mode', 'nested.v', 'tools']);
  assert.deepEqual(table.rows, [
    { slug: 'one', askedBy: ['config-a', 'config-b'], values: ['"code"', '2', 'clock'] },
    { slug: 'two', askedBy: [], values: ['–', '–', '[]'] },
  ]);
  assert.deepEqual(table.unlisted, [{ model: 'unknown', askedBy: ['config-c'] }]);
});

test('member values read as text: absent as a dash, string lists as items, the rest as JSON', () => {
  assert.equal(memberText(undefined), '–');
  assert.equal(memberText(null), 'null');
  assert.equal(memberText(['a', 'b']), 'a, b');
  assert.equal(memberText([1, 'b']), '[1,"b"]');
  assert.equal(memberText({ mode: 'tokens' }), '{"mode":"tokens"}');
});
