import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  anchorFor,
  anchorRest,
  displayPath,
  escapeSegment,
  isBelow,
  parseAnchor,
  positionalVariantPlace,
  rebaseAnchor,
  relativeAnchor,
  rootedAnchor,
  rowSteps,
  throughPositionalVariant,
  unescapeSegment,
} from '../../src/lib/shapes/anchors.ts';

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
    anchorFor('output', [
      { kind: 'property', name: 'structuredPatch' },
      { kind: 'items' },
      { kind: 'property', name: 'lines' },
    ]),
    'output.structuredPatch.lines',
  );
  assert.equal(
    anchorFor('output', [
      { kind: 'variant', label: 'completed' },
      { kind: 'property', name: 'agentId' },
    ]),
    'output:completed.agentId',
  );
  assert.equal(anchorFor('input', [{ kind: 'property', name: 'answers' }, { kind: 'map-value' }]), 'input.answers.*');
});

test('names with dots, spaces, tildes or non-ASCII are escaped and cannot fake a separator', () => {
  assert.equal(anchorFor('input', [{ kind: 'property', name: '-B' }]), 'input.-B');
  const dotted = anchorFor('input', [{ kind: 'property', name: 'a.b' }]);
  const nested = anchorFor('input', [
    { kind: 'property', name: 'a' },
    { kind: 'property', name: 'b' },
  ]);
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
    displayPath([
      { kind: 'property', name: 'structuredPatch' },
      { kind: 'items' },
      { kind: 'property', name: 'lines' },
    ]),
    'structuredPatch[].lines',
  );
  assert.equal(
    displayPath([
      { kind: 'variant', label: 'completed', display: 'status: "completed"' },
      { kind: 'property', name: 'agentId' },
    ]),
    '(status: "completed").agentId',
  );
});

test('discriminator values: strings as text, other values behind `!`, several joined by an escaped |', () => {
  const key = (...values: (string | number | boolean | null)[]) =>
    anchorFor('output', [{ kind: 'discriminated', values }]);
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
    ['1'],
    [1],
    ['true'],
    [true],
    ['null'],
    [null],
    ['false'],
    [false],
    ['-1.5'],
    [-1.5],
    ['1e+21'],
    [1e21],
    ['a|b'],
    ['a', 'b'],
    ['a,b'],
    ['a~7Cb'],
    [''],
    ['', 'a'],
    ['~'],
    ['!1'],
    ['!then'],
    ['7C'],
    ['', '7C'],
  ];
  const ids = lists.map((values) => anchorFor('o', [{ kind: 'discriminated', values }]));
  assert.equal(new Set(ids).size, ids.length, ids.join(' '));
  for (const id of ids) assert.match(id, /^o:[A-Za-z0-9_~!,-]+$/);
});

test('if/then/else branches, pattern keys and tuple positions have their own marks', () => {
  assert.equal(
    anchorFor('input', [
      { kind: 'condition', index: 0, branch: 'then' },
      { kind: 'property', name: 'x' },
    ]),
    'input:!then.x',
  );
  assert.equal(anchorFor('input', [{ kind: 'condition', index: 1, branch: 'else' }]), 'input:!else2');
  assert.equal(
    anchorFor('input', [
      { kind: 'property', name: 'env' },
      { kind: 'map-value', pattern: '^x-' },
    ]),
    'input.env.*~5Ex-',
  );
  assert.equal(anchorFor('input', [{ kind: 'property', name: 'env' }, { kind: 'map-value' }]), 'input.env.*');
  assert.equal(
    anchorFor('input', [{ kind: 'map-value', pattern: '' }]),
    'input.*~',
    'an empty pattern still differs from any other key',
  );
  assert.equal(anchorFor('input', [{ kind: 'property', name: '*' }]), 'input.~2A');
  assert.equal(
    anchorFor('input', [
      { kind: 'property', name: 'range' },
      { kind: 'position', index: 12 },
      { kind: 'property', name: 'x' },
    ]),
    'input.range@12.x',
  );
  assert.equal(anchorFor('input', [{ kind: 'property', name: '@0' }]), 'input.~400');
});

test('display paths show positions as [n], pattern keys by their pattern, branches by their label', () => {
  assert.equal(
    displayPath([
      { kind: 'property', name: 'range' },
      { kind: 'position', index: 1 },
    ]),
    'range[1]',
  );
  assert.equal(
    displayPath([
      { kind: 'property', name: 'env' },
      { kind: 'map-value', pattern: '^x-' },
    ]),
    'env.[key matching /^x-/]',
  );
  assert.equal(
    displayPath([
      { kind: 'condition', index: 0, branch: 'then', display: 'if k: "a"' },
      { kind: 'property', name: 'x' },
    ]),
    '(if k: "a").x',
  );
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

test('rowSteps: the steps of a row of one table, nothing for the table itself, another table or a malformed id', () => {
  assert.deepEqual(rowSteps('input.command', 'input'), [{ kind: 'property', name: 'command' }]);
  assert.deepEqual(rowSteps('input:1', 'input'), [{ kind: 'variant', key: '1' }]);
  assert.deepEqual(rowSteps('input@0', 'input'), [{ kind: 'position', index: 0 }]);
  assert.equal(rowSteps('input', 'input'), undefined, 'the heading is not a row');
  assert.equal(rowSteps('model-input.command', 'input'), undefined);
  assert.equal(rowSteps('inputs.command', 'input'), undefined);
  assert.equal(rowSteps('input-x', 'input'), undefined);
});

test('a relative anchor (a history event’s field) is the anchor without its root, and goes back under any root', () => {
  const segments = [
    { kind: 'property', name: 'edits' },
    { kind: 'items' },
    { kind: 'variant', label: '2' },
    { kind: 'property', name: 'a.b' },
  ] as const;
  assert.equal(relativeAnchor(segments), '.edits:2.a~2Eb');
  assert.equal(relativeAnchor([]), '');
  assert.equal(rootedAnchor('model-input', '.edits:2.a~2Eb'), 'model-input.edits:2.a~2Eb');
  assert.equal(rootedAnchor('output', ':completed.agentId'), 'output:completed.agentId');
});

test('below an anchor: a longer anchor that continues at a step boundary; rest and rebase follow it', () => {
  assert.equal(isBelow('input.a.b', 'input.a'), true);
  assert.equal(isBelow('input.a:1', 'input.a'), true);
  assert.equal(isBelow('input.a@0', 'input.a'), true);
  assert.equal(isBelow('input.ab', 'input.a'), false, 'another property that starts alike');
  assert.equal(isBelow('input.a', 'input.a'), false);
  assert.equal(isBelow('input.a', 'input.a.b'), false);
  assert.equal(anchorRest('output:2.x.y', 'output:2'), '.x.y');
  assert.equal(anchorRest('output:2', 'output:2'), '');
  assert.equal(anchorRest('output:20.x', 'output:2'), undefined, 'variant 20 is not below variant 2');
  assert.equal(anchorRest('input.x', 'input'), '.x');
  assert.equal(rebaseAnchor('output:2.x', 'output:2', 'output:3'), 'output:3.x');
  assert.equal(rebaseAnchor('output:2', 'output:2', 'output:3'), 'output:3');
  assert.equal(rebaseAnchor('output:21.x', 'output:2', 'output:3'), undefined);
});

test('positional variants: a header by position, and anchors that pass through one', () => {
  assert.equal(positionalVariantPlace('output:3'), 'output');
  assert.equal(positionalVariantPlace('input.x:12'), 'input.x');
  assert.equal(positionalVariantPlace(':2'), '', 'a relative header');
  assert.equal(positionalVariantPlace('output:3.x'), undefined, 'a row below a header, not the header');
  assert.equal(positionalVariantPlace('output:completed'), undefined);
  assert.equal(positionalVariantPlace('output:!1'), undefined, 'a numeric discriminator value is not a position');
  assert.equal(throughPositionalVariant('.x:2.y'), true);
  assert.equal(throughPositionalVariant('output:3'), true);
  assert.equal(throughPositionalVariant('.x:completed.y'), false);
  assert.equal(throughPositionalVariant('output:!1.y'), false);
  assert.equal(throughPositionalVariant('.x:2xx.y'), false, 'a discriminator value that starts with a digit');
});
