import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withVanished, type PublishedExports } from '../../scripts/lib/archive.ts';
import { archivedText } from '../../src/lib/site/tool-exports.ts';
import type { AgentId } from '../../src/lib/agents/index.ts';

const A = 'claude-code' as AgentId;
const B = 'codex' as AgentId;
const before: PublishedExports = new Map([
  ['/a/x/1.0.0/input.schema.json', { agent: A, text: 'x1' }],
  ['/a/y/1.0.0/input.schema.json', { agent: A, text: 'y1' }],
  ['/b/z/2.0.0/input.schema.json', { agent: B, text: 'z2' }],
]);

test("only the agent's files whose path is no longer published are archived, with the day and the text as published", () => {
  const after = new Set(['/a/x/1.0.0/input.schema.json', '/a/y/1.1.0/input.schema.json']);
  const archive = withVanished(A, undefined, before, after, '2026-12-01', 'https://site.invalid');
  assert.deepEqual(archive, {
    agent: A,
    origin: 'https://site.invalid',
    files: [{ path: '/a/y/1.0.0/input.schema.json', archived: '2026-12-01', text: 'y1' }],
  });
  assert.equal(
    withVanished(A, undefined, before, new Set(before.keys()), '2026-12-01'),
    undefined,
    'nothing vanished: nothing to write',
  );
});

test('an existing archive keeps its entries and dates; a path archived already is not added twice; paths stay sorted', () => {
  const existing = {
    agent: A,
    origin: 'https://site.invalid',
    files: [{ path: '/a/y/1.0.0/input.schema.json', archived: '2026-11-01', text: 'old' }],
  };
  const archive = withVanished(A, existing, before, new Set(), '2026-12-01', 'https://site.invalid')!;
  assert.deepEqual(
    archive.files.map((f) => [f.path, f.archived, f.text]),
    [
      ['/a/x/1.0.0/input.schema.json', '2026-12-01', 'x1'],
      ['/a/y/1.0.0/input.schema.json', '2026-11-01', 'old'],
    ],
  );
  assert.throws(
    () => withVanished(A, existing, before, new Set(), '2026-12-01', 'https://other.invalid'),
    /one site address/,
  );
});

test('an archived text gets the address of the site that serves it', () => {
  const text =
    '{"$id":"https://old.invalid/a/x/1.0.0/input.schema.json","$schema":"https://json-schema.org/draft/2020-12/schema"}';
  assert.equal(
    archivedText({ text, origin: 'https://old.invalid' }, 'https://new.example/'),
    text.replace('https://old.invalid', 'https://new.example'),
  );
  assert.equal(archivedText({ text, origin: 'https://old.invalid' }, undefined), text);
});
