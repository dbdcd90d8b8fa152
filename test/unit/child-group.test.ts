import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupMembers, runInGroup, signalExitCode, stopChildren } from '../../scripts/lib/system/child-group.ts';

// A child that starts a grandchild (which ignores SIGTERM) and then waits: both are in the child's group.
const PARENT = `
const { spawn } = require('node:child_process');
spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('grandchild ' + process.pid)"], { stdio: 'inherit' });
setInterval(() => {}, 1000);
`;

test('a stop ends the child and what it started, even a grandchild that ignores SIGTERM, and the child counts as failed', async () => {
  let child: number | undefined;
  const finished = runInGroup(process.execPath, ['-e', PARENT], {
    cwd: process.cwd(),
    name: 'the parent',
    onStart: (pid) => (child = pid),
  });
  const failed = assert.rejects(finished, /the parent failed \(exit SIG(TERM|KILL)\)/);
  // The child leads a group of its own (its id); wait until it and its grandchild are both in it, read from /proc as
  // the stop reads it.
  let pgid: number | undefined;
  for (let i = 0; i < 400 && pgid === undefined; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (child !== undefined && groupMembers(child).length === 2) pgid = child;
  }
  assert.ok(pgid !== undefined, 'the child and its grandchild share a process group of their own');
  assert.notEqual(pgid, process.pid);
  const stopped = stopChildren(500);
  assert.deepEqual(stopped, [pgid]);
  assert.deepEqual(groupMembers(pgid), [], 'no process of the group is left');
  await failed;
});

test('a child that ends well resolves; the shell status of a stop is 128 plus the signal number', async () => {
  await runInGroup(process.execPath, ['-e', 'process.exit(0)'], { cwd: process.cwd(), name: 'ok' });
  await assert.rejects(
    runInGroup(process.execPath, ['-e', 'process.exit(3)'], { cwd: process.cwd(), name: 'three' }),
    /three failed \(exit 3\)/,
  );
  assert.equal(signalExitCode('SIGINT'), 130);
  assert.equal(signalExitCode('SIGTERM'), 143);
  assert.equal(signalExitCode('SIGHUP'), 129);
  assert.deepEqual(stopChildren(), [], 'nothing left running to stop');
});
