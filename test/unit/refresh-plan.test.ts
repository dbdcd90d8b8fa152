import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRefresh } from '../../scripts/lib/refresh/plan.ts';

const current = {
  types: { 'claude-code': { pinned: '7.0.1', latest: '7.0.1' } },
  clis: { 'claude-code': { pinned: '8.1.1', latest: '8.1.1' }, codex: { pinned: '5.4.0', latest: '5.4.0' } },
  histories: { 'claude-code.sdk': '7.0.1', 'claude-code.capture': '8.1.1', 'codex.capture': '5.4.0' },
};

test('nothing new: nothing to do', () => {
  assert.deepEqual(planRefresh(current), []);
});

test('one new SDK and CLI release: ingest, capture that agent, extend its two histories, leave Codex alone', () => {
  const steps = planRefresh({
    ...current,
    types: { 'claude-code': { pinned: '7.0.1', latest: '7.0.2' } },
    clis: { ...current.clis, 'claude-code': { pinned: '8.1.1', latest: '8.1.2' } },
  });
  assert.deepEqual(steps, [
    { kind: 'ingest-types', agent: 'claude-code', from: '7.0.1', to: '7.0.2' },
    { kind: 'capture', agent: 'claude-code', from: '8.1.1', to: '8.1.2' },
    { kind: 'history', file: 'claude-code.capture', from: '8.1.1', to: '8.1.2' },
    { kind: 'history', file: 'claude-code.sdk', from: '7.0.1', to: '7.0.2' },
  ]);
});

test('a registry whose latest is older than the pin moves nothing; a history behind its pin is caught up', () => {
  const steps = planRefresh({
    ...current,
    types: { 'claude-code': { pinned: '7.0.1', latest: '7.0.0' } },
    histories: { ...current.histories, 'codex.capture': '5.1.0' },
  });
  assert.deepEqual(steps, [{ kind: 'history', file: 'codex.capture', from: '5.1.0', to: '5.4.0' }]);
});

test('a missing history file is computed from scratch; release numbers compare numerically', () => {
  const steps = planRefresh({
    ...current,
    clis: { ...current.clis, codex: { pinned: '5.4.0', latest: '5.1000.0' } },
    histories: { 'codex.capture': undefined },
  });
  assert.deepEqual(steps, [
    { kind: 'capture', agent: 'codex', from: '5.4.0', to: '5.1000.0' },
    { kind: 'history', file: 'codex.capture', from: undefined, to: '5.1000.0' },
  ]);
});

test('types released with their CLI follow its pin, after its capture, whatever the registry says of the types package', () => {
  const withCli = {
    ...current,
    types: { ...current.types, 'gemini-cli': { pinned: '0.61.0', latest: '0.62.0', withCli: true } },
    clis: { ...current.clis, 'gemini-cli': { pinned: '0.61.0', latest: '0.61.0' } },
  };
  assert.deepEqual(planRefresh(withCli), []);
  const moved = planRefresh({
    ...withCli,
    clis: { ...withCli.clis, 'gemini-cli': { pinned: '0.61.0', latest: '0.62.0' } },
  });
  assert.deepEqual(moved, [
    { kind: 'capture', agent: 'gemini-cli', from: '0.61.0', to: '0.62.0' },
    { kind: 'ingest-types', agent: 'gemini-cli', from: '0.61.0', to: '0.62.0' },
  ]);
});

test('a CLI whose hook payloads are recorded records them again after its capture, before its history; one without keeps none', () => {
  const steps = planRefresh({
    ...current,
    clis: {
      a: { pinned: '1.0.0', latest: '1.1.0', payloads: true },
      b: { pinned: '2.0.0', latest: '2.0.1' },
      c: { pinned: '3.0.0', latest: '3.0.0', payloads: true },
    },
    histories: { 'a.capture': '1.0.0' },
  });
  assert.deepEqual(steps, [
    { kind: 'capture', agent: 'a', from: '1.0.0', to: '1.1.0' },
    { kind: 'payloads', agent: 'a', from: '1.0.0', to: '1.1.0' },
    { kind: 'capture', agent: 'b', from: '2.0.0', to: '2.0.1' },
    { kind: 'history', file: 'a.capture', from: '1.0.0', to: '1.1.0' },
  ]);
});
