import { test } from 'node:test';
import assert from 'node:assert/strict';
import { staleLeftovers } from '../../scripts/build.ts';

test('staging and retired folders of builds no longer running are stale; those of running builds and anything else are not', () => {
  const names = [
    'dist',
    '.dist.staging-101',
    '.dist.old-101',
    '.dist.staging-202',
    '.dist.old-303',
    '.dist.staging-',
    '.dist.staging-12x',
    '.dist.staging-101.tmp',
    'dist.staging-101',
    '.out.staging-101',
    '.astro',
  ];
  const running = new Set([202]);
  assert.deepEqual(
    staleLeftovers(names, 'dist', (pid) => running.has(pid)),
    ['.dist.staging-101', '.dist.old-101', '.dist.old-303'],
  );
});

test('the output name is matched literally, not as a pattern', () => {
  const dead = () => false;
  assert.deepEqual(staleLeftovers(['.my.site.staging-7', '.myXsite.staging-7'], 'my.site', dead), [
    '.my.site.staging-7',
  ]);
  assert.deepEqual(
    staleLeftovers(['.dist.staging-7'], 'dist', () => true),
    [],
  );
});
