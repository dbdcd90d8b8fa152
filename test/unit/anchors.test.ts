import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchorFor, displayPath, escapeSegment, toolSlug, unescapeSegment } from '../../src/lib/anchors.ts';

test('plain property paths read like the field path', () => {
  assert.equal(anchorFor('input', [{ kind: 'property', name: 'file_path' }]), 'input.file_path');
  assert.equal(
    anchorFor('input', [
      { kind: 'property', name: 'additional_permissions' },
      { kind: 'property', name: 'file_system' },
      { kind: 'property', name: 'read' },
    ]),
    'input.additional_permissions.file_system.read',
  );
});

test('array items add nothing; union variants add :label; maps add .*', () => {
  assert.equal(
    anchorFor('output', [{ kind: 'property', name: 'structuredPatch' }, { kind: 'items' }, { kind: 'property', name: 'lines' }]),
    'output.structuredPatch.lines',
  );
  assert.equal(anchorFor('output', [{ kind: 'variant', label: 'completed' }, { kind: 'property', name: 'agentId' }]), 'output:completed.agentId');
  assert.equal(anchorFor('input', [{ kind: 'property', name: 'answers' }, { kind: 'map-value' }]), 'input.answers.*');
});

test('names with dots, spaces, tildes or non-ASCII are escaped and cannot fake a separator', () => {
  assert.equal(anchorFor('input', [{ kind: 'property', name: '-B' }]), 'input.-B');
  const dotted = anchorFor('input', [{ kind: 'property', name: 'a.b' }]);
  const nested = anchorFor('input', [{ kind: 'property', name: 'a' }, { kind: 'property', name: 'b' }]);
  assert.equal(dotted, 'input.a~2Eb');
  assert.notEqual(dotted, nested);
  assert.equal(escapeSegment('~'), '~7E');
  assert.equal(escapeSegment('é'), '~C3~A9');
  assert.equal(escapeSegment('*'), '~2A', 'a property literally named * differs from the map-value marker');
  for (const name of ['-B', 'a.b', 'x y', '~', 'é', '$schema', 'a:b', '']) {
    assert.equal(unescapeSegment(escapeSegment(name)), name);
    assert.match(escapeSegment(name), /^[A-Za-z0-9_~-]+$/);
  }
});

test('display paths show items as [] and variants by their label', () => {
  assert.equal(
    displayPath([{ kind: 'property', name: 'structuredPatch' }, { kind: 'items' }, { kind: 'property', name: 'lines' }]),
    'structuredPatch[].lines',
  );
  assert.equal(displayPath([{ kind: 'variant', label: 'completed', display: 'status: "completed"' }, { kind: 'property', name: 'agentId' }]), '(status: "completed").agentId');
});

test('tool slugs are lowercase and keep namespaces', () => {
  assert.equal(toolSlug('TaskStop'), 'taskstop');
  assert.equal(toolSlug('multi_agent_v1.spawn_agent'), 'multi_agent_v1.spawn_agent');
  assert.equal(toolSlug('mcp__<server>__<tool>'), 'mcp__server__tool');
  assert.throws(() => toolSlug('<>'), /empty URL slug/);
});
