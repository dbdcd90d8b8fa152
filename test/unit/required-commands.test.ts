import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  checkRequiredCommands,
  missingCommands,
  onPath,
  RequiredCommandError,
} from '../../scripts/lib/capture/required-commands.ts';
import { AGENTS } from '../../src/lib/agents/index.ts';

const REQUIRED = [{ command: 'fake-tool', why: 'its Lookup tool is offered only when `fake-tool --version` succeeds' }];

/** Two folders in a temporary directory, one with an executable `fake-tool`, one with a `fake-tool` not executable. */
function folders(): { root: string; withIt: string; without: string; notExecutable: string } {
  const root = mkdtempSync(join(tmpdir(), 'required-commands-'));
  const withIt = join(root, 'with');
  const without = join(root, 'without');
  const notExecutable = join(root, 'not-executable');
  for (const dir of [withIt, without, notExecutable]) mkdirSync(dir);
  writeFileSync(join(withIt, 'fake-tool'), '#!/bin/sh\necho fake-tool 1.0\n');
  chmodSync(join(withIt, 'fake-tool'), 0o755);
  writeFileSync(join(notExecutable, 'fake-tool'), 'not a program\n');
  chmodSync(join(notExecutable, 'fake-tool'), 0o644);
  mkdirSync(join(without, 'other-tool')); // a folder of another name is not the command
  return { root, withIt, without, notExecutable };
}

test('a PATH without the command: the check names the command, the agent and the reason', () => {
  const f = folders();
  try {
    const path = [f.without, f.notExecutable].join(delimiter);
    assert.equal(onPath('fake-tool', path), false);
    assert.deepEqual(missingCommands(REQUIRED, path), REQUIRED);
    assert.throws(
      () => checkRequiredCommands('some-agent', REQUIRED, path),
      (error: unknown) =>
        error instanceof RequiredCommandError &&
        error.message.includes('some-agent needs `fake-tool` on PATH') &&
        error.message.includes('its Lookup tool is offered only when `fake-tool --version` succeeds') &&
        error.message.includes('nothing was run or recorded'),
    );
    assert.throws(() => checkRequiredCommands('some-agent', REQUIRED, ''), RequiredCommandError);
  } finally {
    rmSync(f.root, { recursive: true, force: true });
  }
});

test('a PATH with the command as an executable file: the check passes', () => {
  const f = folders();
  try {
    const path = [f.without, f.notExecutable, f.withIt].join(delimiter);
    assert.equal(onPath('fake-tool', path), true);
    assert.deepEqual(missingCommands(REQUIRED, path), []);
    assert.doesNotThrow(() => checkRequiredCommands('some-agent', REQUIRED, path));
    assert.doesNotThrow(() => checkRequiredCommands('some-agent', [], ''));
  } finally {
    rmSync(f.root, { recursive: true, force: true });
  }
});

test('every declared required command has a command name and a reason', () => {
  for (const agent of Object.values(AGENTS))
    for (const r of agent.requiresCommands ?? []) {
      assert.match(r.command, /^[\w.-]+$/, `${agent.id}: ${r.command}`);
      assert.ok(r.why.length > 20, `${agent.id}: the reason for ${r.command}`);
    }
});
