/**
 * Where an earlier release keeps the program: the module's path, else the package's own `bin`
 * (scripts/lib/capture/release-binary.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  binaryCandidates,
  fallbackProgram,
  loaderFallback,
  movedProgram,
  platformFolder,
  releaseLauncher,
} from '../../scripts/lib/capture/release-binary.ts';
import { installedBinary, npmErrorSummary } from '../../scripts/lib/capture/install.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PKG = '@example/some-cli';
const SCRIPT = `node_modules/${PKG}/entry.js`;

test('a Node-script CLI whose release runs another file: the file its single bin command names comes second', () => {
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { some: 'cli.js' } }), [SCRIPT, `node_modules/${PKG}/cli.js`]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: './dist/main.js' }), [
    SCRIPT,
    `node_modules/${PKG}/dist/main.js`,
  ]);
});

test('the module path is the only candidate when bin names it too, is missing, ambiguous or leaves the package', () => {
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { some: 'entry.js' } }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, {}), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, undefined), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { a: 'a.js', b: 'b.js' } }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: '../other/cli.js' }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: '/usr/bin/env' }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { some: 42 } }), [SCRIPT]);
});

test('a release that depends on the platform package holding the binary has no fallback', () => {
  const native = `node_modules/${PKG}-linux-x64/bin/some`;
  assert.deepEqual(
    binaryCandidates(native, PKG, {
      bin: { some: 'bin/some.js' },
      optionalDependencies: { [`${PKG}-linux-x64`]: '1.0.0' },
    }),
    [native],
  );
  assert.deepEqual(
    binaryCandidates(native, PKG, { bin: { some: 'bin/some.js' }, dependencies: { [`${PKG}-linux-x64`]: '1.0.0' } }),
    [native],
  );
});

test('a release from before the platform package (it does not depend on it) runs what its bin names', () => {
  const native = `node_modules/${PKG}-linux-x64/bin/some`;
  assert.deepEqual(
    binaryCandidates(native, PKG, { bin: { some: 'cli.js' }, optionalDependencies: { 'other-linux-x64': '1.0.0' } }),
    [native, `node_modules/${PKG}/cli.js`],
  );
  assert.deepEqual(binaryCandidates(native, PKG, { bin: 'bin/some.js' }), [native, `node_modules/${PKG}/bin/some.js`]);
  assert.deepEqual(binaryCandidates(native, PKG, { bin: { a: 'a.js', b: 'b.js' } }), [native]);
});

test('a platform package that moved its program inside its platform folder: the one file of that name there', () => {
  const codex = 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex';
  const platform = 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl';
  assert.equal(platformFolder(codex), platform);
  // The layout of the Codex 0.99.0 platform package (npm pack @openai/codex@0.99.0-linux-x64).
  const files = [`${platform}/codex/codex`, `${platform}/path/rg`, 'node_modules/@openai/codex-linux-x64/package.json'];
  assert.equal(movedProgram(codex, files), `${platform}/codex/codex`);
  assert.equal(movedProgram(codex, [`${platform}/path/rg`]), undefined, 'no file of that name');
  assert.equal(
    movedProgram(codex, [`${platform}/a/codex`, `${platform}/b/codex`]),
    undefined,
    'two candidates: no guess',
  );
  assert.equal(
    movedProgram(codex, ['node_modules/@openai/codex-linux-x64/vendor/aarch64-unknown-linux-musl/bin/codex']),
    undefined,
    'another platform is not this one',
  );
  assert.equal(movedProgram(codex, [`${platform}-old/codex`]), undefined, 'a folder that only starts alike');
  // A program directly in its package folder (or one level down) has no narrower folder to look in.
  assert.equal(platformFolder('node_modules/@google/gemini-cli/bundle/gemini.js'), undefined);
  assert.equal(
    movedProgram('node_modules/@google/gemini-cli/bundle/gemini.js', [
      'node_modules/@google/gemini-cli/dist/gemini.js',
    ]),
    undefined,
  );
  assert.equal(platformFolder('bin/x'), undefined, 'outside node_modules');
});

test('npmErrorSummary: what npm said, without its boilerplate or the path and time of its log', () => {
  // The shape of npm 10's stderr for a dependency missing from the registry (Copilot CLI 0.0.340).
  const stderr = [
    'npm error code E404',
    'npm error 404 Not Found - GET http://127.0.0.1:4873/keytar-forked-forked - Not found',
    "npm error 404  The requested resource 'keytar-forked-forked@^7.10.2' could not be found or you do not have permission to access it.",
    'npm error 404',
    'npm error 404 Note that you can also install from a',
    'npm error 404 tarball, folder, http url, or git url.',
    'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-02T11_09_31_179Z-debug-0.log',
    '',
  ].join('\n');
  const summary = npmErrorSummary(stderr);
  assert.equal(
    summary,
    "404 The requested resource 'keytar-forked-forked@^7.10.2' could not be found or you do not have permission to access it.",
  );
  assert.doesNotMatch(summary, /_logs|debug-0|\/root|:\/\/|127\.0\.0\.1/);
  assert.equal(
    npmErrorSummary(
      'npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for x@9.9.9.\nnpm ERR! notarget No matching version found for x@9.9.9.',
    ),
    'notarget No matching version found for x@9.9.9.',
    'each line once',
  );
  assert.equal(npmErrorSummary(''), '');
});

/**
 * The last line of `npm-loader.js` in @github/copilot 1.0.42 (npm pack @github/copilot@1.0.42),
 * the package's only `bin` (`{"copilot": "npm-loader.js"}`); 0.0.390's is the same but for 22
 * in place of 24. The platform packages of both releases are not on the registry.
 */
const COPILOT_1_0_42_LOADER =
  'import{spawnSync as e}from"node:child_process";import{fileURLToPath as s}from"node:url";async function t(){try{const o=s(import.meta.resolve(`@github/copilot-${process.platform}-${process.arch}`)),r=e(o,process.argv.slice(2),{stdio:"inherit"});process.exit(r.status??1)}catch{}parseInt(process.versions.node.split(".")[0],10)<24&&(console.error(`GitHub Copilot CLI requires Node.js v24 or higher. Currently using v${process.versions.node}.`),process.exit(1));try{await import("./index.js")}catch(o){console.error("Failed to load GitHub Copilot CLI:",o),process.exit(1)}}t();';
const COPILOT_0_0_390_LOADER = COPILOT_1_0_42_LOADER.replace('<24&&', '<22&&').replace('Node.js v24', 'Node.js v22');
const COPILOT_NATIVE = 'node_modules/@github/copilot-linux-x64/copilot';
/** @github/copilot 1.0.42's package.json, the members that matter here. */
const COPILOT_1_0_42_MANIFEST = {
  name: '@github/copilot',
  bin: { copilot: 'npm-loader.js' },
  optionalDependencies: { '@github/copilot-linux-x64': '1.0.42', '@github/copilot-darwin-arm64': '1.0.42' },
};

test('a launcher that imports a script of its own package when the platform package is missing: which script, from which Node.js', () => {
  assert.deepEqual(loaderFallback(COPILOT_1_0_42_LOADER), { file: 'index.js', nodeMajor: 24 });
  assert.deepEqual(loaderFallback(COPILOT_0_0_390_LOADER), { file: 'index.js', nodeMajor: 22 });
  // Without the version check or without the import there is no fallback.
  assert.equal(loaderFallback('const o=require.resolve("@x/cli-linux-x64");spawnSync(o)'), undefined);
  assert.equal(loaderFallback('parseInt(process.versions.node.split(".")[0],10)<24&&process.exit(1)'), undefined);
  assert.equal(
    loaderFallback(
      'parseInt(process.versions.node.split(".")[0],10)<24&&process.exit(1);await import("../elsewhere/index.js")',
    ),
    undefined,
    'a script outside the package',
  );
});

test("the fallback program: the launcher's script when npm skipped the platform package and this Node.js is recent enough", () => {
  const files = new Map([
    ['node_modules/@github/copilot/npm-loader.js', COPILOT_1_0_42_LOADER],
    ['node_modules/@github/copilot/index.js', '// the CLI'],
  ]);
  const read = (path: string) => files.get(path);
  assert.equal(
    fallbackProgram(COPILOT_NATIVE, '@github/copilot', COPILOT_1_0_42_MANIFEST, 24, read),
    'node_modules/@github/copilot/index.js',
  );
  assert.equal(
    fallbackProgram(COPILOT_NATIVE, '@github/copilot', COPILOT_1_0_42_MANIFEST, 25, read),
    'node_modules/@github/copilot/index.js',
  );
  assert.equal(
    fallbackProgram(COPILOT_NATIVE, '@github/copilot', COPILOT_1_0_42_MANIFEST, 22, read),
    undefined,
    'the 1.0.42 launcher exits below Node.js 24',
  );
  assert.equal(
    fallbackProgram(COPILOT_NATIVE, '@github/copilot', COPILOT_1_0_42_MANIFEST, 24, (p) =>
      p.endsWith('index.js') ? undefined : read(p),
    ),
    undefined,
    'no script to import',
  );
  assert.equal(
    fallbackProgram(
      COPILOT_NATIVE,
      '@github/copilot',
      { ...COPILOT_1_0_42_MANIFEST, optionalDependencies: {} },
      24,
      read,
    ),
    undefined,
    'a release that does not declare the platform package',
  );
  assert.equal(
    fallbackProgram(
      COPILOT_NATIVE,
      '@github/copilot',
      { ...COPILOT_1_0_42_MANIFEST, bin: { a: 'npm-loader.js', b: 'other.js' } },
      24,
      read,
    ),
    undefined,
    'two commands: no guess',
  );
});

test('an install without its platform package runs the script the launcher falls back to, on the Node.js running the capture', () => {
  const root = mkdtempSync(join(tmpdir(), 'release-binary-'));
  try {
    const pkg = join(root, 'capture-cli', '@github/copilot@1.0.42', 'node_modules', '@github/copilot');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ ...COPILOT_1_0_42_MANIFEST, version: '1.0.42' }));
    writeFileSync(join(pkg, 'npm-loader.js'), COPILOT_1_0_42_LOADER);
    writeFileSync(join(pkg, 'index.js'), '');
    const major = Number(process.versions.node.split('.')[0]);
    assert.equal(
      installedBinary('copilot-cli', root, '@github/copilot', '1.0.42'),
      major >= 24 ? join(pkg, 'index.js') : undefined,
    );
    // With the platform package present its program wins.
    const native = join(root, 'capture-cli', '@github/copilot@1.0.42', COPILOT_NATIVE);
    mkdirSync(join(native, '..'), { recursive: true });
    writeFileSync(native, '');
    assert.equal(installedBinary('copilot-cli', root, '@github/copilot', '1.0.42'), native);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/**
 * The start of Copilot CLI 1.0.77's npm-loader.js (npm pack @github/copilot@1.0.77): no Node.js check, no script to
 * import.
 */
const COPILOT_1_0_77_LOADER =
  'import{spawnSync as o}from"node:child_process";async function a(){for(const t of c())try{const r=i(import.meta.resolve(`@github/copilot-${t}-${process.arch}`))}catch{}console.error("GitHub Copilot CLI: no platform package found. Reinstall with `npm install -g @github/copilot` to fetch the package for your platform."),process.exit(1)}';

test('the release launcher is the single bin of a release that declares the platform package, and nothing else', () => {
  assert.equal(
    releaseLauncher(COPILOT_NATIVE, '@github/copilot', COPILOT_1_0_42_MANIFEST),
    'node_modules/@github/copilot/npm-loader.js',
  );
  assert.equal(
    releaseLauncher(COPILOT_NATIVE, '@github/copilot', { ...COPILOT_1_0_42_MANIFEST, bin: './bin/run.js' }),
    'node_modules/@github/copilot/bin/run.js',
  );
  assert.equal(
    releaseLauncher(COPILOT_NATIVE, '@github/copilot', { ...COPILOT_1_0_42_MANIFEST, optionalDependencies: {} }),
    undefined,
    'no platform package declared',
  );
  assert.equal(
    releaseLauncher(COPILOT_NATIVE, '@github/copilot', { ...COPILOT_1_0_42_MANIFEST, bin: { a: 'a.js', b: 'b.js' } }),
    undefined,
    'two commands: no guess',
  );
  assert.equal(
    releaseLauncher(COPILOT_NATIVE, '@github/copilot', { ...COPILOT_1_0_42_MANIFEST, bin: '../../evil.js' }),
    undefined,
    'a bin outside the package',
  );
  assert.equal(releaseLauncher(COPILOT_NATIVE, '@github/copilot', undefined), undefined);
});

test("an install without its platform package and with no launcher fallback runs the launcher, so that the run fails in the release's words", () => {
  const root = mkdtempSync(join(tmpdir(), 'release-binary-'));
  try {
    const pkg = join(root, 'capture-cli', '@github/copilot@1.0.77', 'node_modules', '@github/copilot');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ ...COPILOT_1_0_42_MANIFEST, version: '1.0.77' }));
    assert.equal(
      installedBinary('copilot-cli', root, '@github/copilot', '1.0.77'),
      undefined,
      'the launcher named by bin is not there',
    );
    writeFileSync(join(pkg, 'npm-loader.js'), COPILOT_1_0_77_LOADER);
    assert.equal(installedBinary('copilot-cli', root, '@github/copilot', '1.0.77'), join(pkg, 'npm-loader.js'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
