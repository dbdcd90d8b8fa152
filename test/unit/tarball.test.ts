/**
 * Reading downloaded tarballs without trusting them (scripts/lib/releases/tarball.ts). The
 * tarballs are made by the system's GNU tar from real files, links and device nodes,
 * and what tar lists (`tar -tvzf`) or unpacks is the reference the reader is held to.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
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
import {
  extractTarball,
  inflateLimit,
  INFLATE_RATIO,
  MAX_INFLATED_BYTES,
  MIN_INFLATE_LIMIT,
  readTarball,
  tarballFiles,
  UnsafeTarballError,
  unsafePathRule,
} from '../../scripts/lib/releases/tarball.ts';
import { gzipSync } from 'node:zlib';
import { unpackTarball, DownloadError } from '../../scripts/lib/releases/npm-package.ts';

const work = mkdtempSync(join(tmpdir(), 'tarball-test-'));
after(() => rmSync(work, { recursive: true, force: true }));
let count = 0;

/** A folder `<tmp>/package` made by `fill`, packed by GNU tar with `args` (default: the folder). */
function pack(
  fill: (pkg: string, root: string) => void,
  args: string[] = ['package'],
  extra: string[] = [],
): { file: string; bytes: Buffer; root: string } {
  const root = join(work, `t${++count}`);
  mkdirSync(join(root, 'package'), { recursive: true });
  fill(join(root, 'package'), root);
  const file = join(root, 'out.tgz');
  execFileSync('tar', ['-czf', file, ...extra, '-C', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return { file, bytes: readFileSync(file), root };
}

/** Relative path → text of every file under `dir`, walking real folders only. */
function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) Object.assign(out, tree(join(dir, e.name), `${prefix}${e.name}/`));
    else out[prefix + e.name] = readFileSync(join(dir, e.name), 'utf8');
  }
  return out;
}

function refused(bytes: Buffer, pattern: RegExp): void {
  const into = join(work, `x${++count}`);
  assert.throws(
    () => extractTarball(bytes, into, 'pkg@1.0.0'),
    (e: unknown) =>
      e instanceof UnsafeTarballError && pattern.test((e as Error).message) && /pkg@1\.0\.0/.test((e as Error).message),
  );
  // Refused whole, before any file is written.
  assert.ok(!existsSync(into) || readdirSync(into).length === 0, 'nothing is written');
}

test('a plain package unpacks to exactly what tar unpacks (top folder dropped), long names included', () => {
  const long = `${'d'.repeat(60)}/${'n'.repeat(90)}.d.ts`;
  for (const format of ['gnu', 'pax', 'ustar']) {
    const { bytes, file, root } = pack(
      (pkg) => {
        writeFileSync(join(pkg, 'package.json'), '{"name":"x"}');
        mkdirSync(join(pkg, 'lib/deep'), { recursive: true });
        writeFileSync(join(pkg, 'lib/deep/a.js'), 'a\n');
        mkdirSync(join(pkg, 'd'.repeat(60)));
        writeFileSync(join(pkg, long), 'long\n');
      },
      ['package'],
      [`--format=${format}`],
    );
    const reference = join(root, 'reference');
    mkdirSync(reference);
    execFileSync('tar', ['-xzf', file, '-C', reference, '--strip-components=1']);
    const into = join(root, 'mine');
    extractTarball(bytes, into, 'pkg');
    assert.deepEqual(tree(into), tree(reference), format);
    assert.deepEqual([...tarballFiles(bytes, 'pkg', (p) => p.endsWith('.js')).keys()], ['lib/deep/a.js']);
  }
});

test('a symbolic link is refused, naming the entry and its target, and nothing is written', () => {
  const { bytes, file } = pack((pkg) => {
    writeFileSync(join(pkg, 'package.json'), '{}');
    symlinkSync('/etc/hostname', join(pkg, 'sdk-tools.d.ts'));
  });
  assert.match(
    execFileSync('tar', ['-tvzf', file], { encoding: 'utf8' }),
    /^l.*package\/sdk-tools\.d\.ts -> \/etc\/hostname$/m,
  );
  refused(bytes, /"package\/sdk-tools\.d\.ts" is a symbolic link \(to "\/etc\/hostname"\)/);
  // Even when only other files are wanted.
  assert.throws(() => tarballFiles(bytes, 'pkg', (p) => p === 'package.json'), UnsafeTarballError);
});

test('a relative symbolic link inside the package is refused too', () => {
  const { bytes } = pack((pkg) => {
    writeFileSync(join(pkg, 'a.txt'), 'a');
    symlinkSync('a.txt', join(pkg, 'b.txt'));
  });
  refused(bytes, /symbolic link/);
});

test('a hard link is refused', () => {
  const { bytes, file } = pack((pkg) => {
    writeFileSync(join(pkg, 'a.txt'), 'a');
    linkSync(join(pkg, 'a.txt'), join(pkg, 'b.txt'));
  });
  assert.match(execFileSync('tar', ['-tvzf', file], { encoding: 'utf8' }), /^h.* link to /m);
  refused(bytes, /is a hard link/);
});

test('a FIFO is refused', () => {
  const { bytes } = pack((pkg) => {
    writeFileSync(join(pkg, 'a.txt'), 'a');
    execFileSync('mkfifo', [join(pkg, 'pipe')]);
  });
  refused(bytes, /"package\/pipe" is a FIFO/);
});

const canMknod = spawnSync('mknod', [join(work, 'probe'), 'c', '1', '3']).status === 0;
test('a device node is refused', { skip: canMknod ? false : 'mknod needs root here' }, () => {
  const { bytes } = pack((pkg) => {
    execFileSync('mknod', [join(pkg, 'null'), 'c', '1', '3']);
  });
  refused(bytes, /"package\/null" is a character device/);
});

test('an absolute path is refused', () => {
  const { bytes, file } = pack(
    (pkg) => writeFileSync(join(pkg, 'f'), 'x'),
    [join(work, `t${count + 1}`, 'package', 'f')],
    ['-P'],
  );
  assert.match(execFileSync('tar', ['-tvzf', file, '-P'], { encoding: 'utf8' }), / \/.*\/package\/f$/m);
  refused(bytes, /has an absolute path/);
});

test('a path with ".." is refused', () => {
  const { bytes, file } = pack(
    (pkg) => writeFileSync(join(pkg, 'f'), 'x'),
    ['package/f'],
    ['--transform', 's,^package/f,package/../../escaped,'],
  );
  assert.match(execFileSync('tar', ['-tvzf', file], { encoding: 'utf8' }), /package\/\.\.\/\.\.\/escaped$/m);
  refused(bytes, /has a "\.\." segment in the path/);
});

test('a pax header cannot smuggle an unsafe path past a safe ustar name', () => {
  const { bytes } = pack(
    (pkg) => writeFileSync(join(pkg, 'f'), 'x'),
    ['package/f'],
    ['--format=pax', '--transform', 's,^package/f,package/x/../../../etc/evil,'],
  );
  refused(bytes, /"\.\." segment/);
});

test('a damaged header or a file that is not gzip is refused with the rule', () => {
  const { bytes } = pack((pkg) => writeFileSync(join(pkg, 'f'), 'x'));
  assert.throws(() => readTarball(Buffer.from('not a tarball'), 'pkg'), /pkg: not a gzipped tarball/);
  const tar = execFileSync('gzip', ['-dc'], { input: bytes });
  tar[0] = tar[0]! ^ 1;
  assert.throws(() => readTarball(execFileSync('gzip', ['-c'], { input: tar }), 'pkg'), /header checksum mismatch/);
});

test('unsafe paths are named by their rule; ordinary ones pass', () => {
  assert.equal(unsafePathRule('package/lib/a.js'), undefined);
  assert.equal(unsafePathRule('package/'), undefined);
  assert.equal(unsafePathRule('/etc/passwd'), 'an absolute path');
  assert.equal(unsafePathRule('package/..'), 'a ".." segment in the path');
  assert.equal(unsafePathRule('package\\..\\x'), 'a backslash in the path');
  assert.equal(unsafePathRule('C:/x'), 'a drive-letter path');
  assert.equal(unsafePathRule('package//x'), 'an empty or "." segment in the path');
  assert.equal(unsafePathRule('package/a\nb'), 'a control character in the path');
});

test('unpackTarball refuses a symbolic link with a DownloadError naming the package', () => {
  const { file, root } = pack((pkg) => symlinkSync('/etc/hostname', join(pkg, 'sdk-tools.d.ts')));
  assert.throws(
    () => unpackTarball(file, join(root, 'into'), 'some-pkg@2.0.0'),
    (e: unknown) =>
      e instanceof DownloadError &&
      /refusing the tarball: some-pkg@2\.0\.0: entry "package\/sdk-tools\.d\.ts" is a symbolic link/.test(
        (e as Error).message,
      ),
  );
  assert.ok(!existsSync(join(root, 'into', 'package', 'sdk-tools.d.ts')));
});

test('a gzip that inflates far beyond its size is refused when zlib reaches the limit, before it is all inflated', () => {
  // 80 MB of zeros compress to about 80 KB: 40 times that is under the 64 MB floor, so the floor is the limit.
  const bomb = gzipSync(Buffer.alloc(80 * 1024 * 1024));
  assert.ok(bomb.length * INFLATE_RATIO < MIN_INFLATE_LIMIT);
  assert.equal(inflateLimit(bomb.length), MIN_INFLATE_LIMIT);
  assert.throws(
    () => readTarball(bomb, 'bomb.tgz'),
    (e: Error) =>
      e instanceof UnsafeTarballError &&
      /bomb\.tgz: inflates to more than 67108864 bytes.*decompression bomb/.test(e.message),
  );
  // A real package's ratio (text and programs inflate a few times) stays far under the limit.
  assert.equal(inflateLimit(60 * 1024 * 1024), MAX_INFLATED_BYTES);
});
