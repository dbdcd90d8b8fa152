/**
 * `npm run refresh` is all or nothing: a run that fails, at whichever step, leaves the
 * project's tree exactly as it was (`git status` clean, scripts/pins.json unchanged).
 *
 * Each case runs the real refresh script in a scratch copy of the project (its own git
 * repository) against a registry on 127.0.0.1 (test/helpers/npm-registry.ts) that serves
 * every pinned package and CLI at its pinned release, and one newer release of the Claude
 * Code types built from the real pinned tarball. The cases share one scratch copy, made
 * once and put back to its commit (tracked, new and ignored files alike) at the start of
 * each run, which checks that it is clean.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';
import { startRegistries, type ServedVersion } from '../helpers/npm-registry.ts';
import { AGENTS, isAgentId } from '../../src/lib/agents/index.ts';

const PINS = JSON.parse(readFileSync(join(ROOT, 'scripts/pins.json'), 'utf8')) as Record<
  string,
  { package: string; version: string }
>;
const MATRIX = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as {
  agents: Record<string, { package: string; version: string }>;
};
const PIN = PINS['claude-code']!;
// A release after the pin, derived from it, far enough ahead that no real release shares it.
const NEWER = PIN.version.replace(/\d+$/, (patch) => String(Number(patch) + 1000));

const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The package.json of a tarball. */
function readManifest(tarball: Buffer): { claudeCodeVersion?: string } {
  const dir = mkdtempSync(join(fixtures, 'manifest-'));
  writeFileSync(join(dir, 'p.tgz'), tarball);
  return JSON.parse(
    execFileSync('tar', ['-xzOf', join(dir, 'p.tgz'), 'package/package.json'], { encoding: 'utf8' }),
  ) as { claudeCodeVersion?: string };
}

let fixtures: string;
let genuine: Buffer;
/** The newer release: the pinned tarball with its version moved. */
let newer: Buffer;
/** The newer release with its type declarations a symbolic link to a file of this machine. */
let linked: Buffer;

function repack(from: Buffer, edit: (pkg: string) => void): Buffer {
  const dir = mkdtempSync(join(fixtures, 'repack-'));
  writeFileSync(join(dir, 'in.tgz'), from);
  mkdirSync(join(dir, 'x'));
  execFileSync('tar', ['-xzf', join(dir, 'in.tgz'), '-C', join(dir, 'x')]);
  edit(join(dir, 'x', 'package'));
  execFileSync('tar', ['-czf', join(dir, 'out.tgz'), '-C', join(dir, 'x'), 'package']);
  return readFileSync(join(dir, 'out.tgz'));
}

before(() => {
  fixtures = mkdtempSync(join(tmpdir(), 'refresh-fixtures-'));
  const out = execFileSync('npm', ['pack', `${PIN.package}@${PIN.version}`, '--json', '--pack-destination', fixtures], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  genuine = readFileSync(join(fixtures, (JSON.parse(out) as { filename: string }[])[0]!.filename));
  const bump = (pkg: string) => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
    manifest.version = NEWER;
    writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest, null, 2));
  };
  newer = repack(genuine, bump);
  const secret = join(fixtures, 'local.d.ts');
  writeFileSync(
    secret,
    '// a file of this machine: LOCAL_SECRET_MARKER\nexport interface BashInput { command: string }\n',
  );
  linked = repack(genuine, (pkg) => {
    bump(pkg);
    const types = readdirSync(pkg).find((f) => f.startsWith('sdk-tools') && f.endsWith('.d.ts'))!;
    rmSync(join(pkg, types));
    symlinkSync(secret, join(pkg, types));
  });
});
/** The scratch project every case runs in, made once. */
let project: string | undefined;
after(() => {
  rmSync(fixtures, { recursive: true, force: true });
  if (project) rmSync(project, { recursive: true, force: true });
});

/** A copy of the project's files (tracked and new, not ignored) as a git repository of its own, node_modules linked. */
function scratchProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'refresh-project-'));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    let from: string;
    try {
      from = join(ROOT, file);
      mkdirSync(dirname(join(root, file)), { recursive: true });
      copyFileSync(from, join(root, file));
    } catch {
      // A tracked file deleted in the working tree.
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-qm', 'before the refresh');
  return root;
}

/**
 * The scratch project as committed, whatever the last run left in it (files it changed or
 * made, ignored ones such as .refresh-before/ included); the linked node_modules stays.
 */
function resetScratch(root: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  git('reset', '--hard', '-q', 'HEAD');
  git('clean', '-fdxq', '-e', '/node_modules');
  const left = status(root);
  if (left !== '') throw new Error(`the scratch project is not clean after its reset:\n${left}`);
}

/** `git status` of the scratch project, ignored files included (but for the linked node_modules). */
const status = (root: string): string =>
  execFileSync('git', ['status', '--porcelain', '--ignored', '--untracked-files=all'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((l) => l && l !== '!! node_modules')
    .join('\n');

/** Every package the refresh asks about, at its pin; the Claude Code types also at NEWER. */
function served(newerBytes: Buffer, extra: Partial<ServedVersion> = {}): Record<string, Record<string, ServedVersion>> {
  const none = { bytes: Buffer.alloc(0) };
  const packages: Record<string, Record<string, ServedVersion>> = {
    [PIN.package]: { [PIN.version]: { bytes: genuine }, [NEWER]: { bytes: newerBytes, ...extra } },
  };
  for (const pin of Object.values(PINS)) packages[pin.package] ??= { [pin.version]: none };
  for (const [agent, entry] of Object.entries(MATRIX.agents)) {
    packages[entry.package] ??= { [entry.version]: none };
    // The packages that run on their own (Claude Code's platform package): refresh asks for their newest release too.
    for (const other of isAgentId(agent) ? (AGENTS[agent].standalonePackages ?? []) : [])
      packages[other] ??= { [entry.version]: none };
  }
  return packages;
}

/** Processes whose working folder is inside `root` (a step's script, npm, a CLI). */
function processesIn(root: string): string[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .flatMap((pid) => {
      try {
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        return cwd === root || cwd.startsWith(`${root}/`)
          ? [`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`]
          : [];
      } catch {
        return [];
      }
    });
}

interface Stop {
  /** Sent once stdout matches `when`. */
  signal: NodeJS.Signals;
  when: RegExp;
}

async function runRefresh(
  packages: Record<string, Record<string, ServedVersion>>,
  stop?: Stop,
  env: NodeJS.ProcessEnv = {},
): Promise<{
  root: string;
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  leftAfterStop: string[];
}> {
  project ??= scratchProject();
  const root = project;
  resetScratch(root);
  const registry = await startRegistries(packages);
  const scratch = mkdtempSync(join(tmpdir(), 'refresh-run-'));
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(root, 'scripts/refresh.ts')], {
        cwd: root,
        env: {
          ...process.env,
          npm_config_registry: registry.url,
          npm_config_cache: join(scratch, 'npm-cache'),
          npm_config_fetch_retries: '0',
          npm_config_fetch_timeout: '5000',
          npm_config_noproxy: '127.0.0.1',
          NO_PROXY: '127.0.0.1',
          no_proxy: '127.0.0.1',
          HISTORY_CACHE_DIR: join(scratch, 'history-cache'),
          NODE_DISABLE_COMPILE_CACHE: '1',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (stop && !sent && stop.when.test(stdout)) {
          sent = true;
          child.kill(stop.signal);
        }
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ root, status: code, signal, stdout, stderr, leftAfterStop: processesIn(root) });
      });
    });
  } finally {
    await registry.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

// A download the ingest refuses fails its step after the pins moved. Other refusals (npm's EINTEGRITY, a tarball
// other than the pin) fail the same step the same way: ingest-script.test.ts checks what each says.
test('a refused download (a symbolic link in the tarball) fails the refresh with the tree untouched, pins included', async () => {
  const run = await runRefresh(served(linked));
  assert.equal(run.status, 1, run.stdout);
  assert.match(
    run.stdout,
    new RegExp(`types of claude-code ${PIN.version.replace(/\./g, '\\.')} → ${NEWER.replace(/\./g, '\\.')}`),
    'the plan moves the types',
  );
  assert.match(run.stderr, /refusing the tarball: .* is a symbolic link/);
  assert.match(run.stderr, /claude-code types: .*; its files are as they were/s);
  assert.equal(status(run.root), '', 'git status is clean');
});

test('a step failing after the ingest wrote the tool files, agent record and pins leaves the tree untouched', async (t) => {
  const run = await runRefresh(served(newer));
  t.diagnostic(`the failure: ${run.stderr.trim().split('\n').slice(-4).join(' | ')}`);
  assert.equal(run.status, 1, run.stdout);
  // The ingest ran to the end and wrote (it names the tools it read from NEWER) …
  assert.match(
    run.stdout,
    new RegExp(`tools from ${PIN.package.replace(/[/.]/g, '\\$&')}@${NEWER.replace(/\./g, '\\.')}`),
    run.stdout,
  );
  // … then a later step failed, and everything went back.
  assert.match(run.stderr, /claude-code types: .*; its files are as they were/s);
  assert.equal(status(run.root), '', 'git status is clean');
});

for (const stop of [
  // Before the first unit saved anything, or while it saves.
  { signal: 'SIGHUP', when: /^plan:/m, at: 'as the plan is printed' },
  // The ingest running: the pins already name the new release.
  { signal: 'SIGTERM', when: /\$ node scripts\/ingest-claude-sdk\.ts/, at: 'during the ingest, after the pins moved' },
  // The ingest done (tool files, agent record written), the history step running.
  {
    signal: 'SIGINT',
    when: /\$ node scripts\/history-claude-sdk\.ts/,
    at: 'during the history step, after the ingest wrote',
  },
] as const) {
  test(`a refresh stopped by ${stop.signal} ${stop.at} stops its steps and leaves the tree as it was`, async () => {
    const run = await runRefresh(served(newer), stop);
    const codes: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
    assert.equal(run.status, codes[stop.signal], `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr, new RegExp(`refresh: ${stop.signal}: stopping the running step and restoring the tree`));
    assert.equal(status(run.root), '', 'git status is clean: content, pins and no .refresh-before/');
    assert.ok(!existsSync(join(run.root, '.refresh-before')));
    assert.deepEqual(run.leftAfterStop, [], 'no process the refresh started is left');
  });
}

test("one agent's newest release that cannot run holds back only that agent: the other moves, the failure is recorded in the release's words, and the pin stays", async () => {
  // Pi's newest release is a tarball npm cannot unpack; the Claude Code types have a newer release that reads.
  const pi = MATRIX.agents['pi']!;
  const broken = pi.version.replace(/\d+$/, (patch) => String(Number(patch) + 1000));
  // The newer types bundle a newer Claude Code too, as every real release does (the SDK history is keyed by it).
  const bundled = readManifest(genuine).claudeCodeVersion!;
  const bundledNewer = bundled.replace(/\d+$/, (patch) => String(Number(patch) + 1000));
  const typesNewer = repack(genuine, (pkg) => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
      version: string;
      claudeCodeVersion: string;
    };
    Object.assign(manifest, { version: NEWER, claudeCodeVersion: bundledNewer });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest, null, 2));
    // The bundled program's manifest names the same release.
    const program = JSON.parse(readFileSync(join(pkg, 'manifest.json'), 'utf8')) as { version: string };
    writeFileSync(join(pkg, 'manifest.json'), JSON.stringify({ ...program, version: bundledNewer }, null, 2));
  });
  const packages = served(typesNewer, { manifest: { claudeCodeVersion: bundledNewer } });
  packages[PIN.package]![PIN.version]!.manifest = { claudeCodeVersion: bundled };
  packages[pi.package] = {
    [pi.version]: { bytes: Buffer.alloc(0) },
    [broken]: { bytes: Buffer.from('not a tarball') },
  };
  const cache = mkdtempSync(join(tmpdir(), 'refresh-capture-cache-'));
  const run = await runRefresh(packages, undefined, { CAPTURE_CACHE_DIR: cache });
  try {
    const out = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, out);
    // The plan has both units; the summary says what each did.
    assert.match(run.stdout, /^ {2}claude-code types:$/m);
    assert.match(run.stdout, /^ {2}pi CLI:$/m);
    assert.match(run.stdout, new RegExp(`moved: types of claude-code ${esc(PIN.version)} → ${esc(NEWER)}`));
    assert.match(
      run.stdout,
      new RegExp(
        `not moved: pi CLI: ${esc(broken)} cannot run \\((print|all-tools): cannot run: npm install ${esc(pi.package)}@${esc(broken)} failed: .+\\); recorded in its history; the pin stays`,
      ),
    );
    // What moved is in the tree, checked; the broken release moved nothing but its history.
    const pins = JSON.parse(readFileSync(join(run.root, 'scripts/pins.json'), 'utf8')) as typeof PINS;
    assert.equal(pins['claude-code']!.version, NEWER);
    const matrix = JSON.parse(readFileSync(join(run.root, 'content/capture-matrix.json'), 'utf8')) as typeof MATRIX;
    assert.equal(matrix.agents['pi']!.version, pi.version, 'the pin stays at the release that runs');
    const history = JSON.parse(readFileSync(join(run.root, 'content/history/pi.capture.json'), 'utf8')) as {
      releases: { version: string; read?: boolean; failed?: Record<string, string> }[];
    };
    const recorded = history.releases.find((r) => r.version === broken);
    assert.ok(recorded?.read && recorded.failed, `the history lists ${broken} as read, with why it failed`);
    for (const reason of Object.values(recorded.failed)) assert.match(reason, /npm install .* failed/);
    const changed = status(run.root)
      .split('\n')
      .map((l) => l.slice(3));
    assert.ok(
      changed.includes('scripts/pins.json') && changed.includes('content/history/pi.capture.json'),
      changed.join(' '),
    );
    assert.ok(!changed.includes('content/capture-matrix.json'), 'the capture matrix is as it was');
    assert.ok(!existsSync(join(run.root, '.refresh-before')));
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
