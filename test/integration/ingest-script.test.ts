/**
 * The ingest script itself: at the pinned release it regenerates the committed
 * content byte for byte; when the download fails, or the registry serves a
 * tarball other than the pinned one, it says why, writes nothing and leaves no
 * temporary folder behind; the integrity pin moves only on purpose.
 *
 * Registries other than the real one are served on 127.0.0.1
 * (test/helpers/npm-registry.ts), and the script reaches them through the real
 * npm client (`npm_config_registry`).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';
import { sha512, startRegistry, type ServedVersion } from '../helpers/npm-registry.ts';

const PINS = JSON.parse(readFileSync(join(ROOT, 'scripts/pins.json'), 'utf8')) as Record<
  string,
  Record<string, string>
>;
const PIN = PINS['claude-code']!;
const PACKAGE = PIN.package!;
const VERSION = PIN.version!;
const PINNED_INTEGRITY = PIN.integrity!;
/**
 * Expected figures read from the committed content, not typed in: the SDK tool files and the Claude Code release their
 * record names.
 */
const SDK_TOOL_FILES = readdirSync(join(ROOT, 'content/tools/claude-code')).filter((f) => f.endsWith('.json')).length;
const CLI_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'content/agents/claude-code.json'), 'utf8')) as { version: string }
).version;
/** The Claude Code release the pinned package states it bundles (its package.json `claudeCodeVersion`). */
let CLI_VERSION_OF_PIN = '';
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string, prefix: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(d, entry.name), `${prefix}${entry.name}/`);
      else files.set(prefix + entry.name, readFileSync(join(d, entry.name), 'utf8'));
    }
  };
  walk(dir, '');
  return files;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A scratch folder per test: a copy of content/, a copy of pins.json, an empty TMPDIR for the child, an npm cache. */
interface Scratch {
  content: string;
  pins: string;
  tmp: string;
  npmCache: string;
}

async function withScratch(run: (s: Scratch) => Promise<void>, pins: unknown = PINS): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'ingest-'));
  try {
    const s: Scratch = {
      content: join(root, 'content'),
      pins: join(root, 'pins.json'),
      tmp: join(root, 'tmp'),
      npmCache: join(root, 'npm-cache'),
    };
    cpSync(join(ROOT, 'content'), s.content, { recursive: true });
    writeFileSync(s.pins, JSON.stringify(pins, null, 2) + '\n');
    mkdirSync(s.tmp);
    await run(s);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
  /** What the child left in its TMPDIR (it started empty). */
  leftInTmp: string[];
}

/** Runs the script asynchronously (a loopback registry in this process must keep answering). */
function runIngest(s: Scratch, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/ingest-claude-sdk.ts'), ...args], {
      cwd: ROOT,
      // NODE_DISABLE_COMPILE_CACHE: npm 11 on Node ≥ 22 otherwise keeps its own compile cache in TMPDIR.
      env: {
        ...process.env,
        CONTENT_DIR: s.content,
        PINS_FILE: s.pins,
        TMPDIR: s.tmp,
        NODE_DISABLE_COMPILE_CACHE: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, leftInTmp: readdirSync(s.tmp) });
    });
  });
}

/** The loopback registry of test/helpers/npm-registry.ts serving PACKAGE's `versions` while `run` runs. */
async function withRegistry(
  versions: Record<string, ServedVersion>,
  run: (url: string, requests: string[]) => Promise<void>,
): Promise<void> {
  const registry = await startRegistry(PACKAGE, versions);
  try {
    await run(registry.url, registry.requests);
  } finally {
    await registry.close();
  }
}

/** npm settings that send the script's `npm pack` to a loopback registry, with a private cache. */
function registryEnv(s: Scratch, registry: string): NodeJS.ProcessEnv {
  return {
    npm_config_registry: registry,
    npm_config_cache: s.npmCache,
    npm_config_fetch_retries: '0',
    npm_config_fetch_timeout: '5000',
    npm_config_noproxy: '127.0.0.1',
    NO_PROXY: '127.0.0.1',
    no_proxy: '127.0.0.1',
  };
}

/** Tarballs built from the real pinned one: unchanged content plus one file, and the same with another version. */
let fixtures: string;
let genuine: Buffer;
let tampered: Buffer;
let bumped: Buffer;
/** The bumped release whose type declarations are a symbolic link to a file of this machine. */
let linked: Buffer;
let secretFile: string;
/** The bumped release whose claudeCodeVersion is a path that climbs out of the content folder. */
let traversing: Buffer;
// A release after the pin, derived from it: the next patch number, as a prerelease no registry serves.
const BUMPED_VERSION = `${VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 1))}-test.1`;

function repack(from: Buffer, edit: (dir: string) => void): Buffer {
  const dir = mkdtempSync(join(fixtures, 'repack-'));
  writeFileSync(join(dir, 'in.tgz'), from);
  mkdirSync(join(dir, 'x'));
  execFileSync('tar', ['-xzf', join(dir, 'in.tgz'), '-C', join(dir, 'x')]);
  edit(join(dir, 'x', 'package'));
  execFileSync('tar', ['-czf', join(dir, 'out.tgz'), '-C', join(dir, 'x'), 'package']);
  return readFileSync(join(dir, 'out.tgz'));
}

before(() => {
  fixtures = mkdtempSync(join(tmpdir(), 'ingest-fixtures-'));
  const out = execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--json', '--pack-destination', fixtures], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  genuine = readFileSync(join(fixtures, (JSON.parse(out) as { filename: string }[])[0]!.filename));
  CLI_VERSION_OF_PIN = (
    JSON.parse(
      execFileSync(
        'tar',
        ['-xzOf', join(fixtures, (JSON.parse(out) as { filename: string }[])[0]!.filename), 'package/package.json'],
        { encoding: 'utf8' },
      ),
    ) as { claudeCodeVersion: string }
  ).claudeCodeVersion;
  // The real registry serves exactly the pinned bytes.
  assert.equal(sha512(genuine), PINNED_INTEGRITY);
  tampered = repack(genuine, (pkg) => writeFileSync(join(pkg, 'TAMPERED.md'), 'not the published tarball\n'));
  bumped = repack(genuine, (pkg) => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
    manifest.version = BUMPED_VERSION;
    writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest, null, 2));
  });
  secretFile = join(fixtures, 'local-secret.d.ts');
  writeFileSync(
    secretFile,
    '// a file of this machine, not of any package: LOCAL_SECRET_MARKER\nexport interface BashInput { command: string }\n',
  );
  traversing = repack(bumped, (pkg) => {
    // The bundled Claude Code release, as package.json and manifest.json both state it, made a path.
    for (const file of ['package.json', 'manifest.json']) {
      const path = join(pkg, file);
      if (!existsSync(path)) continue;
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replaceAll(
          `"${CLI_VERSION_OF_PIN}"`,
          JSON.stringify(`${CLI_VERSION_OF_PIN}/../../../../etc/x`),
        ),
      );
    }
  });
  linked = repack(bumped, (pkg) => {
    const types = readdirSync(pkg).find((f) => f.endsWith('.d.ts') && f.startsWith('sdk-tools'))!;
    rmSync(join(pkg, types));
    symlinkSync(secretFile, join(pkg, types));
  });
});

after(() => rmSync(fixtures, { recursive: true, force: true }));

test('regenerating at the pinned release is byte-identical to the committed content', async () => {
  await withScratch(async (s) => {
    const before = snapshot(s.content);
    const pinsBefore = readFileSync(s.pins, 'utf8');
    const result = await runIngest(s);
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout,
      new RegExp(literal(`${SDK_TOOL_FILES} tools from ${PACKAGE}@${VERSION} (Claude Code ${CLI_VERSION})`)),
    );
    assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
    assert.equal(readFileSync(s.pins, 'utf8'), pinsBefore, 'the pin does not move when the tarball matches it');
    assert.deepEqual(result.leftInTmp, []);
  });
});

test('a failed download reports the underlying network error, leaves the content untouched and no temporary folder', async () => {
  await withScratch(async (s) => {
    const before = snapshot(s.content);
    // Nothing listens on port 9 of the loopback address: the registry is unreachable.
    const result = await runIngest(s, {
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_fetch_timeout: '5000',
      // The download's own retry (--fetch-retries=1) comes after npm's shortest wait, 10 s unless set.
      npm_config_fetch_retry_mintimeout: '100',
      npm_config_fetch_retry_maxtimeout: '200',
    });
    assert.equal(result.status, 1);
    const line = result.stderr.split('\n').find((l) => l.includes('could not download'));
    assert.ok(line, result.stderr);
    assert.match(line, new RegExp(literal(`could not download ${PACKAGE}@${VERSION}: ECONNREFUSED`)));
    assert.match(line, /ECONNREFUSED 127\.0\.0\.1:9/);
    assert.match(line, /registry http:\/\/127\.0\.0\.1:9\//);
    assert.match(line, /npm log \S+\.log/);
    assert.match(result.stderr, /nothing was written/);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
    assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
    assert.deepEqual(result.leftInTmp, []);
  });
});

test('a tarball whose integrity differs from the pin is refused, with both hashes named and nothing written', async () => {
  await withRegistry({ [VERSION]: { bytes: tampered } }, async (registry, requests) => {
    await withScratch(async (s) => {
      const before = snapshot(s.content);
      const pinsBefore = readFileSync(s.pins, 'utf8');
      const result = await runIngest(s, registryEnv(s, registry));
      assert.equal(result.status, 1, result.stdout);
      assert.ok(
        requests.includes(`/tarballs/${VERSION}.tgz`),
        `npm fetched the tarball from the loopback registry: ${requests.join(', ')}`,
      );
      assert.match(
        result.stderr,
        new RegExp(
          `integrity mismatch for ${escapeRegExp(PACKAGE)}@${escapeRegExp(VERSION)} from ${escapeRegExp(registry)}`,
        ),
      );
      assert.match(result.stderr, new RegExp(`expected ${escapeRegExp(PINNED_INTEGRITY)} \\(.*pins\\.json\\)`));
      assert.match(result.stderr, new RegExp(`actual +${escapeRegExp(sha512(tampered))}`));
      assert.match(result.stderr, /--accept-new-integrity/);
      assert.match(result.stderr, /nothing was written/);
      assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
      assert.equal(readFileSync(s.pins, 'utf8'), pinsBefore);
      assert.deepEqual(result.leftInTmp, []);
    });
  });
});

test('with the pin removed but the version unchanged, the integrity recorded in the content is still enforced', async () => {
  const { integrity: _dropped, ...withoutIntegrity } = PIN;
  await withRegistry({ [VERSION]: { bytes: tampered } }, async (registry) => {
    await withScratch(
      async (s) => {
        const before = snapshot(s.content);
        const pinsBefore = readFileSync(s.pins, 'utf8');
        const result = await runIngest(s, registryEnv(s, registry));
        assert.equal(result.status, 1, result.stdout);
        assert.match(
          result.stderr,
          new RegExp(`expected ${escapeRegExp(PINNED_INTEGRITY)} \\(.*agents/claude-code\\.json\\)`),
        );
        assert.match(result.stderr, new RegExp(`actual +${escapeRegExp(sha512(tampered))}`));
        assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
        assert.equal(readFileSync(s.pins, 'utf8'), pinsBefore);
        assert.deepEqual(result.leftInTmp, []);
      },
      { 'claude-code': withoutIntegrity },
    );
  });
});

test('--accept-new-integrity moves the pin on purpose and says so', async () => {
  await withRegistry({ [VERSION]: { bytes: tampered } }, async (registry) => {
    await withScratch(async (s) => {
      const before = snapshot(s.content);
      const result = await runIngest(s, registryEnv(s, registry), ['--accept-new-integrity']);
      assert.equal(result.status, 0, result.stderr);
      const moved = sha512(tampered);
      assert.match(
        result.stdout,
        new RegExp(
          `moved the pinned integrity of ${escapeRegExp(PACKAGE)}@${escapeRegExp(VERSION)} .* from ${escapeRegExp(PINNED_INTEGRITY)} to ${escapeRegExp(moved)}`,
        ),
      );
      const pins = JSON.parse(readFileSync(s.pins, 'utf8')) as typeof PINS;
      assert.deepEqual(pins, { ...PINS, 'claude-code': { ...PIN, integrity: moved } });
      // Same tool files (the extra file does not change them); the agent record carries the new hash.
      const after = snapshot(s.content);
      for (const [path, text] of before) {
        if (path.startsWith('tools/claude-code/')) assert.equal(after.get(path), text, path);
      }
      const agent = JSON.parse(after.get('agents/claude-code.json')!) as { sources: { integrity: string }[] };
      assert.equal(agent.sources[0]!.integrity, moved);
      assert.deepEqual(result.leftInTmp, []);
    });
  });
});

test('a new version with no integrity pinned yet has its integrity recorded into the pins file', async () => {
  const { integrity: _dropped, ...rest } = PIN;
  const newPin = { ...rest, version: BUMPED_VERSION };
  await withRegistry({ [VERSION]: { bytes: genuine }, [BUMPED_VERSION]: { bytes: bumped } }, async (registry) => {
    await withScratch(
      async (s) => {
        const result = await runIngest(s, registryEnv(s, registry));
        assert.equal(result.status, 0, result.stderr);
        const recorded = sha512(bumped);
        assert.match(
          result.stdout,
          new RegExp(
            `recorded the integrity of ${escapeRegExp(PACKAGE)}@${escapeRegExp(BUMPED_VERSION)} in .*: ${escapeRegExp(recorded)}`,
          ),
        );
        const text = readFileSync(s.pins, 'utf8');
        assert.deepEqual(JSON.parse(text), { 'claude-code': { ...newPin, integrity: recorded } });
        // The new key sits beside the version it belongs to.
        assert.deepEqual(Object.keys(JSON.parse(text)['claude-code']).slice(0, 3), ['package', 'version', 'integrity']);
        const agent = JSON.parse(readFileSync(join(s.content, 'agents/claude-code.json'), 'utf8')) as {
          sources: { version: string; integrity: string }[];
        };
        assert.deepEqual([agent.sources[0]!.version, agent.sources[0]!.integrity], [BUMPED_VERSION, recorded]);
        assert.deepEqual(result.leftInTmp, []);
      },
      { 'claude-code': newPin },
    );
  });
});

test('a registry whose packument integrity does not match its tarball is reported in one line (npm EINTEGRITY)', async () => {
  await withRegistry({ [VERSION]: { bytes: tampered, claimedIntegrity: PINNED_INTEGRITY } }, async (registry) => {
    await withScratch(async (s) => {
      const before = snapshot(s.content);
      const result = await runIngest(s, registryEnv(s, registry));
      assert.equal(result.status, 1, result.stdout);
      const line = result.stderr.split('\n').find((l) => l.includes('could not download'));
      assert.ok(line, result.stderr);
      assert.match(line, /: EINTEGRITY: /);
      assert.match(line, new RegExp(`registry ${escapeRegExp(registry)}`));
      assert.match(result.stderr, /nothing was written/);
      assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
      assert.deepEqual(result.leftInTmp, []);
    });
  });
});

test("a version the registry does not have is reported with npm's reason", async () => {
  await withRegistry({ '0.0.1': { bytes: genuine } }, async (registry) => {
    await withScratch(async (s) => {
      const result = await runIngest(s, registryEnv(s, registry));
      assert.equal(result.status, 1, result.stdout);
      const line = result.stderr.split('\n').find((l) => l.includes('could not download'));
      assert.ok(line, result.stderr);
      assert.match(line, new RegExp(literal(`ETARGET: No matching version found for ${PACKAGE}@${VERSION}`)));
      assert.deepEqual(result.leftInTmp, []);
    });
  });
});

test('a tarball holding a symbolic link is refused even when its integrity is the one recorded, and nothing is written', async () => {
  // The integrity pin is dropped, as refresh does when it moves a pin to a new release: the bytes are then recorded as
  // served.
  const { integrity: _dropped, ...rest } = PIN;
  await withRegistry({ [VERSION]: { bytes: genuine }, [BUMPED_VERSION]: { bytes: linked } }, async (registry) => {
    await withScratch(
      async (s) => {
        const before = snapshot(s.content);
        const pinsBefore = readFileSync(s.pins, 'utf8');
        const result = await runIngest(s, registryEnv(s, registry));
        assert.equal(result.status, 1, result.stdout);
        assert.match(
          result.stderr,
          new RegExp(
            `refusing the tarball: ${escapeRegExp(PACKAGE)}@${escapeRegExp(BUMPED_VERSION)}: entry "package/sdk-tools[^"]*\\.d\\.ts" is a symbolic link \\(to "${escapeRegExp(secretFile)}"\\)`,
          ),
        );
        assert.match(result.stderr, /nothing was written/);
        assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
        assert.equal(readFileSync(s.pins, 'utf8'), pinsBefore);
        for (const text of snapshot(s.content).values())
          assert.ok(!text.includes('LOCAL_SECRET_MARKER'), 'the local file is nowhere in the content');
        assert.deepEqual(result.leftInTmp, []);
      },
      { 'claude-code': { ...rest, version: BUMPED_VERSION } },
    );
  });
});

test('a claudeCodeVersion that is not a release number (a path climbing out) is refused, and nothing is written', async () => {
  const { integrity: _dropped, ...rest } = PIN;
  await withRegistry({ [VERSION]: { bytes: genuine }, [BUMPED_VERSION]: { bytes: traversing } }, async (registry) => {
    await withScratch(
      async (s) => {
        const before = snapshot(s.content);
        const result = await runIngest(s, registryEnv(s, registry));
        assert.equal(result.status, 1, result.stdout);
        assert.match(
          result.stderr,
          new RegExp(
            `claudeCodeVersion "${escapeRegExp(CLI_VERSION_OF_PIN)}/\\.\\./\\.\\./\\.\\./\\.\\./etc/x" is not a release number`,
          ),
        );
        assert.deepEqual([...snapshot(s.content).entries()], [...before.entries()]);
        assert.deepEqual(result.leftInTmp, []);
      },
      { 'claude-code': { ...rest, version: BUMPED_VERSION } },
    );
  });
});
