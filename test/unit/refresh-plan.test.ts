import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRefresh } from '../../scripts/lib/refresh-plan.ts';

const current = {
  types: { 'claude-code': { pinned: '0.3.332', latest: '0.3.332' } },
  clis: { 'claude-code': { pinned: '2.1.332', latest: '2.1.332' }, codex: { pinned: '0.171.0', latest: '0.171.0' } },
  histories: { 'claude-code.sdk': '0.3.332', 'claude-code.capture': '2.1.332', 'codex.capture': '0.171.0' },
};

test('nothing new: nothing to do', () => {
  assert.deepEqual(planRefresh(current), []);
});

test('one new SDK and CLI release: ingest, capture that agent, extend its two histories, leave Codex alone', () => {
  const steps = planRefresh({
    ...current,
    types: { 'claude-code': { pinned: '0.3.332', latest: '0.3.333' } },
    clis: { ...current.clis, 'claude-code': { pinned: '2.1.332', latest: '2.1.333' } },
  });
  assert.deepEqual(steps, [
    { kind: 'ingest-types', agent: 'claude-code', from: '0.3.332', to: '0.3.333' },
    { kind: 'capture', agent: 'claude-code', from: '2.1.332', to: '2.1.333' },
    { kind: 'history', file: 'claude-code.capture', from: '2.1.332', to: '2.1.333' },
    { kind: 'history', file: 'claude-code.sdk', from: '0.3.332', to: '0.3.333' },
  ]);
});

test('a registry whose latest is older than the pin moves nothing; a history behind its pin is caught up', () => {
  const steps = planRefresh({ ...current, types: { 'claude-code': { pinned: '0.3.332', latest: '0.3.300' } }, histories: { ...current.histories, 'codex.capture': '0.168.0' } });
  assert.deepEqual(steps, [{ kind: 'history', file: 'codex.capture', from: '0.168.0', to: '0.171.0' }]);
});

test('a missing history file is computed from scratch; release numbers compare numerically', () => {
  const steps = planRefresh({ ...current, clis: { ...current.clis, codex: { pinned: '0.171.0', latest: '0.1000.0' } }, histories: { 'codex.capture': undefined } });
  assert.deepEqual(steps, [
    { kind: 'capture', agent: 'codex', from: '0.171.0', to: '0.1000.0' },
    { kind: 'history', file: 'codex.capture', from: undefined, to: '0.1000.0' },
  ]);
});

test('types released with their CLI follow its pin, after its capture, whatever the registry says of the types package', () => {
  const withCli = { ...current, types: { ...current.types, 'gemini-cli': { pinned: '0.61.0', latest: '0.62.0', withCli: true } }, clis: { ...current.clis, 'gemini-cli': { pinned: '0.61.0', latest: '0.61.0' } } };
  assert.deepEqual(planRefresh(withCli), []);
  const moved = planRefresh({ ...withCli, clis: { ...withCli.clis, 'gemini-cli': { pinned: '0.61.0', latest: '0.62.0' } } });
  assert.deepEqual(moved, [
    { kind: 'capture', agent: 'gemini-cli', from: '0.61.0', to: '0.62.0' },
    { kind: 'ingest-types', agent: 'gemini-cli', from: '0.61.0', to: '0.62.0' },
  ]);
});

test('a CLI whose hook payloads are recorded records them again after its capture, before its history; one without keeps none', () => {
  const steps = planRefresh({
    ...current,
    clis: { a: { pinned: '1.0.0', latest: '1.1.0', payloads: true }, b: { pinned: '2.0.0', latest: '2.0.1' }, c: { pinned: '3.0.0', latest: '3.0.0', payloads: true } },
    histories: { 'a.capture': '1.0.0' },
  });
  assert.deepEqual(steps, [
    { kind: 'capture', agent: 'a', from: '1.0.0', to: '1.1.0' },
    { kind: 'payloads', agent: 'a', from: '1.0.0', to: '1.1.0' },
    { kind: 'capture', agent: 'b', from: '2.0.0', to: '2.0.1' },
    { kind: 'history', file: 'a.capture', from: '1.0.0', to: '1.1.0' },
  ]);
});
