import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { parseRunArgs } from '../../scripts/lib/capture/run-args.ts';

const spec = { usage: 'node x.ts [--only a]', onlyTakes: 'agent or agent/id' };

test('the run scripts share one command line: --only (twice, or with =), --check, --raw, --inside; --matrix only where allowed', () => {
  assert.deepEqual(
    parseRunArgs(['--only', 'codex', '--only=claude-code/print', '--check', '--raw', '/tmp/r', '--inside'], spec),
    { only: ['codex', 'claude-code/print'], check: true, inside: true, raw: '/tmp/r' },
  );
  assert.deepEqual(parseRunArgs(['--matrix', 'm.json'], { ...spec, matrix: true }), {
    only: [],
    check: false,
    inside: false,
    matrix: resolve('m.json'),
  });
  assert.deepEqual(parseRunArgs(['--matrix', 'm.json'], spec), { error: 'unknown argument --matrix' });
  assert.deepEqual(parseRunArgs(['--only'], spec), { error: '--only needs agent or agent/id' });
  assert.deepEqual(parseRunArgs(['--raw'], spec), { error: '--raw needs a folder' });
  assert.deepEqual(parseRunArgs(['-h'], spec), { help: 'usage: node x.ts [--only a]' });
});
