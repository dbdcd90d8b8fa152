import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchorFor, displayPath, escapeSegment, parseAnchor, unescapeSegment } from '../../src/lib/anchors.ts';

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

test('discriminator values: strings as text, other values behind `!`, several joined by an escaped |', () => {
  const key = (...values: (string | number | boolean | null)[]) => anchorFor('output', [{ kind: 'discriminated', values }]);
  assert.equal(key('completed'), 'output:completed', 'same id as a string-labelled variant had before');
  assert.equal(key('failed', 'not_attempted'), 'output:failed~7Cnot_attempted', 'same id as before for several values');
  assert.equal(key('1'), 'output:1');
  assert.equal(key(1), 'output:!1');
  assert.equal(key(true), 'output:!true');
  assert.equal(key('true'), 'output:true');
  assert.equal(key(null), 'output:!null');
  assert.equal(key(-1.5), 'output:!-1~2E5');
  assert.equal(key('a|b'), 'output:a,b', 'a | inside one value differs from the joiner');
  assert.equal(key('a', 'b'), 'output:a~7Cb');
  assert.equal(key(''), 'output:~');
});

test('discriminator keys are injective over values of every type', () => {
  const lists: (string | number | boolean | null)[][] = [
    ['1'], [1], ['true'], [true], ['null'], [null], ['false'], [false], ['-1.5'], [-1.5], ['1e+21'], [1e21],
    ['a|b'], ['a', 'b'], ['a,b'], ['a~7Cb'], [''], ['', 'a'], ['~'], ['!1'], ['!then'], ['7C'], ['', '7C'],
  ];
  const ids = lists.map((values) => anchorFor('o', [{ kind: 'discriminated', values }]));
  assert.equal(new Set(ids).size, ids.length, ids.join(' '));
  for (const id of ids) assert.match(id, /^o:[A-Za-z0-9_~!,-]+$/);
});

test('if/then/else branches, pattern keys and tuple positions have their own marks', () => {
  assert.equal(anchorFor('input', [{ kind: 'condition', index: 0, branch: 'then' }, { kind: 'property', name: 'x' }]), 'input:!then.x');
  assert.equal(anchorFor('input', [{ kind: 'condition', index: 1, branch: 'else' }]), 'input:!else2');
  assert.equal(anchorFor('input', [{ kind: 'property', name: 'env' }, { kind: 'map-value', pattern: '^x-' }]), 'input.env.*~5Ex-');
  assert.equal(anchorFor('input', [{ kind: 'property', name: 'env' }, { kind: 'map-value' }]), 'input.env.*');
  assert.equal(anchorFor('input', [{ kind: 'map-value', pattern: '' }]), 'input.*~', 'an empty pattern still differs from any other key');
  assert.equal(anchorFor('input', [{ kind: 'property', name: '*' }]), 'input.~2A');
  assert.equal(anchorFor('input', [{ kind: 'property', name: 'range' }, { kind: 'position', index: 12 }, { kind: 'property', name: 'x' }]), 'input.range@12.x');
  assert.equal(anchorFor('input', [{ kind: 'property', name: '@0' }]), 'input.~400');
});

test('display paths show positions as [n], pattern keys by their pattern, branches by their label', () => {
  assert.equal(displayPath([{ kind: 'property', name: 'range' }, { kind: 'position', index: 1 }]), 'range[1]');
  assert.equal(displayPath([{ kind: 'property', name: 'env' }, { kind: 'map-value', pattern: '^x-' }]), 'env.[key matching /^x-/]');
  assert.equal(displayPath([{ kind: 'condition', index: 0, branch: 'then', display: 'if k: "a"' }, { kind: 'property', name: 'x' }]), '(if k: "a").x');
  assert.equal(displayPath([{ kind: 'discriminated', values: [1] }]), '(1)');
});

test('parseAnchor reads every kind of step back', () => {
  assert.deepEqual(parseAnchor('model-input.a~2Eb:!1.*~5Ex-@3:!then.~5B~5D.*:~.~', 'model-input'), [
    { kind: 'property', name: 'a.b' },
    { kind: 'variant', key: '!1' },
    { kind: 'map-value', pattern: '^x-' },
    { kind: 'position', index: 3 },
    { kind: 'variant', key: '!then' },
    { kind: 'nested-items' },
    { kind: 'map-value' },
    { kind: 'variant', key: '~' },
    { kind: 'property', name: '' },
  ]);
  assert.throws(() => parseAnchor('output.x', 'input'), /does not start with input/);
  assert.throws(() => parseAnchor('input@x', 'input'), /bad tuple position/);
  assert.throws(() => parseAnchor('input#x', 'input'), /unexpected character/);
});
