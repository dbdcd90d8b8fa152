/**
 * The GitHub Actions workflows (.github/workflows/) parse as YAML (with the
 * `yaml` package) and say what the README says they do: the refresh runs daily
 * and on demand as root in a privileged Debian container (the capture needs
 * `unshare -n`), refreshes, describes, tests and opens a pull request; the deploy
 * builds on a push to main and publishes dist/ with Pages. Every action is pinned
 * to a major version or a full commit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const DIR = join(import.meta.dirname, '../../.github/workflows');

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  container?: { image: string; options?: string };
  permissions?: Record<string, string>;
  needs?: string | string[];
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const read = (name: string) =>
  parse(readFileSync(join(DIR, name), 'utf8'), { strict: true, uniqueKeys: true }) as Workflow;
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);
const runs = (w: Workflow) => steps(w).flatMap((s) => (s.run ? [s.run] : []));
const indexOfRun = (w: Workflow, text: string) => steps(w).findIndex((s) => s.run?.includes(text));
const indexOfUse = (w: Workflow, action: string) => steps(w).findIndex((s) => s.uses?.startsWith(`${action}@`));

test('every workflow parses, has jobs with steps, and pins each action to a major version or a full commit', () => {
  const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
  assert.deepEqual(files.sort(), ['deploy.yml', 'refresh.yml']);
  for (const file of files) {
    const workflow = read(file);
    assert.ok(Object.keys(workflow.jobs).length > 0, file);
    for (const step of steps(workflow)) {
      assert.ok(step.uses || step.run, `${file}: a step uses an action or runs a command`);
      if (step.uses) assert.match(step.uses, /^[\w.-]+\/[\w.-]+@(v\d+|[0-9a-f]{40})$/, `${file}: ${step.uses}`);
    }
  }
  assert.throws(() => parse('a: 1\na: 2\n', { strict: true, uniqueKeys: true }), 'the parser refuses a duplicate key');
});

test('refresh: daily and on demand, as root in a privileged Debian container, refresh → summary → tests → pull request', () => {
  const w = read('refresh.yml');
  const schedule = w.on['schedule'] as { cron: string }[];
  assert.equal(schedule.length, 1);
  assert.match(schedule[0]!.cron, /^\d+ \d+ \* \* \*$/, 'once a day');
  assert.ok('workflow_dispatch' in w.on);
  const [job] = Object.values(w.jobs);
  assert.match(job!.container!.image, /^debian:/);
  assert.match(job!.container!.options ?? '', /--privileged/);
  assert.ok(
    runs(w).some((r) => /apt-get install[\s\S]*\bchromium\b/.test(r)),
    "Debian's Chromium installed for the tests",
  );
  assert.ok(
    runs(w).some((r) => /apt-get install[\s\S]*\bgit\b/.test(r)) &&
      indexOfRun(w, 'apt-get install') < indexOfUse(w, 'actions/checkout'),
    'git before the checkout',
  );
  const order = [
    indexOfRun(w, 'npm ci'),
    indexOfRun(w, 'npm run refresh'),
    indexOfRun(w, 'refresh:summary'),
    indexOfRun(w, 'npm test'),
    indexOfUse(w, 'peter-evans/create-pull-request'),
  ];
  assert.ok(
    order.every((i) => i >= 0),
    `every step present: ${order}`,
  );
  assert.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
    'in this order',
  );
  const pr = steps(w)[order[4]!]!;
  const summary = /--out "\$RUNNER_TEMP\/([^"]+)"/.exec(steps(w)[order[2]!]!.run!);
  assert.ok(summary, 'the summary is written outside the checkout, so it is not committed');
  assert.equal(pr.with?.['body-path'], `\${{ runner.temp }}/${summary[1]}`, 'the pull request body is the summary');
  assert.deepEqual([w.permissions?.['contents'], w.permissions?.['pull-requests']], ['write', 'write']);
});

test('refresh: npm run verify re-checks a small sample after the refresh, its report joins the pull request body, and a contradiction fails the run', () => {
  const w = read('refresh.yml');
  const verify = indexOfRun(w, 'npm run -s verify');
  assert.ok(
    verify > indexOfRun(w, 'npm run refresh') && verify < indexOfUse(w, 'peter-evans/create-pull-request'),
    'after the refresh, before the pull request',
  );
  const step = steps(w)[verify]! as Step & { id?: string; 'continue-on-error'?: boolean };
  assert.equal(step['continue-on-error'], true, 'a contradiction still lets the pull request carry the report');
  const events = Number(/--events (\d+)/.exec(step.run!)?.[1]);
  const payloads = Number(/--payloads (\d+)/.exec(step.run!)?.[1]);
  assert.ok(
    events > 0 && events < 20 && payloads > 0 && payloads < 8,
    `a small sample (smaller than the defaults): ${step.run}`,
  );
  assert.match(step.run!, /--minutes \d+/, 'bounded in time');
  const report = /--report "\$RUNNER_TEMP\/([^"]+)"/.exec(step.run!)?.[1];
  assert.ok(report, 'the report is written outside the checkout');
  const summary = /--out "\$RUNNER_TEMP\/([^"]+)"/.exec(steps(w)[indexOfRun(w, 'refresh:summary')]!.run!)![1]!;
  const append = steps(w).findIndex((s) =>
    s.run?.includes(`cat "$RUNNER_TEMP/${report}" >> "$RUNNER_TEMP/${summary}"`),
  );
  assert.ok(
    append > verify && append < indexOfUse(w, 'peter-evans/create-pull-request'),
    'the report is appended to the pull request body before the pull request is opened',
  );
  const failOn = steps(w).findIndex(
    (s) => s.if?.includes(`steps.${step.id}.outcome == 'failure'`) && /exit 1/.test(s.run ?? ''),
  );
  assert.ok(
    failOn > indexOfUse(w, 'peter-evans/create-pull-request'),
    'after the pull request, a contradiction fails the run',
  );
});

test('deploy: a push to main builds the site and publishes dist/ with Pages', () => {
  const w = read('deploy.yml');
  assert.deepEqual((w.on['push'] as { branches: string[] }).branches, ['main']);
  const build = Object.values(w.jobs).find((j) =>
    j.steps.some((s) => s.uses?.startsWith('actions/upload-pages-artifact@')),
  )!;
  const deploy = Object.entries(w.jobs).find(([, j]) =>
    j.steps.some((s) => s.uses?.startsWith('actions/deploy-pages@')),
  )!;
  assert.ok(build && deploy);
  const names = build.steps.map((s) => s.run ?? s.uses ?? '');
  assert.ok(names.findIndex((n) => n.includes('npm ci')) < names.findIndex((n) => n.includes('npm run build')));
  assert.equal(build.steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact@'))!.with?.['path'], 'dist');
  const buildName = Object.entries(w.jobs).find(([, j]) => j === build)![0];
  assert.deepEqual([deploy[1].needs].flat(), [buildName]);
  assert.deepEqual([deploy[1].permissions?.['pages'], deploy[1].permissions?.['id-token']], ['write', 'write']);
});
