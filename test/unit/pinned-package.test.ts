/**
 * What the ingest scripts share (scripts/lib/releases/pinned-package.ts): the pinned package is
 * fetched with the real npm client from a registry on 127.0.0.1 (test/helpers/npm-registry.ts,
 * in a child process: npm runs synchronously here) serving tarballs built by this file;
 * the expected integrities are hashed here with node:crypto, not by the code under test.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnRegistry } from '../helpers/npm-registry.ts';
import { IntegrityError } from '../../scripts/lib/releases/npm-package.ts';
import {
  ACCEPT_FLAG,
  parseIngestArgs,
  runIngest,
  withPinnedPackage,
  type PinnedFetch,
} from '../../scripts/lib/releases/pinned-package.ts';
import { ScriptError } from '../../scripts/lib/script-files.ts';
import type { Pin } from '../../scripts/lib/pins.ts';

const NAME = '@fixture/pinned-types';
const TYPES = 'export interface Params { path: string }\n';

let root: string;
let registry: Awaited<ReturnType<typeof spawnRegistry>>;
const tarballs = new Map<string, Buffer>();
const savedEnv = { ...process.env };

const integrityOf = (bytes: Buffer): string => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;

/** A tarball as npm publishes one: a `package/` folder with package.json and the files given. */
function tarball(label: string, manifest: { name: string; version: string }, files: Record<string, string>): Buffer {
  const dir = join(root, 'build', label);
  mkdirSync(join(dir, 'package'), { recursive: true });
  writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify(manifest));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'package', file), text);
  execFileSync('tar', ['-czf', join(dir, 'out.tgz'), '-C', dir, 'package']);
  const bytes = readFileSync(join(dir, 'out.tgz'));
  tarballs.set(label, bytes);
  return bytes;
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'pinned-package-'));
  const genuine = (version: string) => tarball(`genuine-${version}`, { name: NAME, version }, { 'types.d.ts': TYPES });
  genuine('1.0.0');
  genuine('2.0.0');
  // Served at 2.0.0: the genuine files and one more, so other bytes.
  tarball(
    'tampered-2.0.0',
    { name: NAME, version: '2.0.0' },
    { 'types.d.ts': TYPES, 'EXTRA.md': 'not the published tarball\n' },
  );
  tarball('other-version', { name: NAME, version: '3.0.1' }, { 'types.d.ts': TYPES });
  tarball('other-name', { name: '@fixture/other', version: '4.0.0' }, { 'types.d.ts': TYPES });
  const served = {
    '1.0.0': 'genuine-1.0.0',
    '2.0.0': 'tampered-2.0.0',
    '3.0.0': 'other-version',
    '4.0.0': 'other-name',
  };
  const description = join(root, 'registry.json');
  writeFileSync(
    description,
    JSON.stringify({
      name: NAME,
      versions: Object.fromEntries(
        Object.entries(served).map(([v, label]) => [v, { file: join(root, 'build', label, 'out.tgz') }]),
      ),
    }),
  );
  registry = await spawnRegistry(description);
  mkdirSync(join(root, 'tmp'));
  Object.assign(process.env, {
    npm_config_registry: registry.url,
    npm_config_cache: join(root, 'npm-cache'),
    npm_config_fetch_retries: '0',
    npm_config_fetch_timeout: '5000',
    npm_config_noproxy: '127.0.0.1',
    NO_PROXY: '127.0.0.1',
    no_proxy: '127.0.0.1',
    // The temporary folders of withPinnedPackage go here, where the tests look for leftovers.
    TMPDIR: join(root, 'tmp'),
  });
});

after(async () => {
  await registry?.close();
  process.env = savedEnv;
  rmSync(root, { recursive: true, force: true });
});

const PREFIX = 'pinned-test-';
const leftovers = () => readdirSync(join(root, 'tmp')).filter((f) => f.startsWith(PREFIX));

function fetchOf(pin: Pin, extra: Partial<PinnedFetch> = {}): PinnedFetch {
  return {
    pin,
    pinsFile: join(root, 'pins.json'),
    acceptNewIntegrity: false,
    acceptCommand: 'npm run ingest:fixture -- --accept-new-integrity',
    workPrefix: PREFIX,
    warn: (line) => assert.fail(line),
    ...extra,
  };
}

test('the pinned tarball is unpacked for the script and its folder removed afterwards', () => {
  const integrity = integrityOf(tarballs.get('genuine-1.0.0')!);
  const seen = withPinnedPackage(
    fetchOf({ package: NAME, version: '1.0.0', integrity, checked: '2026-01-01' }),
    (pkg) => {
      assert.equal(pkg.spec, `${NAME}@1.0.0`);
      assert.equal(pkg.integrity, integrity);
      assert.deepEqual(pkg.verdict, { record: false });
      return readFileSync(join(pkg.dir, 'types.d.ts'), 'utf8');
    },
  );
  assert.equal(seen, TYPES);
  assert.deepEqual(leftovers(), []);
});

test('a tarball whose bytes differ from the pin is refused before it is unpacked, naming the package and both integrities', () => {
  const pinned = integrityOf(tarballs.get('genuine-2.0.0')!);
  const served = integrityOf(tarballs.get('tampered-2.0.0')!);
  assert.notEqual(pinned, served);
  let used = false;
  assert.throws(
    () =>
      withPinnedPackage(
        fetchOf({ package: NAME, version: '2.0.0', integrity: pinned, checked: '2026-01-01' }),
        () => (used = true),
      ),
    (error: unknown) => {
      assert.ok(error instanceof IntegrityError, String(error));
      assert.match(
        error.message,
        new RegExp(`integrity mismatch for ${NAME}@2\\.0\\.0 from ${registry.url.replace(/[.]/g, '\\.')}`),
      );
      assert.ok(error.message.includes(`expected ${pinned} (`), error.message);
      assert.ok(error.message.includes(`actual   ${served} (`), error.message);
      assert.ok(error.message.includes('npm run ingest:fixture -- --accept-new-integrity'), error.message);
      return true;
    },
  );
  assert.equal(used, false, 'the script never sees a refused package');
  assert.deepEqual(leftovers(), []);
  // The same bytes with the pin moved on purpose are accepted, and the pin is to be rewritten.
  const verdict = withPinnedPackage(
    fetchOf(
      { package: NAME, version: '2.0.0', integrity: pinned, checked: '2026-01-01' },
      { acceptNewIntegrity: true },
    ),
    (pkg) => pkg.verdict,
  );
  assert.equal(verdict.record, true);
  assert.match(
    verdict.note ?? '',
    new RegExp(`from ${pinned.replace(/[+/]/g, '\\$&')} to ${served.replace(/[+/]/g, '\\$&')}`),
  );
});

test("with no integrity pinned, the one the content records is enforced; with none, the tarball's is to be recorded", () => {
  const pin: Pin = { package: NAME, version: '2.0.0', checked: '2026-01-01' };
  const genuine = integrityOf(tarballs.get('genuine-2.0.0')!);
  assert.throws(
    () =>
      withPinnedPackage(
        fetchOf(pin, { recorded: { integrity: genuine, file: join(root, 'agent.json') } }),
        () => undefined,
      ),
    (error: unknown) =>
      error instanceof IntegrityError &&
      error.message.includes(`expected ${genuine} (`) &&
      error.message.includes('agent.json)'),
  );
  const verdict = withPinnedPackage(fetchOf(pin), (pkg) => pkg.verdict);
  assert.equal(verdict.record, true);
  assert.ok(verdict.note?.includes(integrityOf(tarballs.get('tampered-2.0.0')!)), verdict.note);
  assert.deepEqual(leftovers(), []);
});

test('a tarball whose package.json names another version or package than the pin is refused', () => {
  const version = integrityOf(tarballs.get('other-version')!);
  assert.throws(
    () =>
      withPinnedPackage(fetchOf({ package: NAME, version: '3.0.0', integrity: version, checked: '2026-01-01' }), () =>
        assert.fail('used'),
      ),
    (error: unknown) => error instanceof ScriptError && error.message === 'downloaded version 3.0.1, pinned 3.0.0',
  );
  const name = integrityOf(tarballs.get('other-name')!);
  assert.throws(
    () =>
      withPinnedPackage(fetchOf({ package: NAME, version: '4.0.0', integrity: name, checked: '2026-01-01' }), () =>
        assert.fail('used'),
      ),
    (error: unknown) =>
      error instanceof ScriptError && error.message === `downloaded package @fixture/other, pinned ${NAME}`,
  );
  assert.deepEqual(leftovers(), []);
});

test('an ingest takes only --accept-new-integrity', () => {
  assert.deepEqual(parseIngestArgs([]), { acceptNewIntegrity: false });
  assert.deepEqual(parseIngestArgs([ACCEPT_FLAG]), { acceptNewIntegrity: true });
  assert.throws(
    () => parseIngestArgs(['--check']),
    /unknown argument "--check" \(the only option is --accept-new-integrity\)/,
  );
});

test('a failed ingest is reported once, line by line, saying what it had written; only an unexpected error shows its stack', () => {
  class OwnError extends Error {}
  const run = (
    main: (argv: readonly string[], written: string[]) => void,
  ): { lines: string[]; exitCode: typeof process.exitCode } => {
    const lines: string[] = [];
    const error = console.error;
    const exitCode = process.exitCode;
    console.error = (line: string) => lines.push(line);
    try {
      runIngest('ingest-x', main, [OwnError], []);
      return { lines, exitCode: process.exitCode };
    } finally {
      console.error = error;
      process.exitCode = exitCode;
    }
  };
  assert.deepEqual(
    run(() => undefined),
    { lines: [], exitCode: undefined },
  );
  assert.deepEqual(
    run((_argv, written) => {
      written.push('content/tools/x', 'content/agents/x.json');
      throw new ScriptError('the pin is wrong\nsecond line');
    }),
    {
      lines: [
        'ingest-x: the pin is wrong',
        'ingest-x: second line',
        'ingest-x: failed after writing content/tools/x, content/agents/x.json; the rest is unchanged. Fix the cause and run again.',
      ],
      exitCode: 1,
    },
  );
  assert.deepEqual(
    run(() => {
      throw new OwnError('own');
    }),
    { lines: ['ingest-x: own', 'ingest-x: nothing was written.'], exitCode: 1 },
  );
  const unexpected = run(() => {
    throw new TypeError('boom');
  });
  assert.equal(unexpected.lines[0], 'ingest-x: TypeError: boom');
  assert.ok(
    unexpected.lines.some((l) => /^ingest-x: +at /.test(l)),
    'the stack of an unexpected error',
  );
  assert.equal(unexpected.lines.at(-1), 'ingest-x: nothing was written.');
});
