/**
 * scripts/lib/system/child-cpu.ts: a command run through measuredCommand keeps its output and exit status, and the
 * processor time read from descriptor 3 agrees with what the command measured of itself (process.cpuUsage).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { childCpuSeconds, measuredCommand } from '../../scripts/lib/system/child-cpu.ts';

/** Runs `command` measured: its stdout, its exit code and what descriptor 3 received. */
function run(command: string[]): Promise<{ stdout: string; code: number | null; times: string }> {
  return new Promise((done, fail) => {
    const [file, ...args] = measuredCommand(command);
    const child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'inherit', 'pipe'] });
    let stdout = '';
    let times = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (d: string) => (times += d));
    child.on('error', fail);
    child.on('close', (code) => done({ stdout, code, times }));
  });
}

test("a busy command's own measure of its processor time is what descriptor 3 reports, its output and status kept", async () => {
  // The child spins for about 400 ms of processor time, prints its own measure, and exits with 7.
  const script =
    'const t = Date.now(); let x = 0; while (Date.now() - t < 400) x += Math.sqrt(x + 1);' +
    'const u = process.cpuUsage(); console.log(JSON.stringify({ seconds: (u.user + u.system) / 1e6, x: x > 0 }));' +
    'process.exitCode = 7;';
  const { stdout, code, times } = await run([process.execPath, '-e', script]);
  assert.equal(code, 7);
  const own = JSON.parse(stdout) as { seconds: number; x: boolean };
  assert.equal(own.x, true);
  const measured = childCpuSeconds(times);
  assert.ok(measured !== undefined, `times printed ${JSON.stringify(times)}`);
  // The shell counts the whole process (start-up and exit too) at a clock tick's resolution.
  assert.ok(measured >= own.seconds - 0.02, `${measured} s measured, the child counted ${own.seconds} s`);
  assert.ok(measured <= own.seconds + 1, `${measured} s measured, the child counted ${own.seconds} s`);
});

test('descendants count: a child that waits for its own busy child is charged for it', async () => {
  const busy = 'const t = Date.now(); let x = 0; while (Date.now() - t < 300) x += 1;';
  const parent = `require('node:child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(busy)}]);`;
  const { code, times } = await run([process.execPath, '-e', parent]);
  assert.equal(code, 0);
  const measured = childCpuSeconds(times);
  assert.ok(measured !== undefined && measured >= 0.28, `${measured} s measured for a 300 ms busy grandchild`);
});

test('times output: minutes and seconds of the second line, user plus system; anything else is unknown', () => {
  assert.equal(childCpuSeconds('0m0.001000s 0m0.002000s\n1m2.500000s 0m0.250000s\n'), 62.75);
  assert.ok(Math.abs(childCpuSeconds('0m0.00s 0m0.00s\n0m3.03s 0m0.07s')! - 3.1) < 1e-9);
  assert.equal(childCpuSeconds(''), undefined);
  assert.equal(childCpuSeconds('0m0.001000s 0m0.002000s\n'), undefined);
  assert.equal(childCpuSeconds('0m0.001000s 0m0.002000s\n3.1 0.2\n'), undefined);
});
